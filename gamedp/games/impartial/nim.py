"""Nim and misère Nim: take any number of stones from one heap.

A heap of n is worth n, a position the XOR of its heaps (Bouton). In misère Nim, who takes the last stone
loses: the same winning moves, except when the move would leave only heaps of one stone -- then leave an odd
number of them.

>>> nim = Nim()
>>> nim.nimber((3, 4, 5)), [nim.format_move((3, 4, 5), m) for m in nim.winning_moves((3, 4, 5))]
(2, ['3 -> 1'])
>>> misere = MisereNim()
>>> misere.misere_outcome((1, 1)).name, misere.misere_outcome((1, 1, 1)).name
('WIN', 'LOSE')
>>> [misere.format_move((1, 1, 2), m) for m in misere.misere_winning_moves((1, 1, 2))]
['2 -> 1']
"""

from __future__ import annotations

from typing import Iterable

from gamedp.games.impartial.heaps import GrundySequence, Heaps, HeapGame, check_terms


class Nim(HeapGame):
    """Nim: a move takes one or more stones from one heap."""

    family = "nim"
    misere_nim_rule = True

    def heap_options(self, n: int) -> Iterable[Heaps]:
        return ((m,) if m else () for m in range(n))  # made as asked: a heap of 10^9 has 10^9 options

    def heap_sequence(self, upto: int) -> GrundySequence:
        check_terms(upto)
        return GrundySequence(range(upto + 1))

    def heap_nimber(self, n: int) -> int:
        return n  # any size: heaps are Python integers

    def option_count(self, n: int) -> int:
        return n

    def winning_moves(self, position: Heaps) -> list:
        # Bouton: the heap whose size drops when XORed with the total; no need to list every option.
        total = self.nimber(position)
        return [(h, (h ^ total,) if h ^ total else ()) for h in sorted(set(position)) if h ^ total < h]

    def misere_winning_moves(self, position: Heaps) -> list:
        # The Nim rule gives these directly; a search would try every heap size below each heap.
        from gamedp.solvers.grundy import misere_nim_wins

        if not misere_nim_wins(position):
            return []
        moves = []
        for h in sorted(set(position)):
            rest = list(position)
            rest.remove(h)
            for m in _candidate_sizes(h, rest):
                if not misere_nim_wins(rest + [m]):
                    moves.append((h, (m,) if m else ()))
        return moves


def _candidate_sizes(h: int, rest: list[int]) -> list[int]:
    # A winning misère move leaves the Bouton value 0, or only single stones: sizes 0, 1 and x XOR h.
    total = 0
    for x in rest:
        total ^= x
    return sorted({m for m in (0, 1, total) if m < h})


class MisereNim(Nim):
    """Misère Nim: who takes the last stone loses."""

    def __init__(self, misere: bool = True, heaps: Iterable[int] | None = None):
        super().__init__(misere, heaps)
