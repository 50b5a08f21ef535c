"""Domineering's rules for the score search of :mod:`gamedp.kernels.null_window` on boards past the 8 x 8 frame of
:mod:`gamedp.kernels.domineering_search`: up to 127 cells, at most 30 rows and 30 columns (9 x 9, 10 x 10,
11 x 11, 3 x 30, 14 x 9, ...), as C functions built by :mod:`gamedp.native`.

A position is the board in 128 bits, ``(a, b)`` its low and high words: bit ``cols * row + column`` is set where
the cell is filled (rows of ``cols`` cells, no guard column: a move's cells are found by a shift of 1 or
``cols``, and the masks of the first and last columns keep a row's ends apart), and the last bit (bit 63 of
``b``) is set when Horizontal is to move. Keeping the player to move in a bit, not handing the board on
transposed as the 8 x 8 search does, spares a transposition of a board of any shape at every move: a child costs
two bits set. A move is the index of its domino's upper (Vertical) or left (Horizontal) cell; a position has up
to 126 of them, so its moves are a set of two words (see :func:`gamedp.kernels.null_window.take`).

The hooks' parameters ``p`` end with words of scratch (:data:`SCRATCH_WORDS`, after the search's frames, or after
the split driver's view of a position), where Bullock's areas are counted a row a word (:func:`areas`, which the
big boards' search of :mod:`gamedp.kernels.domineering_big_search` shares).

The score is +1 for a win of the player to move and -1 for a loss. The hooks give the search:

- a position is settled without a search when the moves one player is sure to make outnumber every move the
  other can still make (Bullock's bounds, as the 8 x 8 search counts them: its safe moves, protective and
  vulnerable areas, by :func:`areas` over rows of up to 30 cells);
- a safe move can wait: while there are others, safe moves are not searched (Bullock's result);
- moves are tried by what they do to both players' counts of disjoint placements and of safe ones, then by their
  place on the lattice of :func:`gamedp.kernels.domineering_search.lattice_at`, then by their contact with
  filled cells and the board's edges (as the 8 x 8 search does);
- keys fold the four images that keep the players' directions (mirrors in either axis, the half turn), and the
  least of them, 128 bits, is hashed to the 64 bits the table keys by :func:`mix`. The search is then exact
  unless a position is taken for another with the same hash. A probe finds the entry of its slot, a position
  whose hash has the same top bits (the slot); it is taken for the probing one if the rest of the hash is the
  same too: with a table of 2^k slots, a chance of 2^-(64 - k) per probe of an occupied slot (a hash of a multiply
  and xor-shift mix is as good as random for this): 2^-37, about 7e-12, with the default 1 GiB table (2^27
  slots); 2^-46, about 1.4e-14, with 2^18. A search probes about as many slots as it explores positions times
  their moves, so one of 10^9 positions (about 10^10 probes, an hour here) meets a false match with a chance of
  about 7% at 1 GiB. A position it meets is then valued from the bounds of another, which can change the answer.
  (The 8 x 8 search's key is its board, so it is exact.)
"""

import numpy as np
from numba import carray

from gamedp.kernels import domineering_search, null_window

NATIVE = {
    "solve": "i8(i8, i8, i8, i8, i8, CPointer(u8), i8, i8, CPointer(u8), CPointer(i8), CPointer(i8))",
    "grow": "i8(CPointer(u8), i8)",
    "expand": "i8(i8, i8, i8, CPointer(i8))",
}

#: The most cells: the last of the 128 bits says who moves.
MAX_CELLS = 127
#: The most rows or columns.
MAX_SIDE = 30
#: The most moves a position has (a bound: 6 x 21 has 120).
MAX_MOVES = 126
#: Words the hooks take besides the search's frames (``p[8]``): a board's lines, then the cells their areas pack.
PACKING = MAX_SIDE + 2
SCRATCH_WORDS = 2 * PACKING
U0 = np.uint64(0)
U1 = np.uint64(1)
U64 = np.uint64(64)
FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
#: The bit of ``b`` set when Horizontal is to move.
TURN = np.uint64(1) << np.uint64(63)
MIX1 = np.uint64(0xFF51AFD7ED558CCD)
MIX2 = np.uint64(0xC4CEB9FE1A85EC53)


