"""One name per board (issue 28): a built-in board named with its parameters after a colon or with -V options
is the same board in every command, finds the same database, and is printed by one name; a judge problem's name
says which game it uses."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from gamedp.cli.main import cli
from gamedp.games.registry import GAMES
from gamedp.loader import board_name
from gamedp.judge import JUDGES
from gamedp.loader import load_game


def gamedp(*args: str, db=None, stdin: str | None = None) -> subprocess.CompletedProcess:
    env_db = [] if db is None else ["--db", str(db)]
    return subprocess.run([sys.executable, "-m", "gamedp", *args, *env_db], capture_output=True, text=True,
                          input=stdin)


def test_every_entry_loads_and_its_default_board_is_named_as_the_game_names_itself():
    for name, entry in GAMES.items():
        game = load_game(name)
        assert board_name(name) == game.name, name
        assert entry.description and entry.python.startswith("gamedp.games."), name
        if entry.parameters:  # the defaults written out name the same board
            written = {k: ",".join(map(str, v)) if isinstance(v, list) else v for k, v in entry.parameters.items()}
            assert board_name(name, written) == game.name, name


@pytest.mark.parametrize("colon, options", [
    ("connect4:5x4", {"width": 5, "height": 4}),
    ("connect4:6x5:3", {"width": 6, "height": 5, "connect": 3}),
    ("blockgame:4x5", {"rows": 4, "cols": 5}),
    ("domineering:3x5", {"rows": 3, "cols": 5}),
    ("cram:3x3", {"rows": 3, "cols": 3}),
    ("subtraction:1,2", {"moves": [1, 2]}),
    ("octal:0.07", {"code": "0.07"}),
])
def test_a_board_named_with_a_colon_or_with_options_is_one_board_of_one_name(colon, options):
    plain = colon.partition(":")[0]
    by_colon, by_options = load_game(colon), load_game(plain, options)
    assert by_colon.name == by_options.name == board_name(colon) == board_name(plain, options) == colon
    assert type(by_colon) is type(by_options) and by_colon.start() == by_options.start()


def test_the_classic_board_written_out_is_the_plain_name():
    assert board_name("connect4:7x6") == board_name("connect4", {"connect": 4}) == "connect4"
    assert board_name("blockgame:5x5") == "blockgame"


def test_solve_and_query_find_one_database_whichever_way_the_board_is_named(tmp_path):
    by_colon = gamedp("solve", "connect4:4x3", "--json", db=tmp_path)
    assert by_colon.returncode == 0, by_colon.stderr
    made = json.loads(by_colon.stdout)
    assert made["game"] == "connect4:4x3" and not made["already_solved"]
    again = gamedp("solve", "connect4", "-V", "width=4", "-V", "height=3", "--json", db=tmp_path)
    assert json.loads(again.stdout)["already_solved"] and json.loads(again.stdout)["database"] == made["database"]
    assert json.loads(again.stdout)["game"] == "connect4:4x3"
    answers = [gamedp("query", *name, "2", "--json", db=tmp_path)
               for name in (["connect4:4x3"], ["connect4", "-V", "width=4", "-V", "height=3"])]
    assert all(a.returncode == 0 for a in answers) and answers[0].stdout == answers[1].stdout, answers


def test_the_colon_and_an_option_naming_two_boards_is_refused_in_one_line(tmp_path):
    out = gamedp("solve", "connect4:4x3", "-V", "width=5", db=tmp_path)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "give the board once" in out.stderr


@pytest.mark.parametrize("command", ["analyze", "explain", "check"])
@pytest.mark.slow
def test_the_commands_that_take_a_game_take_its_options(command):
    extra = ["--json"]
    by_colon = CliRunner().invoke(cli, [command, "connect4:4x3:3", *extra])
    by_options = CliRunner().invoke(cli, [command, "connect4", "-V", "width=4", "-V", "height=3", "-V", "connect=3",
                                          *extra])
    assert by_colon.exit_code == 0, by_colon.output
    assert by_colon.output == by_options.output


def test_value_and_play_take_the_options_too():
    by_colon = CliRunner().invoke(cli, ["value", "connect4:4x3:3"], input="21\n")
    by_options = CliRunner().invoke(cli, ["value", "connect4", "-V", "width=4", "-V", "height=3", "-V", "connect=3"],
                                    input="21\n")
    assert by_colon.exit_code == 0 and by_colon.output == by_options.output, by_colon.output
    played = gamedp("play", "nim", "-V", "x=1", "3", stdin="quit\n")
    assert played.returncode == 2 and played.stderr.count("\n") == 1 and "nim takes no parameters" in played.stderr


@pytest.mark.parametrize("problem", sorted(JUDGES))
def test_a_judge_problem_names_its_game(problem):
    found = JUDGES[problem]
    load_game(found.game)  # a built-in game
    listed = CliRunner().invoke(cli, ["judge", "--list"]).output
    assert f"{problem}\t{found.title}\tgame: {found.game}" in listed.splitlines()
    assert f"game: {found.game}" in CliRunner().invoke(cli, ["judge", "--help"]).output
    if problem != found.game:  # named as a game, it says in one line which game to name
        out = gamedp("explain", problem, "1 2")
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
        assert f"its game is named {found.game}" in out.stderr and "Traceback" not in out.stderr
