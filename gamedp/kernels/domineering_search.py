"""Domineering's rules for the score search of :mod:`gamedp.kernels.null_window`, as C functions built by
:mod:`gamedp.native`: who wins any board of up to 8 x 8 cells.

A position is one 64-bit word, an 8 x 8 frame (bit ``8 * row + column``, top row first) whose filled cells are
set; a board smaller than the frame has the cells outside it filled. It is always Vertical's move: Vertical
places a domino on two cells one above the other, and the position it leaves, with Horizontal to move, is handed
on transposed (rows become columns), which turns Horizontal's dominoes into vertical ones. A move is the bit of
the domino's upper cell. The score is +1 for a win of the player to move and -1 for a loss (no move loses;
there are no ties).

The hooks give the search what the Domineering solvers of the literature use (Breuker, Uiterwijk and van den
Herik; Bullock), written here from their description:

- a position is settled without a search when the moves one player is sure to make outnumber every move the other
  can still make (Bullock's bounds, :func:`sure_and_most`): the player's safe moves, its protective areas, its
  vulnerable areas (half of those a domino across spoils alone, a third of those it may spoil two of), a move's
  worth for whichever of them is odd in number when it moves first; against the other's disjoint placements (less
  those the protective areas take), or the empty cells less the player's and the cells out of the other's reach
  that the player's packing leaves unused (a spare cell beside a safe move among them), by halves. The bound is
  computed for a position the table does not settle, after the table is read (it costs more than the rest of a
  position's work);
- a safe move can wait: while there are others, safe moves are not searched (Bullock's result);
- moves are tried by what they do to both players' counts of disjoint placements and of safe ones, then by their
  place on a fixed lattice of the board (every other column from the sides, every other row from the ends), then by
  their contact with filled cells;
- keys fold the four images that keep the players' directions (mirrors in either axis, the half turn);
- no history heuristic: ties keep the order above (counts of refutations, learnt anywhere on the board, break
  its ties worse than the board's own order of cells).
"""

import numpy as np
from numba import carray

from gamedp.kernels import null_window

NATIVE = {
    "solve": "i8(i8, i8, i8, i8, CPointer(u8), i8, i8, CPointer(u8), CPointer(i8), CPointer(i8))",
    "grow": "i8(CPointer(u8), i8)",
    "expand": "i8(i8, i8, CPointer(i8))",
}

#: The most moves a position has: the vertical dominoes of the 8 x 8 frame.
MAX_MOVES = 56
FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
#: Cells with a right-hand neighbour (every column but the last).
NOT_LAST_COLUMN = np.uint64(0x7F7F7F7F7F7F7F7F)
NOT_FIRST_COLUMN = np.uint64(0xFEFEFEFEFEFEFEFE)
ROW = np.uint64(0xFF)
U1 = np.uint64(1)
U8 = np.uint64(8)


def _run_pairs():
    pairs = np.zeros(256, dtype=np.int64)
    for row in range(256):
        run = 0
        for c in range(9):
            if c < 8 and row >> c & 1:
                run += 1
            else:
                pairs[row] += run // 2
                run = 0
    return pairs


#: For each row of 8 cells (a byte, set where empty), the most dominoes that fit along it at once.
RUN_PAIRS = _run_pairs()


def pack_row(cells, held, width=8):
    """Bullock's packing of one row into vulnerable areas (two cells side by side, for the player who places along
    the row; the other, across it, can still spoil them), left to right: ``cells`` are the row's cells free for
    the packing (``width`` bits), ``held`` those of them the other can never cover. Returns the left cells of the
    areas with a held cell, those of the areas without one, and the held cells left alone (no one's)."""
    with_held = without = unused = 0
    # 0 nothing pending; 1 a held cell; 2 a free cell at ``start``; 3 ``start`` and a held cell after it, then
    # pairs of held cells (safe moves); 4 ``start``, then pairs of held cells (``start`` left alone)
    state = start = 0
    for c in range(width + 1):
        if c == width or not cells >> c & 1:  # a gap (or the row's end) ends what is pending
            if state == 1:
                unused |= 1 << (c - 1)
            elif state == 3:
                with_held |= start
            state = 0
        elif held >> c & 1:
            state = 1 - state if state < 2 else 4 if state == 3 else 3
        elif state == 1:
            with_held |= 1 << (c - 1)
            state = 0
        elif state == 2:
            without |= start
            state = 0
        else:
            if state == 3:
                with_held |= start
            state = 2
            start = 1 << c
    return with_held, without, unused


