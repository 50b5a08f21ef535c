"""Domineering's rules for the score search of :mod:`gamedp.kernels.null_window` on boards of 128 to 256 cells (at
most 30 rows and 30 columns: 12 x 12, 16 x 16, 12 x 15, 8 x 30, ...), past the 128 bits of
:mod:`gamedp.kernels.domineering_wide_search`, as C functions built by :mod:`gamedp.native`.

A board of more than 127 cells does not fit the search's two words, so the words name it instead: the boards
live in an *arena* (words the caller hands over after the search's frames), a board of ``SLOT`` words per ply
below the root, and a position's first word is the ply of its board; the second is unused. The search plays one
child at a time below a position (it computes each child's key right after playing it, and descends into one
child at a time), so a child is always written over the slot below its parent's, which no live position uses.
A board is kept twice, as its rows (bit c of word r: cell (r, c) filled) and as its columns (bit r of word c),
so that every count is written once for "the player whose dominoes lie along the lines of this array" and is
given the rows for Horizontal and the columns for Vertical; then the player to move (1: Horizontal).

The rules are those of the wide search, counted line by line (the two searches explore the same positions in
the same order, which the tests use): Bullock's bounds settle a position, safe moves wait, moves are ordered by
what they do to both players' placements, the lattice and their contact with filled cells. A move is the index
``cols * r + c`` of its domino's upper or left cell, so a position's moves are a set of four words (up to 256:
:func:`gamedp.kernels.null_window.take`). The key hashes the least of the four images that keep the players'
directions to 64 bits (see the wide search for what that costs in exactness: a chance of about 2^-(64 - k) per
probe of an occupied slot of a table of 2^k).

It has no ``expand`` entry: a driver that splits a search takes the words of a position's children as the
children (:mod:`gamedp.solvers.split_search`), and here they name slots, every child the same one; the rules say
``splits = False``, and a split is refused.
"""

import numpy as np
from numba import carray

from gamedp.kernels import domineering_search, domineering_wide_search, null_window
from gamedp.kernels.domineering_wide_search import MIX1, MIX2, U0, U1, U64

NATIVE = {
    "solve": "i8(i8, i8, i8, i8, i8, i8, i8, CPointer(u8), i8, i8, CPointer(u8), CPointer(i8), CPointer(i8))",
    "grow": "i8(CPointer(u8), i8)",
}

#: The most cells, rows or columns, and moves of a position (16 x 16 has 240).
MAX_CELLS = 256
MAX_SIDE = 30
MAX_MOVES = 256
#: A board in the arena: its rows, its columns, the player to move.
ROWS_AT, COLS_AT, TURN_AT = 0, MAX_SIDE, 2 * MAX_SIDE
SLOT = 64
#: After the boards of every ply (and the child of the deepest): the areas' packed cells, a line a word, and two
#: sets of moves being built.
PACKED_AT = (null_window.MAX_PLIES + 2) * SLOT
SETS_AT = PACKED_AT + MAX_SIDE + 2
ARENA_WORDS = SETS_AT + 8

U3 = np.uint64(3)


# -- lines of a board ------------------------------------------------------------------------------------------
def alone(cells):
    """The cells of a line neither of whose neighbours along it is among ``cells``."""
    return cells & ~(cells << U1) & ~(cells >> U1)


def sweep(arena, at, n, length, isolated):
    """The most dominoes that fit at once across the ``n`` lines at ``at`` (each domino on a cell of a line and the
    same cell of the next), taken greedily line after line; ``isolated``: on the cells of no domino along a line
    only (the other player's)."""
    mask = (U1 << np.uint64(length)) - U1
    total = 0
    taken = U0
    before = domineering_wide_search.line(arena, at, 0, n, mask)
    if isolated:
        before = alone(before)
    for k in range(n - 1):
        after = domineering_wide_search.line(arena, at, k + 1, n, mask)
        if isolated:
            after = alone(after)
        taken = before & after & ~taken
        total += null_window.popcount(taken)
        before = after
    return total


def across(base, horizontal, rows, cols):
    """The lines a player's dominoes lie across (Vertical's: the rows), their number and their length."""
    if horizontal:
        return base + COLS_AT, cols, rows
    return base + ROWS_AT, rows, cols


