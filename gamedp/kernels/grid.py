"""Kernels of the grid game (Baekjoon 28218 and its family), compiled ahead of time by :mod:`gamedp.aot`.

A board is a flat uint8 buffer of ASCII cells: ``#`` is blocked, anything else open (callers check the
characters; :func:`solve_outcomes` counts the strange ones). Row ``r`` starts at ``off + r * stride``, so a
judge input can be solved in place, newlines and all. A token moves down 1, right 1, or diagonally down-right
by 1..k cells; only the landing cell must be open. Cells are processed from the bottom row up and, in a row,
from right to left: every child of a cell is then already known.

- :func:`solve_outcomes`: win/lose of every cell in O(n*m), whatever k. Per diagonal it keeps the row of the
  nearest losing cell below (and, for misere play, of the nearest open cell): the diagonal moves of a cell
  reach a losing cell iff that row is within k.
- :func:`grundy`: the nimber of every cell. A cell's diagonal children form a sliding window of up to k
  cells on its diagonal; each diagonal keeps a count per value in its window plus a two-level bitset of the
  values present, so the mex of (window + down + right) is found with a few word operations:
  O(n*m * (1 + min(k, n, m) / 4096)) word operations, i.e. O(n*m) for every window below 4096 cells, and
  memory O(n*m) words.
- :func:`parse_uints`, :func:`query_cells` and :func:`write_answers`: the judge's queries in, its answers out
  (also called by the native judge, :mod:`gamedp.kernels.gridgame_judge`).
"""

import numpy as np

EXPORTS = {
    "solve_outcomes": "i8(u1[:], i8, i8, i8, i8, i8, b1, u1[:])",
    "grundy": "void(u1[:], i8, i8, i8, i8, i8, i4[:])",
    "write_answers": "i8(u1[:], i8[:], u1[:])",
}

BLOCKED = 35  # '#'
OPEN = 46  # '.'
FAR = 1 << 62  # "no such cell on this diagonal"
BIG = 10 ** 17  # integers are clamped here: any range check rejects them
ONE = np.uint64(1)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)  # a full bitset word


def solve_outcomes(cells, off, stride, n, m, k, misere, lose):
    """Set ``lose[r*m + c]`` to 1 where the player to move from open cell (r, c) loses, else 0.

    Normal play: a cell loses iff no move reaches a losing cell (so a cell without moves loses).
    Misere play: a cell without moves *wins*; a cell with moves loses iff none of them reaches a losing cell.
    That is not the complement of normal play: only the dead ends flip, and the flip propagates.
    Returns how many cells are neither '#' nor '.' (treated as open).
    """
    return solve_outcomes_into(cells, off, stride, n, m, k, misere, lose, np.empty(2 * (n + m - 1), np.int64))


def solve_outcomes_into(cells, off, stride, n, m, k, misere, lose, work):
    """:func:`solve_outcomes` in the scratch ``work`` (2 (n + m - 1) numbers), allocating nothing."""
    near_lose, near_open = diagonals(work, n, m)
    strange = 0
    for r in range(n - 1, -1, -1):
        strange += solve_row(cells, off, stride, n, m, k, misere, r, lose, r * m, (r + 1) * m, near_lose, near_open)
    return strange


def diagonals(work, n, m):
    """Per diagonal, the row of the nearest losing cell and of the nearest open cell below the rows solved so
    far (none yet): :func:`solve_row`'s memory between rows, in ``work`` (2 (n + m - 1) numbers)."""
    near_lose = work[:n + m - 1]
    near_open = work[n + m - 1:2 * (n + m - 1)]
    near_lose[:] = FAR
    near_open[:] = FAR
    return near_lose, near_open


