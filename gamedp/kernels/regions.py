"""Kernels of the region solver: split a placement board into independent regions, key a region canonically, and
find region nimbers by a depth-first mex search over a hash table of canonical regions.

Boards are bitboards in the frame of one R x C board (bit ``r * cols + c``), as in :mod:`gamedp.kernels.blockgame`;
a *region* is a set of empty cells joined by placements that fit: no placement covers cells of two regions, so a
board is the sum of its regions and its nimber is the XOR of theirs. Empty cells no placement covers are dropped.

A region's *key* is two words: ``h << 8 | w`` of its bounding box and its cells packed row by row at stride ``w``,
after the symmetry (among those the pieces allow) that gives the least (dims, cells) pair. Congruent regions of
any board share a key, so the table of region nimbers carries over from board to board and from run to run.
Keys are made a row at a time (see :func:`region_key`), and a small cache of regions as they lie on the board
sits in front of the table, so most look-ups make no key at all.

The search (:func:`solve_regions`) keeps its stack in arrays owned by the caller, and returns when the table is
3/4 full, the stack is full or its step budget is spent: the caller grows what is needed (or draws progress) and
calls again, and the search resumes where it stopped.
"""

import numpy as np

from gamedp.kernels.blockgame import (ALL, ANCHORS, BIT_INDEX, DEBRUIJN, GOLDEN, LOSE_CODE, NCELLS, OFFSETS, ONE, SHAPE,
                                      WIN_CODE, ZERO)

EIGHT = np.uint64(8)
#: most regions one board (or one child) splits into: one per cell, with a one-cell piece
MAX_PARTS = 64
#: what :func:`solve_regions` returns
DONE, TABLE_FULL, STACK_FULL, PAUSED = 0, 1, 2, 3
#: ``state`` slots shared with the caller
TOP, USED, SOLVED, BUDGET, BIGGEST = 0, 1, 2, 3, 4
#: what :func:`reduce` finds
RESOLVED, SEARCH, UNKNOWN = 4, 5, 6
#: what :func:`outcome_search` returns besides WIN_CODE and LOSE_CODE
NIMBER_TABLE_FULL, NIMBER_STACK_FULL, MEMO_FULL, FRAMES_FULL, OUT_OF_BUDGET = -1, -2, -3, -4, -5
#: helpers that borrow the arrays they are passed (see gamedp.aot.jit_functions): compiled without reference
#: counts, two atomic operations per array passed, inlined or not (a large share of the outcome search's time:
#: docs/performance.md)
BORROW = ("fitting", "split", "placements", "region_key", "spread", "slot", "lookup", "cached", "store", "reduce",
          "remember_outcome", "bit_index", "canonical", "learn_nimber", "filter_bit", "may_hold", "mark_images")
