"""Connect-Four's exact score for one position: null-window negamax over a bounded transposition table, as C
functions built by :mod:`gamedp.native` (a run loads them with ctypes, without numpy or numba).

A position is two bitboards, as :mod:`gamedp.games.connect4` lays them out (column-major, H + 1 bits a column):
``current`` holds the stones of the player to move, ``mask`` every stone. The score is the one the field's
benchmark sets use: a win with the winner's k-th stone on a W x H board scores ``(W*H + 1 - n) // 2`` where n is
the number of stones before that last one, a loss the negation, a tie 0. So the winner hurries and the loser
stalls, as remoteness does everywhere in gamedp.

The search (the techniques of Pascal Pons' solver, written here from their description):

- only moves that do not lose at once are searched: a forced block is the only move, two threats to block lose,
  and no stone goes under a cell where the opponent would complete a line;
- the score is bounded before searching: nobody wins at once (the parent checked), nobody wins before their
  fourth stone, and the table's bounds for the position narrow the window;
- moves are tried by the number of lines they threaten to complete, centre columns first among equals;
- the table keeps a lower and an upper bound per position, under a key folded with the mirror image's while the
  board holds few stones; an entry is one 64-bit word: the low 48 bits of the hashed key (its top bits are the
  slot, so together they are the whole key) and the two bounds; a new position replaces an old one in its slot;
- a node first reads its children's slots (all at once, so that their cache misses overlap) and is settled
  without a search when one of them is already refuted (an enhanced transposition cut-off);
- :func:`solve` narrows the score by null-window searches, bisecting with a pull towards 0 (where most scores
  of early positions lie), as an MTD(f)-style driver would.

The search is iterative (its stack lives in the caller's ``frames``), so it allocates nothing and has no
recursion limit; every 4,096 positions it writes its count to ``watch[NODES]`` and stops (returning
:data:`STOPPED`) when ``watch[STOP]`` is set or the count has reached ``watch[LIMIT]`` (its caller may then grow
the table, and search on from the bounds ``watch[LOW]`` and ``watch[HIGH]`` proved so far).
"""

import numpy as np
from numba import carray

NATIVE = {
    "solve": "i8(i8, i8, i8, i8, i8, i8, CPointer(u8), i8, i8, CPointer(u8), CPointer(i8), CPointer(i8))",
    "grow": "i8(CPointer(u8), i8)",
    "play": "i8(CPointer(u1), i8, i8, i8, CPointer(i8))",
}

#: What a search returns when told to stop (no score is this low).
STOPPED = -(1 << 40)
#: Plies a search can go below its root: the most cells a board has.
MAX_PLIES = 64
#: ``frames`` (u8) holds per ply the board, its mask, its key, up to this many sorted moves, and the children's
#: hashed keys and table entries (for the cut-off below); ``counters``
#: (i8) per ply alpha, beta, the number of moves, the one being searched and the moves' sort keys.
MAX_WIDTH = 9
BOARD_WORDS = 3 + 3 * MAX_WIDTH
COUNTER_WORDS = 4 + MAX_WIDTH
#: watch: [positions searched, stop request, lowest score still possible, highest score still possible,
#: positions after which to stop (the caller may then grow the table and go on)]
WATCH_WORDS = 5
NODES, STOP, LOW, HIGH, LIMIT = range(WATCH_WORDS)
#: Bounds are kept in a byte each, offset so that 0 means "no bound".
OFFSET = 64
REPORT_MASK = 4095

U1 = np.uint64(1)
U8 = np.uint64(8)
U16 = np.uint64(16)
BYTE = np.uint64(255)
#: Keys are multiplied by this odd number (a bijection of 64-bit words) before their top bits pick a slot.
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
#: An entry keeps the low 48 bits of its hashed key; with a table of at least 2^16 slots, they and the slot
#: (the top bits) make the whole hashed key, so a position is never taken for another.
TAG = np.uint64((1 << 48) - 1)
MIN_TABLE = 1 << 16
#: Positions with fewer stones than this are kept under one key with their mirror image.
SYMMETRIC_STONES = 12


