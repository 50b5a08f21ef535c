"""Kernels of the region solver: split a placement board into independent regions, key a region canonically, and
find region nimbers by a depth-first mex search over a hash table of canonical regions.

Boards are bitboards in the frame of one R x C board (bit ``r * cols + c``), as in :mod:`gamedp.kernels.blockgame`;
a *region* is a set of empty cells joined by placements that fit: no placement covers cells of two regions, so a
board is the sum of its regions and its nimber is the XOR of theirs. Empty cells no placement covers are dropped.

A region's *key* is two words: ``h << 8 | w`` of its bounding box and its cells packed row by row at stride ``w``,
after the symmetry (among those the pieces allow) that gives the least (dims, cells) pair. Congruent regions of
any board share a key, so the table of region nimbers carries over from board to board and from run to run.

The search (:func:`solve_regions`) keeps its stack in arrays owned by the caller, and returns when the table is
3/4 full, the stack is full or its step budget is spent: the caller grows what is needed (or draws progress) and
calls again, and the search resumes where it stopped.
"""

import numpy as np

from gamedp.kernels.blockgame import ANCHORS, BIT_INDEX, DEBRUIJN, GOLDEN, NCELLS, OFFSETS, ONE, SHAPE, ZERO

EIGHT = np.uint64(8)
#: most regions one board (or one child) splits into: one per cell, with a one-cell piece
MAX_PARTS = 64
#: what :func:`solve_regions` returns
DONE, TABLE_FULL, STACK_FULL, PAUSED = 0, 1, 2, 3
#: ``state`` slots shared with the caller
TOP, USED, SOLVED, BUDGET = 0, 1, 2, 3


def fitting(empty, orient, fits):
    """The anchors where each orientation fits on ``empty`` into ``fits``; returns the cells they cover."""
    live = ZERO
    for o in range(orient.shape[0]):
        f = orient[o, ANCHORS]
        for c in range(orient[o, NCELLS]):
            f &= empty >> orient[o, OFFSETS + c]
        fits[o] = f
        for c in range(orient[o, NCELLS]):
            live |= f << orient[o, OFFSETS + c]
    return live


def split(empty, orient, fits, edges, parts):
    """The regions of the empty cells ``empty`` into ``parts``; returns their count.

    With ``edges`` (the masks of the cells that have a neighbour right, left, below and above; stride in
    ``edges[4]``), a region is a 4-connected set of live cells: every piece is 4-connected, so no placement spans
    two of them. Otherwise (``edges[4] == 0``) a region grows from one cell by every fitting placement that touches
    it, until it stops growing.
    """
    rest = fitting(empty, orient, fits)
    stride = edges[4]
    n = 0
    while rest != ZERO:
        comp = rest & (~rest + ONE)
        while True:
            if stride != ZERO:
                grown = (comp | ((comp & edges[0]) << ONE) | ((comp & edges[1]) >> ONE)
                         | ((comp & edges[2]) << stride) | ((comp & edges[3]) >> stride)) & rest
            else:
                grown = comp
                for o in range(orient.shape[0]):
                    touch = ZERO
                    for c in range(orient[o, NCELLS]):
                        touch |= comp >> orient[o, OFFSETS + c]
                    touch &= fits[o]
                    if touch != ZERO:
                        for c in range(orient[o, NCELLS]):
                            grown |= touch << orient[o, OFFSETS + c]
            if grown == comp:
                break
            comp = grown
        parts[n] = comp
        n += 1
        rest &= ~comp
    return n


