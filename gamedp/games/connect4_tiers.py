"""Connect-N cut into tiers by the stones on the board, with a dense index inside each tier.

Tier n holds the boards with n stones. A board is its column heights (W numbers 0..H summing to n) and which
of its n stones are the mover's (the mover has n // 2 of them: X moves first). Its index in the tier is

    rank of the height vector (lexicographic, among those summing to n) * C(n, n // 2)
    + combinadic rank of the mover's stones among the n (stones counted column by column, bottom up),

so tier n has ways(n) * C(n, n // 2) indices. That index space is larger than the set of boards play can
reach (4x4: 201,755 indices, 161,029 reachable; 6x5: 9.9e9 and 2.8e9); the tier solver finds the reachable
ones tier by tier. The rank functions are plain Python that numba also compiles, so a lookup needs no numba.

>>> t = connect4_table(4, 4)
>>> t.index_space, t.sizes[:4]
(201755, [1, 4, 20, 60])
>>> key = t.parse_position("1213")
>>> t.locate(key) - t.offsets[4], t.functions().unrank(4, t.locate(key) - t.offsets[4]) == key
(174, True)
"""

from __future__ import annotations

import functools
from typing import Any

from gamedp.errors import GamedpError
from gamedp.games.connect4 import Connect4
from gamedp.games.connect4_board import children_into, column_top, primitive_code
from gamedp.kernels.connect4_tiers import P_BINOM, P_CONNECT, P_HEIGHT, P_WAYS, P_WIDTH, ROW, STATE
from gamedp.tiers import Expansion, Passes, TieredGame, TierFunctions, expansion_signature


def binomials() -> list[int]:
    """C(n, k) for 0 <= n, k < 64, flat (C(63, 31) < 2^63)."""
    table = [0] * (ROW * ROW)
    for n in range(ROW):
        table[n * ROW] = 1
        for k in range(1, n + 1):
            table[n * ROW + k] = table[(n - 1) * ROW + k - 1] + table[(n - 1) * ROW + k]
    return table


def height_ways(width: int, height: int) -> list[int]:
    """ways[c * ROW + s]: how many ways columns c..W-1 hold s stones in all."""
    table = [0] * ((width + 1) * ROW)
    table[width * ROW] = 1
    for c in range(width - 1, -1, -1):
        for s in range(width * height + 1):
            table[c * ROW + s] = sum(table[(c + 1) * ROW + s - v] for v in range(min(height, s) + 1))
    return table


# -- the kernels: plain functions that numba compiles (see Connect4Tiers.compiled_functions) -------------------
def stones_of(key: int, width: int, height: int) -> int:
    """The stones on the board ``key``: its tier."""
    stride = height + 1
    column_bits = (1 << stride) - 1
    total = 0
    for c in range(width):
        total += column_top((key >> (c * stride)) & column_bits)
    return total