def solve_row(cells, off, stride, n, m, k, misere, r, lose, here, below, near_lose, near_open):
    """Row ``r`` of :func:`solve_outcomes`, the rows below it solved: its cells into ``lose[here:here + m]``,
    with row r + 1 at ``lose[below:below + m]`` (the whole table keeps every row; the native judge only two).
    Returns how many of its cells are neither '#' nor '.'."""
    strange = 0
    # One pass, the likeliest test first: most cells of a typical board win by a diagonal jump, so the branches
    # predict well. Indices are unsigned: signed ones cost wraparound checks (3x slower here).
    one, step = np.uint64(1), np.uint64(stride)
    row = np.uint64(off + r * stride)
    out = np.uint64(here)
    under = np.uint64(below)
    diag = np.uint64(n - 1 - r)  # the diagonal of (r, c) is diag + c
    reach = r + k  # a losing cell at row <= reach on the diagonal is one jump away
    not_last_row = r + 1 < n
    for back in range(m):
        c = np.uint64(m - 1 - back)
        i = out + c
        ch = cells[row + c]
        if ch == BLOCKED:
            lose[i] = 0
            continue
        strange += ch != OPEN
        d = diag + c
        if near_lose[d] <= reach or (not_last_row and lose[under + c] != 0) or (back > 0 and lose[i + one] != 0):
            lose[i] = 0
        elif misere and not (near_open[d] <= reach or (not_last_row and cells[row + step + c] != BLOCKED)
                             or (back > 0 and cells[row + c + one] != BLOCKED)):
            lose[i] = 0  # no move at all: under misere play the mover wins
        else:
            lose[i] = 1
            near_lose[d] = r
        if misere:
            near_open[d] = r
    return strange


# ctz by de Bruijn multiplication: branch-free, as the bits looked at are data and mispredict.
DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    DEBRUIJN_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 & 0xFFFFFFFFFFFFFFFF) >> 58] = _i
del _i


def _ctz(x):
    """Index of the lowest set bit of a non-zero uint64."""
    return DEBRUIJN_INDEX[((x & (~x + ONE)) * DEBRUIJN) >> np.uint64(58)]


def _add(v, cap, cnt, c0, lvl0, w0, lvl1, w1):
    """Put value ``v`` into a diagonal's multiset (values >= cap cannot change its mex and are skipped)."""
    if v >= cap:
        return
    u = np.uint64(v)
    cnt[c0 + u] += 1
    w = u >> np.uint64(6)
    word = lvl0[w0 + w] | (ONE << (u & np.uint64(63)))
    lvl0[w0 + w] = word
    if word == ALL:
        lvl1[w1 + (w >> np.uint64(6))] |= ONE << (w & np.uint64(63))


def _remove(v, cap, cnt, c0, lvl0, w0, lvl1, w1):
    if v >= cap:
        return
    u = np.uint64(v)
    left = cnt[c0 + u] - 1
    cnt[c0 + u] = left
    # Branch-free: whether the count reached zero is data, and would mispredict half the time.
    w = u >> np.uint64(6)
    word = lvl0[w0 + w] & (ALL if left != 0 else ~(ONE << (u & np.uint64(63))))
    lvl0[w0 + w] = word
    lvl1[w1 + (w >> np.uint64(6))] &= ALL if word == ALL else ~(ONE << (w & np.uint64(63)))


def _next_absent(p, lvl0, w0, lvl1, w1, n1):
    """The smallest value >= p absent from a diagonal's multiset (-1 if none below its capacity)."""
    u = np.uint64(p)
    w = u >> np.uint64(6)
    x = ~lvl0[w0 + w] & (ALL << (u & np.uint64(63)))
    if x != np.uint64(0):
        return np.int64(w << np.uint64(6)) + _ctz(x)
    w += ONE
    j = w >> np.uint64(6)
    if j >= n1:
        return -1
    y = ~lvl1[w1 + j] & (ALL << (w & np.uint64(63)))
    while y == np.uint64(0):
        j += ONE
        if j >= n1:
            return -1
        y = ~lvl1[w1 + j]
    w = (j << np.uint64(6)) + np.uint64(_ctz(y))
    return np.int64(w << np.uint64(6)) + _ctz(~lvl0[w0 + w])


