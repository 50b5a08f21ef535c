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
from gamedp.games.connect4 import Connect4, children_into, column_top, primitive_code
from gamedp.tiers import Expansion, TieredGame, TierFunctions, expansion_signature

ROW = 64  # tables are flat: binom[n * ROW + k], ways[c * ROW + s]


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


# -- the solver's kernel: a position by index, its children's indices by rank arithmetic ----------------------
#: params: the board, then the tables (flat, as above)
P_WIDTH, P_HEIGHT, P_CONNECT, P_BINOM = 0, 1, 2, 8
P_BITS = P_BINOM + ROW * ROW  # the index of a lone bit b: params[P_BITS + ((b * DEBRUIJN) >> 58 & 63)]
P_WAYS = P_BITS + 64
DEBRUIJN = 0x03F79D71B4CB0A89
#: state: the height vector last decoded (its tier, first index, occupied cells; per column its height, where its
#: stones start in the sequence, where the child dropping there starts its block in tier n + 1), the last index
#: and its mover's stones (as sequence bits); the colouring whose children were last ranked (S_DONE), with its
#: moved_up, per column the child's rank correction and per stone what it added to them (see expand_board).
S_TIER, S_BLOCK, S_OCCUPIED, S_INDEX, S_MASK, S_DONE, S_MOVED = range(7)
S_HEIGHTS, S_AT, S_CHILD, S_CORRECTION, S_ADDS, S_MOVES = 8, 24, 40, 56, 72, 136
STATE = 200
#: Consecutive reachable indices closer than this are stepped to (Gosper's next combination), not decoded.
STEPS = 8