def region_key(region, rowof, colof, lines, syms, key):
    """The canonical key of ``region`` into key[0] (dims) and key[1] (cells): the least over the allowed
    symmetries ``syms`` (flags of the 8 maps: identity, rot180, mirror, flip, rot90, rot270, transpose,
    antitranspose). ``lines`` holds the masks of the board's rows, then of its columns."""
    nrows = rowof[rowof.shape[0] - 1] + ONE
    ncols = np.uint64(lines.shape[0]) - nrows
    r0 = first_line(region, lines, ZERO, nrows)
    r1 = last_line(region, lines, ZERO, nrows)
    c0 = first_line(region, lines, nrows, ncols)
    c1 = last_line(region, lines, nrows, ncols)
    h = r1 - r0 + ONE
    w = c1 - c0 + ONE
    # the images under identity, rot180, mirror, flip (dims h x w), rot90, rot270, transpose, antitranspose (w x h)
    i0 = ZERO
    i1 = ZERO
    i2 = ZERO
    i3 = ZERO
    i4 = ZERO
    i5 = ZERO
    i6 = ZERO
    i7 = ZERO
    b = region
    while b != ZERO:
        low = b & (~b + ONE)
        b ^= low
        i = bit_index(low)
        r = rowof[i] - r0
        c = colof[i] - c0
        rr = h - ONE - r
        cc = w - ONE - c
        i0 |= ONE << (r * w + c)
        i1 |= ONE << (rr * w + cc)
        i2 |= ONE << (r * w + cc)
        i3 |= ONE << (rr * w + c)
        i4 |= ONE << (c * h + rr)
        i5 |= ONE << (cc * h + r)
        i6 |= ONE << (c * h + r)
        i7 |= ONE << (cc * h + rr)
    d0 = (h << EIGHT) | w
    d1 = (w << EIGHT) | h
    best_d = d0
    best = i0
    if syms[1] != 0 and i1 < best:
        best = i1
    if syms[2] != 0 and i2 < best:
        best = i2
    if syms[3] != 0 and i3 < best:
        best = i3
    if d1 <= d0:
        for s in range(4, 8):
            if syms[s] != 0:
                im = i4 if s == 4 else i5 if s == 5 else i6 if s == 6 else i7
                if d1 < best_d or im < best:
                    best_d = d1
                    best = im
    key[0] = best_d
    key[1] = best


def first_line(region, lines, at, n):
    """The first of the ``n`` lines from ``lines[at]`` that meets ``region`` (counted from ``at``)."""
    i = ZERO
    while region & lines[at + i] == ZERO:
        i += ONE
    return i


def last_line(region, lines, at, n):
    """The last of the ``n`` lines from ``lines[at]`` that meets ``region`` (counted from ``at``)."""
    i = n - ONE
    while region & lines[at + i] == ZERO:
        i -= ONE
    return i


def bit_index(low):
    """The index of the lone set bit ``low``."""
    return BIT_INDEX[(low * DEBRUIJN) >> np.uint64(58)]


def slot(k0, k1, d, cells):
    """The table slot of key (d, cells): where it is, or the empty slot (dims 0) where it would go."""
    size = np.uint64(k0.shape[0])
    mask = size - ONE
    # the slot grows with the hash's top bits whatever the table size: entries listed in slot order (as a saved
    # table is, and as the old table is when the table grows) go in nearly one after the other
    s = ((((cells * GOLDEN) ^ d) * GOLDEN >> np.uint64(32)) * size) >> np.uint64(32)
    while k0[s] != ZERO and (k0[s] != d or k1[s] != cells):
        s = (s + ONE) & mask
    return s


def lookup(k0, k1, vals, d, cells):
    """The nimber stored for key (d, cells), or -1."""
    s = slot(k0, k1, d, cells)
    if k0[s] == ZERO:
        return -1
    return vals[s]


def store(k0, k1, vals, d, cells, v):
    s = slot(k0, k1, d, cells)
    k0[s] = d
    k1[s] = cells
    vals[s] = v


