"""Baekjoon 11062's judge run as two C-callable kernels, built by :mod:`gamedp.native`: a judge run then loads
neither numpy nor numba.

``read`` accepts only what :func:`gamedp.judge.cardgame.parse` accepts — T alone on the first non-blank line,
then per case N alone on a line and its N values on the next, nothing after, values within the 64-bit bound —
and reads it the same way; for anything else it returns REJECTED without saying why, and the caller reads the
input again with the checked reader, which names the problem and its line. ``solve`` then writes the answers.
"""

from numba import carray

from gamedp.kernels import interval
from gamedp.kernels.interval import MAX_N, SAFE_BOUND

NATIVE = {
    "read": "i8(CPointer(u1), i8, CPointer(i8), CPointer(i8), CPointer(i8))",
    "solve": "i8(CPointer(i8), CPointer(i8), CPointer(i8), CPointer(i8), CPointer(u1))",
}

REJECTED = -1


def read(text_ptr, size, values_ptr, bounds_ptr, info_ptr):
    """Read the judge input ``text_ptr[:size]``: the cards of every case into ``values`` (room for
    ``size // 2 + 1``), where each case starts into ``bounds`` (room for ``size // 2 + 2``), and into ``info``:
    T, then the scratch :func:`solve` needs. Returns the number of cards, or REJECTED."""
    text = carray(text_ptr, size)
    values = carray(values_ptr, size // 2 + 1)
    bounds = carray(bounds_ptr, size // 2 + 2)
    info = carray(info_ptr, 2)
    cases = 0
    line = 0  # non-blank lines finished: 0 is T's, then odd lines hold an N, even lines its cards
    on_line = 0  # words read on the current line
    count = 0
    n = 0
    limit = 0
    longest = 0
    i = 0
    while i <= size:
        if i == size or text[i] == 10:  # a line ends: check its count of words
            if on_line > 0:
                if on_line != (n if line > 0 and line % 2 == 0 else 1):
                    return REJECTED
                if line > 0 and line % 2 == 0:
                    bounds[line // 2] = count
                line += 1
                on_line = 0
            i += 1
            continue
        if interval.is_space(text[i]):
            i += 1
            continue
        value, i, ok = interval.read_word(text, i)
        if not ok or line > 2 * cases:
            return REJECTED
        if line == 0:
            if value < 1:
                return REJECTED
            cases = value
            bounds[0] = 0
        elif line % 2 == 1:
            if value < 1 or value > MAX_N:
                return REJECTED
            n = value
            limit = SAFE_BOUND // n
            longest = max(longest, n)
        else:
            if value > limit or value < -limit or on_line >= n:
                return REJECTED
            values[count] = value
            count += 1
        on_line += 1
    if line != 2 * cases + 1:
        return REJECTED
    info[0] = cases
    info[1] = cases + interval.work_size(longest, 1, 0)
    return count


def solve(values_ptr, bounds_ptr, info_ptr, work_ptr, out_ptr):
    """Write the first player's total for every case read by :func:`read`, one per line, into ``out`` (room
    for 21 bytes per case), using ``work`` (``info[1]`` numbers); returns the number of bytes written."""
    info = carray(info_ptr, 2)
    cases = info[0]
    bounds = carray(bounds_ptr, cases + 1)
    values = carray(values_ptr, bounds[cases])
    work = carray(work_ptr, info[1])
    totals = work[:cases]
    interval.margins_into(values, bounds, 1, 0, totals, work[cases:])
    for c in range(cases):
        totals[c] = (values[bounds[c]:bounds[c + 1]].sum() + totals[c]) // 2
    return interval.write_integers(totals, carray(out_ptr, 21 * cases))
