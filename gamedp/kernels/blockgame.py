"""Kernels of the placement games (BLOCKGAME, Cram, ...): a memo search for the judge and word-parallel tables.

Boards are bitboards (uint64, one bit per cell, 1 = filled). Everything here is unsigned on purpose: numba turns
mixed uint64/int64 arithmetic into floats, and signed array indices cost wraparound checks that block SIMD.

Memo search (:func:`dfs_outcomes`). Before a position is looked up it is *normalised*: every empty cell that no
legal placement covers is filled (it can never be used again, so the value is the same), then the board is mapped
by each symmetry of the game (one table look-up per byte of the board) and the smallest image is the key. The memo
is an open-addressing hash table whose empty slot is all ones (no board of fewer than 64 cells is all ones, and a
full 64-cell board has no moves, so it is never stored).

Strong solve (:func:`table_outcomes`, :func:`table_remoteness`). Cells are numbered so that the lowest ``L`` bits
(the *lanes*, ``L <= 6``) never hold a whole piece. Then one uint64 word holds the ``2**L`` boards that differ only
in the lanes, and for a piece split into a high part ``hi`` (never 0) and a lane part ``lo``, all ``2**L`` boards
of word ``w`` (with ``w & hi == 0``) find their child in word ``w | hi``, at lane ``j | lo = j + lo``: one shift by
``lo`` and one mask of the lanes with ``j & lo == 0``. Children have larger indices, so words are solved from the
top down.

Remoteness is kept as bit planes per word: the win bits, and planes "remoteness <= 2k + 1" (odd remoteness means
WIN, even means LOSE); a parent's planes come from ORs over its children's (see :func:`table_remoteness`), 64
boards at a time.
"""

import numpy as np

ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
ZERO = np.uint64(0)
ONE = np.uint64(1)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
LOSE_CODE = np.uint8(1)
WIN_CODE = np.uint8(2)
#: the index of a lone set bit ``b`` is ``BIT_INDEX[(b * DEBRUIJN) >> 58]``
BIT_INDEX = np.argsort([((1 << i) * int(DEBRUIJN) % 2**64) >> 58 for i in range(64)]).astype(np.int64)
#: entries of the memo search's stacks: the root, then one per move (each fills a cell of at most 64)
DEPTH = 66

#: one row of ``orient`` per piece orientation: shape at anchor 0, anchor mask, cell count, cell offsets...
SHAPE, ANCHORS, NCELLS, OFFSETS = 0, 1, 2, 3


def fits(empty, orient, o):
    """The anchors where orientation ``o`` fits on the empty cells ``empty``."""
    f = orient[o, ANCHORS]
    for c in range(orient[o, NCELLS]):
        f &= empty >> orient[o, OFFSETS + c]
    return f


def live_cells(board, full, orient):
    """The empty cells that some legal placement covers (the others are as good as filled)."""
    empty = full & ~board
    live = ZERO
    for o in range(orient.shape[0]):
        f = fits(empty, orient, o)
        if f != ZERO:
            for c in range(orient[o, NCELLS]):
                live |= f << orient[o, OFFSETS + c]
    return live


def image(board, sym, s):
    """The board mapped by symmetry ``s``: one look-up per byte."""
    t = ZERO
    b = board
    k = 0
    while b != ZERO:
        t |= sym[s, k, b & np.uint64(255)]
        b >>= np.uint64(8)
        k += 1
    return t


def normalise(board, full, orient, sym):
    """The memo key of ``board``: dead cells filled, then the least symmetric image; ``full`` if no move is left."""
    live = live_cells(board, full, orient)
    if live == ZERO:
        return full
    b = board | (full & ~live)
    best = b
    for s in range(1, sym.shape[0]):
        t = image(b, sym, s)
        if t < best:
            best = t
    return best


def slot(keys, key):
    mask = np.uint64(keys.shape[0] - 1)
    s = (key * GOLDEN >> np.uint64(20)) & mask
    while keys[s] != ALL and keys[s] != key:
        s = (s + ONE) & mask
    return s