#: the regions whose nimber the outcome search gathers from its children while they are all settled (see
#: :func:`outcome_search`): larger regions have children of unknown nimber more often, and scanning all their
#: children past a winning one cost more than it saved (on 4 x 6 Cram and 5 x 5 BLOCKGAME)
MEX_SCAN_CELLS = 10
#: ``ostate`` slots shared with the caller
MEMO_USED, NODES, NODE_BUDGET = 0, 1, 2
#: slots of the outcome search's table of replies (placement -> the placement that last won against it)
REPLY_SLOTS = 1024
#: a kept child's ordering key once it is known to be won for the opponent: never tried (see outcome_search)
KNOWN_WON = 1 << 40


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
    it, until it stops growing. With ``edges[5]`` set (every piece 4-connected, and both dominoes among them) the
    live cells are simply the empty cells with an empty neighbour.
    """
    stride = edges[4]
    if edges[5] != ZERO:
        rest = live_simple(empty, edges[0], edges[1], edges[2], edges[3], stride)
    else:
        rest = fitting(empty, orient, fits)
    n = 0
    while rest != ZERO:
        comp = rest & (~rest + ONE)
        if stride != ZERO:
            comp = grow(comp, rest, rest & edges[1], rest & edges[0], stride)
        else:
            while True:
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


def placements(region, orient, out):
    """Every placement that fits in ``region`` (a mask of empty cells), into ``out``; returns their count."""
    n = 0
    for o in range(orient.shape[0]):
        f = orient[o, ANCHORS]
        for c in range(orient[o, NCELLS]):
            f &= region >> orient[o, OFFSETS + c]
        shape = orient[o, SHAPE]
        while f != ZERO:
            low = f & (~f + ONE)
            f ^= low
            out[n] = shape * low
            n += 1
    return n


def neighbours(x, e0, e1, e2, e3, stride):
    """The cells next to those of ``x`` (``e0``..``e3``: the cells with a neighbour right, left, below, above)."""
    return ((x & e0) << ONE) | ((x & e1) >> ONE) | ((x & e2) << stride) | ((x & e3) >> stride)


def live_simple(empty, e0, e1, e2, e3, stride):
    """The live cells of ``empty`` when they are those with an empty neighbour (see :func:`split`)."""
    return empty & neighbours(empty, e0, e1, e2, e3, stride)


def grow(comp, rest, from_left, from_right, stride):
    """The 4-connected component of the cells ``rest`` that holds ``comp`` (``from_left``/``from_right``: the
    cells of ``rest`` with a neighbour to the left/right, see :func:`grow_seeded`)."""
    while True:  # two steps a round: half the tests and branches; done at once when it holds them all
        grown = (comp | ((comp << ONE) & from_left) | ((comp >> ONE) & from_right)
                 | (((comp << stride) | (comp >> stride)) & rest))
        grown = (grown | ((grown << ONE) & from_left) | ((grown >> ONE) & from_right)
                 | (((grown << stride) | (grown >> stride)) & rest))
        if grown == comp or grown == rest:
            return grown
        comp = grown


def grow_seeded(seed, rest, seeds, live, from_left, from_right, stride):
    """The 4-connected component of the cells ``rest`` that holds the cell ``seed``, where each component holds one
    of the cells ``seeds`` at least: once the fill holds them all, it is the whole of ``rest``.

    ``rest`` is a union of components of the cells ``live`` (the others found already), so a step may grow into
    ``live``: no cell of another component is next to this one. ``from_left``/``from_right`` are the cells of
    ``live`` with a neighbour to the left/right: a shift along a row lands in them unless it wraps round to the
    next row; a shift across rows leaves the board or lands in the next row, so ``live`` alone bounds it.
    """
    comp = seed
    while comp & seeds != seeds:
        # the step written out as in grow, not through a helper both call (slower, even inlined)
        grown = (comp | ((comp << ONE) & from_left) | ((comp >> ONE) & from_right)
                 | (((comp << stride) | (comp >> stride)) & live))
        if grown == comp:
            return comp
        comp = grown
    return rest


def spread_table():
    """``SPREAD[h, b]``: the bits of the byte ``b`` spread to stride ``h`` (bit j to bit j * h), for h = 1..64.

    >>> int(spread_table()[3, 0b101])   # bits 0 and 2 to bits 0 and 6
    65
    """
    t = np.zeros((65, 256), np.uint64)
    for h in range(1, 65):
        for j in range(8):
            if j * h < 64:
                t[h, (np.arange(256) >> j) & 1 == 1] |= np.uint64(1 << (j * h))
    return t


SPREAD = spread_table()
M1 = np.uint64(0x5555555555555555)
M2 = np.uint64(0x3333333333333333)
M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
M8 = np.uint64(0x00FF00FF00FF00FF)
M16 = np.uint64(0x0000FFFF0000FFFF)


def reverse(x):
    """The 64 bits of ``x`` in reverse order."""
    x = ((x >> ONE) & M1) | ((x & M1) << ONE)
    x = ((x >> np.uint64(2)) & M2) | ((x & M2) << np.uint64(2))
    x = ((x >> np.uint64(4)) & M4) | ((x & M4) << np.uint64(4))
    x = ((x >> EIGHT) & M8) | ((x & M8) << EIGHT)
    x = ((x >> np.uint64(16)) & M16) | ((x & M16) << np.uint64(16))
    return (x >> np.uint64(32)) | (x << np.uint64(32))


def spread(row, h):
    """The bits of ``row`` spread to stride ``h`` (bit c to bit c * h), a byte at a time."""
    t = ZERO
    k = ZERO
    while row != ZERO:
        t |= SPREAD[h, row & np.uint64(255)] << (k * h)
        row >>= EIGHT
        k += EIGHT
    return t


def region_key(region, cols, syms, key):
    """The canonical key of ``region`` (on a board ``cols`` wide) into key[0] (dims) and key[1] (cells): the least
    over the allowed symmetries ``syms`` (flags of the 8 maps: identity, rot180, mirror, flip, rot90, rot270,
    transpose, antitranspose).

    A row at a time: the region's rows, shifted to the bounding box, make the identity image and its flip (rows
    in reverse order); spread to stride h they make the transpose and the quarter turn. Each of the other four
    maps is one of these four turned half round, which on the packed h x w bits is a reversal of the word.
    """
    low = region & (~region + ONE)
    r0 = np.uint64(bit_index(low)) // cols
    cmask = ALL >> (np.uint64(64) - cols)
    rest = region >> (r0 * cols)
    fold = ZERO
    h = ZERO
    while True:
        row = rest & cmask
        fold |= row
        h += ONE
        if rest == row:
            break
        rest >>= cols
    c0 = np.uint64(bit_index(fold & (~fold + ONE)))
    fold >>= c0
    w = ZERO
    while fold != ZERO:
        fold >>= ONE
        w += ONE
    i0, i3, i4, i6 = base_images(region >> (r0 * cols + c0), cols, h, w)
    turn = np.uint64(64) - h * w
    d0 = (h << EIGHT) | w
    d1 = (w << EIGHT) | h
    best_d = d0
    best = i0
    # maps 1-3 written out, not through image(): the mex search runs faster so (docs/performance.md)
    if syms[1] != 0:
        best = min(best, reverse(i0) >> turn)
    if syms[2] != 0:
        best = min(best, reverse(i3) >> turn)
    if syms[3] != 0:
        best = min(best, i3)
    if d1 <= d0:
        for s in range(4, 8):
            if syms[s] != 0:
                im = image(s, i0, i3, i4, i6, turn)
                if d1 < best_d or im < best:
                    best_d = d1
                    best = im
    key[0] = best_d
    key[1] = best


def image(s, i0, i3, i4, i6, turn):
    """The image of a region under the ``s``-th map (in :func:`region_key`'s order), from the four of
    :func:`base_images`: the other four are those turned half round, a reversal of the packed word."""
    if s == 0:
        return i0
    if s == 1:
        return reverse(i0) >> turn
    if s == 2:
        return reverse(i3) >> turn
    if s == 3:
        return i3
    if s == 4:
        return i4
    if s == 5:
        return reverse(i4) >> turn
    if s == 6:
        return i6
    return reverse(i6) >> turn


def base_images(rest, cols, h, w):
    """The identity image, flip, quarter turn and transpose of the h x w cells ``rest`` (rows at stride ``cols``,
    box at the corner), packed at stride w (h for the last two); the other four maps are these turned half round
    (see :func:`region_key`)."""
    wmask = ALL >> (np.uint64(64) - w)
    i0 = ZERO
    i3 = ZERO
    i4 = ZERO
    i6 = ZERO
    for i in range(h):
        row = rest & wmask
        if i + ONE < h:
            rest >>= cols
        ii = np.uint64(i)
        i0 |= row << (ii * w)
        i3 |= row << ((h - ONE - ii) * w)
        t = spread(row, h)
        i6 |= t << ii
        i4 |= t << (h - ONE - ii)
    return i0, i3, i4, i6


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


def cached(region, cols, syms, k0, k1, vals, ck, cv, key):
    """The nimber of ``region``, or -1 if it is not in the table (then ``key`` holds its canonical key).

    ``ck``/``cv`` are a cache in front of the table, keyed by the region as it lies on the board: a hit costs
    no canonical key. A slot holds the last region that hashed there, so the cache never grows; it is only
    valid for one board frame (0, the empty region, is never asked for).
    """
    s = nimber_slot(region, np.uint64(ck.shape[0] - 1))
    if ck[s] == region:
        return cv[s]
    region_key(region, cols, syms, key)
    v = lookup(k0, k1, vals, key[0], key[1])
    if v >= 0:
        ck[s] = region
        cv[s] = v
    return v


def nimber_slot(region, mask):
    """Where ``region`` goes in the cache in front of the nimber table."""
    return ((region * GOLDEN) >> np.uint64(32)) & mask


def store(k0, k1, vals, d, cells, v):
    s = slot(k0, k1, d, cells)
    k0[s] = d
    k1[s] = cells
    vals[s] = v


def filter_bit(shape, bloom):
    """The bit of the table's filter ``bloom`` that a region's shape (its cells shifted down to its first) sets."""
    h = (shape * GOLDEN) >> (np.uint64(64) - np.uint64(bit_index(np.uint64(bloom.shape[0]) << np.uint64(6))))
    return h >> np.uint64(6), ONE << (h & np.uint64(63))


def may_hold(region, bloom):
    """False if no region in the table lies like ``region`` (a region on the board), up to translation and the
    allowed symmetries: then it is not there, and no canonical key is made (most regions asked for are not)."""
    word, bit = filter_bit(region >> np.uint64(bit_index(region & (~region + ONE))), bloom)
    return bloom[word] & bit != ZERO


def mark_images(d, cells, cols, syms, bloom):
    """Set in ``bloom`` the bits of every way the region of key (d, cells) can lie on a board ``cols`` wide: each
    allowed image, at stride ``cols`` (those wider than the board or past 64 bits cannot lie there)."""
    h = d >> EIGHT
    w = d & np.uint64(255)
    i0, i3, i4, i6 = base_images(cells, w, h, w)
    turn = np.uint64(64) - h * w
    for s in range(8):
        if syms[s] != 0:
            im = image(s, i0, i3, i4, i6, turn)
            ih, iw = (h, w) if s < 4 else (w, h)
            if iw > cols or (ih - ONE) * cols + iw > np.uint64(64):
                continue
            wmask = ALL >> (np.uint64(64) - iw)
            shape = ZERO
            for i in range(ih):
                ii = np.uint64(i)
                shape |= ((im >> (ii * iw)) & wmask) << (ii * cols)
            word, bit = filter_bit(shape >> np.uint64(bit_index(shape & (~shape + ONE))), bloom)
            bloom[word] |= bit


def fill_filter(k0, k1, cols, syms, bloom):
    """Set in ``bloom`` the bits of every region in the table (see :func:`mark_images`)."""
    for i in range(k0.shape[0]):
        if k0[i] != ZERO:
            mark_images(k0[i], k1[i], cols, syms, bloom)


def solve_regions(orient, edges, cols, syms, k0, k1, vals, ck, cv, stack, state):
    """Resume the search on ``stack`` (regions, ``state[TOP]`` of them) until it is empty (DONE), the table holds
    3/4 of its slots (TABLE_FULL), the stack has no room for one more node's children (STACK_FULL) or
    ``state[BUDGET]`` nodes have been finished (PAUSED).

    A region on top of the stack pushes the sub-regions of its moves that are not in the table yet; when none is
    left unknown (at once, or when it comes back to the top) its nimber is the mex of its moves' XORs. No region
    is its own sub-region, so the search ends.
    """
    return mex_search(orient, edges, cols, syms, k0, k1, vals, np.empty(0, np.uint64), ck, cv, stack, state)


def mex_search(orient, edges, cols, syms, k0, k1, vals, bloom, ck, cv, stack, state):
    """:func:`solve_regions`, callable from the other kernels; each region solved sets its bits in the table's
    filter ``bloom`` (see :func:`may_hold`) unless it is empty (no outcome search asks: marking costs the mex
    search time)."""
    fits = np.empty(orient.shape[0], np.uint64)
    parts = np.empty(MAX_PARTS, np.uint64)
    key = np.empty(2, np.uint64)
    seen = np.zeros(4096, np.int64)
    moves = np.empty(64 * orient.shape[0], np.uint64)
    stamp = 0
    limit = k0.shape[0] * 3 // 4
    cap = stack.shape[0]
    done = 0
    while state[TOP] > 0:
        top = state[TOP]
        region = stack[top - 1]
        if cached(region, cols, syms, k0, k1, vals, ck, cv, key) >= 0:
            state[TOP] = top - 1
            continue
        d = key[0]
        cells = key[1]
        stamp += 1
        for i in range(placements(region, orient, moves)):
            n = split(region & ~moves[i], orient, fits, edges, parts)
            x = 0
            for p in range(n):
                v = cached(parts[p], cols, syms, k0, k1, vals, ck, cv, key)
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
        if bloom.shape[0] > 0:
            mark_images(d, cells, cols, syms, bloom)
        state[BIGGEST] = max(state[BIGGEST], cells_in(cells))
        state[USED] += 1
        state[SOLVED] += 1
        state[TOP] = top - 1
        done += 1
        if done >= state[BUDGET]:
            return PAUSED
    return DONE


def reduce(mask, heap, orient, fits, edges, cols, syms, k0, k1, vals, ck, cv, key, parts, biggest):
    """The Lemoine-Viennot reduction of the sum of the regions of ``mask`` and a Nim heap: the nimbers of all
    regions but the largest go into the heap. Returns (code, region, heap):

    - (RESOLVED, 0, x): every nimber is known; the sum is worth x (lost for the player to move iff x == 0);
    - (SEARCH, region, x): the largest region's nimber is unknown (none in the table is larger than
      ``biggest`` cells);
    - (UNKNOWN, region, 0): the nimber of ``region``, a smaller one, is unknown.
    """
    n = split(mask, orient, fits, edges, parts)
    if n == 0:
        return RESOLVED, ZERO, heap
    big = 0
    most = cells_in(parts[0])
    for p in range(1, n):
        c = cells_in(parts[p])
        if c > most:
            most = c
            big = p
    x = heap
    for p in range(n):
        if p == big:
            continue
        v = cached(parts[p], cols, syms, k0, k1, vals, ck, cv, key)
        if v < 0:
            return UNKNOWN, parts[p], 0
        x ^= v
    if most <= biggest:
        v = cached(parts[big], cols, syms, k0, k1, vals, ck, cv, key)
        if v >= 0:
            return RESOLVED, ZERO, x ^ v
    return SEARCH, parts[big], x


def reduce_solving(mask, heap, orient, fits, edges, cols, syms, k0, k1, vals, bloom, ck, cv, key, parts, stack,
                   state):
    """:func:`reduce`, solving by the mex search the nimbers of the smaller regions it needs: returns (RESOLVED
    or SEARCH, region, heap) as it does, or (TABLE_FULL or STACK_FULL, 0, 0) if the mex search needs a bigger
    table or stack (what it solved so far is kept)."""
    while True:
        code, r, x = reduce(mask, heap, orient, fits, edges, cols, syms, k0, k1, vals, ck, cv, key, parts,
                            state[BIGGEST])
        if code != UNKNOWN:
            return code, r, x
        stack[0] = r
        state[TOP] = 1
        state[BUDGET] = 1 << 62
        status = mex_search(orient, edges, cols, syms, k0, k1, vals, bloom, ck, cv, stack, state)
        if status != DONE:
            return status, ZERO, 0


def cells_in(region):
    """The number of cells of ``region`` (regions are small: one step per cell)."""
    n = 0
    while region != ZERO:
        region &= region - ONE
        n += 1
    return n


def outcome_slot(region, heap, mask):
    """Where (region as it lies on the board, heap) goes in the cache ``ocr``/``ocv`` in front of the outcome
    memo: a slot holds the last pair that hashed there, ``ocv`` being heap << 2 | outcome."""
    return (((region ^ (np.uint64(heap) * GOLDEN)) * GOLDEN) >> np.uint64(32)) & mask


def remember_outcome(region, heap, outcome, ocr, ocv):
    s = outcome_slot(region, heap, np.uint64(ocr.shape[0] - 1))
    ocr[s] = region
    ocv[s] = (heap << 2) | outcome


def outcome_key(dims, heap):
    """The word the outcome memo files (region, heap) under, with the region's cells: dims below, heap above."""
    return dims | (np.uint64(heap) << np.uint64(16))