def most(arena, base, horizontal, rows, cols):
    """The most moves the player can still make: its disjoint placements."""
    at, n, length = across(base, horizontal, rows, cols)
    return sweep(arena, at, n, length, False)


def safe_count(arena, base, horizontal, rows, cols):
    """The player's safe moves that fit at once (each is sure to be made)."""
    at, n, length = across(base, horizontal, rows, cols)
    return sweep(arena, at, n, length, True)


def placements(arena, base, horizontal, rows, cols):
    """Bullock's measure of a board for the player to move: its disjoint placements and its safe ones, less the
    other's of each."""
    vertical = most(arena, base, False, rows, cols) - most(arena, base, True, rows, cols) + \
        safe_count(arena, base, False, rows, cols) - safe_count(arena, base, True, rows, cols)
    return -vertical if horizontal else vertical


def empties(arena, base, rows, cols):
    mask = (U1 << np.uint64(cols)) - U1
    total = 0
    for r in range(rows):
        total += null_window.popcount(~arena[base + ROWS_AT + r] & mask)
    return total


def sure_and_most(arena, base, horizontal, to_move, rows, cols):
    """The moves the player ``horizontal`` names is sure to make and the most the other can make (Bullock's
    bounds, as :func:`gamedp.kernels.domineering_wide_search.sure_and_most`)."""
    if horizontal:
        protective, touching, touching_held, apart, apart_held, unused, spare2, spare1, spare0 = \
            domineering_wide_search.areas(arena, base + ROWS_AT, rows, cols, PACKED_AT)
    else:
        protective, touching, touching_held, apart, apart_held, unused, spare2, spare1, spare0 = \
            domineering_wide_search.areas(arena, base + COLS_AT, cols, rows, PACKED_AT)
    return domineering_search.sure_and_most_of(protective, touching, touching_held, apart, apart_held, unused,
                                               spare2, spare1, spare0, safe_count(arena, base, horizontal, rows, cols),
                                               most(arena, base, not horizontal, rows, cols), to_move,
                                               empties(arena, base, rows, cols))


def settled(arena, base, horizontal, rows, cols):
    """+1 if the player to move is sure to win, -1 if sure to lose, else 0 (Bullock's bounds)."""
    sure, most_other = sure_and_most(arena, base, horizontal, True, rows, cols)
    if sure > most_other:
        return 1
    sure, most_mine = sure_and_most(arena, base, not horizontal, False, rows, cols)
    if sure >= most_mine:
        return -1
    return 0


# -- moves as a set of four words ------------------------------------------------------------------------------
def put(arena, at, cells, offset):
    """Add the cells of a line (a word of up to 30 bits) at bit ``offset`` of the four words at ``at``."""
    word, shift = offset >> 6, np.uint64(offset & 63)
    arena[at + word] |= cells << shift
    if shift != U0 and word < 3:
        arena[at + word + 1] |= cells >> (U64 - shift)


def move_sets(arena, base, horizontal, rows, cols):
    """The player's moves and those of them the other can spoil (not safe), each as four words at
    ``SETS_AT`` and ``SETS_AT + 4``; whether it has any move."""
    mask = (U1 << np.uint64(cols)) - U1
    for i in range(8):
        arena[SETS_AT + i] = U0
    found = False
    at = base + ROWS_AT
    for r in range(rows):
        e0 = domineering_wide_search.line(arena, at, r - 1, rows, mask)
        e1 = domineering_wide_search.line(arena, at, r, rows, mask)
        e2 = domineering_wide_search.line(arena, at, r + 1, rows, mask)
        if horizontal:
            pairs = e1 & (e1 >> U1)
            held = e1 & ~e0 & ~e2
            safe = held & (held >> U1)
        else:
            pairs = e1 & e2
            safe = alone(e1) & alone(e2)
        if pairs != U0:
            found = True
            put(arena, SETS_AT, pairs, r * cols)
            put(arena, SETS_AT + 4, pairs & ~safe, r * cols)
    return found