# -- 128-bit words as pairs (low, high) ------------------------------------------------------------------------
def shr(lo, hi, k):
    """(lo, hi) shifted right by ``k`` bits (0 to 127)."""
    k = np.uint64(k)
    if k == U0:
        return lo, hi
    if k < U64:
        return (lo >> k) | (hi << (U64 - k)), hi >> k
    return hi >> (k - U64), U0


def shl(lo, hi, k):
    """(lo, hi) shifted left by ``k`` bits (0 to 127)."""
    k = np.uint64(k)
    if k == U0:
        return lo, hi
    if k < U64:
        return lo << k, (hi << k) | (lo >> (U64 - k))
    return U0, lo << (k - U64)


def bit(i):
    """The word with bit ``i`` (0 to 127) set."""
    i = np.uint64(i)
    if i < U64:
        return U1 << i, U0
    return U0, U1 << (i - U64)


def count(lo, hi):
    return null_window.popcount(lo) + null_window.popcount(hi)


def field(lo, hi, start, width):
    """Bits ``start`` to ``start + width - 1`` (``width`` at most 63) as one word."""
    low, _ = shr(lo, hi, start)
    return low & ((U1 << np.uint64(width)) - U1)


def reverse(x):
    """The 64 bits of ``x`` in the opposite order."""
    x = ((x >> U1) & np.uint64(0x5555555555555555)) | ((x & np.uint64(0x5555555555555555)) << U1)
    x = ((x >> np.uint64(2)) & np.uint64(0x3333333333333333)) | ((x & np.uint64(0x3333333333333333)) << np.uint64(2))
    x = ((x >> np.uint64(4)) & np.uint64(0x0F0F0F0F0F0F0F0F)) | ((x & np.uint64(0x0F0F0F0F0F0F0F0F)) << np.uint64(4))
    x = ((x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)) | ((x & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8))
    x = ((x >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)) | ((x & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16))
    return (x >> np.uint64(32)) | (x << np.uint64(32))


def less(alo, ahi, blo, bhi):
    return ahi < bhi or (ahi == bhi and alo < blo)


def mix(lo, hi):
    """A 64-bit hash of the 128-bit word (lo, hi): the murmur finaliser of each word, the high one folded into
    the low one before its own."""
    h = hi ^ (hi >> np.uint64(33))
    h *= MIX1
    h ^= h >> np.uint64(33)
    h *= MIX2
    h ^= h >> np.uint64(33)
    x = lo ^ (h * np.uint64(0x9E3779B97F4A7C15))
    x ^= x >> np.uint64(33)
    x *= MIX1
    x ^= x >> np.uint64(33)
    x *= MIX2
    return x ^ (x >> np.uint64(33))


# -- the board: p = (rows, cols, cells (lo, hi), first column (lo, hi), not the last column (lo, hi)) ----------
def empty_of(a, b, p):
    return ~a & p[2], ~b & p[3]


def vertical_pairs(elo, ehi, p):
    """The upper cells of the empty vertical pairs of (elo, ehi) (a set of empty cells)."""
    slo, shi = shr(elo, ehi, p[1])
    return elo & slo, ehi & shi


def horizontal_pairs(elo, ehi, p):
    """The left cells of the empty horizontal pairs."""
    slo, shi = shr(elo, ehi, 1)
    return elo & slo & p[6], ehi & shi & p[7]


def row_isolated(elo, ehi, p):
    """The empty cells neither of whose row neighbours is empty: no horizontal domino can ever cover them."""
    llo, lhi = shl(elo & p[6], ehi & p[7], 1)  # each cell's right neighbour, seen from it
    rlo, rhi = shr(elo, ehi, 1)
    return elo & ~llo & ~(rlo & p[6]), ehi & ~lhi & ~(rhi & p[7])


def column_isolated(elo, ehi, p):
    """The empty cells neither of whose column neighbours is empty: no vertical domino can ever cover them."""
    dlo, dhi = shl(elo, ehi, p[1])
    ulo, uhi = shr(elo, ehi, p[1])
    return elo & ~dlo & ~ulo, ehi & ~dhi & ~uhi