def canonical(region, cols, syms, kr, kd, kc, key):
    """The slot of the cache ``kr``/``kd``/``kc`` (region as it lies on the board -> canonical dims, cells) that
    holds ``region``'s key, made if it was not there: the search asks for the key of a region when it descends
    into it, when it stores it, and when it asks the table for its nimber."""
    s = nimber_slot(region, np.uint64(kr.shape[0] - 1))
    if kr[s] != region:
        region_key(region, cols, syms, key)
        kr[s] = region
        kd[s] = key[0]
        kc[s] = key[1]
    return s


def outcome_search(root, heap, rules, nimbers, memo, caches, frames, ostate):
    """Win/lose of the regions of ``root`` (a mask of empty cells) plus a Nim heap, by the Lemoine-Viennot method:
    a node is the largest region of a sum and the XOR of the others' nimbers as a heap (:func:`reduce`); its
    moves are the placements in the region and the heap's moves. A child is resolved at once when every nimber
    of its sum is known (a region's nimber, once known, answers every heap); else the search descends into it.
    A node (region, h) found lost gives the region's nimber, h: it goes into the table (counted as solved); so
    does the mex of a small region's children's values when all of them are settled (every nimber known).
    ``bloom`` is the filter in front of the table (see :func:`may_hold`): a region it turns away is not looked up.
    ``kr``/``kd``/``kc`` cache canonical keys of regions as they lie on the board (see :func:`canonical`), ``sc``
    triples (child, its largest region, the XOR of its other regions' nimbers) of children as they lie on the board,
    one after the other (a two-dimensional array's row stride cost a load at every look-up).

    Two things spare it searches. A node's child entered by placement p that is won by placement q makes the
    position of p and q lost, so the node's child entered by q is won too (by p): it is not tried. And a node first
    tries, of its placements, the one that last won against the placement that led into it (a countermove).

    Its arrays come in five tuples, by what they hold: ``rules`` (orient, edges, cols, syms: the board's
    placements, as :func:`reduce` takes them), ``nimbers`` (k0, k1, vals, bloom, ck, cv, stack, state: the nimber
    table, its filter and cache, and the mex search's stack and state), ``memo`` (o0, o1, ov, ocr, ocv: the
    outcome memo and the cache in front of it), ``caches`` (kr, kd, kc, sc: canonical keys and splits of regions
    as they lie on the board) and ``frames`` (fr, fh, fc, fx, fs, fn, fi: the search's stack).

    Returns WIN_CODE (2) or LOSE_CODE (1), or a negative code asking the caller to grow something and call
    again, which starts over from the root with all that was learnt: NIMBER_TABLE_FULL, NIMBER_STACK_FULL,
    MEMO_FULL (the outcome memo o0/o1/ov holds 3/4 of its slots), FRAMES_FULL (the frames fr/fh/fn/fi, and
    ``fc``/``fx``/``fs`` with as many entries per frame as the board has placements), or OUT_OF_BUDGET
    (``ostate[NODES]`` reached ``ostate[NODE_BUDGET]``: a moment for a progress report). ``ostate[MEMO_USED]``
    counts the memo's entries.
    """
    orient, edges, cols, syms = rules
    k0, k1, vals, bloom, ck, cv, stack, state = nimbers
    o0, o1, ov, ocr, ocv = memo
    kr, kd, kc, sc = caches
    fr, fh, fc, fx, fs, fn, fi = frames
    fits = np.empty(orient.shape[0], np.uint64)
    parts = np.empty(MAX_PARTS, np.uint64)
    key = np.empty(2, np.uint64)
    moves = np.empty(64 * orient.shape[0], np.uint64)
    simple = edges[5] != ZERO
    e0, e1, e2, e3, stride = edges[0], edges[1], edges[2], edges[3], edges[4]
    cache_mask = np.uint64(ocr.shape[0] - 1)
    split_mask = np.uint64(sc.shape[0] // 3 - 1)
    nimber_mask = np.uint64(ck.shape[0] - 1)
    nmax = fc.shape[0] // fr.shape[0]
    depth = fr.shape[0]
    limit = o0.shape[0] * 3 // 4
    limit_nimbers = k0.shape[0] * 3 // 4
    code, r, x = reduce_solving(root, heap, orient, fits, edges, cols, syms, k0, k1, vals, bloom, ck, cv, key, parts,
                                stack, state)
    if code == TABLE_FULL:
        return NIMBER_TABLE_FULL
    if code == STACK_FULL:
        return NIMBER_STACK_FULL
    if code == RESOLVED:
        return WIN_CODE if x != 0 else LOSE_CODE
    e = canonical(r, cols, syms, kr, kd, kc, key)
    m = lookup(o0, o1, ov, outcome_key(kd[e], x), kc[e])
    if m > 0:
        return m
    d = 0
    fr[0] = r
    fh[0] = x
    # per frame, the placement that led into it and, once it is won, the placement that wins it (0 for the root, a
    # heap move, or a win found by the mex of the children); per kept child, its placement
    came = np.zeros(depth, np.uint64)
    won_by = np.zeros(depth, np.uint64)
    child_move = np.empty(fc.shape[0], np.uint64)
    # per frame, the values of the children its first pass settled: a heap move to one of them loses
    values = np.zeros(depth, np.uint64)
    reply_of = np.zeros(REPLY_SLOTS, np.uint64)
    reply = np.zeros(REPLY_SLOTS, np.uint64)
    reply_mask = np.uint64(REPLY_SLOTS - 1)
    expand = True
    while True:
        result = 0
        if expand:
            ostate[NODES] += 1
            if ostate[NODES] >= ostate[NODE_BUDGET]:
                return OUT_OF_BUDGET
            region = fr[d]
            h = fh[d]
            n = 0
            won_by[d] = ZERO
            nk = placements(region, orient, moves)
            if came[d] != ZERO:
                t = nimber_slot(came[d], reply_mask)
                if reply_of[t] == came[d]:
                    for k in range(nk):
                        if moves[k] == reply[t]:
                            moves[k] = moves[0]
                            moves[0] = reply[t]
                            break
            # while every child of a small region is settled (all its regions' nimbers known), their values are
            # gathered: if all are, the region's nimber is their mex, found without a search
            settled = cells_in(region) <= MEX_SCAN_CELLS
            seen = ZERO
            for k in range(nk):
                child = region & ~moves[k]
                # the common case first, in place: every region but the largest has its nimber in the cache in
                # front of the table, and the largest is too big to have one in the table, or has it there
                code = np.int64(UNKNOWN)
                if simple:
                    # a child met before (as the child of another node) has its split in the cache: its largest
                    # region and the XOR of the others' nimbers
                    t = nimber_slot(child, split_mask)
                    t3 = t * np.uint64(3)
                    if sc[t3] == child:
                        r = sc[t3 + ONE]
                        x = h ^ np.int64(sc[t3 + np.uint64(2)])
                        most = cells_in(r)
                        code = np.int64(SEARCH if r != ZERO else RESOLVED)
                    else:
                        rest = live_simple(child, e0, e1, e2, e3, stride)
                        # the region is 4-connected, so each region of the child holds a live cell next to the
                        # placement: a fill that holds all of those left is the last region, and most children
                        # are one region whose cells next to the placement join within a step or two
                        seeds = neighbours(moves[k], e0, e1, e2, e3, stride) & rest
                        live = rest
                        from_left = live & e1
                        from_right = live & e0
                        n_parts = 0
                        big = 0
                        most = 0
                        while rest != ZERO:
                            comp = grow_seeded(seeds & (~seeds + ONE), rest, seeds, live, from_left, from_right,
                                                stride)
                            rest &= ~comp
                            seeds &= ~comp
                            size = cells_in(comp)
                            # of regions as large, the one with the lowest cell, as split finds them
                            if size > most or (size == most and
                                               comp & (~comp + ONE) < parts[big] & (~parts[big] + ONE)):
                                most = size
                                big = n_parts
                            parts[n_parts] = comp
                            n_parts += 1
                        x = h
                        code = np.int64(SEARCH if n_parts > 0 else RESOLVED)
                        for p in range(n_parts):
                            if p != big:
                                s = nimber_slot(parts[p], nimber_mask)
                                if ck[s] != parts[p]:
                                    code = np.int64(UNKNOWN)
                                    break
                                x ^= cv[s]
                        r = parts[big] if n_parts > 0 else ZERO
                        if code != UNKNOWN:
                            sc[t3] = child
                            sc[t3 + ONE] = r
                            sc[t3 + np.uint64(2)] = np.uint64(x ^ h)
                    if code == SEARCH and most <= state[BIGGEST]:  # the table may know the largest region
                        s = nimber_slot(r, nimber_mask)
                        if ck[s] != r and may_hold(r, bloom):
                            e = canonical(r, cols, syms, kr, kd, kc, key)
                            v = lookup(k0, k1, vals, kd[e], kc[e])
                            if v >= 0:
                                ck[s] = r
                                cv[s] = v
                        if ck[s] == r:
                            x ^= cv[s]
                            code = np.int64(RESOLVED)
                if code == UNKNOWN:
                    code, r, x = reduce(child, h, orient, fits, edges, cols, syms, k0, k1, vals, ck, cv, key,
                                        parts, state[BIGGEST])
                if code == RESOLVED:
                    if x ^ h < 64:
                        seen |= ONE << np.uint64(x ^ h)
                    else:
                        settled = False
                    if x == 0:
                        if result == 0:
                            won_by[d] = moves[k]
                        result = WIN_CODE
                        if not settled:
                            break
                    continue
                settled = False
                if result != 0:  # won already, and with a child unsettled the region's nimber stays unknown
                    break
                # a child kept as (region, heap) is searched as it is; one with a smaller region of unknown
                # nimber (heap -1) is reduced again, solving those nimbers, when its turn comes
                b = d * nmax + n
                fc[b] = child
                fx[b] = -1
                child_move[b] = moves[k]
                mob = 0
                if code == SEARCH:
                    s = outcome_slot(r, x, cache_mask)
                    if ocr[s] == r and ocv[s] >> 2 == x:
                        if ocv[s] & 3 == LOSE_CODE:
                            won_by[d] = moves[k]
                            result = WIN_CODE
                            break
                        continue
                    fc[b] = r
                    fx[b] = x
                    # the search tries first the children that leave the fewest placements: a lost position
                    # is likelier among them, and quicker to prove
                    for q in range(orient.shape[0]):
                        f = orient[q, ANCHORS]
                        for c in range(orient[q, NCELLS]):
                            f &= r >> orient[q, OFFSETS + c]
                        mob += cells_in(f)
                fs[b] = mob
                n += 1
            if settled:
                v = np.int64(bit_index(~seen & (seen + ONE)))
                e = canonical(region, cols, syms, kr, kd, kc, key)
                learn_nimber(region, v, kd[e], kc[e], cols, syms, k0, k1, vals, bloom, ck, cv, state, limit_nimbers)
                result = WIN_CODE if v != h else LOSE_CODE  # no heap move needs a search
            fn[d] = n
            fi[d] = 0
            values[d] = seen
            if result == 0 and h > 0:
                for g in range(h):
                    s = outcome_slot(region, g, cache_mask)
                    if ocr[s] == region and ocv[s] == (g << 2) | LOSE_CODE:
                        result = WIN_CODE
                        break
            expand = False
        while result == 0:
            i = fi[d]
            if i == fn[d] + fh[d]:
                result = LOSE_CODE
                break
            fi[d] = i + 1
            if i < fn[d]:
                b = d * nmax + i
                best = b
                for j in range(b + 1, d * nmax + fn[d]):
                    if fs[j] < fs[best]:
                        best = j
                if best != b:
                    c = fc[b]
                    fc[b] = fc[best]
                    fc[best] = c
                    g = fx[b]
                    fx[b] = fx[best]
                    fx[best] = g
                    g = fs[b]
                    fs[b] = fs[best]
                    fs[best] = g
                    c = child_move[b]
                    child_move[b] = child_move[best]
                    child_move[best] = c
                if fs[b] >= KNOWN_WON:  # and so are the rest
                    fi[d] = fn[d]
                    continue
                mask = fc[b]
                g = fx[b]
                hh = fh[d]
                move = child_move[b]
            else:  # the heap's moves come last: each asks for a whole search of the region with a smaller heap
                mask = fr[d]
                g = -1
                hh = i - fn[d]
                move = ZERO
                if hh < 64 and (values[d] >> np.uint64(hh)) & ONE != ZERO:
                    continue  # a child has value hh: the heap move to hh leaves the opponent that move
            if g >= 0:
                code = np.int64(SEARCH)
                r = mask
                x = g
            else:
                code, r, x = reduce(mask, hh, orient, fits, edges, cols, syms, k0, k1, vals, ck, cv, key, parts,
                                    state[BIGGEST])
                if code == UNKNOWN:
                    code, r, x = reduce_solving(mask, hh, orient, fits, edges, cols, syms, k0, k1, vals, bloom, ck, cv,
                                                key, parts, stack, state)
            if code == TABLE_FULL:
                return NIMBER_TABLE_FULL
            if code == STACK_FULL:
                return NIMBER_STACK_FULL
            if code == RESOLVED:
                if x == 0:
                    result = WIN_CODE
                    won_by[d] = move
                continue
            s = nimber_slot(r, nimber_mask)
            if ck[s] == r:  # its nimber was found since the node was expanded (a sibling's subtree lost with it)
                if cv[s] == x:
                    result = WIN_CODE
                    won_by[d] = move
                continue
            e = canonical(r, cols, syms, kr, kd, kc, key)
            m = lookup(o0, o1, ov, outcome_key(kd[e], x), kc[e])
            if m > 0:
                remember_outcome(r, x, m, ocr, ocv)
                if m == LOSE_CODE:
                    result = WIN_CODE
                    won_by[d] = move
                continue
            if d + 1 == depth:
                return FRAMES_FULL
            d += 1
            fr[d] = r
            fh[d] = x
            came[d] = move
            expand = True
            break
        if result == 0:
            continue
        # store the finished node and hand its result up the frames
        while True:
            if ostate[MEMO_USED] >= limit:
                return MEMO_FULL
            e = canonical(fr[d], cols, syms, kr, kd, kc, key)
            store(o0, o1, ov, outcome_key(kd[e], fh[d]), kc[e], result)
            remember_outcome(fr[d], fh[d], result, ocr, ocv)
            ostate[MEMO_USED] += 1
            if result == LOSE_CODE:
                # region + *h is lost iff the region's nimber is h: a true nimber, which answers the region with
                # any heap wherever it comes again, as the largest region of a child or a smaller one
                learn_nimber(fr[d], fh[d], kd[e], kc[e], cols, syms, k0, k1, vals, bloom, ck, cv, state,
                             limit_nimbers)
            elif came[d] != ZERO and won_by[d] != ZERO:
                t = nimber_slot(came[d], reply_mask)
                reply_of[t] = came[d]
                reply[t] = won_by[d]
            if d == 0:
                return result
            d -= 1
            if result == LOSE_CODE:
                won_by[d] = came[d + 1]
                result = WIN_CODE
            else:
                # the child entered by p wins by q: the child entered by q wins by p, to the same position
                q = won_by[d + 1]
                if q != ZERO and came[d + 1] != ZERO:
                    for j in range(d * nmax + fi[d], d * nmax + fn[d]):
                        if child_move[j] == q:
                            fs[j] = KNOWN_WON
                            break
                break


def learn_nimber(region, v, d, cells, cols, syms, k0, k1, vals, bloom, ck, cv, state, limit):
    """Record that ``region`` (on the board; canonical key (d, cells)) has nimber ``v``: in the table, counted as
    solved, while it holds fewer than ``limit`` entries, and in the cache in front of it."""
    if state[USED] >= limit:
        return
    s = slot(k0, k1, d, cells)
    if k0[s] == ZERO:  # else known already (found as another node's nimber), and its filter bits set
        state[USED] += 1
        state[SOLVED] += 1
        mark_images(d, cells, cols, syms, bloom)
    k0[s] = d
    k1[s] = cells
    vals[s] = v
    s = nimber_slot(region, np.uint64(ck.shape[0] - 1))
    ck[s] = region
    cv[s] = v
    state[BIGGEST] = max(state[BIGGEST], cells_in(region))


def board_parts(board, full, orient, edges, parts):
    """The regions of a board (1 = filled) into ``parts``; returns their count."""
    fits = np.empty(orient.shape[0], np.uint64)
    return split(full & ~board, orient, fits, edges, parts)


def board_nimber(board, full, orient, edges, cols, syms, k0, k1, vals, ck, cv):
    """The XOR of the stored nimbers of a board's regions, or -1 if one of them is not in the table yet."""
    parts = np.empty(MAX_PARTS, np.uint64)
    fits = np.empty(orient.shape[0], np.uint64)
    key = np.empty(2, np.uint64)
    n = split(full & ~board, orient, fits, edges, parts)
    x = 0
    for p in range(n):
        v = cached(parts[p], cols, syms, k0, k1, vals, ck, cv, key)
        if v < 0:
            return -1
        x ^= v
    return x


def region_keys(regions, cols, syms, out):
    """The keys of many regions into ``out`` (regions x 2)."""
    key = np.empty(2, np.uint64)
    for i in range(regions.shape[0]):
        region_key(regions[i], cols, syms, key)
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
    "solve_regions": "i8(u8[:,::1], u8[::1], u8, u1[::1], u8[::1], u8[::1], i2[::1], u8[::1], i2[::1], u8[::1], i8[::1])",
    "fill_filter": "void(u8[::1], u8[::1], u8, u1[::1], u8[::1])",
    "board_parts": "i8(u8, u8, u8[:,::1], u8[::1], u8[::1])",
    "board_nimber": "i8(u8, u8, u8[:,::1], u8[::1], u8, u1[::1], u8[::1], u8[::1], i2[::1], u8[::1], i2[::1])",
    "region_keys": "void(u8[::1], u8, u1[::1], u8[:,::1])",
    "outcome_search": "i8(u8, i8, Tuple((u8[:,::1], u8[::1], u8, u1[::1])), "
                      "Tuple((u8[::1], u8[::1], i2[::1], u8[::1], u8[::1], i2[::1], u8[::1], i8[::1])), "
                      "Tuple((u8[::1], u8[::1], i2[::1], u8[::1], i8[::1])), UniTuple(u8[::1], 4), "
                      "Tuple((u8[::1], i8[::1], u8[::1], i8[::1], i8[::1], i8[::1], i8[::1])), i8[::1])",
    "insert_all": "i8(u8[::1], u8[::1], i2[::1], u8[::1], u8[::1], i2[::1])",
}
