"""Grundy's game: split one heap into two heaps of different sizes.

No period is known (nor provable by the octal criterion: the split must be unequal), so the sequence is
computed term by term.

>>> list(GrundyGame().heap_sequence(12).values)
[0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1]
"""

from __future__ import annotations

from typing import Iterable

from gamedp.games.impartial.heaps import GrundySequence, Heaps, HeapGame
from gamedp.games.impartial.octal import TakeBreak

RULES = TakeBreak([4], unequal=True)


class GrundyGame(HeapGame):
    """Grundy's game: a move splits a heap into two unequal non-empty heaps."""

    family = "grundy-game"
    splits = True
    default_heaps = (10,)

    def heap_options(self, n: int) -> Iterable[Heaps]:
        return RULES.options(n)

    def heap_sequence(self, upto: int) -> GrundySequence:
        return RULES.sequence(upto)