def dfs_one(root, full, orient, sym, keys, vals, used, limit, sb, sc, sn, si):
    """Win/lose of ``root`` by a depth-first memo search; returns (code, states stored) or code 0 if the memo
    filled up past ``limit``.

    At each node all children are normalised first and checked in the memo (a known lost child wins at once);
    only then does the search descend into the unknown ones. sb/sc/sn/si are the explicit stack: the board, its
    children (``sc[d * nmax:]``, room for ``nmax`` at each depth), their count and the next child to try.
    """
    nmax = sc.shape[0] // sb.shape[0]
    r = normalise(root, full, orient, sym)
    if r == full:
        return LOSE_CODE, used
    s = slot(keys, r)
    if keys[s] == r:
        return vals[s], used
    d = 0
    sb[0] = r
    need_children = True
    while True:
        result = np.uint8(0)
        if need_children:
            b = sb[d]
            empty = full & ~b
            n = 0
            for o in range(orient.shape[0]):
                f = fits(empty, orient, o)
                shape = orient[o, SHAPE]
                while f != ZERO:
                    low = f & (~f + ONE)
                    f ^= low
                    c = normalise(b | (shape * low), full, orient, sym)
                    if c == full:
                        result = WIN_CODE
                        break
                    cs = slot(keys, c)
                    if keys[cs] == c:
                        if vals[cs] == LOSE_CODE:
                            result = WIN_CODE
                            break
                    else:
                        sc[d * nmax + n] = c
                        n += 1
                if result != 0:
                    break
            sn[d] = n
            si[d] = 0
            need_children = False
        while result == 0:
            i = si[d]
            if i == sn[d]:
                result = LOSE_CODE
                break
            si[d] = i + 1
            c = sc[d * nmax + i]
            cs = slot(keys, c)
            if keys[cs] == c:  # solved meanwhile, under another parent
                if vals[cs] == LOSE_CODE:
                    result = WIN_CODE
                continue
            d += 1
            sb[d] = c
            need_children = True
            break
        if result == 0:
            continue
        # store the finished node and hand its result up the stack
        while True:
            if used >= limit:
                return np.uint8(0), used
            s = slot(keys, sb[d])
            keys[s] = sb[d]
            vals[s] = result
            used += 1
            if d == 0:
                return result, used
            d -= 1
            if result == LOSE_CODE:
                result = WIN_CODE  # the parent moves into a lost position
            else:
                break  # the parent tries its next child


def children_bound(orient):
    """At most this many children of one board: 64 anchors per orientation."""
    return 64 * orient.shape[0]


def dfs_outcomes(boards, orient, full, sym, keys, vals, out):
    """Win/lose of each board into ``out`` (2 = WIN, 1 = LOSE), sharing one memo (keys/vals, sized by the caller).

    Returns the number of states stored, or -1 if the memo filled up to 3/4 (the caller doubles it and retries).
    """
    sb = np.empty(DEPTH, np.uint64)
    sc = np.empty(DEPTH * children_bound(orient), np.uint64)
    sn = np.empty(DEPTH, np.int64)
    si = np.empty(DEPTH, np.int64)
    return dfs_outcomes_into(boards, orient, full, sym, keys, vals, out, sb, sc, sn, si)


def dfs_outcomes_into(boards, orient, full, sym, keys, vals, out, sb, sc, sn, si):
    """:func:`dfs_outcomes` with its stacks from the caller: ``DEPTH`` entries each in sb/sn/si, ``DEPTH *
    children_bound(orient)`` in sc."""
    limit = keys.shape[0] * 3 // 4
    used = 0
    for k in range(boards.shape[0]):
        code, used = dfs_one(boards[k], full, orient, sym, keys, vals, used, limit, sb, sc, sn, si)
        if code == 0:
            return -1
        out[k] = code
    return used


def table_outcomes(hi, lo, mask, lanes, compat, win):
    """Strong solve: bit j of ``win[w]`` is set iff board ``w * 2**L + j`` is won by the player to move.

    ``hi``/``lo`` are the pieces split into word and lane parts, ``mask[k]`` the lanes j with ``j & lo[k] == 0``,
    ``lanes`` the mask of the 2**L lanes in use. ``compat[c, x]`` is the set of pieces (64 to a word) whose
    ``hi`` misses the pattern x in bits 7c..7c+6 of a word index: ANDing one entry per 7 bits gives the pieces
    that fit, so the loop visits only those (~1/4 of them), without a branch per piece to mispredict.
    """
    nchunks = compat.shape[0]
    groups = compat.shape[2]
    seven = np.uint64(127)
    w = np.uint64(win.shape[0])
    while w != ZERO:
        w -= ONE
        acc = ZERO
        for g in range(groups):
            fit = compat[0, w & seven, g]
            for c in range(1, nchunks):
                fit &= compat[c, (w >> np.uint64(7 * c)) & seven, g]
            while fit != ZERO:
                low = fit & (~fit + ONE)
                fit ^= low
                k = g * 64 + BIT_INDEX[(low * DEBRUIJN) >> np.uint64(58)]
                acc |= (~win[w | hi[k]] >> lo[k]) & mask[k]
        win[w] = acc & lanes


def table_reach(hi, lo, mask, reach):
    """The boards play reaches from the empty one: bit j of ``reach[w]`` is set iff board ``w * 2**L + j`` is.

    ``hi``, ``lo`` and ``mask`` as :func:`table_outcomes` takes them. A board's children lie in larger words, so
    one pass up the words carries each word's reachable lanes to its children: the lanes ``j`` where a piece fits
    move to ``j + lo``, 64 boards at a time.
    """
    n = np.uint64(reach.shape[0])
    for i in range(reach.shape[0]):
        reach[i] = ZERO
    reach[0] = ONE
    w = ZERO
    while w != n:
        here = reach[w]
        if here != ZERO:
            for k in range(hi.shape[0]):
                if w & hi[k] == ZERO:
                    reach[w | hi[k]] |= (here & mask[k]) << lo[k]
        w += ONE


