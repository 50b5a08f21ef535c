"""gamedp.show: positions and analyses as notebook pictures, and as text outside a notebook."""

import subprocess
import sys

import pytest

from gamedp import Game, show
from gamedp.games.impartial.nim import Nim
from gamedp.jupyter import value_colour


class Countdown(Game):
    name = "countdown"

    def start(self):
        return 3

    def moves(self, n):
        return [1, 2][:n]

    def do_move(self, n, k):
        return n - k


def test_show_takes_a_game_object_and_a_position_object():
    shown = show(Nim(), (1, 2))
    assert shown.record["position"] == "1 2" and shown.record["positionValue"] == "win"
    assert shown._repr_svg_().startswith("<svg")
    html = shown._repr_html_()
    assert html.count("<tr>") == len(shown.record["moves"]) == 3
    assert value_colour("win", 3) in html and value_colour("lose", 2) in html  # 2 -> 1 wins; the others lose


def test_a_game_without_a_drawing_shows_its_text():
    shown = show(Countdown())
    assert shown._repr_svg_() is None
    assert "<pre>3</pre>" in shown._repr_html_() and "LOSE in 2 for the player" in shown._repr_html_()
    assert "no moves: the game is over" in show(Countdown(), 0)._repr_html_()


@pytest.mark.parametrize("how", ["script", "prompt"])
def test_outside_a_notebook_show_prints_the_board_once(tmp_path, how):
    """A script drops what show returns, so show prints it; the >>> prompt prints it itself (once, not twice)."""
    script = tmp_path / "look.py"
    script.write_text("import gamedp\ngamedp.show('tictactoe', 'XX.OO....')\n")
    run = subprocess.run([sys.executable, str(script)] if how == "script" else [sys.executable, "-i"],
                         stdin=subprocess.DEVNULL if how == "script" else script.open(), capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "X X 3\nO O 6\n7 8 9\nX to move\nWIN in 1\n", run.stdout
