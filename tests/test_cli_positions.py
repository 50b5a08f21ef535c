"""Positions on the command line: several numbers need no quotes, and negative numbers are not options."""

from __future__ import annotations

import json

from click.testing import CliRunner

from gamedp.cli.arguments import NumbersCommand
from gamedp.cli.main import cli


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin)


def test_heaps_need_no_quotes_in_analyze_nimber_and_play():
    unquoted, quoted = run("analyze", "nim", "3", "4", "5", "--json"), run("analyze", "nim", "3 4 5", "--json")
    assert unquoted.exit_code == 0, unquoted.output
    assert json.loads(unquoted.stdout) == json.loads(quoted.stdout)
    assert json.loads(run("nimber", "nim", "3", "4", "5", "--json").stdout)["nimber"] == 3 ^ 4 ^ 5
    played = run("play", "nim", "1", "1", "1", "--first", "computer", stdin="")
    assert played.exit_code == 0 and "The computer plays" in played.output
    board = run("analyze", "tictactoe", "XX.", "OO.", "...")
    assert board.exit_code == 0 and "WIN in 1" in board.output


def test_negative_numbers_are_arguments_and_unknown_options_still_errors():
    cards = run("cards", "3", "-1", "4", "--json")
    assert cards.exit_code == 0, cards.output
    # the first takes 4, the second 3, the first -1: 4 - 1 - 3
    assert json.loads(cards.stdout)["cards"] == 3 and json.loads(cards.stdout)["margin"] == 0
    heap = run("nimber", "nim", "3", "-1")
    assert heap.exit_code != 0 and "cannot be negative" in str(heap.exception or heap.output)
    for args in (["cards", "3", "--bogus", "4"], ["analyze", "nim", "3", "--jsn"]):
        assert "No such option" in run(*args).output


def test_every_verb_that_takes_a_position_takes_it_in_several_words():
    from gamedp.cli.main import COMMANDS

    takers = []
    for name in COMMANDS:
        command = cli.get_command(None, name)
        for param in command.params:
            if param.name == "position":
                takers.append(name)
                assert param.nargs == -1, f"{name}'s POSITION is one word"
                assert isinstance(command, NumbersCommand), f"{name} reads a heap of -1 as an option"
    assert {"analyze", "explain", "play", "serve"} <= set(takers)


def test_explain_needs_no_quotes():
    for game, words in (("cards", ["1", "2", "1", "1"]), ("nim", ["3", "4", "5"])):
        unquoted, quoted = run("explain", game, *words, "--json"), run("explain", game, " ".join(words), "--json")
        assert unquoted.exit_code == 0, unquoted.output
        assert json.loads(unquoted.stdout) == json.loads(quoted.stdout)
    heap = run("explain", "nim", "3", "-1")
    assert heap.exit_code != 0 and "cannot be negative" in str(heap.exception or heap.output)
