"""Outcomes of an impartial game from its nimbers: under normal play a position is lost exactly when its nimber
is 0 (Sprague-Grundy), and the nimber of a sum is the XOR of its parts'. A big sum such as Nim on heaps of 40,
60 and 80 is then valued at once, where searching it position by position takes minutes.

Nimbers say who wins, not how fast: the values have no remoteness.

>>> from gamedp.games.impartial.nim import Nim
>>> a = NimberSolution(Nim()).analyze((3, 4, 5))
>>> str(a.value), [(m.move, str(m.value)) for m in a.moves][:2]
('WIN', [((3, (1,)), 'WIN'), ((3, ()), 'LOSE')])
"""

from __future__ import annotations

from typing import Any

from gamedp.errors import ResourceError
from gamedp.values import LOSE, WIN, Analysis, Value, analysis_of

#: The most moves an analysis lists, each with its child's nimber (a second or so of work)
MOVE_LIMIT = 100_000


class NimberSolution:
    """Values from ``game.nimber(position)`` (an impartial game under normal play), moves from its rules."""

    def __init__(self, game: Any):
        self.game = game

    def value(self, position: Any) -> Value:
        return Value(WIN if self.game.nimber(position) else LOSE)

    def analyze(self, position: Any) -> Analysis:
        value = self.value(position)
        moves = self.game.move_list(position, MOVE_LIMIT)
        if len(moves) > MOVE_LIMIT:
            raise ResourceError(f"this position is {value.outcome.name} for the player to move (its nimber is "
                                f"{self.game.nimber(position)}), but it has more than the {MOVE_LIMIT:,} moves an "
                                "analysis lists one by one")
        return analysis_of(position, value, moves, self.value)