def as_set(arena, at):
    return (arena[at], arena[at + 1]), (arena[at + 2], arena[at + 3])


# -- the hooks: a position is (its ply's slot, unused) ----------------------------------------------------------
def turn(arena, base):
    return arena[base + TURN_AT] != U0


def start(a, b, p):
    base = np.int64(a) * SLOT
    if move_sets(p[2], base, turn(p[2], base), p[0], p[1]):
        return False, -1, 1
    return True, -1, 0


def moves(a, b, p):
    arena = p[2]
    base = np.int64(a) * SLOT
    if not move_sets(arena, base, turn(arena, base), p[0], p[1]):
        return as_set(arena, SETS_AT), -1, -1
    # A safe move can wait: the other moves are searched first, and alone when there are any (Bullock).
    if arena[SETS_AT + 4] | arena[SETS_AT + 5] | arena[SETS_AT + 6] | arena[SETS_AT + 7] != U0:
        return as_set(arena, SETS_AT + 4), -1, 1
    return as_set(arena, SETS_AT), -1, 1


def bound(a, b, p):
    base = np.int64(a) * SLOT
    outcome = settled(p[2], base, turn(p[2], base), p[0], p[1])
    if outcome != 0:
        return outcome, outcome
    return -1, 1


def play_move(a, b, move, p):
    """The child's board in the slot below: the parent's copied, the domino's two cells filled, the turn passed."""
    arena, rows, cols = p[2], p[0], p[1]
    base = np.int64(a) * SLOT
    child = base + SLOT
    for r in range(rows):
        arena[child + ROWS_AT + r] = arena[base + ROWS_AT + r]
    for c in range(cols):
        arena[child + COLS_AT + c] = arena[base + COLS_AT + c]
    index = np.int64(move)
    r, c = index // cols, index % cols
    row_bit, column_bit = U1 << np.uint64(c), U1 << np.uint64(r)
    if turn(arena, base):
        arena[child + ROWS_AT + r] |= U3 << np.uint64(c)
        arena[child + COLS_AT + c] |= column_bit
        arena[child + COLS_AT + c + 1] |= column_bit
        arena[child + TURN_AT] = U0
    else:
        arena[child + ROWS_AT + r] |= row_bit
        arena[child + ROWS_AT + r + 1] |= row_bit
        arena[child + COLS_AT + c] |= U3 << np.uint64(r)
        arena[child + TURN_AT] = U1
    return a + U1, b


def touching(arena, at, k, at_cell, n, length):
    """The filled cells around the domino on cells ``at_cell`` and ``at_cell + 1`` of line ``k`` of the ``n``
    lines at ``at`` (``length`` cells each)."""
    here = arena[at + k]
    contact = 0
    if at_cell > 0 and (here >> np.uint64(at_cell - 1)) & U1 != U0:
        contact += 1
    if at_cell + 2 < length and (here >> np.uint64(at_cell + 2)) & U1 != U0:
        contact += 1
    both = U3 << np.uint64(at_cell)
    if k > 0:
        contact += null_window.popcount(arena[at + k - 1] & both)
    if k + 1 < n:
        contact += null_window.popcount(arena[at + k + 1] & both)
    return contact


def order(a, b, move, p):
    """By what the move does to :func:`placements`, then by its place on the lattice, then by its contact with
    filled cells and the board's edges (as the wide search)."""
    arena, rows, cols = p[2], np.int64(p[0]), np.int64(p[1])
    base = np.int64(a) * SLOT
    horizontal = turn(arena, base)
    play_move(a, b, move, p)  # into the slot below, which the search has not filled yet
    index = np.int64(move)
    row, column = index // cols, index % cols
    # the board as the player to move sees it, its dominoes upright (Horizontal's: the board transposed)
    if horizontal:
        contact = touching(arena, base + ROWS_AT, row, column, rows, cols)
        row, column, rows, cols = column, row, cols, rows
    else:
        contact = touching(arena, base + COLS_AT, column, row, cols, rows)
    contact += (2 if row == 0 else 0) + (2 if row == rows - 2 else 0)
    return 4096 * placements(arena, base + SLOT, horizontal, p[0], p[1]) + \
        8 * domineering_search.lattice_at(row, column, rows, cols) + contact


