"""Domineering values by sums of regions, compiled: what :mod:`gamedp.cgt.domineering` does in Python, on the
canonical forms of :mod:`gamedp.kernels.canonical_forms`, as C functions built by :mod:`gamedp.native`.

A board is (height, width, empty cells as bits, bit r * width + c), of at most ``MOST_CELLS`` cells. Its value is
the sum of its regions' values; a region is valued once in the least of its images under the symmetries of the
square (a quarter turn negates the value), from Left's vertical dominoes and Right's horizontal ones. The memo
of positions (the arena's BOARDS section) holds boards by (cells, height << 8 | width) and regions' least images
with ``REGION`` added to the second word.
"""

from numba import carray

from gamedp.kernels import canonical_forms as cf

NATIVE = {
    "setup": "i8(CPointer(i8), CPointer(i8), i8)",
    "value": "i8(CPointer(i8), CPointer(i8), i8, i8, i8, i8)",
}

#: the most cells of a board valued here: cells stay clear of the int64 sign bit, and shifts by a row stay below 64
MOST_CELLS = 62
#: state slots of this module: regions valued, and the count at which to stop (-1: none)
REGIONS_MADE, REGION_LIMIT = cf.CALLER, cf.CALLER + 1
#: added to a region's dims in the memo of positions
REGION = 1 << 16

#: the recursive kernel, typed up front (see gamedp.aot.jit_functions)
SIGNATURES = {"board": "i8(i8[::1], i8[::1], i8, i8, i8)"}
BORROW = ("column_mask", "image", "cut", "least_image")


def column_mask(h, w, c):
    mask = 0
    for r in range(h):
        mask |= 1 << (r * w + c)
    return mask


def image(h, w, cells, t):
    """The cells of board (h, w, cells) under symmetry ``t``: 0-3 keep the shape (identity, mirror left-right,
    mirror top-bottom, half turn), 4-7 transpose it first (a w x h board), which swaps the players."""
    out = 0
    rows, cols = (h, w) if t < 4 else (w, h)
    for bit in range(h * w):
        if cells >> bit & 1:
            r, c = bit // w, bit % w
            if t >= 4:
                r, c = c, r
            if t % 4 == 1 or t % 4 == 3:
                c = cols - 1 - c
            if t % 4 == 2 or t % 4 == 3:
                r = rows - 1 - r
            out |= 1 << (r * cols + c)
    return out


def cut(h, w, cells):
    """The region's bounding box: (rows, columns, cells in it)."""
    top, bottom, low, high = h, -1, w, -1
    for bit in range(h * w):
        if cells >> bit & 1:
            r, c = bit // w, bit % w
            top, bottom = min(top, r), max(bottom, r)
            low, high = min(low, c), max(high, c)
    rows, width = bottom - top + 1, high - low + 1
    out = 0
    for r in range(rows):
        out |= ((cells >> ((top + r) * w + low)) & ((1 << width) - 1)) << (r * width)
    return rows, width, out


def least_image(h, w, cells):
    """(cells, height, width, negated) of the least of the region's images, in the orientation no taller than
    wide; negated when that image is a transposed one (an image reached both ways keeps the value)."""
    least, height, width, negated = -1, 0, 0, False
    for t in range(8):
        rows, cols = (h, w) if t < 4 else (w, h)
        if rows > cols:
            continue
        im = image(h, w, cells, t)
        if least < 0 or im < least:
            least, height, width, negated = im, rows, cols, t >= 4
    return least, height, width, negated


def board(S, A, h, w, cells):
    """The value of a board: the sum of its regions' (lone cells are 0). A region not met before is valued in
    its least image, from its options, by this function again (one function: see canonical_forms)."""
    hw = h << 8 | w
    g = cf.memo_get(S, A, cf.BOARDS, cells, hw)
    if g >= 0:
        return g
    not_first = ((1 << h * w) - 1) & ~column_mask(h, w, 0)
    not_last = ((1 << h * w) - 1) & ~column_mask(h, w, w - 1)
    g = S[cf.ZERO_FORM]
    rest = cells
    while rest:
        region = rest & -rest
        while True:
            grown = (region | (region << 1 & not_first) | (region >> 1 & not_last) | region << w | region >> w) & rest
            if grown == region:
                break
            region = grown
        rest ^= region
        if region & (region - 1) == 0:
            continue
        found = cf.memo_get(S, A, cf.BOARDS, region, hw)  # most regions were met before where they lie
        if found < 0:
            rows, cols, part = cut(h, w, region)
            found = cf.memo_get(S, A, cf.BOARDS, part, rows << 8 | cols)
            if found < 0:
                least, height, width, negated = least_image(rows, cols, part)
                found = cf.memo_get(S, A, cf.BOARDS, least, REGION + (height << 8 | width))
                if found < 0:
                    limit = S[REGION_LIMIT]
                    if limit >= 0 and S[REGIONS_MADE] >= limit:
                        S[cf.STATUS] = cf.LIMIT
                        return -1
                    # {the boards Left's vertical dominoes leave | those Right's horizontal ones leave}
                    top = S[cf.TOP]
                    below = least & (least >> width)  # top cells of vertical dominoes
                    beside = least & (least >> 1) & ~column_mask(height, width, width - 1)  # left cells of horizontal
                    nl, nr = 0, 0
                    for bit in range(height * width):
                        nl += below >> bit & 1
                        nr += beside >> bit & 1
                    ops = cf.reserve(S, nl + nr)
                    if ops < 0:
                        return -1
                    n = 0
                    for side in range(2):
                        moves, step = (below, width) if side == 0 else (beside, 1)
                        while moves:
                            b = moves & -moves
                            moves ^= b
                            child = board(S, A, height, width, least & ~(b | b << step))
                            if child < 0:
                                return -1
                            A[ops + n] = child
                            n += 1
                    found = cf.make(S, A, ops, nl, ops + nl, nr)
                    S[cf.TOP] = top
                    if found < 0 or cf.memo_put(S, A, cf.BOARDS, least, REGION + (height << 8 | width), found) < 0:
                        return -1
                    S[REGIONS_MADE] += 1
                if negated:
                    found = cf.negate(S, A, found)
                if found < 0 or cf.memo_put(S, A, cf.BOARDS, part, rows << 8 | cols, found) < 0:
                    return -1
            if cf.memo_put(S, A, cf.BOARDS, region, hw, found) < 0:
                return -1
        g = cf.add(S, A, g, found)
        if g < 0:
            return -1
    if cf.memo_put(S, A, cf.BOARDS, cells, hw, g) < 0:
        return -1
    return g


def setup(state_ptr, arena_ptr, arena_words):
    """Empty the arena laid out in the state (as :mod:`gamedp.kernels.canonical_forms` says) and make 0."""
    S = carray(state_ptr, cf.STATE_WORDS)
    A = carray(arena_ptr, arena_words)
    S[REGIONS_MADE] = 0
    return cf.setup(S, A)


def value(state_ptr, arena_ptr, arena_words, h, w, cells):
    """The form of board (h, w, cells), or -1 with S[STATUS] saying why it stopped (a section full, a number out
    of range, S[REGION_LIMIT] reached); what it valued until then is kept, so the call may be made again."""
    S = carray(state_ptr, cf.STATE_WORDS)
    A = carray(arena_ptr, arena_words)
    S[cf.STATUS] = cf.OK
    S[cf.TOP] = 0
    return board(S, A, h, w, cells)
