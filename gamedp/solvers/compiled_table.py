"""The compiled search and its memo table, as cached numba kernels.

The table is dense (``vals[position]``) when the game bounds its positions and the array fits, else an
open-addressing hash over two arrays (``keys``, ``vals``) that doubles when half full. A value of -1 means
"not searched", 0 "search under way" (meeting it again means a cycle), and anything else the encoded value:
outcome code in the low 2 bits (1 LOSE, 2 WIN, 3 TIE), remoteness above. When only outcomes are wanted, a
dense table is *packed*: value + 1 in a nibble, two positions a byte, so that BLOCKGAME's 2^25 boards take
16 MiB and stay in the processor's last-level cache.

The search takes the game's kernels as first-class function values with fixed signatures, so one compiled
search (cached on disk like any kernel) serves every game: nothing is compiled per game but the game's own
kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

CHILDREN_SIGNATURE = types.int64(types.int64, types.int64[::1])
PRIMITIVE_SIGNATURE = types.int64(types.int64)
OK, CYCLE, OUT_OF_RANGE, PRIMITIVE_WITH_MOVES, TOO_MANY_CHILDREN, BAD_PRIMITIVE = range(6)
# Ranks order the mover's options: a WIN (3B - r) beats a TIE (2B - r) beats a LOSE (r).
RANK_BASE = 1 << 40
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, nogil=True)
def slot(keys, vals, position):
    """Where ``position``'s value is (or would go): itself in a dense table, a probed slot in a hash."""
    if keys.shape[0] == 0:
        return position
    mask = np.uint64(keys.shape[0] - 1)
    s = (np.uint64(position) * _GOLDEN >> np.uint64(17)) & mask
    while keys[s] != -1 and keys[s] != position:
        s = (s + np.uint64(1)) & mask
    return np.int64(s)


@njit(cache=True, nogil=True)
def read(keys, vals, position, packed):
    """``position``'s value (-1: not searched)."""
    if packed:
        return np.int64((vals[position >> 1] >> ((position & 1) << 2)) & 15) - 1
    return np.int64(vals[slot(keys, vals, position)])


@njit(cache=True, nogil=True)
def store(keys, vals, used, position, value, packed):
    """Set ``position``'s value; a hash table grows first when it would pass half full."""
    if packed:
        shift = (position & 1) << 2
        old = (vals[position >> 1] >> shift) & 15
        vals[position >> 1] = (vals[position >> 1] & ~(15 << shift)) | ((value + 1) << shift)
        return keys, vals, used + (1 if old == 0 else 0)
    if keys.shape[0] != 0 and 2 * (used + 1) > keys.shape[0]:
        new_keys = np.full(keys.shape[0] * 2, -1, np.int64)
        new_vals = np.full(keys.shape[0] * 2, -1, vals.dtype)
        for i in range(keys.shape[0]):
            if keys[i] != -1:
                s = slot(new_keys, new_vals, keys[i])
                new_keys[s] = keys[i]
                new_vals[s] = vals[i]
        keys, vals = new_keys, new_vals
    s = slot(keys, vals, position)
    if vals[s] == -1:
        used += 1
    if keys.shape[0] != 0:
        keys[s] = position
    vals[s] = value
    return keys, vals, used


@njit(cache=True, nogil=True)
def grown(a, size):
    b = np.empty(size, a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True, nogil=True)
def rank_of_child(value, outcomes_only):
    """The mover's rank for a move into a child whose encoded value is ``value``."""
    code = value & 3
    r = 0 if outcomes_only else (value >> 2) + 1
    if code == 1:  # the child is lost for the opponent
        return 3 * RANK_BASE - r
    if code == 3:
        return 2 * RANK_BASE - r
    return np.int64(r)


@njit(cache=True, nogil=True)
def encode_rank(rank):
    """The encoded value of a position whose best move has ``rank``."""
    if rank > 2 * RANK_BASE:
        return 2 | ((3 * RANK_BASE - rank) << 2)
    if rank > RANK_BASE:
        return 3 | ((2 * RANK_BASE - rank) << 2)
    return 1 | (rank << 2)