def popcount(x):
    x = x - ((x >> ONE) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


def table_remoteness(hi, lo, mask, lanes, nm, stride, flat, rem, win, within):
    """Strong solve with remoteness. ``flat`` (words x ``stride``, flattened) is the work area: per word the
    win bits W, then ``nm`` planes M_k = "remoteness <= 2k + 1" (M_nm would be all ones). ``rem`` receives a
    byte per board, ``win`` the win bits as :func:`table_outcomes` gives them, and ``within[r]`` the number of
    boards with Q_r (so the count of remoteness r is ``within[r] - within[r - 2]``).

    With Q_r = "remoteness <= r and of r's parity" (odd remoteness is a WIN), M_k = Q_2k | Q_2k+1 and W tells
    which. A parent has Q_2k+1 = OR over children of Q_2k = OR (M_k AND NOT W), and, if lost (every child won),
    Q_2k = AND over children of Q_2k-1 = NOT OR (NOT M_k-1). So one pass over the children ORs up both.
    """
    npieces = hi.shape[0]
    nwords = flat.shape[0] // stride
    p = np.uint64(stride)
    a = np.empty(nm, np.uint64)  # OR of M_k AND NOT W over the children
    b = np.empty(nm, np.uint64)  # OR of NOT M_k-1 over the children (b[0]: has a move)
    w = np.uint64(nwords)
    while w != ZERO:
        w -= ONE
        won = ZERO
        for k in range(nm):
            a[k] = ZERO
            b[k] = ZERO
        for i in range(npieces):
            h = hi[i]
            if w & h == ZERO:
                base = (w | h) * p
                sh = lo[i]
                m = mask[i]
                lost_child = ~(flat[base] >> sh) & m
                won |= lost_child
                b[0] |= m
                for k in range(nm - 1):
                    mk = flat[base + np.uint64(k + 1)] >> sh
                    a[k] |= mk & lost_child
                    b[k + 1] |= ~mk & m
                a[nm - 1] |= (flat[base + np.uint64(nm)] >> sh) & lost_child
        lost = ~won
        o = w * p
        flat[o] = won & lanes
        for k in range(nm):
            flat[o + np.uint64(k + 1)] = ((lost & ~b[k]) | a[k]) & lanes
    for r in range(within.shape[0]):
        within[r] = ZERO
    for wi in range(nwords):
        wb = flat[wi * stride]
        win[wi] = wb
        for k in range(nm):
            mk = flat[wi * stride + k + 1]
            within[2 * k + 1] += popcount(mk & wb)
            within[2 * k] += popcount(mk & ~wb & lanes)
        within[2 * nm + 1] += popcount(wb)
        within[2 * nm] += popcount(~wb & lanes)
    # remoteness = 2 * (number of k with M_k = 0) + W
    if lanes == ALL:
        # 64 boards a word: 8 boards at a time, one byte each, through a bit-to-byte table
        spread = np.zeros(256, np.uint64)
        for v in range(256):
            x = ZERO
            for j in range(8):
                x |= np.uint64((v >> j) & 1) << np.uint64(8 * j)
            spread[v] = x
        out = rem.view(np.uint64)
        acc = np.empty(8, np.uint64)
        for wi in range(nwords):
            for q in range(8):
                acc[q] = ZERO
            for k in range(nm):
                z = ~flat[wi * stride + k + 1]
                for q in range(8):
                    acc[q] += spread[(z >> np.uint64(8 * q)) & np.uint64(255)]
            wb = flat[wi * stride]
            for q in range(8):
                out[wi * 8 + q] = (acc[q] << ONE) + spread[(wb >> np.uint64(8 * q)) & np.uint64(255)]
        return
    nl = 0
    for j in range(64):
        if (lanes >> np.uint64(j)) & ONE:
            nl += 1
    for wi in range(nwords):
        for j in range(nl):
            bit = np.uint64(j)
            zeros = 0
            for k in range(nm):
                zeros += 1 - int((flat[wi * stride + k + 1] >> bit) & ONE)
            rem[wi * nl + j] = np.uint8(2 * zeros + int((flat[wi * stride] >> bit) & ONE))


# Arrays are declared C-contiguous ("::1"): with any layout numba multiplies every index by a stride, and the
# word-parallel loop runs ~1.5x slower.
EXPORTS = {
    "dfs_outcomes": "i8(u8[::1], u8[:,::1], u8, u8[:,:,::1], u8[::1], u1[::1], u1[::1])",
    "table_outcomes": "void(u8[::1], u8[::1], u8[::1], u8, u8[:,:,::1], u8[::1])",
    "table_remoteness": "void(u8[::1], u8[::1], u8[::1], u8, i8, i8, u8[::1], u1[::1], u8[::1], u8[::1])",
    "table_reach": "void(u8[::1], u8[::1], u8[::1], u8[::1])",
}