def disjoint(elo, ehi, step, line_lo, line_hi, line_step, lines):
    """The most dominoes of cells ``step`` apart that fit on (elo, ehi) at once: along each line, half of every
    run, rounded down, taken greedily line after line (the lines: ``line`` moved ``line_step`` at a time)."""
    total = 0
    tlo = thi = U0
    nlo, nhi = shr(elo, ehi, step)
    pairs_lo, pairs_hi = elo & nlo, ehi & nhi
    for k in range(lines - 1):
        mlo, mhi = shl(line_lo, line_hi, k * line_step)
        plo, phi = shl(tlo, thi, step)  # the cells the pairs of the line before took
        tlo = pairs_lo & mlo & ~plo
        thi = pairs_hi & mhi & ~phi
        total += count(tlo, thi)
    return total


def disjoint_vertical(elo, ehi, p):
    return disjoint(elo, ehi, p[1], (U1 << np.uint64(p[1])) - U1, U0, p[1], p[0])


def disjoint_horizontal(elo, ehi, p):
    return disjoint(elo, ehi, 1, p[4], p[5], 1, p[1])


def placements(elo, ehi, horizontal, p):
    """Bullock's measure of a board for the player to move: its disjoint placements and its safe ones, less the
    other's of each."""
    ilo, ihi = row_isolated(elo, ehi, p)
    clo, chi = column_isolated(elo, ehi, p)
    vertical = disjoint_vertical(elo, ehi, p) - disjoint_horizontal(elo, ehi, p) + \
        disjoint_vertical(ilo, ihi, p) - disjoint_horizontal(clo, chi, p)
    return -vertical if horizontal else vertical


def mover_pairs(elo, ehi, horizontal, p):
    if horizontal:
        return horizontal_pairs(elo, ehi, p)
    return vertical_pairs(elo, ehi, p)


def safe_cells(elo, ehi, horizontal, p):
    """The empty cells where the player's moves are safe: none of the other's moves covers them."""
    if horizontal:
        return column_isolated(elo, ehi, p)
    return row_isolated(elo, ehi, p)


def safe_pairs(elo, ehi, horizontal, p):
    """The player's moves the other can never spoil."""
    slo, shi = safe_cells(elo, ehi, horizontal, p)
    return mover_pairs(slo, shi, horizontal, p)


def safe_count(elo, ehi, horizontal, p):
    """The player's safe moves that fit at once (each is sure to be made)."""
    slo, shi = safe_cells(elo, ehi, horizontal, p)
    return most(slo, shi, horizontal, p)


def most(elo, ehi, horizontal, p):
    """The most moves the player can still make: its disjoint placements."""
    if horizontal:
        return disjoint_horizontal(elo, ehi, p)
    return disjoint_vertical(elo, ehi, p)


def line(arena, at, k, n, mask):
    """The empty cells of line ``k`` of the ``n`` lines at ``at`` (none outside them)."""
    if k < 0 or k >= n:
        return U0
    return ~arena[at + k] & mask


def pack_runs(cells, held, width):
    """:func:`~gamedp.kernels.domineering_search.pack_row` of a row of up to 30 cells (a gap ends whatever the
    packing has pending, so each run of free cells packs alone): a run of up to 8 cells read from the 8 x 8
    search's table of every row, moved down to its first cell; a longer one walked cell by cell."""
    with_held = without = lone = U0
    while cells != U0:
        first = cells & (~cells + U1)
        run = (cells ^ (cells + first)) & cells
        cells &= ~run
        shift = np.uint64(null_window.bit_index(first))
        if run >> shift > np.uint64(255):
            walked = domineering_search.pack_row(np.int64(run), np.int64(held & run), width)
            with_held |= np.uint64(walked[0])
            without |= np.uint64(walked[1])
            lone |= np.uint64(walked[2])
            continue
        packed = np.uint64(domineering_search.ROW_AREAS[(run >> shift) | ((held & run) >> shift) << np.uint64(8)])
        with_held |= (packed & np.uint64(255)) << shift
        without |= ((packed >> np.uint64(8)) & np.uint64(255)) << shift
        lone |= (packed >> np.uint64(16)) << shift
    return with_held, without, lone


def packed(arena, at, r, n):
    """The cells the areas have packed on line ``r`` of the ``n`` at ``at`` (none outside the board)."""
    if r < 0 or r >= n:
        return U0
    return arena[at + r]


