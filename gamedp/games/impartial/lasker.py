"""Lasker's Nim: take any number of stones from a heap, or split a heap into two non-empty heaps.

G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3 -- checked against the plain mex in the tests.

>>> game = Lasker()
>>> [game.heap_nimber(n) for n in range(9)]
[0, 1, 2, 4, 3, 5, 6, 8, 7]
>>> [game.format_move((3,), m) for m in game.winning_moves((3, 4))]
['3 -> 1+2', '4 -> 3']
"""

from __future__ import annotations

from typing import Iterable

from gamedp.games.impartial.heaps import BYTES_PER_PYTHON_TERM, GrundySequence, Heaps, HeapGame, check_terms


def lasker_nimber(n: int) -> int:
    return n + (n % 4 == 3) - (n % 4 == 0 and n > 0)


class Lasker(HeapGame):
    """Lasker's Nim: remove stones from a heap, or split it in two without removing any."""

    family = "lasker"
    splits = True

    def heap_options(self, n: int) -> Iterable[Heaps]:
        yield from ((m,) if m else () for m in range(n))
        yield from ((a, n - a) for a in range(1, n // 2 + 1))

    def heap_sequence(self, upto: int) -> GrundySequence:
        check_terms(upto, per_term=BYTES_PER_PYTHON_TERM)
        return GrundySequence([lasker_nimber(n) for n in range(upto + 1)])

    def heap_nimber(self, n: int) -> int:
        return lasker_nimber(n)
