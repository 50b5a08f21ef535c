"""Kernels of Connect-N's tiers (:mod:`gamedp.games.connect4_tiers`), compiled ahead of time by :mod:`gamedp.aot`:
the tier solver's two passes over a range of a tier's indices, and the per-index expansion `gamedp check` checks.

Indices of one height vector are a block of C(n, n // 2) colourings, and the combinadic order of the mover's
stones is the numeric order of their sequence bits (stones counted column by column, bottom up), so the next
index is the next number with as many bits (Gosper's step). A pass sweeps a range block by block: it decodes a
height vector once, steps from each index to the next, and finds every child's index by rank arithmetic.

A child drops a stone of the mover's into column c, at sequence position p (the stones of columns <= c lie
below it); the child's mover is the other player, whose stones q_1 < q_2 < ... move up one from p on, so its
colouring ranks sum C(q_i, i) below p plus sum C(q_i + 1, i) from p on, which is
sum C(q_i + 1, i) - sum over q_i < p of C(q_i, i - 1): one pass over the stones serves every child. Only the
stones below the highest bit that differs from the colouring last ranked change their terms (the count below
it is the same, so the stones above keep their i): those are redone, the sums shifted by the difference.

A pass does per index what :func:`expand_board` does, with what it keeps between indices in registers rather
than in ``state``: about 5x faster (6x4: 25 ns instead of 127 ns a position marking children).
"""

from gamedp.kernels import tier_values

ROW = 64  # tables are flat: binom[n * ROW + k], ways[c * ROW + s]
#: params: the board, then the tables (flat, as above)
P_WIDTH, P_HEIGHT, P_CONNECT, P_BINOM = 0, 1, 2, 8
P_WAYS = P_BINOM + ROW * ROW
#: state: the height vector last decoded (its tier, first index, occupied cells; per column its height, where its
#: stones start in the sequence, where the child dropping there starts its block in tier n + 1), the last index
#: and its mover's stones (as sequence bits); the colouring whose children were last ranked (S_DONE), with its
#: moved_up, per column the child's rank correction and per stone what it added to them; the line test's steps.
S_TIER, S_BLOCK, S_OCCUPIED, S_INDEX, S_MASK, S_DONE, S_MOVED, S_LINES = range(8)
S_HEIGHTS, S_AT, S_CHILD, S_CORRECTION, S_ADDS, S_MOVES, S_STEPS = 8, 24, 40, 56, 72, 136, 200
STATE = 216
#: Consecutive indices closer than this are stepped to (Gosper's next combination), not decoded.
STEPS = 8


def known(k):
    """Index ``k`` (>= 0) with its sign bit cleared: LLVM then knows it is not negative and drops numba's test for
    Python's negative indexing, a compare and a select per load and store of the hot loops."""
    return k & 0x7FFFFFFFFFFFFFFF