def solve_regions(orient, edges, rowof, colof, lines, syms, k0, k1, vals, stack, state):
    """Resume the search on ``stack`` (regions, ``state[TOP]`` of them) until it is empty (DONE), the table holds
    3/4 of its slots (TABLE_FULL), the stack has no room for one more node's children (STACK_FULL) or
    ``state[BUDGET]`` nodes have been finished (PAUSED).

    A region on top of the stack pushes the sub-regions of its moves that are not in the table yet; when none is
    left unknown (at once, or when it comes back to the top) its nimber is the mex of its moves' XORs. No region
    is its own sub-region, so the search ends.
    """
    fits = np.empty(orient.shape[0], np.uint64)
    parts = np.empty(MAX_PARTS, np.uint64)
    key = np.empty(2, np.uint64)
    seen = np.zeros(4096, np.int64)
    stamp = 0
    limit = k0.shape[0] * 3 // 4
    cap = stack.shape[0]
    done = 0
    while state[TOP] > 0:
        top = state[TOP]
        region = stack[top - 1]
        region_key(region, rowof, colof, lines, syms, key)
        d = key[0]
        cells = key[1]
        if lookup(k0, k1, vals, d, cells) >= 0:
            state[TOP] = top - 1
            continue
        stamp += 1
        for o in range(orient.shape[0]):
            f = orient[o, ANCHORS]
            for c in range(orient[o, NCELLS]):
                f &= region >> orient[o, OFFSETS + c]
            shape = orient[o, SHAPE]
            while f != ZERO:
                low = f & (~f + ONE)
                f ^= low
                n = split(region & ~(shape * low), orient, fits, edges, parts)
                x = 0
                for p in range(n):
                    region_key(parts[p], rowof, colof, lines, syms, key)
                    v = lookup(k0, k1, vals, key[0], key[1])
                    if v < 0:
                        x = -1
                        if state[TOP] == cap:
                            return STACK_FULL
                        stack[state[TOP]] = parts[p]
                        state[TOP] += 1
                    elif x >= 0:
                        x ^= v
                if x >= 0 and x < seen.shape[0]:
                    seen[x] = stamp
        if state[TOP] > top:
            continue
        v = 0
        while seen[v] == stamp:
            v += 1
        if state[USED] >= limit:
            return TABLE_FULL
        store(k0, k1, vals, d, cells, v)
        state[USED] += 1
        state[SOLVED] += 1
        state[TOP] = top - 1
        done += 1
        if done >= state[BUDGET]:
            return PAUSED
    return DONE


def board_parts(board, full, orient, edges, parts):
    """The regions of a board (1 = filled) into ``parts``; returns their count."""
    fits = np.empty(orient.shape[0], np.uint64)
    return split(full & ~board, orient, fits, edges, parts)


def board_nimber(board, full, orient, edges, rowof, colof, lines, syms, k0, k1, vals):
    """The XOR of the stored nimbers of a board's regions, or -1 if one of them is not in the table yet."""
    parts = np.empty(MAX_PARTS, np.uint64)
    fits = np.empty(orient.shape[0], np.uint64)
    key = np.empty(2, np.uint64)
    n = split(full & ~board, orient, fits, edges, parts)
    x = 0
    for p in range(n):
        region_key(parts[p], rowof, colof, lines, syms, key)
        v = lookup(k0, k1, vals, key[0], key[1])
        if v < 0:
            return -1
        x ^= v
    return x


def region_keys(regions, rowof, colof, lines, syms, out):
    """The keys of many regions into ``out`` (regions x 2)."""
    key = np.empty(2, np.uint64)
    for i in range(regions.shape[0]):
        region_key(regions[i], rowof, colof, lines, syms, key)
        out[i, 0] = key[0]
        out[i, 1] = key[1]


def insert_all(d, cells, v, k0, k1, vals):
    """Store many (key, nimber) entries, e.g. a table read from disk or the old table when it grows; returns how
    many were new."""
    new = 0
    for i in range(d.shape[0]):
        if d[i] != ZERO:
            s = slot(k0, k1, d[i], cells[i])
            if k0[s] == ZERO:
                new += 1
            k0[s] = d[i]
            k1[s] = cells[i]
            vals[s] = v[i]
    return new


EXPORTS = {
    "solve_regions": "i8(u8[:,::1], u8[::1], u8[::1], u8[::1], u8[::1], u1[::1], u8[::1], u8[::1], i2[::1], u8[::1], i8[::1])",
    "board_parts": "i8(u8, u8, u8[:,::1], u8[::1], u8[::1])",
    "board_nimber": "i8(u8, u8, u8[:,::1], u8[::1], u8[::1], u8[::1], u8[::1], u1[::1], u8[::1], u8[::1], i2[::1])",
    "region_keys": "void(u8[::1], u8[::1], u8[::1], u8[::1], u1[::1], u8[:,::1])",
    "insert_all": "i8(u8[::1], u8[::1], i2[::1], u8[::1], u8[::1], i2[::1])",
}
