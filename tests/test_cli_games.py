"""``gamedp games`` lists every built-in game with its notation and an example; ``analyze GAME --help`` shows it."""

from __future__ import annotations

import json

from click.testing import CliRunner

from gamedp.cli.main import cli
from gamedp.errors import ResourceError
from gamedp.games.registry import GAMES
from gamedp.loader import load_game


def test_games_lists_every_builtin_with_an_example_that_reads_back():
    result = CliRunner().invoke(cli, ["games", "--json"])
    assert result.exit_code == 0, result.output
    entries = [json.loads(line) for line in result.stdout.splitlines()]
    assert [e["name"] for e in entries] == list(GAMES)
    for e in entries:
        game = load_game(e["name"])
        example = game.example() if game.example is not None else game.start()
        assert e["notation"] and game.parse_position(e["example"]) == example, e
    text = CliRunner().invoke(cli, ["games"]).output
    assert "nim: Nim: a move takes" in text and "example: gamedp analyze nim 3 4 5" in text


def test_analyze_game_help_shows_the_notation():
    for command in ("analyze", "play"):
        out = CliRunner().invoke(cli, [command, "wythoff", "--help"]).output
        assert "Notation of wythoff:" in out and "a position is two heap sizes" in out and "4 7" in out
    assert "Notation of" not in CliRunner().invoke(cli, ["analyze", "--help"]).output


def test_connect4s_example_is_answered_and_so_is_a_position_too_big_to_solve_whole():
    example = next(json.loads(line) for line in CliRunner().invoke(cli, ["games", "--json"]).stdout.splitlines()
                   if json.loads(line)["name"] == "connect4")["example"]
    result = CliRunner().invoke(cli, ["analyze", "connect4", example])
    assert result.exit_code == 0 and "7 moves, best first" in result.output, result.output
    # 8 stones: the memo engine would need ~10^13 bytes; the score search answers it exactly (the set's score is
    # 11: X, to move with 4 stones each, wins with its 11th stone, at ply 21 from here)
    result = CliRunner().invoke(cli, ["analyze", "connect4", "32164625", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["positionValue"] == "win" and doc["remoteness"] == 43 - 2 * 11 - 8
    refused = CliRunner().invoke(cli, ["analyze", "wythoff", "100000 100000"]).exception  # printed by main, exit 2
    assert isinstance(refused, ResourceError) and "bytes of memory" in str(refused) and "--depth D" in str(refused)


def test_games_shows_plain_text_not_the_docstrings_markup():
    text = CliRunner().invoke(cli, ["games"]).output
    assert "``" not in text and ":class:" not in text and ":func:" not in text
    assert 'a position is two heap sizes, "3 5";' in text