def popcount(x):
    """The bits set in ``x`` >= 0 (LLVM compiles these steps to one instruction where the CPU has it)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


def bit_length(x):
    """The bits ``x`` >= 0 takes."""
    for s in (1, 2, 4, 8, 16, 32):
        x |= x >> s
    return popcount(x)


def next_colouring(mask):
    """The next number with as many bits as ``mask`` (> 0)."""
    low = mask & -mask
    ripple = mask + low
    return (((ripple ^ mask) >> 2) >> popcount(low - 1)) | ripple


def colouring(params, n, colour):
    """The mover's stones (sequence bits) of colouring ``colour`` of ``n`` stones: the combinadic unrank."""
    mask = 0
    p = n - 1
    for j in range(n // 2, 0, -1):
        while params[P_BINOM + p * ROW + j] > colour:
            p -= 1
        colour -= params[P_BINOM + p * ROW + j]
        mask |= 1 << p
        p -= 1
    return mask


def line_steps(params, state):
    """The line test's steps into ``state``: per direction the shifts that AND runs of stones together, doubling
    (4 in a row takes two), the first of each negated; -1 steps for a line of one (any stone is one)."""
    height, connect = params[P_HEIGHT], params[P_CONNECT]
    stride = height + 1
    k = -1 if connect == 1 else 0
    for shift in (1, stride - 1, stride, stride + 1):
        if (connect - 1) * shift < 63 and connect > 1:
            have = 1
            while 2 * have <= connect:
                state[S_STEPS + k] = have * shift * (-1 if have == 1 else 1)
                k += 1
                have *= 2
            if have < connect:
                state[S_STEPS + k] = (connect - have) * shift
                k += 1
    state[S_LINES] = k


def has_line(stones, state):
    """Whether ``stones`` hold a line (the steps of :func:`line_steps`)."""
    if state[S_LINES] < 0:
        return stones != 0
    run = 0
    for j in range(state[S_LINES]):
        step = state[S_STEPS + j]
        if step < 0:
            if run != 0:
                return True
            run = stones & (stones >> -step)
        else:
            run &= run >> step
    return run != 0


def decode_block(params, n, height_rank, state):
    """The height vector of rank ``height_rank`` in tier ``n`` into ``state``, with where its children's blocks
    start in tier n + 1; nothing ranked in it yet."""
    width, height = params[P_WIDTH], params[P_HEIGHT]
    stride = height + 1
    colourings = params[P_BINOM + n * ROW + n // 2]
    block = height_rank * colourings
    left = n
    at = 0
    occupied = 0
    for c in range(width):
        h = 0
        while height_rank >= params[P_WAYS + (c + 1) * ROW + left - h]:
            height_rank -= params[P_WAYS + (c + 1) * ROW + left - h]
            h += 1
        left -= h
        state[S_HEIGHTS + c] = h
        state[S_AT + c] = at
        at += h
        occupied |= ((1 << h) - 1) << (c * stride)
    child_colourings = params[P_BINOM + (n + 1) * ROW + (n + 1) // 2] if n < width * height else 0
    for c in range(width):
        child_rank = -1
        if state[S_HEIGHTS + c] < height:
            child_rank = 0
            left = n + 1
            for d in range(width):
                h = state[S_HEIGHTS + d] + (1 if d == c else 0)
                for v in range(h):
                    child_rank += params[P_WAYS + (d + 1) * ROW + left - v]
                left -= h
            child_rank *= child_colourings
        state[S_CHILD + c] = child_rank
    state[S_TIER], state[S_BLOCK], state[S_OCCUPIED] = n, block, occupied
    state[S_INDEX] = state[S_DONE] = -1


def mover_of(mask, state, width, stride):
    """The mover's stones on the board, from their sequence bits."""
    mover = 0
    for c in range(width):
        mover |= ((mask >> state[known(S_AT + c)]) & ((1 << state[known(S_HEIGHTS + c)]) - 1)) << (c * stride)
    return mover


def rank_children(params, n, mask, done, moved_up, state):
    """Rank the children of colouring ``mask`` of the block in ``state``, ``done`` the colouring ranked last in it
    (-1: none yet) with its ``moved_up``; returns mask's moved_up: the child dropping into column c is at
    moved_up + ``state[S_CHILD + c] - state[S_CORRECTION + c]`` of tier n + 1 (S_CHILD >= 0)."""
    width = params[P_WIDTH]
    theirs = ~mask & ((1 << n) - 1)
    if done < 0:  # nothing ranked in this block yet: every stone from nothing
        changed = n
        moved_up = 0
        for p in range(n):
            state[S_ADDS + p] = state[S_MOVES + p] = 0
    else:
        changed = bit_length(done ^ mask)
    members = 0
    correction = 0
    delta_correction = 0
    delta_moved = 0
    p = 0
    for c in range(width):
        top = state[S_AT + c] + state[S_HEIGHTS + c]
        while p < top and p < changed:
            # without a branch: whose stone is at p is a coin toss, and a mispredicted branch costs more
            bit = (theirs >> p) & 1
            members += bit
            # (indices through known: see there)
            add = bit * params[known(P_BINOM + p * ROW + members - 1)]
            moved = bit * params[known(P_BINOM + (p + 1) * ROW + members)]
            delta_correction += add - state[known(S_ADDS + p)]
            delta_moved += moved - state[known(S_MOVES + p)]
            state[known(S_ADDS + p)], state[known(S_MOVES + p)] = add, moved
            correction += add
            p += 1
        if p == top:
            state[S_CORRECTION + c] = correction
        else:
            state[S_CORRECTION + c] += delta_correction
    return moved_up + delta_moved


def child_at(state, c, moved_up):
    """The index in tier n + 1 of the child dropping into column c, once ranked (-1: the column is full)."""
    base = state[known(S_CHILD + c)]
    return base + moved_up - state[known(S_CORRECTION + c)] if base >= 0 else -1


def expand_board(params, tier, index, state, out):
    """The :class:`~gamedp.tiers.Expansion` kernel of Connect-N: the board at ``index`` of ``tier`` and its
    children's indices in tier ``tier + 1``, without building them (for indices asked in increasing order, the
    next one is stepped to)."""
    width, height = params[P_WIDTH], params[P_HEIGHT]
    n = tier
    colourings = params[P_BINOM + n * ROW + n // 2]
    if state[S_TIER] != tier or index < state[S_BLOCK] or index >= state[S_BLOCK] + colourings:
        decode_block(params, n, index // colourings, state)
        line_steps(params, state)
    previous = state[S_INDEX]
    if previous >= 0 and 0 < index - previous <= STEPS:
        mask = state[S_MASK]
        for _ in range(index - previous):
            mask = next_colouring(mask)
    else:
        mask = colouring(params, n, index - state[S_BLOCK])
    state[S_INDEX], state[S_MASK] = index, mask
    if has_line(state[S_OCCUPIED] ^ mover_of(mask, state, width, height + 1), state):
        return -1
    if n == width * height:
        return -3
    moved_up = state[S_MOVED] = rank_children(params, n, mask, state[S_DONE], state[S_MOVED], state)
    state[S_DONE] = mask
    count = 0
    for c in range(width):
        ci = child_at(state, c, moved_up)
        if ci >= 0:
            out[2 * count], out[2 * count + 1] = n + 1, ci
            count += 1
    return count


def sweep(params, tier, lo, hi, reach, limit, marks, values, rems, want_rem, codes, rem, stats, err, state, solving):
    """The reachable positions ``lo..hi-1`` of ``tier``: their children's reach bits set in ``marks`` (unless
    ``solving``; an ended position has none), or (``solving``) their values from their children's ``values``
    (2 bits each) and ``rems`` (with ``want_rem``) into ``codes`` and ``rem`` from ``lo`` on, counted in ``stats``
    as :func:`gamedp.solvers.tier_solver.loops.solve_shard` does. ``limit``: the child tier's size. ``err`` as
    there."""
    width, height = params[P_WIDTH], params[P_HEIGHT]
    stride = height + 1
    n = tier
    colourings = params[P_BINOM + n * ROW + n // 2]
    full = n == width * height
    line_steps(params, state)
    if hi <= lo:
        return
    for height_rank in range(lo // colourings, (hi - 1) // colourings + 1):
        decode_block(params, n, height_rank, state)
        block = height_rank * colourings
        first = max(lo, block)
        mask = colouring(params, n, first - block)
        occupied = state[S_OCCUPIED]
        done = -1
        moved_up = 0
        for i in range(first, min(hi, block + colourings)):
            if i > first:
                mask = next_colouring(mask)
            if not (reach[known(i >> 3)] >> (i & 7)) & 1:
                continue
            ended = has_line(occupied ^ mover_of(mask, state, width, stride), state)
            if ended or full:
                if solving:
                    stats[4] += 1
                    tier_values.record(i - lo, 0 if ended else 2, codes, stats)
                    if want_rem:
                        rem[i - lo] = 0
                continue
            moved_up = rank_children(params, n, mask, done, moved_up, state)
            done = mask
            seen = 0  # which codes the children have, one bit each
            best = -1
            for c in range(width):
                ci = child_at(state, c, moved_up)
                if ci < 0:
                    continue
                if ci >= limit:
                    err[0], err[1], err[2], err[3], err[4] = 2, tier, i, n + 1, ci
                    return
                if not solving:
                    marks[known(ci >> 3)] |= 1 << (ci & 7)
                elif want_rem:
                    v = (values[ci >> 2] >> ((ci & 3) << 1)) & 3
                    seen |= 1 << v
                    best = max(best, tier_values.option(v, rems[ci]))
                else:
                    seen |= 1 << ((values[known(ci >> 2)] >> ((ci & 3) << 1)) & 3)
            if not solving:
                continue
            if seen & 8:  # a child the forward pass did not reach: which
                for c in range(width):
                    ci = child_at(state, c, moved_up)
                    if ci >= 0 and (values[ci >> 2] >> ((ci & 3) << 1)) & 3 == 3:
                        err[0], err[1], err[2], err[3], err[4] = 3, tier, i, n + 1, ci
                return
            if want_rem:
                code, r = tier_values.settle(best)
            else:  # a lost child makes a WIN, else a tied one a TIE
                code, r = 1 if seen & 1 else 2 if seen & 4 else 0, 0
            if want_rem and r > 255:
                err[0], err[1], err[2], err[3] = 5, tier, i, r
                return
            tier_values.record(i - lo, code, codes, stats)
            if want_rem:
                rem[i - lo] = r


def mark_children(params, tier, lo, hi, reach, slot, limits, m0, m1, m2, m3, state, out, err):
    """:func:`gamedp.solvers.tier_solver.loops.mark_children` for Connect-N (its one child tier in ``m0``)."""
    sweep(params, tier, lo, hi, reach, limits[0], m0, reach, reach, False, m1, m1, out, err, state, False)


def solve_shard(params, tier, lo, hi, reach, slot, limits, c0, c1, c2, c3, r0, r1, r2, r3, want_rem, codes, rem,
                state, out, stats, err):
    """:func:`gamedp.solvers.tier_solver.loops.solve_shard` for Connect-N (its one child tier in ``c0``, ``r0``)."""
    sweep(params, tier, lo, hi, reach, limits[0], codes, c0, r0, want_rem, codes, rem, stats, err, state, True)


_RO = "Array(u1, 1, 'C', readonly=True)"
EXPORTS = {
    "mark_children": f"void(i8[::1], i8, i8, i8, {_RO}, i8[::1], i8[::1], u1[::1], u1[::1], u1[::1], u1[::1], "
                     "i8[::1], i8[::1], i8[::1])",
    "solve_shard": f"void(i8[::1], i8, i8, i8, {_RO}, i8[::1], i8[::1], {', '.join([_RO] * 8)}, b1, u1[::1], u1[::1], "
                   "i8[::1], i8[::1], i8[::1], i8[::1])",
}
