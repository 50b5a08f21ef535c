"""Win/lose of many boards of one impartial placement game by the compiled memo search
(:mod:`gamedp.kernels.blockgame`), and the judge's choice between it and the whole table
(:mod:`gamedp.games.placement_table`).
"""

from __future__ import annotations

from gamedp.errors import GamedpError

# The BLOCKGAME judge asks search_first and SEARCH_BUDGET: typing, the table and the ruleset (values,
# dataclasses: ~15 ms) are imported where they are needed.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Sequence

    from gamedp.games.placement import Rules


class MemoSearch:
    """Win/lose of many boards of one impartial ruleset, by the compiled memo search, sharing one memo."""

    def __init__(self, rules: Rules, capacity: int = 1 << 16):
        import numpy as np

        from gamedp.aot import load_kernels

        if not rules.impartial:
            raise GamedpError(f"{rules.name}: the compiled memo search takes impartial games")
        self.rules = rules
        self.kernels = load_kernels("gamedp.kernels.blockgame")
        self.orient = rules.orient_array()
        self.capacity = capacity
        self.states = 0
        self._np = np

    def wins(self, boards: Sequence[int], max_capacity: int | None = None):
        """A numpy bool array: does the player to move win on each board? None if the memo would need more
        than ``max_capacity`` slots (the search gave up)."""
        np = self._np
        b = np.array(boards, np.uint64)
        out = np.zeros(len(b), np.uint8)
        while max_capacity is None or self.capacity <= max_capacity:
            keys = np.full(self.capacity, np.uint64(0xFFFFFFFFFFFFFFFF))
            vals = np.zeros(self.capacity, np.uint8)
            used = self.kernels.dfs_outcomes(b, self.orient, np.uint64(self.rules.full), self.rules.sym_table, keys,
                                             vals, out)
            if used >= 0:
                self.states = used
                return out == 2
            self.capacity *= 2
        return None


#: memo slots the judge's search may fill (3/4 of them) before a whole-table solve is the faster way: on 5 x 5,
#: ~15k states cost about as much as solving all 2**25 boards 64 at a time
SEARCH_BUDGET = 1 << 14
#: boards with at most this many cells filled take 10k-40k states each on 5 x 5: straight to the table
FEW_FILLED = 3


def search_first(boards: Sequence[int]) -> bool:
    """Whether the memo search (within :data:`SEARCH_BUDGET`) may answer ``boards`` before a whole-table solve.

    >>> search_first([0b1111, 0b11110000]), search_first([0b1111, 0b111])
    (True, False)
    """
    return all(b.bit_count() > FEW_FILLED for b in boards)


def wins(rules: Rules, boards: Sequence[int]):
    """Win/lose of each board (numpy bool array): a memo search for easy inputs, else the whole table."""
    import numpy as np

    from gamedp.games.placement_table import MAX_TABLE_CELLS, TableSpec

    if rules.n > MAX_TABLE_CELLS:
        return MemoSearch(rules).wins(boards)
    if search_first(boards):
        found = MemoSearch(rules, SEARCH_BUDGET).wins(boards, max_capacity=SEARCH_BUDGET)
        if found is not None:
            return found
    spec = TableSpec(rules)
    bits, _ = spec.solve_bits()
    idx = np.array([spec.index(b) for b in boards], np.int64)
    return (bits[idx >> 3] >> (idx & 7).astype(np.uint8) & 1).astype(bool)