def _row_areas():
    table = np.zeros(1 << 16, dtype=np.int64)
    for cells in range(256):
        held = cells
        while True:  # every subset of the cells
            with_held, without, unused = pack_row(cells, held)
            table[cells | held << 8] = with_held | without << 8 | unused << 16
            if held == 0:
                break
            held = (held - 1) & cells
    return table


#: :func:`pack_row` of every row (its free cells, and the held ones among them 8 bits up): the left cells of its
#: areas with a held cell, those of its areas without one 8 bits up, and its unused held cells 16 bits up.
ROW_AREAS = _row_areas()


def delta_swap(x, mask, shift):
    t = ((x >> shift) ^ x) & mask
    return x ^ t ^ (t << shift)


def transpose(x):
    """The frame flipped about its main diagonal: cell (r, c) to (c, r)."""
    x = delta_swap(x, np.uint64(0x00AA00AA00AA00AA), np.uint64(7))
    x = delta_swap(x, np.uint64(0x0000CCCC0000CCCC), np.uint64(14))
    return delta_swap(x, np.uint64(0x00000000F0F0F0F0), np.uint64(28))


def flip_rows(x):
    """Row r to row 7 - r."""
    x = ((x >> U8) & np.uint64(0x00FF00FF00FF00FF)) | ((x & np.uint64(0x00FF00FF00FF00FF)) << U8)
    x = ((x >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)) | ((x & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16))
    return (x >> np.uint64(32)) | (x << np.uint64(32))


def flip_columns(x):
    """Column c to column 7 - c."""
    x = ((x >> U1) & np.uint64(0x5555555555555555)) | ((x & np.uint64(0x5555555555555555)) << U1)
    x = ((x >> np.uint64(2)) & np.uint64(0x3333333333333333)) | ((x & np.uint64(0x3333333333333333)) << np.uint64(2))
    return ((x >> np.uint64(4)) & np.uint64(0x0F0F0F0F0F0F0F0F)) | ((x & np.uint64(0x0F0F0F0F0F0F0F0F)) << np.uint64(4))


def vertical_moves(empty):
    """The upper cells of the empty vertical pairs."""
    return empty & (empty >> U8)


def disjoint_vertical(cells):
    """The most vertical dominoes that fit on ``cells`` at once: in each column, half of every run, rounded down
    (taken greedily from the top, row by row for all columns together)."""
    count = 0
    taken = np.uint64(0)
    for r in range(7):
        upper = (cells >> np.uint64(8 * r)) & ROW
        lower = (cells >> np.uint64(8 * r + 8)) & ROW
        taken = upper & lower & ~taken
        count += null_window.popcount(taken)
    return count


def isolated(empty):
    """The empty cells neither of whose row neighbours is empty: no horizontal domino can ever cover them."""
    return empty & ~((empty << U1) & NOT_FIRST_COLUMN) & ~((empty >> U1) & NOT_LAST_COLUMN)


def line(word, r):
    """Row ``r`` of ``word`` (a byte); outside the frame, all set (the rows beyond the board are filled)."""
    if r < 0 or r > 7:
        return ROW
    return (word >> np.uint64(8 * r)) & ROW


def packed_line(packed, r):
    if r < 0 or r > 7:
        return np.uint64(0)
    return (packed >> np.uint64(8 * r)) & ROW


def lowest(x):
    return x & (~x + U1)


