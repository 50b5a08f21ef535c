"""Connect-Four's rules for the score search of :mod:`gamedp.kernels.null_window`, as C functions built by
:mod:`gamedp.native` (a run loads them with ctypes, without numpy or numba).

A position is two bitboards, as :mod:`gamedp.games.connect4` lays them out (column-major, H + 1 bits a column):
``current`` holds the stones of the player to move, ``mask`` every stone; a move is the bit of the cell its stone
fills. The score is the one the field's benchmark sets use: a win with the winner's k-th stone on a W x H board
scores ``(W*H + 1 - n) // 2`` where n is the number of stones before that last one, a loss the negation, a tie
0. So the winner hurries and the loser stalls, as remoteness does everywhere in gamedp.

The hooks give the search the techniques of Pascal Pons' solver (written here from their description):

- only moves that do not lose at once are searched: a forced block is the only move, two threats to block lose,
  and no stone goes under a cell where the opponent would complete a line;
- the score is bounded before searching: nobody wins at once (the parent checked), nor before their fourth stone;
- moves are tried by the number of lines they threaten to complete, centre columns first among equals;
- keys are folded with the mirror image's while the board holds few stones.
"""

import numpy as np
from numba import carray

from gamedp.kernels import line_answers, null_window

NATIVE = {
    "solve": "i8(i8, i8, i8, i8, i8, i8, CPointer(u8), i8, i8, CPointer(u8), CPointer(i8), CPointer(i8))",
    "grow": "i8(CPointer(u8), i8)",
    "expand": "i8(i8, i8, i8, i8, CPointer(i8))",
    "play": "i8(CPointer(u1), i8, i8, i8, CPointer(i8))",
    "answer_lines": "i8(CPointer(u1), i8, i8, i8, i8, i8, i8, CPointer(u8), i8, i8, CPointer(u8), CPointer(i8), "
                    "CPointer(i8), CPointer(u1), i8, CPointer(i8))",
}

#: solve_words hands this module's kernels to the search as values: numba's cache cannot keep it (see
#: gamedp.aot.jit_functions), so on numba's path (GAMEDP_JIT=1) the module compiles afresh in each process.
TAKES_KERNELS = True

U1 = np.uint64(1)
#: Positions with fewer stones than this are kept under one key with their mirror image.
SYMMETRIC_STONES = 12


def line_ends(stones, free, height):
    """The cells of ``free`` where one more stone would complete four in a row with ``stones``."""
    h = np.uint64(height)
    # vertical: three stones right below
    r = (stones << U1) & (stones << np.uint64(2)) & (stones << np.uint64(3))
    for s in (h, h + U1, h + np.uint64(2)):  # anti-diagonal, horizontal, diagonal
        p = (stones << s) & (stones << (s + s))
        r |= p & (stones << (s + s + s))
        r |= p & (stones >> s)
        p = (stones >> s) & (stones >> (s + s))
        r |= p & (stones << s)
        r |= p & (stones >> (s + s + s))
    return r & free


def mirror(key, width, height):
    """``key`` with column c moved to column W-1-c."""
    stride = np.uint64(height + 1)
    column = (U1 << stride) - U1
    out = np.uint64(0)
    for c in range(width):
        out |= ((key >> (np.uint64(c) * stride)) & column) << (np.uint64(width - 1 - c) * stride)
    return out


def win_score(cells, stones_before):
    """The score of a win by a stone played onto a board holding ``stones_before`` stones."""
    return (cells + 1 - stones_before) // 2


# -- the hooks; p = (width, height, symmetric, bottom row, board, 2^16 / (height + 1) rounded up) ---------------
def column_of(bit, p):
    """The column of a cell's bit (a multiplication rather than a division: bit indices are below 64)."""
    return (null_window.bit_index(bit) * p[5]) >> 16



def start(current, mask, p):
    width, height, _, bottom, board, _ = p
    cells = width * height
    stones = null_window.popcount(mask)
    if has_four(current ^ mask, height):  # the last stone made a line: lost, with no move left
        return True, -win_score(cells, stones - 1), 0
    if stones >= cells:
        return True, 0, 0
    if line_ends(current, board & ~mask, height) & (mask + bottom) & board != 0:
        return True, win_score(cells, stones), 0
    return False, -win_score(cells, stones + 1), win_score(cells, stones + 2)