def image_row(arena, base, image, i, rows, spare):
    """Row ``i`` of an image of the board: 1 flips the rows, 2 the columns, 3 both."""
    x = arena[base + ROWS_AT + (rows - 1 - i if image & 1 else i)]
    if image & 2:
        x = domineering_wide_search.reverse(x) >> spare
    return x


def hashed(arena, base, image, rows, cols):
    """A 64-bit hash of an image of the board and the player to move."""
    spare = U64 - np.uint64(cols)
    h = arena[base + TURN_AT] ^ np.uint64(rows << 8 | cols)
    for i in range(rows):
        h = (h ^ image_row(arena, base, image, i, rows, spare)) * MIX1
        h ^= h >> np.uint64(29)
    h *= MIX2
    return h ^ (h >> np.uint64(32))


def key(a, b, p):
    """The hash of the least of the four images that keep the directions of play (compared row by row)."""
    arena, rows, cols = p[2], np.int64(p[0]), np.int64(p[1])
    base = np.int64(a) * SLOT
    spare = U64 - np.uint64(cols)
    best = 0
    for image in range(1, 4):
        for i in range(rows):
            x, y = image_row(arena, base, image, i, rows, spare), image_row(arena, base, best, i, rows, spare)
            if x != y:
                if x < y:
                    best = image
                break
    return hashed(arena, base, best, rows, cols)


def plain_key(a, b, p):
    return hashed(p[2], np.int64(a) * SLOT, 0, np.int64(p[0]), np.int64(p[1]))


# -- entry points --------------------------------------------------------------------------------------------
def load(arena, w0, w1, w2, w3, rows, cols, horizontal):
    """The board of filled cells (bit ``cols * r + c`` of the 256 bits ``w0``..``w3``) into the root's slot."""
    for i in range(2 * MAX_SIDE + 1):
        arena[i] = U0
    words = (np.uint64(w0), np.uint64(w1), np.uint64(w2), np.uint64(w3))
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            if (words[i >> 6] >> np.uint64(i & 63)) & U1 != U0:
                arena[ROWS_AT + r] |= U1 << np.uint64(c)
                arena[COLS_AT + c] |= U1 << np.uint64(r)
    arena[TURN_AT] = U1 if horizontal else U0


def solve(w0, w1, w2, w3, shape, low, high, table_ptr, size, symmetric, frames_ptr, counters_ptr, watch_ptr):
    """Whether the player to move on the board ``w0``..``w3`` of ``shape`` (Horizontal to move times 65536, plus
    rows times 256, plus columns) wins: +1, or -1, kept in [low, high]. ``frames_ptr`` holds the search's frames,
    then :data:`ARENA_WORDS` more. Returns :data:`~gamedp.kernels.null_window.STOPPED` when asked to stop."""
    plies = null_window.MAX_PLIES + 1
    table = carray(table_ptr, size)
    frame_size = plies * null_window.frame_words(MAX_MOVES)
    everything = carray(frames_ptr, frame_size + ARENA_WORDS)
    frames, arena = everything[:frame_size], everything[frame_size:]
    counters = carray(counters_ptr, plies * null_window.counter_words(MAX_MOVES) + null_window.HISTORY_WORDS)
    watch = carray(watch_ptr, null_window.WATCH_WORDS)
    rows, cols = (shape >> 8) & 255, shape & 255
    load(arena, w0, w1, w2, w3, rows, cols, shape >> 16 != 0)
    p = (np.int64(rows), np.int64(cols), arena)
    if symmetric:
        return null_window.solve(start, moves, bound, play_move, order, key, U0, U0, p, low, high, MAX_MOVES, False,
                                 table, size, frames, counters, watch)
    return null_window.solve(start, moves, bound, play_move, order, plain_key, U0, U0, p, low, high, MAX_MOVES,
                             False, table, size, frames, counters, watch)


def grow(table_ptr, size):
    """Double the table of ``size`` slots at ``table_ptr`` in place (see :func:`gamedp.kernels.null_window.grow`)."""
    return null_window.grow(carray(table_ptr, 2 * size), size)
