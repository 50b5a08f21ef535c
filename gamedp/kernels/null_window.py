"""The score search's core, for any game: null-window negamax over a bounded transposition table of bounds,
and a driver that bisects the score with it (:mod:`gamedp.solvers.score_search` runs it).

A game gives its rules as six kernels over a position held in two 64-bit words ``(a, b)`` (Connect-Four: the
mover's stones and every stone; Domineering: the board and nothing) and a tuple of its parameters ``p``; its
native module passes them to :func:`solve` as functions (numba compiles the search once per game, with the
game's kernels inlined):

- ``start(a, b, p) -> (settled, low, high)``: a position asked about; if ``settled``, ``low`` is its exact score
  (the game is over, or won at once), else [low, high] bounds its score;
- ``moves(a, b, p) -> (moves, low, high)``: a position met in the search (the player to move cannot win at
  once, and the game is not over): its moves worth searching as a set of bits (those that do not lose at once
  — the *non-losing moves* hook; a game of more than 64 moves gives them as two words, and a move is then
  the index of its bit: :func:`take`), and bounds on its score (e.g. nobody wins before their fourth stone); no
  moves: ``low`` is its exact score;
- ``bound(a, b, p) -> (low, high)``: bounds on the score of a position met in the search that neither its moves'
  bounds nor the table settle, by a test that costs too much to run before the table is read (a game without
  one returns bounds that narrow nothing);
- ``play(a, b, move, p) -> (a, b)``: the position after ``move`` (one bit of ``moves``), for the other player;
- ``order(a, b, move, p) -> int``: how promising ``move`` looks (higher first; ties keep the bits' order, low
  bits first — a game puts its own preference for ties in the lowest digits);
- ``key(a, b, p) -> int``: the position's key in the table, the same for positions the game knows to be
  equivalent (symmetry). A key is 64 bits: a game whose positions need more (Domineering past 64 cells)
  gives a hash of them, and the search is then exact unless two positions it meets share one (the game's module
  says how likely that is).

Scores are small integers (at most 63 either way: a bound is kept in a byte); a child's score is the negation
of its parent's view of it. The techniques the best dedicated solvers use are the search's own:

- the table keeps a lower and an upper bound per position; an entry is one 64-bit word: the top 48 bits of the
  hashed key (its low bits are the slot, so together they are the whole key, whatever the table's size) and the
  two bounds; a new position replaces an old one in its slot, so the table never grows past its size;
- a node first reads its children's slots (all at once, so that their cache misses overlap) and is settled
  without a search when one of them is already refuted (an enhanced transposition cut-off);
- moves are searched by the game's ``order``, then (when ``HISTORY`` is on) by how often each move refuted a
  position of the same player before (the history heuristic);
- a search that fails low returns the best score it found, not its window's bound (fail-soft), and the table keeps
  that: a game whose scores skip values (Domineering's +1 and -1) has a lost position proved by the one search
  that asks whether it is won, and the bisection below narrows by more than half where it can;
- :func:`solve` narrows the score by null-window searches, bisecting with a pull towards 0, as an MTD(f)-style
  driver would;
- several threads may search one table at once, each with its own ``frames``, ``counters`` and ``watch``: an
  entry is read and written as one word and holds only proven bounds, so what one thread finds is sound for
  all (a write lost to another thread's costs only time); a helper (``watch[SKEW]`` plies) takes its second
  move first near the root, so that it works ahead of the main search instead of beside it.

The search is iterative (its stack lives in the caller's ``frames`` and ``counters``), so it allocates nothing
and has no recursion limit; every 4,096 positions it writes its count to ``watch[NODES]`` and stops (returning
:data:`STOPPED`) when ``watch[STOP]`` is set or the count has reached ``watch[LIMIT]`` (its caller may then grow
the table, and search on from the bounds ``watch[LOW]`` and ``watch[HIGH]`` proved so far).
"""

import numpy as np

#: Its functions take a game's kernels as arguments (see gamedp.aot.jit_functions).
TAKES_KERNELS = True
#: What a search returns when told to stop (no score is this low).
STOPPED = -(1 << 40)
#: Plies a search can go below its root (Domineering on 256 cells lasts at most 128).
MAX_PLIES = 128
#: watch: [positions searched, stop request, lowest score still possible, highest score still possible,
#: positions after which to stop (the caller may then grow the table and go on), plies at whose positions this
#: search tries its second move first (0 for all but the helpers of a search shared between threads)]
WATCH_WORDS = 6
NODES, STOP, LOW, HIGH, LIMIT, SKEW = range(WATCH_WORDS)
#: Bounds are kept in a byte each, offset so that 0 means "no bound".
OFFSET = 64
REPORT_MASK = 4095
#: ``counters`` ends with the history: a count per move and player (parity of the ply), a move's count at
#: :func:`history_slot` of the player's :data:`HISTORY_SIDE` words (a set of four words has 256 moves).
HISTORY_SIDE = 256
HISTORY_WORDS = 2 * HISTORY_SIDE
#: A move's sort key is its order times this, plus its history (capped below it).
HISTORY_SCALE = 1 << 24

