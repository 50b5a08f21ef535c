"""Connect-N's bitboard: plain functions of a position's key that the Python game (:mod:`gamedp.games.connect4`),
its tiers (:mod:`gamedp.games.connect4_tiers`) and its score search (:mod:`gamedp.games.connect4_scores`) share;
numba compiles the same functions into their kernels.

A key is a column-major bitboard with H + 1 bits per column: column c holds, from its lowest bit, the stones of
the player to move among its h stones, then a 1 at bit h marking the height.
"""

from __future__ import annotations

from typing import Any

#: A key's bits: W * (H + 1) of them, at most a word (the score search's words are unsigned).
MAX_BITS = 64
#: The compiled engines keep keys as non-negative int64.
COMPILED_BITS = 63


def has_line(stones: int, height: int, connect: int) -> bool:
    """Whether ``stones`` (a bitboard with H + 1 bits per column, top bit clear) hold ``connect`` in a row."""
    stride = height + 1
    for shift in (1, stride - 1, stride, stride + 1):  # vertical, anti-diagonal, horizontal, diagonal
        if (connect - 1) * shift >= MAX_BITS:
            continue
        run = stones
        for k in range(1, connect):
            run &= stones >> (k * shift)
        if run != 0:
            return True
    return False


def column_top(segment: int) -> int:
    """The height of a column from its key bits (the position of its marker bit)."""
    top = 0
    while segment >> (top + 1):
        top += 1
    return top


def split_key(key: int, width: int, height: int) -> tuple[int, int]:
    """The mover's stones and the occupied cells of the position ``key``."""
    stride = height + 1
    column_bits = (1 << stride) - 1
    mover = 0
    mask = 0
    for c in range(width):
        segment = (key >> (c * stride)) & column_bits
        top = column_top(segment)
        mover |= (segment ^ (1 << top)) << (c * stride)
        mask |= ((1 << top) - 1) << (c * stride)
    return mover, mask


def primitive_code(key: int, width: int, height: int, connect: int) -> int:
    """0 while the game goes on; 1 (LOSE) when the player who just moved made a line; 3 (TIE) on a full board."""
    mover, mask = split_key(key, width, height)
    if has_line(mover ^ mask, height, connect):
        return 1
    if mask == full_mask(width, height):
        return 3
    return 0


def full_mask(width: int, height: int) -> int:
    return bottom_mask(width, height) * ((1 << height) - 1)


def bottom_mask(width: int, height: int) -> int:
    stride = height + 1
    bottom = 0
    for c in range(width):
        bottom |= 1 << (c * stride)
    return bottom


def children_into(key: int, width: int, height: int, connect: int, out: Any) -> int:
    """Write the positions one move from ``key`` into ``out`` (one per open column, left to right)."""
    mover, mask = split_key(key, width, height)
    if has_line(mover ^ mask, height, connect):
        return 0
    stride = height + 1
    bottom = bottom_mask(width, height)
    opponent = mover ^ mask  # the next mover's stones: the new stone is not theirs
    count = 0
    for c in range(width):
        cell = (mask + bottom) & (((1 << stride) - 1) << (c * stride))  # the lowest empty cell of column c
        if cell >> (c * stride) >= 1 << height:
            continue  # full
        child_mask = mask | cell
        out[count] = opponent + child_mask + bottom
        count += 1
    return count


def drop(key: int, column: int, width: int, height: int) -> int:
    """The position after the mover drops a stone into ``column`` (0-based; it must not be full)."""
    mover, mask = split_key(key, width, height)
    stride = height + 1
    bottom = bottom_mask(width, height)
    cell = (mask + bottom) & (((1 << stride) - 1) << (column * stride))
    return (mover ^ mask) + (mask | cell) + bottom


def mirror_key(key: int, width: int, height: int) -> int:
    """The position seen in a mirror: column c becomes column W-1-c."""
    stride = height + 1
    column_bits = (1 << stride) - 1
    mirrored = 0
    for c in range(width):
        mirrored |= ((key >> (c * stride)) & column_bits) << ((width - 1 - c) * stride)
    return mirrored