def moves(current, mask, p):
    width, height, _, bottom, board, _ = p
    cells = width * height
    stones = null_window.popcount(mask)
    free = board & ~mask
    possible = (mask + bottom) & board
    threats = line_ends(current ^ mask, free, height)
    forced = possible & threats
    if forced != 0:
        if forced & (forced - U1) != 0:  # two threats to block: lost to the opponent's next stone
            lost = -win_score(cells, stones + 1)
            return np.uint64(0), lost, lost
        possible = forced
    kept = possible & ~(threats >> U1)  # never under a cell where the opponent completes a line
    if kept == 0:
        lost = -win_score(cells, stones + 1)
        return kept, lost, lost
    if stones >= cells - 2:
        return np.uint64(0), 0, 0
    # Nobody wins at once (the parent checked the mover; the moves kept stop the opponent), nor before their
    # fourth stone (the first player's goes onto 6 stones, the second's onto 7).
    parity = stones & 1
    return kept, -win_score(cells, max(stones + 3, 7 - parity)), win_score(cells, max(stones + 2, 6 + parity))


def bound(current, mask, p):
    # every bound Connect-Four knows is cheap enough for moves(), before the table is read
    return -null_window.OFFSET, null_window.OFFSET


def play_move(current, mask, move, p):
    return current ^ mask, mask | move


def order(current, mask, move, p):
    """Lines the move threatens to complete, then the centre columns first."""
    width, height, _, _, board, _ = p
    threats = null_window.popcount(line_ends(current | move, board & ~mask, height))
    off = column_of(move, p) - width // 2
    rank = -2 * off - 1 if off < 0 else 2 * off  # 0 for the centre, then 1, 2, ... outwards, left first
    return threats * 16 + 15 - rank


def key(current, mask, p):
    """The key a position is kept under: folded with its mirror image while the board holds few stones (where
    mirror transpositions are met; later they are rare, and the mirror costs more than it saves)."""
    width, height, symmetric, _, _, _ = p
    k = current + mask
    if symmetric != 0 and null_window.popcount(mask) < SYMMETRIC_STONES:
        other = mirror(k, width, height)
        if other < k:
            return other
    return k


# -- entry points --------------------------------------------------------------------------------------------
def solve(current, mask, width, height, low, high, table_ptr, size, symmetric, frames_ptr, counters_ptr,
          watch_ptr):
    """The exact score of (current, mask) if it lies in [low, high], else the nearest of the two (so (-1, 1)
    asks the outcome alone). Returns :data:`~gamedp.kernels.null_window.STOPPED` when asked to stop."""
    table, frames, counters, watch = search_arrays(width, table_ptr, size, frames_ptr, counters_ptr, watch_ptr)
    return null_window.solve(start, moves, bound, play_move, order, key, np.uint64(current), np.uint64(mask),
                             parameters(width, height, symmetric), low, high, width, False, table, size, frames,
                             counters, watch)


def expand(current, mask, width, height, out_ptr):
    """The search's view of (current, mask) for a driver that splits it (see
    :func:`gamedp.kernels.null_window.expand`)."""
    return null_window.expand(start, moves, bound, play_move, order, np.uint64(current), np.uint64(mask),
                              parameters(width, height, 0), carray(out_ptr, 2 + 3 * width))


def search_arrays(width, table_ptr, size, frames_ptr, counters_ptr, watch_ptr):
    plies = null_window.MAX_PLIES + 1
    return (carray(table_ptr, size), carray(frames_ptr, plies * null_window.frame_words(width)),
            carray(counters_ptr, plies * null_window.counter_words(width) + null_window.HISTORY_WORDS),
            carray(watch_ptr, null_window.WATCH_WORDS))