def popcount(x):
    x = x - ((x >> U1) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


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


def trunc_half(x):
    """``x / 2`` rounded towards 0 (the bisection's pull towards 0)."""
    return x // 2 if x >= 0 else -((-x) // 2)


def negamax(current, mask, alpha, width, height, table, size, symmetric, frames, counters, watch):
    """The score of (current, mask) against the null window (alpha, alpha + 1): a result above alpha is a lower
    bound, one at or below alpha an upper bound. The player to move must have no winning move, and the position
    must not be over. Returns :data:`STOPPED` when asked to stop."""
    stride = np.uint64(height + 1)
    column = (U1 << np.uint64(height)) - U1
    bottom = np.uint64(0)
    for c in range(width):
        bottom |= U1 << (np.uint64(c) * stride)
    board = bottom * column
    cells = width * height
    shift = table_shift(size)
    root_stones = popcount(mask)
    nodes = watch[NODES]
    beta = alpha + 1
    depth = 0
    result = 0
    entering = True
    while True:
        if entering:
            nodes += 1
            if nodes & REPORT_MASK == 0:
                watch[NODES] = nodes
                if watch[STOP] != 0 or nodes >= watch[LIMIT]:
                    return STOPPED
            stones = root_stones + depth
            free = board & ~mask
            possible = (mask + bottom) & board
            threats = line_ends(current ^ mask, free, height)
            forced = possible & threats
            if forced != 0:
                if forced & (forced - U1) != 0:  # two threats to block: lost to the opponent's next stone
                    result = -win_score(cells, stones + 1)
                    entering = False
                    continue
                possible = forced
            moves = possible & ~(threats >> U1)  # never under a cell where the opponent completes a line
            if moves == 0:
                result = -win_score(cells, stones + 1)
                entering = False
                continue
            if stones >= cells - 2:
                result = 0
                entering = False
                continue
            # Nobody wins at once (the parent checked the mover; the moves kept stop the opponent), nor before
            # their fourth stone (the first player's goes onto 6 stones, the second's onto 7).
            parity = stones & 1
            low = -win_score(cells, max(stones + 3, 7 - parity))
            high = win_score(cells, max(stones + 2, 6 + parity))
            key = table_key(current + mask, stones, symmetric, width, height)
            hashed = key * GOLDEN
            entry = table[hashed >> shift]
            if entry >> U16 == hashed & TAG:
                lower_byte = entry & BYTE
                upper_byte = (entry >> U8) & BYTE
                if lower_byte != 0:
                    low = max(low, np.int64(lower_byte) - OFFSET)
                if upper_byte != 0:
                    high = min(high, np.int64(upper_byte) - OFFSET)
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    result = alpha
                    entering = False
                    continue
            if beta > high:
                beta = high
                if alpha >= beta:
                    result = beta
                    entering = False
                    continue
            # the moves, most lines threatened first, centre columns first among equals
            base = depth * BOARD_WORDS
            at = depth * COUNTER_WORDS
            seen = base + 3 + MAX_WIDTH  # the children's hashed keys, then their entries
            child = current ^ mask
            count = 0
            for i in range(width):
                move = moves & (column << (np.uint64(i) * stride))
                if move != 0:
                    frames[seen + count] = table_key(child + (mask | move), stones + 1, symmetric, width,
                                                     height) * GOLDEN
                    count += 1
            # The children's slots are read in one tight loop and looked at only after the sort: the reads wait
            # for memory together, not one miss after another (the search waits on little else).
            for j in range(count):
                frames[seen + MAX_WIDTH + j] = table[frames[seen + j] >> shift]
            count = 0
            for i in range(width):
                c = width // 2 + (1 - 2 * (i % 2)) * ((i + 1) // 2)
                move = moves & (column << (np.uint64(c) * stride))
                if move == 0:
                    continue
                score = popcount(line_ends(current | move, free, height))
                j = count
                while j > 0 and counters[at + 4 + j - 1] < score:
                    frames[base + 3 + j] = frames[base + 2 + j]
                    counters[at + 4 + j] = counters[at + 3 + j]
                    j -= 1
                frames[base + 3 + j] = move
                counters[at + 4 + j] = score
                count += 1
            # Enhanced transposition cut-off: a child whose upper bound already refutes it settles this position.
            refuted = False
            for j in range(count):
                entry = frames[seen + MAX_WIDTH + j]
                if entry >> U16 == frames[seen + j] & TAG and (entry >> U8) & BYTE != 0 and \
                        OFFSET - np.int64((entry >> U8) & BYTE) >= beta:
                    result = OFFSET - np.int64((entry >> U8) & BYTE)
                    refuted = True
                    break
            if refuted:
                store(table, shift, key, result, True)
                entering = False
                continue
            frames[base] = current
            frames[base + 1] = mask
            frames[base + 2] = key
            counters[at] = alpha
            counters[at + 1] = beta
            counters[at + 2] = count
            counters[at + 3] = 0
            current, mask = current ^ mask, mask | frames[base + 3]
            alpha, beta = -beta, -alpha
            depth += 1
            continue
        # a result came back from the position at ``depth``: its parent takes it
        if depth == 0:
            watch[NODES] = nodes
            return result
        depth -= 1
        base = depth * BOARD_WORDS
        at = depth * COUNTER_WORDS
        score = -result
        alpha = counters[at]
        beta = counters[at + 1]
        if score >= beta:
            store(table, shift, frames[base + 2], score, True)
            result = score
            continue
        if score > alpha:
            alpha = score
            counters[at] = alpha
        i = counters[at + 3] + 1
        if i < counters[at + 2]:
            counters[at + 3] = i
            mask = frames[base + 1]
            current, mask = frames[base] ^ mask, mask | frames[base + 3 + i]
            alpha, beta = -beta, -alpha
            depth += 1
            entering = True
            continue
        store(table, shift, frames[base + 2], alpha, False)
        result = alpha


def table_key(key, stones, symmetric, width, height):
    """The key a position is kept under: folded with its mirror image while the board holds few stones (where
    mirror transpositions are met; later they are rare, and the mirror costs more than it saves)."""
    if symmetric and stones < SYMMETRIC_STONES:
        other = mirror(key, width, height)
        if other < key:
            return other
    return key


def store(table, shift, key, score, lower):
    """Keep ``score`` as a lower (else upper) bound of ``key``'s position: beside the other bound the slot has
    for the same position, else in place of whatever it held."""
    hashed = key * GOLDEN
    slot = hashed >> shift
    tag = hashed & TAG
    entry = table[slot]
    bound = np.uint64(score + OFFSET)
    if entry >> U16 == tag:
        if lower:
            table[slot] = (entry & ~BYTE) | bound
        else:
            table[slot] = (entry & ~(BYTE << U8)) | (bound << U8)
    else:
        table[slot] = (tag << U16) | (bound if lower else bound << U8)


def table_shift(size):
    """64 - log2(size): the shift that turns a hashed key into a slot of a table of ``size`` (a power of 2)."""
    bits = 0
    while (1 << (bits + 1)) <= size:
        bits += 1
    return np.uint64(64 - bits)


def solve(current, mask, width, height, low, high, table_ptr, size, symmetric, frames_ptr, counters_ptr,
          watch_ptr):
    """The exact score of (current, mask) if it lies in [low, high], else the nearest of the two (so (-1, 1)
    asks the outcome alone). The position must not be over. Returns :data:`STOPPED` when asked to stop."""
    table = carray(table_ptr, size)
    frames = carray(frames_ptr, (MAX_PLIES + 1) * BOARD_WORDS)
    counters = carray(counters_ptr, (MAX_PLIES + 1) * COUNTER_WORDS)
    watch = carray(watch_ptr, WATCH_WORDS)
    ucur, umask = np.uint64(current), np.uint64(mask)
    stride = np.uint64(height + 1)
    bottom = np.uint64(0)
    for c in range(width):
        bottom |= U1 << (np.uint64(c) * stride)
    board = bottom * ((U1 << np.uint64(height)) - U1)
    cells = width * height
    stones = popcount(umask)
    if has_four(ucur ^ umask, height):  # the last stone made a line: lost, with no move left
        return max(low, min(high, -win_score(cells, stones - 1)))
    if stones >= cells:
        return 0
    if line_ends(ucur, board & ~umask, height) & (umask + bottom) & board != 0:
        return max(low, min(high, win_score(cells, stones)))
    lo = max(low, -win_score(cells, stones + 1))
    hi = min(high, win_score(cells, stones + 2))
    while lo < hi:
        watch[LOW] = lo
        watch[HIGH] = hi
        middle = lo + (hi - lo) // 2
        if middle <= 0 and trunc_half(lo) < middle:
            middle = trunc_half(lo)
        elif middle >= 0 and trunc_half(hi) > middle:
            middle = trunc_half(hi)
        r = negamax(ucur, umask, middle, width, height, table, size, symmetric != 0, frames, counters, watch)
        if r == STOPPED:
            return STOPPED
        if r <= middle:
            hi = r
        else:
            lo = r
    watch[LOW] = lo
    watch[HIGH] = lo
    return max(low, min(high, lo))


def grow(table_ptr, size):
    """Double the table of ``size`` slots at ``table_ptr`` in place (the ``size`` slots after it must be there, and
    zero); returns the entries kept. A hashed key is its slot (its top bits) and its tag (its low 48 bits), so it
    is found again whole; its new slot is twice its old one, or one more, so going down from the last slot, each
    entry moves to a slot that is already free."""
    table = carray(table_ptr, 2 * size)
    old_shift = table_shift(size)
    new_shift = old_shift - U1
    low_bits = (U1 << old_shift) - U1
    moved = 0
    for slot in range(size - 1, -1, -1):
        entry = table[slot]
        if entry == 0:
            continue
        table[slot] = 0
        table[((np.uint64(slot) << old_shift) | ((entry >> U16) & low_bits)) >> new_shift] = entry
        moved += 1
    return moved


def play(text_ptr, length, width, height, out_ptr):
    """The position after the columns written in ``text_ptr[:length]`` (digits 1..W) from the empty board, into
    ``out`` as (current, mask); returns 0, or -1 where a move is not a column, is into a full column or comes
    after a line was made (the caller then names the problem)."""
    text = carray(text_ptr, length)
    out = carray(out_ptr, 2)
    stride = np.uint64(height + 1)
    top = U1 << np.uint64(height - 1)
    current = np.uint64(0)
    mask = np.uint64(0)
    for i in range(length):
        c = np.int64(text[i]) - 49
        if c < 0 or c >= width:
            return -1
        shift = np.uint64(c) * stride
        if mask & (top << shift) != 0:
            return -1
        if has_four(current ^ mask, height):
            return -1
        current ^= mask
        mask |= mask + (U1 << shift)
    out[0] = np.int64(current)
    out[1] = np.int64(mask)
    return 0


def has_four(stones, height):
    """Whether ``stones`` hold four in a row."""
    for s in (U1, np.uint64(height), np.uint64(height + 1), np.uint64(height + 2)):
        pairs = stones & (stones >> s)
        if pairs & (pairs >> (s + s)) != 0:
            return True
    return False
