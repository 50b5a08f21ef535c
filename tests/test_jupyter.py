"""gamedp.show: positions and analyses as notebook pictures."""

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