def parameters(width, height, symmetric):
    """The hooks' ``p`` for a board of ``width`` x ``height``."""
    stride = np.uint64(height + 1)
    bottom = np.uint64(0)
    for c in range(width):
        bottom |= U1 << (np.uint64(c) * stride)
    return width, height, symmetric, bottom, bottom * ((U1 << np.uint64(height)) - U1), -(-(1 << 16) // (height + 1))


def grow(table_ptr, size):
    """Double the table of ``size`` slots at ``table_ptr`` in place (see :func:`gamedp.kernels.null_window.grow`)."""
    return null_window.grow(carray(table_ptr, 2 * size), size)


def play(text_ptr, length, width, height, out_ptr):
    """The position after the columns written in ``text_ptr[:length]`` (digits 1..W) from the empty board, into
    ``out`` as (current, mask); returns 0, or -1 where a move is not a column, is into a full column or comes
    after a line was made (the caller then names the problem)."""
    read, current, mask = read_columns(carray(text_ptr, length), 0, length, width, height)
    if not read:
        return -1
    out = carray(out_ptr, 2)
    out[0] = np.int64(current)
    out[1] = np.int64(mask)
    return 0


def read_columns(text, begin, end, width, height):
    """(True, current, mask) after the columns ``text[begin:end]``, or (False, 0, 0) (see :func:`play`)."""
    stride = np.uint64(height + 1)
    top = U1 << np.uint64(height - 1)
    current = np.uint64(0)
    mask = np.uint64(0)
    for i in range(begin, end):
        c = np.int64(text[i]) - 49
        if c < 0 or c >= width:
            return False, current, mask
        shift = np.uint64(c) * stride
        if mask & (top << shift) != 0 or has_four(current ^ mask, height):
            return False, current, mask
        current ^= mask
        mask |= mask + (U1 << shift)
    return True, current, mask


def answer_lines(text_ptr, begin, end, width, height, outcomes_only, quick, table_ptr, size, symmetric,
                 frames_ptr, counters_ptr, watch_ptr, out_ptr, room, done_ptr):
    """Answer the lines of ``text_ptr[begin:end]`` (split at newlines) in order, each a move string
    searched for at most ``quick`` positions, as ``gamedp value`` prints them (``MOVES<TAB>VALUE<TAB>REMOTENESS``,
    the remoteness ``-`` when ``outcomes_only``), into ``out_ptr[:room]``: see
    :func:`gamedp.kernels.line_answers.answer_lines`, whose status this returns (a line is left to the caller
    where it is not a legal move string, or needs a longer search)."""
    arrays = search_arrays(width, table_ptr, size, frames_ptr, counters_ptr, watch_ptr)
    cells = width * height
    low, high = (-1, 1) if outcomes_only != 0 else (-cells, cells)
    return line_answers.answer_lines(solve_words, read_line, remoteness, parameters(width, height, symmetric),
                                     carray(text_ptr, end), begin, end, low, high, outcomes_only, quick,
                                     (arrays[0], size, arrays[1], arrays[2], arrays[3]), arrays[3],
                                     carray(out_ptr, room), carray(done_ptr, 2))


def solve_words(current, mask, p, low, high, arrays):
    table, size, frames, counters, watch = arrays
    return null_window.solve(start, moves, bound, play_move, order, key, current, mask, p, low, high, p[0], False,
                             table, size, frames, counters, watch)


def read_line(text, begin, end, p):
    """A line of columns played (digits 1..W), as :func:`read_columns` reads it."""
    return read_columns(text, begin, end, p[0], p[1])


def remoteness(current, mask, score, p):
    """The plies to the end that ``score`` means (as :meth:`gamedp.games.connect4_scores.Connect4Scores.value`
    reads a score)."""
    left = p[0] * p[1] - null_window.popcount(mask)
    if score == 0:
        return left
    plies = left + 2 - 2 * abs(score)  # or one fewer: the one of the winner's parity
    if plies % 2 != (1 if score > 0 else 0):
        plies -= 1
    return plies


def has_four(stones, height):
    """Whether ``stones`` hold four in a row."""
    for s in (U1, np.uint64(height), np.uint64(height + 1), np.uint64(height + 2)):
        pairs = stones & (stones >> s)
        if pairs & (pairs >> (s + s)) != 0:
            return True
    return False