def areas(filled):
    """Bullock's packing of the board for the player who places dominoes along its rows (the other across them),
    row after row: its protective areas (2 x 2 empty, walled across on one side at least: one domino there leaves
    the other row's two cells safe), then along each row its vulnerable areas (two empty cells the other can still
    spoil), each counted as touching another area across or not, and with one cell the other can never cover or
    not, and the cells out of the other's reach that neither uses, then its safe moves with a spare empty cell
    beside them along the row, by how many of the other's placements that cell holds alone (0, 1 or 2).
    Returns (protective, touching, touching_held, apart, apart_held, unused, spare2, spare1, spare0)."""
    empty = ~filled
    packed = np.uint64(0)
    protective = 0
    # the upper left cells of the empty 2 x 2 squares, and the left cells of the safe moves: rows with none skip
    # their loops below
    squares = empty & (empty >> U1) & (empty >> U8) & (empty >> np.uint64(9)) & NOT_LAST_COLUMN
    lone = column_isolated(empty)
    safe_moves = lone & (lone >> U1) & NOT_LAST_COLUMN
    for r in range(7):
        if (squares >> np.uint64(8 * r)) & ROW == 0:
            continue
        free = line(empty, r) & line(empty, r + 1) & ~(packed_line(packed, r - 1) | packed_line(packed, r) |
                                                       packed_line(packed, r + 1) | packed_line(packed, r + 2))
        above, below = line(filled, r - 1), line(filled, r + 2)
        starts = free & (free >> U1) & ((above & (above >> U1)) | (below & (below >> U1)))
        while starts != 0:
            cell = lowest(starts)
            starts &= ~(cell | (cell << U1))
            packed |= (cell | (cell << U1)) * np.uint64(0x101) << np.uint64(8 * r)
            protective += 1
    touching = touching_held = apart = apart_held = unused = 0
    for r in range(8):
        e_next = line(empty, r + 1) if r < 7 else np.uint64(0)
        # cells where a domino across would also spoil another area: one packed on the row before, or a cell of
        # the next row that can still pair along it
        near = packed_line(packed, r - 1) | (e_next & ((e_next << U1) | (e_next >> U1)))
        near |= near >> U1  # the left cells of the areas that touch one
        cells = line(empty, r) & ~packed_line(packed, r)
        held = line(filled, r - 1) & line(filled, r + 1) & cells
        row = np.uint64(ROW_AREAS[cells | (held << U8)])
        with_held, lefts = row & ROW, (row | (row >> U8)) & ROW
        touching += null_window.popcount(lefts & near)
        touching_held += null_window.popcount(with_held & near)
        apart += null_window.popcount(lefts & ~near)
        apart_held += null_window.popcount(with_held & ~near)
        lone = row >> np.uint64(16)
        unused += null_window.popcount(lone)
        packed |= (lefts | (lefts << U1) | lone) << np.uint64(8 * r)
    spare2 = spare1 = spare0 = 0
    for r in range(8):
        if (safe_moves >> np.uint64(8 * r)) & ROW == 0:
            continue
        guard = line(filled, r - 1) & line(filled, r + 1)
        used = line(filled, r) | packed_line(packed, r)
        free = ~used & ROW
        safe = free & (free >> U1) & guard & (guard >> U1)
        across = packed_line(packed, r - 1) | packed_line(packed, r + 1)
        while safe != 0:
            cell = lowest(safe)
            safe &= ~(cell | (cell << U1))
            used |= cell | (cell << U1)
            spare = cell >> U1
            if spare == 0 or (used | across) & spare != 0:
                spare = (cell << np.uint64(2)) & ROW
                if spare != 0 and (safe | used | across) & spare != 0:
                    spare = np.uint64(0)
            if spare == 0:
                continue
            used |= spare
            packed |= spare << np.uint64(8 * r)
            up = line(filled, r - 1) & spare == 0 and line(filled, r - 2) & spare != 0
            down = line(filled, r + 1) & spare == 0 and line(filled, r + 2) & spare != 0
            if up and down:
                spare2 += 1
            elif up or down:
                spare1 += 1
            else:
                spare0 += 1
    return protective, touching, touching_held, apart, apart_held, unused, spare2, spare1, spare0


def sure_and_most(filled, to_move, cells):
    """For the player who places along the rows of ``filled`` (the other across them): the moves it is sure to
    make, and the most the other can make (Bullock's bounds), when it moves next (``to_move``) or after the other."""
    protective, touching, touching_held, apart, apart_held, unused, spare2, spare1, spare0 = areas(filled)
    empty = ~filled
    return sure_and_most_of(protective, touching, touching_held, apart, apart_held, unused, spare2, spare1, spare0,
                            disjoint_horizontal(column_isolated(empty)), disjoint_vertical(empty), to_move, cells)


