"""Toads-and-Frogs strips (Winning Ways, ch. 1): toads ``T`` (Left) move right, frogs ``F`` (Right) move left,
one square into an empty one or a jump over one creature of the other kind into the empty square behind it;
whoever cannot move loses.

A position is the strip, then ``:T`` or ``:F`` for who is to move (``:T`` may be left out); a move is the square
(from 1) of the creature that moves. The partizan value (:mod:`gamedp.cgt`) ignores who is to move.

>>> game = ToadsAndFrogs()
>>> game.options("T.F:T")
(['.TF:F'], ['TF.:T'])
>>> from gamedp.cgt.search import value
>>> [str(value(game, s)) for s in ("TFTF.", "TF.TF", "TFT.F", "T.TFF")]
['0', '0', '*', '↑']
"""

from __future__ import annotations

from gamedp.games.strips import LetterLine

#: the way each kind moves, and which kind it may jump
DIRECTION = {"T": 1, "F": -1}
JUMPS = {"T": "F", "F": "T"}


def hops(strip: str, kind: str) -> list[tuple[int, str]]:
    """Each move of the creatures ``kind``: (square it leaves, the strip after)."""
    out = []
    step = DIRECTION[kind]
    for i, ch in enumerate(strip):
        if ch != kind:
            continue
        near, far = i + step, i + 2 * step
        if 0 <= near < len(strip) and strip[near] == ".":
            to = near
        elif 0 <= far < len(strip) and strip[near] == JUMPS[kind] and strip[far] == ".":
            to = far
        else:
            continue
        squares = list(strip)
        squares[i], squares[to] = ".", kind
        out.append((i, "".join(squares)))
    return out


class ToadsAndFrogs(LetterLine):
    """Toads-and-Frogs on one strip; the toads (Left) move first."""

    name = "toads-and-frogs"
    player_names = ("Toads", "Frogs")
    letters = {"T": "a toad, Left's", "F": "a frog, Right's", ".": "an empty square"}
    sides = ("T", "F")

    def __init__(self, strip: str = "TTT..FFF"):
        super().__init__(strip)

    def moves(self, position: str) -> list[int]:
        strip, kind = position.split(":")
        return [i for i, _ in hops(strip, kind)]

    def do_move(self, position: str, move: int) -> str:
        strip, kind = position.split(":")
        after = dict(hops(strip, kind))[move]
        return f"{after}:{JUMPS[kind]}"

    def options(self, position: str) -> tuple[list[str], list[str]]:
        strip = position.split(":")[0]
        return [s + ":F" for _, s in hops(strip, "T")], [s + ":T" for _, s in hops(strip, "F")]