def rank_key(key: int, width: int, height: int, binom: Any, ways: Any) -> int:
    """The index of ``key`` within its tier."""
    stride = height + 1
    column_bits = (1 << stride) - 1
    n = stones_of(key, width, height)
    left = n
    height_rank = 0
    colour = 0
    members = 0
    p = 0
    for c in range(width):
        segment = (key >> (c * stride)) & column_bits
        h = column_top(segment)
        for v in range(h):
            height_rank += ways[(c + 1) * ROW + left - v]
        left -= h
        for r in range(h):
            if (segment >> r) & 1:
                members += 1
                colour += binom[p * ROW + members]
            p += 1
    return height_rank * binom[n * ROW + n // 2] + colour


def unrank_key(n: int, index: int, width: int, height: int, binom: Any, ways: Any) -> int:
    """The board of tier ``n`` at ``index``: the inverse of :func:`rank_key`."""
    stride = height + 1
    colourings = binom[n * ROW + n // 2]
    height_rank = index // colourings
    colour = index - height_rank * colourings
    # The mover's stones as bits of the sequence of n stones, largest combinadic term first.
    sequence = 0
    p = n - 1
    for j in range(n // 2, 0, -1):
        while binom[p * ROW + j] > colour:
            p -= 1
        colour -= binom[p * ROW + j]
        sequence |= 1 << p
        p -= 1
    key = 0
    left = n
    at = 0
    for c in range(width):
        h = 0
        while height_rank >= ways[(c + 1) * ROW + left - h]:
            height_rank -= ways[(c + 1) * ROW + left - h]
            h += 1
        left -= h
        key |= ((1 << h) | ((sequence >> at) & ((1 << h) - 1))) << (c * stride)
        at += h
    return key


class Connect4Tiers(TieredGame):
    """Connect-N on a ``width`` x ``height`` board as a tiered game (tier = stones on the board)."""

    def __init__(self, width: int = 7, height: int = 6, connect: int = 4):
        self.board = Connect4(width, height, connect, symmetry=False)
        super().__init__("connect4", {"width": width, "height": height, "connect": connect},
                         num_tiers=width * height + 1, max_children=width, start=self.board.start())
        self.width, self.height, self.connect = width, height, connect
        self.binom = binomials()
        self.ways = height_ways(width, height)

    @property
    def label(self) -> str:
        return self.board.label

    def tier_size(self, tier: int) -> int:
        return self.ways[tier] * self.binom[tier * ROW + tier // 2]

    def child_tiers(self, tier: int) -> tuple[int, ...]:
        return (tier + 1,) if tier < self.width * self.height else ()

    def functions(self) -> TierFunctions:
        return self._plain

    @functools.cached_property
    def _plain(self) -> TierFunctions:
        return self._closures(stones_of, rank_key, unrank_key, children_into, primitive_code, self.binom, self.ways)

    def compiled_functions(self) -> TierFunctions:
        import numpy as np

        from gamedp.compiled import jit_kernel as _jit

        return self._closures(*(_jit(f) for f in (stones_of, rank_key, unrank_key, children_into, primitive_code)),
                              np.array(self.binom, dtype=np.int64), np.array(self.ways, dtype=np.int64))

    def move_runs(self, tier: int) -> tuple[int, list[int]]:
        """A tier's indices run through its column heights, lexicographically, ``C(n, n // 2)`` colourings each:
        the moves of a run are its columns not full. (A tier's early runs have low first columns, so more open
        ones, and cut by reachable positions alone its first half takes longer: see docs/performance.md.)

        >>> connect4_table(3, 2).move_runs(5)   # heights 1 2 2, 2 1 2, 2 2 1: two columns full in each
        (10, [1, 1, 1])
        """
        width, height, moves = self.width, self.height, []

        def fill(column: int, left: int, open_columns: int) -> None:
            if column == width:
                moves.append(open_columns)
                return
            for h in range(max(0, left - (width - column - 1) * height), min(height, left) + 1):
                fill(column + 1, left - h, open_columns + (h < height))

        fill(0, tier, 0)
        return self.binom[tier * ROW + tier // 2], moves

    def expansion(self) -> Expansion:
        return Expansion(_kernel(), _params(self.width, self.height, self.connect), STATE, 2 * self.width)

    def passes(self) -> Passes:
        from gamedp.aot import load_kernels

        k = load_kernels("gamedp.kernels.connect4_tiers")
        return Passes(k.mark_children, k.solve_shard, _params(self.width, self.height, self.connect), STATE,
                      2 * self.width)

    def _closures(self, stones, rank_of, unrank_of, children_of, primitive_of, binom, ways) -> TierFunctions:
        width, height, connect = self.width, self.height, self.connect

        def rank(key):
            return rank_of(key, width, height, binom, ways)

        def unrank(tier, index):
            return unrank_of(tier, index, width, height, binom, ways)

        def tier_of(key):
            return stones(key, width, height)

        def children(key, out):
            return children_of(key, width, height, connect, out)

        def primitive(key):
            return primitive_of(key, width, height, connect)

        return TierFunctions(rank, unrank, tier_of, children, primitive)

    # -- the text of positions, for `gamedp query` (no numba) --------------------------------------------------
    def parse_position(self, text: str) -> int:
        return self.board.parse_position(text)

    def format_position(self, position: int) -> str:
        return self.board.format_position(position)


@functools.lru_cache(maxsize=None)
def _kernel() -> Any:
    """:func:`~gamedp.kernels.connect4_tiers.expand_board` compiled (a module-level function of constants only, so
    numba keeps it on disk)."""
    from numba import njit

    from gamedp.aot import jit_functions
    from gamedp.kernels import connect4_tiers as k

    jit_functions(k, skip=(*k.EXPORTS, "expand_board"))  # its helpers, as numba kernels
    expand = getattr(k.expand_board, "py_func", k.expand_board)
    return njit(expansion_signature(), nogil=True, cache=True, error_model="numpy")(expand)


@functools.lru_cache(maxsize=None)
def _params(width: int, height: int, connect: int) -> Any:
    """The kernels' constants (see :mod:`gamedp.kernels.connect4_tiers`)."""
    import numpy as np

    params = np.zeros(P_WAYS + (width + 1) * ROW, dtype=np.int64)
    params[P_WIDTH], params[P_HEIGHT], params[P_CONNECT] = width, height, connect
    params[P_BINOM:P_WAYS] = binomials()
    params[P_WAYS:] = height_ways(width, height)
    return params


def connect4_table(width: int = 7, height: int = 6, connect: int = 4) -> Connect4Tiers:
    """Connect-N as a tiered game, for ``gamedp solve connect4 -V width=W -V height=H -V connect=K``."""
    if width * height > 62:
        raise GamedpError(f"connect4: a {width}x{height} board has more than 62 cells; the tier index counts at "
                          "most 62 stones")
    return Connect4Tiers(width, height, connect)