def sure_and_most_of(protective, touching, touching_held, apart, apart_held, unused, spare2, spare1, spare0, safe,
                     other, to_move, cells):
    """:func:`sure_and_most` of a board of any size, from its :func:`areas`, the player's ``safe`` moves that fit
    at once and the ``other``'s disjoint placements."""
    if to_move:  # its move first: where the parity of a kind is odd, it takes the odd one
        if protective % 2 == 1:
            protective -= 1
            safe += 2
            other -= 2
        elif touching % 3 != 0 or (apart % 2 == 0 and spare2 % 2 == 0 and spare1 % 2 == 0 and spare0 % 2 == 0
                                   and touching > 0):
            touching -= 1
            safe += 1
            touching_held = min(touching_held, touching)
        elif apart % 2 != 0 or (spare2 % 2 == 0 and spare1 % 2 == 0 and spare0 % 2 == 0 and apart > 0):
            apart -= 1
            safe += 1
            apart_held = min(apart_held, apart)
        elif spare2 % 2 != 0:
            spare2 -= 1
            unused += 3
        elif spare1 % 2 != 0:
            spare1 -= 1
            unused += 2
        elif spare0 % 2 != 0:
            spare0 -= 1
            unused += 1
        elif protective > 0:
            protective -= 1
            safe += 2
    if protective % 2 == 1:
        protective -= 1
        touching += 2
    moves = protective + touching // 3 + apart // 2 + safe
    paired = touching % 3 == 0 and apart % 2 == 0
    if touching % 3 != 0 and apart % 2 != 0:
        moves += 1
        unused -= 1
        paired = True
    if paired:
        if spare2 % 2 == 1:
            spare2 -= 1
            spare1 += 1
        if spare1 % 2 == 1:
            spare1 -= 1
            spare0 += 1
    elif spare2 % 2 == 1:
        unused += 3
        if spare1 % 2 == 1:
            spare1 -= 1
            spare0 += 1
    elif spare1 % 2 == 1:
        unused += 2
    elif spare0 % 2 == 1:
        unused += 1
    unused += touching_held - (touching // 3 - (touching - touching_held) // 3)
    unused += apart_held - (apart // 2 - (apart - apart_held) // 2)
    unused += spare2 // 2 * 3 + spare1 // 2 * 2 + spare0 // 2
    return moves, min(null_window.trunc_half(cells - 2 * moves - unused), other - protective)


def settled(empty, turned):
    """+1 if Vertical, to move on ``empty`` (``turned`` is the same board transposed), is sure to win, -1 if
    sure to lose, else 0."""
    cells = null_window.popcount(empty)
    sure, most = sure_and_most(~turned, True, cells)
    if sure > most:
        return 1
    sure, most = sure_and_most(~empty, False, cells)
    if sure >= most:
        return -1
    return 0


# -- the hooks; p = () ---------------------------------------------------------------------------------------
def start(board, _, p):
    if vertical_moves(~board) == 0:
        return True, -1, 0
    return False, -1, 1


def moves(board, _, p):
    empty = ~board
    mine = vertical_moves(empty)
    if mine == 0:
        return mine, -1, -1
    # A safe move can wait: the other moves are searched first, and alone when there are any (Bullock).
    unsafe = mine & ~vertical_moves(isolated(empty))
    searched = unsafe if unsafe != 0 else mine
    return searched, -1, 1


def bound(board, _, p):
    outcome = settled(~board, transpose(~board))
    if outcome != 0:
        return outcome, outcome
    return -1, 1


def play_move(board, shape, move, p):
    # the board's rows and columns trade places with the frame's transposition
    return transpose(board | move | (move << U8)), ((shape & np.uint64(15)) << np.uint64(4)) | (shape >> np.uint64(4))


def order(board, shape, move, p):
    """By what the move does to :func:`placements`, then by its place on the :func:`lattice`, then by its
    contact with filled cells."""
    empty = ~board
    cells = move | (move << U8)
    rest = empty & ~cells
    around = ((cells << U1) & NOT_FIRST_COLUMN) | ((cells >> U1) & NOT_LAST_COLUMN) | (move >> U8) | \
        (move << np.uint64(16))
    contact = null_window.popcount(around & board) + (2 if move < np.uint64(256) else 0) + \
        (2 if move >> np.uint64(48) != 0 else 0)
    return 4096 * placements(rest) + 8 * lattice(move, shape) + contact


def lattice(move, shape):
    """How well ``move`` sits on a lattice of the board, 0 to 39 (Bullock's positional values): best in the
    second or fourth column from a side (a domino there leaves the column between it and the side to Vertical's
    safe moves), with its upper cell an even number of rows from the top or bottom edge (dominoes stacked from
    the edge leave no single cells); nearer the edges first within each tier."""
    index = null_window.bit_index(move)
    return lattice_at(index >> 3, index & 7, np.int64(shape >> np.uint64(4)), np.int64(shape & np.uint64(15)))


def lattice_at(row, column, rows, columns):
    """:func:`lattice` of the vertical domino whose upper cell is at (``row``, ``column``) of a board of ``rows``
    by ``columns`` (of any size)."""
    side = min(column, columns - 1 - column)
    end = min(row, rows - 2 - row)
    if side & 1:
        tier = 4 if end & 1 == 0 else 3
    elif side >= 2:
        tier = 2 if end & 1 == 0 else 1
    else:
        tier = 0
    return 8 * tier + max(0, 7 - side - end)


def placements(empty):
    """Bullock's measure of a board for Vertical: its disjoint placements and its safe ones, less
    Horizontal's of each (counted along the rows, by table: no transposition)."""
    return disjoint_vertical(empty) - disjoint_horizontal(empty) + \
        disjoint_vertical(isolated(empty)) - disjoint_horizontal(column_isolated(empty))


def disjoint_horizontal(cells):
    """The most horizontal dominoes that fit on ``cells`` at once."""
    count = 0
    for r in range(8):
        count += RUN_PAIRS[(cells >> np.uint64(8 * r)) & ROW]
    return count


def column_isolated(empty):
    """The empty cells neither of whose column neighbours is empty: no vertical domino can ever cover them."""
    return empty & ~(empty << U8) & ~(empty >> U8)


def key(board, shape, p):
    """The least of the four images that keep the directions of play, each mirrored within the board (``shape``
    is its rows times 16 plus its columns, as the frame holds it now), not the frame."""
    rows = mirror_rows(board, np.uint64(8) - (shape >> np.uint64(4)))
    columns = np.uint64(8) - (shape & np.uint64(15))
    least = min(board, rows)
    least = min(least, mirror_columns(board, columns))
    return min(least, mirror_columns(rows, columns))


def mirror_rows(board, spare):
    """Rows upside down within the board: the frame's flip, moved up over the ``spare`` rows below the board."""
    shift = U8 * spare
    return (flip_rows(board) >> shift) | ~(FULL >> shift)


def mirror_columns(board, spare):
    """Columns right to left within the board: the frame's flip, moved left over the ``spare`` columns."""
    kept = np.uint64(0x0101010101010101) * (ROW >> spare)  # in each row, the cells that stay on the board
    return ((flip_columns(board) >> spare) & kept) | ~kept


# -- entry points --------------------------------------------------------------------------------------------
def solve(board, shape, low, high, table_ptr, size, symmetric, frames_ptr, counters_ptr, watch_ptr):
    """Whether the player to move on ``board`` (Vertical, by the frame's convention) wins: +1, or -1, kept in
    [low, high]. Returns :data:`~gamedp.kernels.null_window.STOPPED` when asked to stop."""
    plies = null_window.MAX_PLIES + 1
    table = carray(table_ptr, size)
    frames = carray(frames_ptr, plies * null_window.frame_words(MAX_MOVES))
    counters = carray(counters_ptr, plies * null_window.counter_words(MAX_MOVES) + null_window.HISTORY_WORDS)
    watch = carray(watch_ptr, null_window.WATCH_WORDS)
    board, shape = np.uint64(board), np.uint64(shape)
    if symmetric:
        return null_window.solve(start, moves, bound, play_move, order, key, board, shape, (0,), low, high, MAX_MOVES, False,
                                 table, size, frames, counters, watch)
    return null_window.solve(start, moves, bound, play_move, order, plain_key, board, shape, (0,), low, high, MAX_MOVES,
                             False, table, size, frames, counters, watch)


def expand(board, shape, out_ptr):
    """The search's view of ``board`` for a driver that splits it (see :func:`gamedp.kernels.null_window.expand`)."""
    return null_window.expand(start, moves, bound, play_move, order, np.uint64(board), np.uint64(shape), (0,),
                              carray(out_ptr, 2 + 3 * MAX_MOVES))


def plain_key(board, _, p):
    return board


def grow(table_ptr, size):
    """Double the table of ``size`` slots at ``table_ptr`` in place (see :func:`gamedp.kernels.null_window.grow`)."""
    return null_window.grow(carray(table_ptr, 2 * size), size)