def grundy(cells, off, stride, n, m, k, g):
    """Set ``g[r*m + c]`` to the nimber of open cell (r, c) (normal play), and -1 on blocked cells."""
    nd = n + m - 1
    # Diagonal d = c - r + n - 1 holds `length` cells; its window holds at most min(k, length - 1) of them,
    # so every nimber on it, and the mex asked there, is below cap = min(k, length - 1) + 3.
    cap = np.empty(nd, dtype=np.int64)
    c0 = np.zeros(nd + 1, dtype=np.uint64)
    w0 = np.zeros(nd + 1, dtype=np.uint64)
    w1 = np.zeros(nd + 1, dtype=np.uint64)
    for d in range(nd):
        length = min(d + 1, nd - d, n, m)
        cap[d] = min(k, length - 1) + 3
        words = (cap[d] + 63) >> 6
        c0[d + 1] = c0[d] + np.uint64(cap[d])
        w0[d + 1] = w0[d] + np.uint64(words)
        w1[d + 1] = w1[d] + np.uint64((words + 63) >> 6)
    cnt = np.zeros(c0[nd], dtype=np.int32)
    lvl0 = np.zeros(w0[nd], dtype=np.uint64)
    lvl1 = np.zeros(w1[nd], dtype=np.uint64)
    width = np.uint64(m)
    jump = np.uint64(k * (m + 1))  # from (r + 1, c + 1) to (r + k + 1, c + k + 1)
    for r in range(n - 1, -1, -1):
        row = np.uint64(off + r * stride)
        out = np.uint64(r * m)
        diag = np.uint64(n - 1 - r)
        not_last_row = r + 1 < n
        far_row = r + k + 1 < n
        for back in range(m):
            c = np.uint64(m - 1 - back)
            d = diag + c
            cd, a0, a1, b1 = cap[d], c0[d], w0[d], w1[d]
            i = out + c
            # Slide the window of diagonal d from rows r+2..r+k+1 to rows r+1..r+k.
            if k > 0 and not_last_row and back > 0:
                near = i + width + ONE
                v = g[near]
                if v >= 0:
                    _add(v, cd, cnt, a0, lvl0, a1, lvl1, b1)
                if far_row and back > k:
                    v = g[near + jump]
                    if v >= 0:
                        _remove(v, cd, cnt, a0, lvl0, a1, lvl1, b1)
            if cells[row + c] == BLOCKED:
                g[i] = -1
                continue
            down = g[i + width] if not_last_row else -1
            right = g[i + ONE] if back > 0 else -1
            n1 = w1[d + ONE] - b1
            v = _next_absent(0, lvl0, a1, lvl1, b1, n1)
            while v == down or v == right:
                v = _next_absent(v + 1, lvl0, a1, lvl1, b1, n1)
            g[i] = v


def _space(ch):
    return ch == 32 or ch == 10 or ch == 13 or ch == 9 or ch == 11 or ch == 12


def parse_uints(buf, start, out):
    """Read whitespace-separated non-negative integers from ``buf[start:]`` into ``out``.

    Returns how many were read, or -1 if a token is not a plain unsigned integer (the caller then reparses
    slowly to say where). ``out`` must have room for ``(len(buf) - start) // 2 + 1`` numbers. Values beyond
    10**17 are clamped to 10**17.
    """
    size = len(buf)
    i = start
    count = 0
    while i < size:
        ch = buf[i]
        if _space(ch):
            i += 1
            continue
        if ch < 48 or ch > 57:
            return -1
        v = 0
        while i < size and 48 <= buf[i] <= 57:
            if v < BIG:
                v = v * 10 + (buf[i] - 48)
            i += 1
        if i < size and not _space(buf[i]):
            return -1
        out[count] = min(v, BIG)
        count += 1
    return count


def query_cells(cells, off, stride, n, m, pairs, out):
    """Turn 1-based ``(x, y)`` pairs into flat cell indices ``(x-1)*m + (y-1)``; False if one is off the board
    or on '#' (the caller then rereads slowly to say which)."""
    for q in range(len(out)):
        x = pairs[2 * q] - 1
        y = pairs[2 * q + 1] - 1
        if x < 0 or x >= n or y < 0 or y >= m or cells[off + x * stride + y] == BLOCKED:
            return False
        out[q] = x * m + y
    return True


def write_answers(lose, cells, out):
    """Write ``First\\n`` (mover wins) or ``Second\\n`` (mover loses) for each cell index; return the length."""
    j = 0
    for q in range(len(cells)):
        j = write_answer(lose[cells[q]] != 0, out, j)
    return j


def write_answer(lost, out, j):
    """Write ``Second\\n`` if ``lost`` else ``First\\n`` into ``out`` at ``j``; return where it ends."""
    if lost:
        for ch in (83, 101, 99, 111, 110, 100, 10):
            out[j] = ch
            j += 1
    else:
        for ch in (70, 105, 114, 115, 116, 10):
            out[j] = ch
            j += 1
    return j