def areas(arena, at, n, length, packing):
    """:func:`gamedp.kernels.domineering_search.areas` for the player whose dominoes lie along the ``n`` lines of
    ``length`` cells at ``at`` of ``arena`` (a word a line, its filled cells): the same packing, line by line, with
    lines of up to 30 cells (packed by :func:`pack_runs`), the cells packed kept a line a word at ``packing``."""
    mask = (U1 << np.uint64(length)) - U1
    for r in range(n):
        arena[packing + r] = U0
    protective = 0
    # lines r - 1 to r + 2, and the cells packed on lines r - 1 and r
    e0, e1, e2, e3 = U0, line(arena, at, 0, n, mask), line(arena, at, 1, n, mask), line(arena, at, 2, n, mask)
    q0 = q1 = U0
    for r in range(n - 1):
        q2 = U0
        if e1 & (e1 >> U1) & e2 & (e2 >> U1) != U0:
            free = e1 & e2 & ~(q0 | q1)
            above, below = ~e0, ~e3  # filled (past the end too)
            starts = free & (free >> U1) & ((above & (above >> U1)) | (below & (below >> U1)))
            while starts != U0:
                cell = starts & (~starts + U1)
                starts &= ~(cell | (cell << U1))
                q2 |= cell | (cell << U1)
                protective += 1
            if q2 != U0:
                q1 |= q2
                arena[packing + r] |= q2
                arena[packing + r + 1] |= q2
        e0, e1, e2, e3 = e1, e2, e3, line(arena, at, r + 3, n, mask)
        q0, q1 = q1, q2
    touching = touching_held = apart = apart_held = unused = 0
    before = U0  # the cells packed on line r - 1
    e0, e1, e2 = U0, line(arena, at, 0, n, mask), line(arena, at, 1, n, mask)  # lines r - 1, r, r + 1
    for r in range(n):
        here = arena[packing + r]
        near = before | (e2 & ((e2 << U1) | (e2 >> U1)))
        near |= near >> U1  # the left cells of the areas that touch one
        cells = e1 & ~here
        held = ~e0 & ~e2 & cells
        with_held, without, lone = pack_runs(cells, held, length)
        lefts = with_held | without
        touching += null_window.popcount(lefts & near)
        touching_held += null_window.popcount(with_held & near)
        apart += null_window.popcount(lefts & ~near)
        apart_held += null_window.popcount(with_held & ~near)
        unused += null_window.popcount(lone)
        added = lefts | (lefts << U1) | lone
        arena[packing + r] |= added
        before = here | added
        e0, e1, e2 = e1, e2, line(arena, at, r + 2, n, mask)
    spare2 = spare1 = spare0 = 0
    # lines r - 2 to r + 2
    e0, e1, e2, e3, e4 = U0, U0, line(arena, at, 0, n, mask), line(arena, at, 1, n, mask), line(arena, at, 2, n, mask)
    for r in range(n):
        lone = e2 & ~e1 & ~e3
        if lone & (lone >> U1) != U0:
            guard = ~e1 & ~e3
            used = ~e2 | arena[packing + r]
            free = ~used & mask
            safe = free & (free >> U1) & guard & (guard >> U1)
            beside = packed(arena, packing, r - 1, n) | packed(arena, packing, r + 1, n)
            while safe != U0:
                cell = safe & (~safe + U1)
                safe &= ~(cell | (cell << U1))
                used |= cell | (cell << U1)
                spare = cell >> U1
                if spare == U0 or (used | beside) & spare != U0:
                    spare = (cell << np.uint64(2)) & mask
                    if spare != U0 and (safe | used | beside) & spare != U0:
                        spare = U0
                if spare == U0:
                    continue
                used |= spare
                arena[packing + r] |= spare
                up = e1 & spare != U0 and e0 & spare == U0
                down = e3 & spare != U0 and e4 & spare == U0
                if up and down:
                    spare2 += 1
                elif up or down:
                    spare1 += 1
                else:
                    spare0 += 1
        e0, e1, e2, e3, e4 = e1, e2, e3, e4, line(arena, at, r + 3, n, mask)
    return protective, touching, touching_held, apart, apart_held, unused, spare2, spare1, spare0