def _search_signature(value_type):
    vals = value_type[::1]
    return types.Tuple((types.int64[::1], vals, types.int64, types.int64, types.int64, types.int64))(
        types.FunctionType(CHILDREN_SIGNATURE), types.FunctionType(PRIMITIVE_SIGNATURE), types.boolean,
        types.int64, types.int64[::1], vals, types.int64, types.int64, types.int64, types.boolean, types.boolean,
        types.boolean)


_searches: dict = {}


def searcher(value_dtype):
    """The search compiled for tables of ``value_dtype``: uint8 (packed) or int32. Each is loaded from the
    cache only when first used."""
    key = np.dtype(value_dtype)
    if key not in _searches:
        value_type = types.uint8 if key == np.uint8 else types.int32
        _searches[key] = njit(_search_signature(value_type), cache=True, nogil=True)(search)
    return _searches[key]


def search(children, primitive, has_primitive, root, keys, vals, used, maxc, limit, outcomes_only, misere, packed):
    """Depth-first search from ``root``; returns the table and (status, position, detail) for errors."""
    cap = 64
    st_pos = np.empty(cap, np.int64)  # frame: position, child count, next child, best rank so far
    st_n = np.empty(cap, np.int64)
    st_i = np.empty(cap, np.int64)
    st_best = np.empty(cap, np.int64)
    kids = np.empty(cap * maxc, np.int64)
    buf = np.empty(maxc + 1, np.int64)
    depth = 0
    pos = root
    while True:
        # Expand `pos`: a terminal value, or a new frame on the stack.
        n = children(pos, buf)
        if n > maxc:
            return keys, vals, used, TOO_MANY_CHILDREN, pos, n
        code = primitive(pos) if has_primitive else 0
        if code < 0 or code > 3:
            return keys, vals, used, BAD_PRIMITIVE, pos, code
        if code != 0 and n > 0:
            return keys, vals, used, PRIMITIVE_WITH_MOVES, pos, n
        if code == 0 and n == 0:
            code = 2 if misere else 1
        if code != 0:
            keys, vals, used = store(keys, vals, used, pos, code, packed)
            if depth == 0:
                return keys, vals, used, OK, pos, 0
            st_best[depth - 1] = max(st_best[depth - 1], rank_of_child(code, outcomes_only))
            st_i[depth - 1] += 1
        else:
            if depth == cap:
                cap *= 2
                st_pos, st_n = grown(st_pos, cap), grown(st_n, cap)
                st_i, st_best = grown(st_i, cap), grown(st_best, cap)
                kids = grown(kids, cap * maxc)
            base = depth * maxc
            for j in range(n):
                c = buf[j]
                if c < 0 or (limit >= 0 and c >= limit):
                    return keys, vals, used, OUT_OF_RANGE, pos, c
                kids[base + j] = c
            st_pos[depth], st_n[depth], st_i[depth], st_best[depth] = pos, n, 0, -1
            if outcomes_only:
                # A child already known to be lost wins at once, without searching the others first
                # (on BLOCKGAME this cuts the positions searched from the empty board by a quarter).
                for j in range(n):
                    v = read(keys, vals, kids[base + j], packed)
                    if v > 0 and v & 3 == 1:
                        st_best[depth] = 3 * RANK_BASE
                        break
            keys, vals, used = store(keys, vals, used, pos, 0, packed)
            depth += 1
        # Scan the top frame's children; finish frames until one needs a child expanded.
        while True:
            f = depth - 1
            best, i, base = st_best[f], st_i[f], f * maxc
            descend = False
            c = 0
            while i < st_n[f] and not (outcomes_only and best > 2 * RANK_BASE):
                c = kids[base + i]
                v = read(keys, vals, c, packed)
                if v == -1:
                    descend = True
                    break
                if v == 0:
                    return keys, vals, used, CYCLE, st_pos[f], c
                best = max(best, rank_of_child(v, outcomes_only))
                i += 1
            st_best[f], st_i[f] = best, i
            if descend:
                pos = c
                break
            enc = encode_rank(best)
            keys, vals, used = store(keys, vals, used, st_pos[f], enc, packed)
            depth -= 1
            if depth == 0:
                return keys, vals, used, OK, root, 0
            st_best[depth - 1] = max(st_best[depth - 1], rank_of_child(enc, outcomes_only))
            st_i[depth - 1] += 1


@njit(PRIMITIVE_SIGNATURE, cache=True, nogil=True)
def no_primitive(position):
    return 0
