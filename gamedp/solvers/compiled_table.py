"""The memo table of the compiled search: open addressing over two numpy arrays (positions, values).

Positions are non-negative, so -1 marks an empty slot. The table doubles when half full; callers keep that
load factor, which keeps probe chains short.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, nogil=True)
def find_slot(keys, position):
    """The slot holding ``position``, or the empty slot where it would go."""
    mask = np.uint64(keys.shape[0] - 1)
    s = (np.uint64(position) * _GOLDEN >> np.uint64(17)) & mask
    while keys[s] != -1 and keys[s] != position:
        s = (s + np.uint64(1)) & mask
    return s


@njit(cache=True, nogil=True)
def grow(keys, vals):
    """A table twice the size with the same entries."""
    new_keys = np.full(keys.shape[0] * 2, -1, np.int64)
    new_vals = np.zeros(keys.shape[0] * 2, np.int64)
    for i in range(keys.shape[0]):
        if keys[i] != -1:
            s = find_slot(new_keys, keys[i])
            new_keys[s] = keys[i]
            new_vals[s] = vals[i]
    return new_keys, new_vals


@njit(cache=True, nogil=True)
def lookup(keys, vals, position):
    """The encoded value of ``position``: 0 while its search is under way, -1 when it is not in the table."""
    s = find_slot(keys, position)
    return vals[s] if keys[s] == position else -1


@njit(cache=True, nogil=True)
def store(keys, vals, used, position, value):
    """Insert or update; returns the (possibly grown) arrays and the new count."""
    if 2 * (used + 1) > keys.shape[0]:
        keys, vals = grow(keys, vals)
    s = find_slot(keys, position)
    if keys[s] != position:
        keys[s] = position
        used += 1
    vals[s] = value
    return keys, vals, used


@njit(cache=True, nogil=True)
def grown(a, size):
    """``a`` copied into a larger array (the search's stacks grow as deep as the game needs)."""
    b = np.empty(size, a.dtype)
    b[: a.shape[0]] = a
    return b


# Ranks order the mover's options: a WIN (3B - r) beats a TIE (2B - r) beats a LOSE (r).
RANK_BASE = 1 << 40


@njit(cache=True, nogil=True)
def rank_of_child(value, outcomes_only):
    """The mover's rank for a move into a child of encoded ``value`` (code | remoteness << 2)."""
    code = value & 3
    r = 0 if outcomes_only else (value >> 2) + 1
    if code == 1:  # the child is lost for the opponent
        return 3 * RANK_BASE - r
    if code == 3:
        return 2 * RANK_BASE - r
    return r


@njit(cache=True, nogil=True)
def encode_rank(rank):
    """The encoded value of a position whose best move has ``rank``."""
    if rank > 2 * RANK_BASE:
        return 2 | ((3 * RANK_BASE - rank) << 2)
    if rank > RANK_BASE:
        return 3 | ((2 * RANK_BASE - rank) << 2)
    return 1 | (rank << 2)