U1 = np.uint64(1)
U8 = np.uint64(8)
U16 = np.uint64(16)
BYTE = np.uint64(255)
#: Keys are multiplied by this odd number, then their top bits folded into the low ones (each step a bijection of
#: 64-bit words), before their low bits pick a slot: the slots of a table of up to 2^37 have the product's best
#: mixed bits (its top ones) in them.
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
U37 = np.uint64(37)
#: An entry keeps the top 48 bits of its hashed key; in a table of at least 2^16 slots, they and the slot (the
#: low bits) make the whole hashed key, so a position is never taken for another, even by a search that reads
#: the table with another size than the one that wrote it (processes sharing a table that grows,
#: :mod:`gamedp.solvers.shared_table`).
MIN_TABLE = 1 << 16


def frame_words(width):
    """Words of ``frames`` (u8) per ply for a game of at most ``width`` moves a position: the position, its key,
    its moves sorted, and its children's hashed keys and table entries (for the cut-off)."""
    return 3 + 3 * width


def counter_words(width):
    """Words of ``counters`` (i8) per ply: alpha, beta, the number of moves, the one being searched, the best
    score found so far, the moves' sort keys."""
    return 5 + width


def popcount(x):
    x = x - ((x >> U1) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


def no_moves(moves):
    """Whether the set ``moves`` (one word, two or four: see :func:`take`) is empty."""
    if isinstance(moves, tuple):
        low, high = moves
        if isinstance(low, tuple):
            return low[0] == 0 and low[1] == 0 and high[0] == 0 and high[1] == 0
        return low == 0 and high == 0
    return moves == 0


def take(rest):
    """The first move of the set ``rest``, and the set without it. A set is one word of move bits (the move is
    its lowest bit); for a game with more moves than a word has bits, two words ``(low, high)`` of up to 128
    moves, or four as two such pairs ``((w0, w1), (w2, w3))`` of up to 256 (the move is then the index of its
    lowest bit). numba compiles only the branch of the set's type."""
    if isinstance(rest, tuple):
        low, high = rest
        if isinstance(low, tuple):
            (w0, w1), (w2, w3) = rest
            if w0 != 0:
                bit = w0 & (~w0 + U1)
                return np.uint64(bit_index(bit)), ((w0 ^ bit, w1), (w2, w3))
            if w1 != 0:
                bit = w1 & (~w1 + U1)
                return np.uint64(64 + bit_index(bit)), ((w0, w1 ^ bit), (w2, w3))
            if w2 != 0:
                bit = w2 & (~w2 + U1)
                return np.uint64(128 + bit_index(bit)), ((w0, w1), (w2 ^ bit, w3))
            bit = w3 & (~w3 + U1)
            return np.uint64(192 + bit_index(bit)), ((w0, w1), (w2, w3 ^ bit))
        if low != 0:
            bit = low & (~low + U1)
            return np.uint64(bit_index(bit)), (low ^ bit, high)
        bit = high & (~high + U1)
        return np.uint64(64 + bit_index(bit)), (low, high ^ bit)
    move = rest & (~rest + U1)
    return move, rest ^ move


def history_slot(moves, move):
    """The history's slot of ``move`` among the player's: the index of its bit (a move of a one-word set is its
    bit; one of a two-word set already an index). ``moves`` is any set of the game's: only its type counts."""
    if isinstance(moves, tuple):
        return np.int64(move)
    return bit_index(move)


def bit_index(bit):
    """The index of the one bit set in ``bit``."""
    return popcount(bit - U1)


def trunc_half(x):
    """``x / 2`` rounded towards 0 (the bisection's pull towards 0)."""
    return x // 2 if x >= 0 else -((-x) // 2)


def probe(lo, hi):
    """The score the next null-window search asks about when the score is known to lie in [lo, hi] (lo < hi): the
    middle, or half the bound on the middle's side of 0 where that lies further from the middle (as Pascal Pons'
    solver bisects).

    >>> probe(-20, 20), probe(-20, 1), probe(3, 20), probe(-1, 0), probe(2, 40)
    (-10, -10, 11, -1, 21)
    """
    middle = lo + (hi - lo) // 2
    if middle <= 0 and trunc_half(lo) < middle:
        return trunc_half(lo)
    if middle >= 0 and trunc_half(hi) > middle:
        return trunc_half(hi)
    return middle


def negamax(moves_of, bound_of, play, order, key_of, a, b, p, alpha, width, history, table, mask, frames, counters,
            watch):
    """The score of (a, b) against the null window (alpha, alpha + 1): a result above alpha is a lower bound, one
    at or below alpha an upper bound. Returns :data:`STOPPED` when asked to stop."""
    fw = frame_words(width)
    cw = counter_words(width)
    hist = (MAX_PLIES + 1) * cw
    nodes = watch[NODES]
    skew = watch[SKEW]
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
            moves, low, high = moves_of(a, b, p)
            if no_moves(moves):
                result = low
                entering = False
                continue
            key = key_of(a, b, p)
            hashed = mix(key)
            entry = table[hashed & mask]
            if entry >> U16 == hashed >> U16:
                lower_byte = entry & BYTE
                upper_byte = (entry >> U8) & BYTE
                if lower_byte != 0:
                    low = max(low, np.int64(lower_byte) - OFFSET)
                if upper_byte != 0:
                    high = min(high, np.int64(upper_byte) - OFFSET)
            if max(alpha, low) < min(beta, high):
                settle_low, settle_high = bound_of(a, b, p)
                low = max(low, settle_low)
                high = min(high, settle_high)
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
            base = depth * fw
            at = depth * cw
            seen = base + 3 + width  # the children's hashed keys, then their entries
            count = 0
            rest = moves
            while not no_moves(rest):
                move, rest = take(rest)
                ca, cb = play(a, b, move, p)
                frames[seen + count] = mix(key_of(ca, cb, p))
                count += 1
            # The children's slots are read in one tight loop and looked at only after the sort: the reads wait
            # for memory together, not one miss after another (the search waits on little else).
            for j in range(count):
                frames[seen + width + j] = table[frames[seen + j] & mask]
            side = (depth & 1) * HISTORY_SIDE
            count = 0
            rest = moves
            while not no_moves(rest):
                move, rest = take(rest)
                score = order(a, b, move, p)
                if history:
                    score = score * HISTORY_SCALE + min(counters[hist + side + history_slot(moves, move)],
                                                        HISTORY_SCALE - 1)
                j = count
                while j > 0 and counters[at + 5 + j - 1] < score:
                    frames[base + 3 + j] = frames[base + 2 + j]
                    counters[at + 5 + j] = counters[at + 4 + j]
                    j -= 1
                frames[base + 3 + j] = move
                counters[at + 5 + j] = score
                count += 1
            if depth < skew and count > 1:
                # a helper thread takes another path than the main one near the root, so that the two fill the
                # shared table with different subtrees rather than race through the same ones
                frames[base + 3], frames[base + 4] = frames[base + 4], frames[base + 3]
            # Enhanced transposition cut-off: a child whose upper bound already refutes it settles this position.
            refuted = False
            for j in range(count):
                entry = frames[seen + width + j]
                if entry >> U16 == frames[seen + j] >> U16 and (entry >> U8) & BYTE != 0 and \
                        OFFSET - np.int64((entry >> U8) & BYTE) >= beta:
                    result = OFFSET - np.int64((entry >> U8) & BYTE)
                    refuted = True
                    break
            if refuted:
                store(table, mask, key, result, True)
                entering = False
                continue
            frames[base] = a
            frames[base + 1] = b
            frames[base + 2] = key
            counters[at] = alpha
            counters[at + 1] = beta
            counters[at + 2] = count
            counters[at + 3] = 0
            counters[at + 4] = low
            a, b = play(a, b, frames[base + 3], p)
            alpha, beta = -beta, -alpha
            depth += 1
            continue
        # a result came back from the position at ``depth``: its parent takes it
        if depth == 0:
            watch[NODES] = nodes
            return result
        depth -= 1
        base = depth * fw
        at = depth * cw
        score = -result
        alpha = counters[at]
        beta = counters[at + 1]
        i = counters[at + 3]
        if score >= beta:
            store(table, mask, frames[base + 2], score, True)
            if history:
                counters[hist + (depth & 1) * HISTORY_SIDE + history_slot(moves, frames[base + 3 + i])] += 1
            result = score
            continue
        if score > counters[at + 4]:
            counters[at + 4] = score
        if score > alpha:
            alpha = score
            counters[at] = alpha
        i += 1
        if i < counters[at + 2]:
            counters[at + 3] = i
            a, b = play(frames[base], frames[base + 1], frames[base + 3 + i], p)
            alpha, beta = -beta, -alpha
            depth += 1
            entering = True
            continue
        result = counters[at + 4]
        store(table, mask, frames[base + 2], result, False)


def store(table, mask, key, score, lower):
    """Keep ``score`` as a lower (else upper) bound of ``key``'s position: beside the other bound the slot has
    for the same position, else in place of whatever it held."""
    hashed = mix(key)
    slot = hashed & mask
    tag = hashed >> U16
    entry = table[slot]
    bound = np.uint64(score + OFFSET)
    if entry >> U16 == tag:
        if lower:
            table[slot] = (entry & ~BYTE) | bound
        else:
            table[slot] = (entry & ~(BYTE << U8)) | (bound << U8)
    else:
        table[slot] = (tag << U16) | (bound if lower else bound << U8)


def mix(key):
    """``key`` hashed: its low bits (a slot) depend on all of its bits, and no two keys hash alike."""
    hashed = key * GOLDEN
    return hashed ^ (hashed >> U37)


def solve(start, moves_of, bound_of, play, order, key_of, a, b, p, low, high, width, history, table, size, frames, counters,
          watch):
    """The exact score of (a, b) if it lies in [low, high], else the nearest of the two (so (-1, 1) asks the
    outcome alone). Returns :data:`STOPPED` when asked to stop."""
    settled, lo, hi = start(a, b, p)
    if settled:
        return max(low, min(high, lo))
    lo = max(low, lo)
    hi = min(high, hi)
    mask = np.uint64(size - 1)
    while lo < hi:
        watch[LOW] = lo
        watch[HIGH] = hi
        middle = probe(lo, hi)
        r = negamax(moves_of, bound_of, play, order, key_of, a, b, p, middle, width, history, table, mask, frames, counters,
                    watch)
        if r == STOPPED:
            return STOPPED
        if r <= middle:
            hi = r
        else:
            lo = r
    watch[LOW] = lo
    watch[HIGH] = lo
    return max(low, min(high, lo))


def expand(start, moves_of, bound_of, play, order, a, b, p, out):
    """The search's own view of (a, b), for a driver that splits the search above it: ``out[0]`` and ``out[1]``
    bound its score (by ``start``, ``moves`` and ``bound``, as a node of :func:`negamax` is bounded before its
    table is read), then each move the search would search, in its order (the game's ``order``, ties low bits
    first), as three words: its order and the child's two words (``out`` holds ``2 + 3 * width``). Returns the
    number of moves: 0 when the hooks settle the position (``out[0]`` is then its exact score)."""
    settled, low, high = start(a, b, p)
    if settled:
        out[0] = low
        out[1] = low
        return 0
    moves, move_low, move_high = moves_of(a, b, p)
    if no_moves(moves):
        out[0] = move_low
        out[1] = move_low
        return 0
    low = max(low, move_low)
    high = min(high, move_high)
    settle_low, settle_high = bound_of(a, b, p)
    low = max(low, settle_low)
    high = min(high, settle_high)
    out[0] = low
    out[1] = high
    if low >= high:
        out[1] = low
        return 0
    # by the order, higher first (ties keep the bits' order), as the search sorts them
    count = 0
    rest = moves
    while not no_moves(rest):
        move, rest = take(rest)
        score = order(a, b, move, p)
        ca, cb = play(a, b, move, p)
        j = count
        while j > 0 and out[3 * j - 1] < score:
            out[3 * j + 2] = out[3 * j - 1]
            out[3 * j + 3] = out[3 * j]
            out[3 * j + 4] = out[3 * j + 1]
            j -= 1
        out[3 * j + 2] = score
        out[3 * j + 3] = np.int64(ca)
        out[3 * j + 4] = np.int64(cb)
        count += 1
    return count


def grow(table, size):
    """Double the table of ``size`` slots in place (``table`` holds ``2 * size`` slots, the upper half zero);
    returns the entries moved. An entry's slot is its hashed key's low bits, and it keeps the key's top 48 bits in
    place (``size`` is 2^16 or more), so the bit that decides its slot in the doubled table is its own: where it
    is set, the entry moves up by ``size``, to a slot of the upper half, which is free."""
    moved = 0
    half = np.uint64(size)
    for slot in range(size):
        entry = table[slot]
        if entry & half != 0:
            table[slot + size] = entry
            table[slot] = 0
            moved += 1
    return moved