def expand_board(params: Any, tier: int, index: int, state: Any, out: Any) -> int:
    """The :class:`~gamedp.tiers.Expansion` kernel of Connect-N: the board at ``index`` of ``tier``, and its
    children's indices in tier ``tier + 1`` without building them.

    Indices of one height vector are a block of C(n, n // 2) colourings, and the combinadic order of the mover's
    stones is the numeric order of their sequence bits, so the next index is the next number with as many bits.
    A child drops a stone of the mover's into column c, at sequence position p (the stones of columns <= c lie
    below it); the child's mover is the other player, whose stones q_1 < q_2 < ... move up one from p on, so
    its colouring ranks sum C(q_i, i) below p plus sum C(q_i + 1, i) from p on, which is
    sum C(q_i + 1, i) - sum over q_i < p of C(q_i, i - 1): one pass over the stones serves every child.
    """
    width, height, connect = params[P_WIDTH], params[P_HEIGHT], params[P_CONNECT]
    stride = height + 1
    n = tier
    colourings = params[P_BINOM + n * ROW + n // 2]
    block = state[S_BLOCK]
    if state[S_TIER] != tier or index < block or index >= block + colourings:
        height_rank = index // colourings
        block = height_rank * colourings
        left = n
        at = 0
        occupied = 0
        for c in range(width):
            h = 0
            while height_rank >= params[P_WAYS + (c + 1) * ROW + left - h]:
                height_rank -= params[P_WAYS + (c + 1) * ROW + left - h]
                h += 1
            left -= h
            state[S_HEIGHTS + c] = h
            state[S_AT + c] = at
            at += h
            occupied |= ((1 << h) - 1) << (c * stride)
        child_colourings = params[P_BINOM + (n + 1) * ROW + (n + 1) // 2] if n < width * height else 0
        for c in range(width):
            child_rank = -1
            if state[S_HEIGHTS + c] < height:
                child_rank = 0
                left = n + 1
                for d in range(width):
                    h = state[S_HEIGHTS + d] + (1 if d == c else 0)
                    for v in range(h):
                        child_rank += params[P_WAYS + (d + 1) * ROW + left - v]
                    left -= h
                child_rank *= child_colourings
            state[S_CHILD + c] = child_rank
        state[S_TIER], state[S_BLOCK], state[S_OCCUPIED] = tier, block, occupied
        state[S_INDEX] = state[S_DONE] = -1
    previous = state[S_INDEX]
    if previous >= block and 0 < index - previous <= STEPS:
        mask = state[S_MASK]
        for _ in range(index - previous):
            low = mask & -mask
            ripple = mask + low
            mask = (((ripple ^ mask) >> 2) >> params[P_BITS + ((low * DEBRUIJN) >> 58 & 63)]) | ripple
    else:
        colour = index - block
        mask = 0
        p = n - 1
        for j in range(n // 2, 0, -1):
            while params[P_BINOM + p * ROW + j] > colour:
                p -= 1
            colour -= params[P_BINOM + p * ROW + j]
            mask |= 1 << p
            p -= 1
    state[S_INDEX], state[S_MASK] = index, mask
    mover = 0
    for c in range(width):
        mover |= ((mask >> state[S_AT + c]) & ((1 << state[S_HEIGHTS + c]) - 1)) << (c * stride)
    last = state[S_OCCUPIED] ^ mover  # the stones of the player who just moved
    for shift in (1, stride - 1, stride, stride + 1):
        if (connect - 1) * shift < 63:
            run = last  # the starts of runs of `have` stones, doubling: 4 in a row takes two steps
            have = 1
            while 2 * have <= connect:
                run &= run >> (have * shift)
                have *= 2
            if have < connect:
                run &= run >> ((connect - have) * shift)
            if run != 0:
                return -1
    if n == width * height:
        return -3
    # Each stone of theirs at p adds C(p, i - 1) to the corrections of the columns above it and C(p + 1, i) to
    # moved_up. Only the stones below the highest bit that differs from the colouring last done change (the count
    # below it is the same, so the stones above keep their i): redo those, shift the rest by the difference.
    theirs = ~mask & ((1 << n) - 1)
    done = state[S_DONE]
    changed = 0
    if done < 0:  # nothing done in this block yet: every stone from nothing
        changed = n
        state[S_MOVED] = 0
        for p in range(n):
            state[S_ADDS + p] = state[S_MOVES + p] = 0
    else:
        diff = done ^ mask
        while diff >> changed:
            changed += 1
    state[S_DONE] = mask
    members = 0
    correction = 0
    delta_correction = 0
    delta_moved = 0
    p = 0
    for c in range(width):
        top = state[S_AT + c] + state[S_HEIGHTS + c]
        while p < top and p < changed:
            # without a branch: whose stone is at p is a coin toss, and a mispredicted branch costs more
            bit = (theirs >> p) & 1
            members += bit
            add = bit * params[P_BINOM + p * ROW + members - 1]
            moved = bit * params[P_BINOM + (p + 1) * ROW + members]
            delta_correction += add - state[S_ADDS + p]
            delta_moved += moved - state[S_MOVES + p]
            state[S_ADDS + p], state[S_MOVES + p] = add, moved
            correction += add
            p += 1
        if p == top:
            state[S_CORRECTION + c] = correction
        else:
            state[S_CORRECTION + c] += delta_correction
    moved_up = state[S_MOVED] + delta_moved
    state[S_MOVED] = moved_up
    count = 0
    for c in range(width):
        if state[S_CHILD + c] >= 0:
            out[2 * count] = n + 1
            out[2 * count + 1] = state[S_CHILD + c] + moved_up - state[S_CORRECTION + c]
            count += 1
    return count


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

    def expansion(self) -> Expansion:
        return _expansion(self.width, self.height, self.connect)

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
    """:func:`expand_board` compiled (a module-level function of constants only, so numba keeps it on disk)."""
    from numba import njit

    return njit(expansion_signature(), nogil=True, cache=True, error_model="numpy")(expand_board)


@functools.lru_cache(maxsize=None)
def _expansion(width: int, height: int, connect: int) -> Expansion:
    import numpy as np

    params = np.zeros(P_WAYS + (width + 1) * ROW, dtype=np.int64)
    params[P_WIDTH], params[P_HEIGHT], params[P_CONNECT] = width, height, connect
    params[P_BINOM:P_BITS] = binomials()
    for i in range(64):
        params[P_BITS + (((1 << i) * DEBRUIJN % 2**64) >> 58)] = i
    params[P_WAYS:] = height_ways(width, height)
    return Expansion(_kernel(), params, STATE, 2 * width)


def connect4_table(width: int = 7, height: int = 6, connect: int = 4) -> Connect4Tiers:
    """Connect-N as a tiered game, for ``gamedp solve connect4 -V width=W -V height=H -V connect=K``."""
    if width * height > 62:
        raise GamedpError(f"connect4: a {width}x{height} board has more than 62 cells; the tier index counts at "
                          "most 62 stones")
    return Connect4Tiers(width, height, connect)