def sure_and_most(elo, ehi, horizontal, to_move, p):
    """:func:`gamedp.kernels.domineering_search.sure_and_most` for the player ``horizontal`` names: the moves it
    is sure to make and the most the other can make, Bullock's bounds, by its :func:`areas` (along the rows for
    Horizontal, the columns for Vertical), its lines written to the scratch words ``p[8]`` first."""
    rows, cols, lines = p[0], p[1], p[8]
    n, length = (rows, cols) if horizontal else (cols, rows)
    for k in range(n):
        lines[k] = (U1 << np.uint64(length)) - U1  # filled, until their empty cells are taken out
    for r in range(rows):
        empty = field(elo, ehi, r * cols, cols)
        if horizontal:
            lines[r] &= ~empty
            continue
        while empty != U0:
            c = null_window.bit_index(empty & (~empty + U1))
            empty &= empty - U1
            lines[c] &= ~(U1 << np.uint64(r))
    protective, touching, touching_held, apart, apart_held, unused, spare2, spare1, spare0 = \
        areas(lines, 0, n, length, PACKING)
    return domineering_search.sure_and_most_of(protective, touching, touching_held, apart, apart_held, unused,
                                               spare2, spare1, spare0, safe_count(elo, ehi, horizontal, p),
                                               most(elo, ehi, not horizontal, p), to_move, count(elo, ehi))


def settled(elo, ehi, horizontal, p):
    """+1 if the player to move is sure to win, -1 if sure to lose, else 0 (Bullock's bounds)."""
    sure, most_other = sure_and_most(elo, ehi, horizontal, True, p)
    if sure > most_other:
        return 1
    sure, most_mine = sure_and_most(elo, ehi, not horizontal, False, p)
    if sure >= most_mine:
        return -1
    return 0


# -- the hooks -------------------------------------------------------------------------------------------------
def start(a, b, p):
    elo, ehi = empty_of(a, b, p)
    mlo, mhi = mover_pairs(elo, ehi, b & TURN != U0, p)
    if mlo == U0 and mhi == U0:
        return True, -1, 0
    return False, -1, 1


def moves(a, b, p):
    elo, ehi = empty_of(a, b, p)
    horizontal = b & TURN != U0
    mlo, mhi = mover_pairs(elo, ehi, horizontal, p)
    if mlo == U0 and mhi == U0:
        return (mlo, mhi), -1, -1
    # A safe move can wait: the other moves are searched first, and alone when there are any (Bullock).
    slo, shi = safe_pairs(elo, ehi, horizontal, p)
    ulo, uhi = mlo & ~slo, mhi & ~shi
    if ulo != U0 or uhi != U0:
        return (ulo, uhi), -1, 1
    return (mlo, mhi), -1, 1


def bound(a, b, p):
    elo, ehi = empty_of(a, b, p)
    outcome = settled(elo, ehi, b & TURN != U0, p)
    if outcome != 0:
        return outcome, outcome
    return -1, 1


def cells_of(move, horizontal, p):
    """The domino of ``move`` (its first cell's index) as a word."""
    alo, ahi = bit(move)
    blo, bhi = bit(move + (np.uint64(1) if horizontal else np.uint64(p[1])))
    return alo | blo, ahi | bhi


def play_move(a, b, move, p):
    clo, chi = cells_of(move, b & TURN != U0, p)
    return a | clo, (b | chi) ^ TURN


def order(a, b, move, p):
    """By what the move does to :func:`placements`, then by its place on the lattice, then by its contact with
    filled cells and the board's edges."""
    horizontal = b & TURN != U0
    elo, ehi = empty_of(a, b, p)
    clo, chi = cells_of(move, horizontal, p)
    rows, cols = np.int64(p[0]), np.int64(p[1])
    index = np.int64(move)
    row, column = index // cols, index % cols
    # the board as the player to move sees it, its dominoes upright (Horizontal's: the board transposed)
    if horizontal:
        row, column, rows, cols = column, row, cols, rows
    across_lo, across_hi = shl(clo & p[6], chi & p[7], 1)
    left_lo, left_hi = shr(clo & ~p[4], chi & ~p[5], 1)
    up_lo, up_hi = shr(clo, chi, p[1])
    down_lo, down_hi = shl(clo, chi, p[1])
    around_lo = (across_lo | left_lo | up_lo | down_lo) & ~clo & p[2]
    around_hi = (across_hi | left_hi | up_hi | down_hi) & ~chi & p[3]
    contact = count(around_lo & ~elo, around_hi & ~ehi) + (2 if row == 0 else 0) + (2 if row == rows - 2 else 0)
    return 4096 * placements(elo & ~clo, ehi & ~chi, horizontal, p) + \
        8 * domineering_search.lattice_at(row, column, rows, cols) + contact


