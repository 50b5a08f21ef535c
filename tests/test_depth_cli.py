"""``analyze --depth`` and ``play --depth``: a depth-limited search in the front ends, checked against plain
brute force (tic-tac-toe and Connect-4 written from the rules in tests/test_play.py and tests/test_tier_solver.py).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from gamedp.cli.main import cli
from gamedp.errors import GamedpError
from test_play import ROOT, piped, ttt_moves, ttt_value


def test_play_depth_deep_enough_is_never_beaten():
    """The human types the cells 1..9 in turn (a taken one is refused, and the next line read); the search, 9
    moves deep, reaches every end, so each of its moves keeps the best outcome there is."""
    transcript = piped("tictactoe", "--depth", "9", "--hints", moves=list("123456789"))
    assert "you against a search 9 moves deep" in transcript
    board, replies = "." * 9, 0
    for line in transcript.splitlines():
        typed = line.removeprefix("your move> ")
        if typed != line and typed in ttt_moves(board):
            board = ttt_moves(board)[typed]
        played = re.fullmatch(r"The computer plays (\d) \((.*)\)\.", line)
        if played:
            kids = ttt_moves(board)
            child = kids[played.group(1)]
            assert ttt_value(child)[0] == min(ttt_value(c)[0] for c in kids.values()), line  # the human's best
            board, replies = child, replies + 1
    assert replies >= 3 and "Game over." in transcript and "You win." not in transcript
    assert "for you (proven by a search 9 moves deep)" in transcript  # --hints: every move judged


def test_analyze_depth_text_and_json():
    text = CliRunner().invoke(cli, ["analyze", "tictactoe", "XX. OO. ...", "--depth", "9"]).output
    assert "WIN in 1 for the player to move (proven by a search 9 moves deep)" in text
    assert re.search(r"^  3  WIN in 1$", text, re.M) and re.search(r"^  6  TIE$", text, re.M)
    # a position past the opening book (which proves the start's moves)
    doc = json.loads(CliRunner().invoke(cli, ["analyze", "connect4", "12345", "--depth", "2", "--json"]).stdout)
    assert doc["depth"] == 2 and doc["value"] is None and len(doc["moves"]) == 7
    assert all(m["value"] is None and -1 <= m["estimate"] <= 1 for m in doc["moves"])
    assert [m["estimate"] for m in doc["moves"]] == sorted((m["estimate"] for m in doc["moves"]), reverse=True)


@pytest.mark.parametrize("args,message", [
    (["analyze", "tictactoe", "--depth", "3", "--line"], "--line"),
    (["analyze", "cards", "1 2 3", "--depth", "2"], "win/lose/tie games"),
])
def test_depth_errors(args, message):
    result = CliRunner().invoke(cli, args)
    assert isinstance(result.exception, GamedpError) and message in str(result.exception)


def test_depth_must_be_a_positive_number():
    result = CliRunner().invoke(cli, ["play", "tictactoe", "--depth", "0"])
    assert result.exit_code == 2 and "--depth" in result.output


@pytest.mark.slow  # a tier solve in its own process (~10 s, most of it loading the tier kernels)
def test_a_solved_database_answers_inside_the_search(tmp_path):
    """With connect4 4x3 (3 in a row) solved, a search 1 move deep gives every move's exact value."""
    from test_tier_solver import plain_solver

    env = {**os.environ, "GAMEDP_DB_DIR": str(tmp_path)}
    gamedp = [sys.executable, "-m", "gamedp"]
    solve = subprocess.run([*gamedp, "solve", "connect4", "-V", "width=4", "-V", "height=3", "-V", "connect=3", "-r"],
                           capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert solve.returncode == 0, solve.stderr
    out = subprocess.run([*gamedp, "analyze", "connect4:4x3:3", "1", "--depth", "1", "--json"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    plain = plain_solver(3, 3)
    flip = {"WIN": "lose", "LOSE": "win", "TIE": "tie"}
    for m in json.loads(out.stdout)["moves"]:
        c = int(m["move"]) - 1
        cols = tuple("X" if i == 0 else "" for i in range(4))
        cols = cols[:c] + (cols[c] + "O",) + cols[c + 1:]
        outcome, remoteness = plain(cols)
        assert m["value"] == flip[outcome], m
        if outcome != "TIE":
            assert m["remoteness"] == remoteness + 1, m


@pytest.mark.parametrize("command, way_out", [
    ("analyze", "analyze searches only D moves deep with --depth D (e.g. --depth 8)"),
    ("play", "play searches only D moves deep with --depth D (e.g. --depth 8)"),
    ("explain", "explain shows why each move has its exact value, which a search this big cannot give; "
                "gamedp analyze wythoff POSITION --depth D judges every move by a search D moves deep (e.g. --depth 8)"),
])
def test_a_search_too_big_is_refused_with_the_way_out_the_command_offers(command, way_out):
    """Wythoff from heaps of 10^5: each command names only what it accepts (serve: tests/test_web_api.py)."""
    result = CliRunner().invoke(cli, [command, "wythoff", "100000 100000"], input="")
    message = str(result.exception)
    assert isinstance(result.exception, GamedpError) and "bytes of memory" in message
    assert message.endswith(way_out) and message.count("--depth D") == 1
    assert all(f"{other} searches" not in message for other in ("analyze", "play", "serve") if other != command)


def test_the_opening_book_answers_inside_the_search(tmp_path, monkeypatch):
    """With connect4 5x4's book 2 moves deep, a search 1 move deep gives every move its exact value (the score
    search's, without the book), where it would otherwise estimate them."""
    from gamedp.games.connect4 import Connect4
    from gamedp.solvers.score_search import ScoreSearch

    monkeypatch.setenv("GAMEDP_DB_DIR", str(tmp_path))
    assert CliRunner().invoke(cli, ["book", "connect4:5x4", "--depth", "2"]).exit_code == 0
    doc = json.loads(CliRunner().invoke(cli, ["analyze", "connect4:5x4", "1", "--depth", "1", "--json"]).stdout)
    game = Connect4(5, 4)
    exact = ScoreSearch(game.score_search(), progress=False, book=False).analyze(game.parse_position("1"))
    def shown(value):  # as the JSON shows it: the search does not count the plies to a TIE
        return value.outcome.value, None if value.outcome.name == "TIE" else value.remoteness

    assert {m["move"]: (m["value"], m["remoteness"]) for m in doc["moves"]} == \
        {game.format_move(exact.position, m.move): shown(m.value) for m in exact.moves}
    assert (doc["value"], doc["remoteness"]) == shown(exact.value) and exact.value.outcome.name == "WIN"
