"""Blue-Red Hackenbush strings: a stalk of edges from the ground up, ``B`` blue (Left's) and ``R`` red
(Right's). A player cuts one of their own edges; it falls with everything above it. Whoever cannot cut loses.

A position is the string read from the ground, then ``:B`` or ``:R`` for who is to move (``:B`` may be left
out); a move is the number of the edge cut, from 1 at the ground. Every string is a number (Berlekamp's rule:
the edges up to the first change of colour count 1 each, then each edge half the one below, signed by colour).

>>> game = Hackenbush()
>>> game.options("BRB")
(['', 'BR'], ['B'])
>>> from gamedp.cgt.search import value
>>> [str(value(game, s)) for s in ("BR", "BRR", "BBR", "RBB")]
['1/2', '1/4', '3/2', '-1/4']
"""

from __future__ import annotations

from gamedp.games.strips import LetterLine

OTHER = {"B": "R", "R": "B"}


class Hackenbush(LetterLine):
    """One Blue-Red Hackenbush string; Blue (Left) moves first."""

    name = "hackenbush"
    player_names = ("Blue", "Red")
    letters = {"B": "a blue edge, Left's", "R": "a red edge, Right's"}
    sides = ("B", "R")

    def __init__(self, stalk: str = "BRBRRB"):
        super().__init__(stalk)

    def moves(self, position: str) -> list[int]:
        stalk, colour = position.split(":")
        return [i for i, edge in enumerate(stalk) if edge == colour]

    def do_move(self, position: str, move: int) -> str:
        stalk, colour = position.split(":")
        return f"{stalk[:move]}:{OTHER[colour]}"

    def options(self, position: str) -> tuple[list[str], list[str]]:
        stalk = position.split(":")[0]
        return ([stalk[:i] for i, e in enumerate(stalk) if e == "B"],
                [stalk[:i] for i, e in enumerate(stalk) if e == "R"])