def key(a, b, p):
    """The hash (:func:`mix`) of the least of the four images that keep the directions of play."""
    rows, cols = np.int64(p[0]), np.int64(p[1])
    flo = fhi = clo = chi = hlo = hhi = U0  # rows flipped, columns flipped, both
    spare = U64 - np.uint64(cols)
    for r in range(rows):
        line = field(a, b, r * cols, cols)
        turned = reverse(line) >> spare
        lo, hi = shl(line, U0, (rows - 1 - r) * cols)
        flo, fhi = flo | lo, fhi | hi
        lo, hi = shl(turned, U0, r * cols)
        clo, chi = clo | lo, chi | hi
        lo, hi = shl(turned, U0, (rows - 1 - r) * cols)
        hlo, hhi = hlo | lo, hhi | hi
    turn = b & TURN
    blo, bhi = a & p[2], b & p[3]
    if less(flo, fhi, blo, bhi):
        blo, bhi = flo, fhi
    if less(clo, chi, blo, bhi):
        blo, bhi = clo, chi
    if less(hlo, hhi, blo, bhi):
        blo, bhi = hlo, hhi
    return mix(blo, bhi | turn)


def plain_key(a, b, p):
    return mix(a, b)


# -- entry points --------------------------------------------------------------------------------------------
def parameters(shape):
    """The hooks' ``p`` for a board of ``shape`` (its rows times 256 plus its columns)."""
    rows, cols = shape >> 8, shape & 255
    cells_lo = cells_hi = first_lo = first_hi = U0
    for r in range(rows):
        for c in range(cols):
            lo, hi = bit(r * cols + c)
            cells_lo, cells_hi = cells_lo | lo, cells_hi | hi
            if c == 0:
                first_lo, first_hi = first_lo | lo, first_hi | hi
    last_lo, last_hi = shl(first_lo, first_hi, cols - 1)
    return (np.int64(rows), np.int64(cols), cells_lo, cells_hi, first_lo, first_hi, cells_lo & ~last_lo,
            cells_hi & ~last_hi)


def solve(a, b, shape, low, high, table_ptr, size, symmetric, frames_ptr, counters_ptr, watch_ptr):
    """Whether the player to move on the board (a, b) of ``shape`` (rows times 256 plus columns) wins: +1, or
    -1, kept in [low, high]. Returns :data:`~gamedp.kernels.null_window.STOPPED` when asked to stop."""
    plies = null_window.MAX_PLIES + 1
    table = carray(table_ptr, size)
    frame_size = plies * null_window.frame_words(MAX_MOVES)
    everything = carray(frames_ptr, frame_size + SCRATCH_WORDS)
    frames = everything[:frame_size]
    counters = carray(counters_ptr, plies * null_window.counter_words(MAX_MOVES) + null_window.HISTORY_WORDS)
    watch = carray(watch_ptr, null_window.WATCH_WORDS)
    p = (*parameters(shape), everything[frame_size:])
    a, b = np.uint64(a), np.uint64(b)
    if symmetric:
        return null_window.solve(start, moves, bound, play_move, order, key, a, b, p, low, high, MAX_MOVES, False,
                                 table, size, frames, counters, watch)
    return null_window.solve(start, moves, bound, play_move, order, plain_key, a, b, p, low, high, MAX_MOVES,
                             False, table, size, frames, counters, watch)


def expand(a, b, shape, out_ptr):
    """The search's view of (a, b) for a driver that splits it (see :func:`gamedp.kernels.null_window.expand`);
    ``out_ptr`` holds :data:`SCRATCH_WORDS` more words."""
    size = 2 + 3 * MAX_MOVES
    out = carray(out_ptr, size + SCRATCH_WORDS)
    return null_window.expand(start, moves, bound, play_move, order, np.uint64(a), np.uint64(b),
                              (*parameters(shape), out[size:].view(np.uint64)), out[:size])


def grow(table_ptr, size):
    """Double the table of ``size`` slots at ``table_ptr`` in place (see :func:`gamedp.kernels.null_window.grow`)."""
    return null_window.grow(carray(table_ptr, 2 * size), size)
