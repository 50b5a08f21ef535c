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

- a position is settled without a search when the moves one player is sure to make (its safe moves, on cells the
  other can never cover, its protective 2 x 2 squares, and half its other disjoint pairs, every other one of those
  side by side, or one in three of all its disjoint pairs) outnumber every move the other can still make: the
  other's disjoint placements (half of every run of empty cells along its direction, less the two in each protective
  square the player is sure to take), or the cells within the other's reach, less those the player's sure moves will
  cover there, by halves;
- a safe move can wait: while there are others, safe moves are not searched (Bullock's result);
- a position with a move that leaves the opponent sure to lose (by the bound above) is won at once, and a move
  that leaves the opponent sure to win is not searched (a position whose moves all do is lost): the positions
  the bound settles are not entered;
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


def guaranteed(empty, first):
    """Moves Vertical can make whatever Horizontal does, taking the best of what is left at each turn while
    Horizontal spoils the best of the rest, one a move: its safe moves (on cells no horizontal domino can ever
    cover); its protective squares (2 x 2 empty, nothing empty beside them: a domino in one makes the other
    column safe, two moves; a horizontal domino spoils it); its vulnerable pairs (other vertical pairs, every
    other one of those side by side, so that a horizontal domino spoils one at most). All disjoint, taken
    greedily row by row for every column at once, the safe moves first; Vertical takes the first spoilable one
    when it moves ``first``. Or, after the same safe moves and squares, every disjoint pair at all, one in three
    of them (a horizontal domino spoils two at most). Returns the moves and how many of their cells Horizontal
    can never cover, by each count, and the protective squares Vertical takes."""
    iso = isolated(empty)
    # the safe moves first, a whole move each: a pair never takes a cell from one
    safe_cells = np.uint64(0)
    below = np.uint64(0)  # cells of this row held by what was taken at the row before
    for r in range(7):
        shift = np.uint64(8 * r)
        below = (iso >> shift) & (iso >> (shift + U8)) & ROW & ~below
        safe_cells |= (below | (below << U8)) << shift
    safe = null_window.popcount(safe_cells) // 2
    rest = empty & ~safe_cells
    squares = 0
    pairs = 0
    below = np.uint64(0)
    near = np.uint64(0)  # cells of this row beside the vulnerable pairs taken at the row before
    packed = safe_cells
    squared = np.uint64(0)
    for r in range(7):
        shift = np.uint64(8 * r)
        row = (empty >> shift) & ROW
        upper = (rest >> shift) & ROW & ~below
        lower = (rest >> (shift + U8)) & ROW
        square_lefts = alone_pairs(row) & alone_pairs((empty >> (shift + U8)) & ROW)
        square_lefts &= ~(below | (below >> U1))
        square = square_lefts | (square_lefts << U1)
        vulnerable = every_other(upper & lower & ~square & ~near)
        squares += null_window.popcount(square_lefts)
        pairs += null_window.popcount(vulnerable)
        below = square | vulnerable
        packed |= (below | (below << U8)) << shift
        squared |= (square | (square << U8)) << shift
        near = ((vulnerable << U1) | (vulnerable >> U1)) & ROW
    # Vertical's picks are every other one of the squares, then of the pairs, from the first or the second
    take = 1 if first else 0
    got_squares = (squares + take) // 2
    got_pairs = (squares + pairs + take) // 2 - got_squares
    # Or every disjoint pair, side by side or not: a horizontal domino spoils two at most, so after the squares
    # Vertical gets one in three, from the first or the third
    packed_all = safe_cells | squared
    cells = rest & ~squared
    all_pairs = 0
    below = np.uint64(0)
    for r in range(7):
        shift = np.uint64(8 * r)
        below = (cells >> shift) & (cells >> (shift + U8)) & ROW & ~below
        packed_all |= (below | (below << U8)) << shift
        all_pairs += null_window.popcount(below)
    then = take if squares % 2 == 0 else 1 - take  # whether Vertical picks first once the squares are gone
    return safe + 2 * got_squares + got_pairs, null_window.popcount(packed & iso), \
        safe + 2 * got_squares + (all_pairs + 2 * then) // 3, null_window.popcount(packed_all & iso), got_squares


def settled(empty, turned):
    """+1 if Vertical, to move on ``empty`` (``turned`` is the same board transposed), is sure to win, -1 if
    sure to lose, else 0. A player sure of ``m`` moves (on cells of which ``x`` are out of the other's reach)
    wins when the other cannot make as many moves: the other's disjoint placements are too few, or the cells
    the other can cover cannot hold the other's ``m`` dominoes beside the player's own ``2m - x`` cells there. A
    protective square the player takes held two of the other's disjoint placements (one in each of its lines),
    both spoilt by the player's domino there: the other's moves are at most its disjoint placements less two for
    each."""
    m, x, m3, x3, squares = guaranteed(empty, True)
    most = disjoint_vertical(turned) - 2 * squares
    reach = null_window.popcount(empty & ~isolated(empty))
    if m > most or 4 * m - x > reach or m3 > most or 4 * m3 - x3 > reach:
        return 1
    m, x, m3, x3, squares = guaranteed(turned, False)
    most = disjoint_vertical(empty) - 2 * squares
    reach = null_window.popcount(turned & ~isolated(turned))
    if m >= most or 4 * m + 2 - x > reach or m3 >= most or 4 * m3 + 2 - x3 > reach:
        return -1
    return 0


def every_other(row):
    """Of each run of set bits in a row (a byte), the first, the third, ...: no two side by side."""
    kept = np.uint64(0)
    while row != 0:
        starts = row & ~(row << U1)
        kept |= starts
        row &= ~(starts | (starts << U1))
    return kept


def alone_pairs(row):
    """The left cells of the runs of exactly two empty cells in a row (a byte)."""
    return row & (row >> U1) & ~(row << U1) & ~(row >> np.uint64(2)) & np.uint64(0x7F)


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
    outcome = settled(empty, transpose(empty))
    if outcome != 0:
        return np.uint64(0), outcome, outcome
    # A safe move can wait: the other moves are searched first, and alone when there are any (Bullock).
    unsafe = mine & ~vertical_moves(isolated(empty))
    searched = unsafe if unsafe != 0 else mine
    # won at once where a move leaves the opponent settled lost; a move that leaves it settled won is not searched
    # (lost where every move does): no need to enter those positions
    rest = searched
    while rest != 0:
        move = rest & (~rest + U1)
        rest ^= move
        left = empty & ~(move | (move << U8))
        outcome = settled(transpose(left), left)
        if outcome < 0:
            return np.uint64(0), 1, 1
        if outcome > 0:
            searched ^= move
    if searched == 0:
        return searched, -1, -1
    return searched, -1, 1


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
    return 4096 * (placements(rest) - placements(empty)) + 8 * lattice(move, shape) + contact


def lattice(move, shape):
    """How well ``move`` sits on a lattice of the board, 0 to 39 (Bullock's positional values): best in the
    second or fourth column from a side (a domino there leaves the column between it and the side to Vertical's
    safe moves), with its upper cell an even number of rows from the top or bottom edge (dominoes stacked from
    the edge leave no single cells); nearer the edges first within each tier."""
    index = null_window.bit_index(move)
    row, column = index >> 3, index & 7
    rows, columns = np.int64(shape >> np.uint64(4)), np.int64(shape & np.uint64(15))
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
        return null_window.solve(start, moves, play_move, order, key, board, shape, (0,), low, high, MAX_MOVES, False,
                                 table, size, frames, counters, watch)
    return null_window.solve(start, moves, play_move, order, plain_key, board, shape, (0,), low, high, MAX_MOVES,
                             False, table, size, frames, counters, watch)


def plain_key(board, _, p):
    return board


def grow(table_ptr, size):
    """Double the table of ``size`` slots at ``table_ptr`` in place (see :func:`gamedp.kernels.null_window.grow`)."""
    return null_window.grow(carray(table_ptr, 2 * size), size)
