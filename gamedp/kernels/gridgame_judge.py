"""Baekjoon 28218's judge run as one C-callable kernel, built by :mod:`gamedp.native`: a judge run then loads
neither numpy nor numba.

The caller reads the first line (``N M K``) and where the rows are; :func:`judge` does the rest in place on the
input bytes. It accepts only input laid out as the judge lays it out — every row exactly M cells of ``.``/``#``
then a line end, the goal cell open, Q and Q pairs of plain unsigned integers on open cells, nothing after — and
returns REJECTED for anything else, which :func:`gamedp.judge.gridgame.read` then reads line by line and
either answers or reports with its line.
"""

from numba import carray

from gamedp.kernels import grid

NATIVE = {"judge": "i8(CPointer(u1), i8, i8, i8, i8, i8, i8, CPointer(i8), i8, CPointer(u1), i8, CPointer(u1))"}

REJECTED = -1


def judge(data_ptr, size, off, stride, n, m, k, work_ptr, work_size, bytes_ptr, bytes_size, out_ptr):
    """Answer the input ``data[:size]`` whose n x m board starts at ``off``, a row every ``stride`` bytes
    (m + 1: rows end in LF, m + 2: in CRLF), longest jump ``k``. With end = off + n stride, room = (size - end) // 2
    + 1 (the most numbers the rest can hold) and half = room // 2 + 1: ``work`` holds ``work_size`` numbers, at
    least room + 2 half + n + 2 (n + m - 1), ``bytes`` ``bytes_size`` bytes, at least 2 m + half, ``out`` 7 half
    bytes. Returns the length of the answer, or REJECTED.

    The board is solved a row at a time, bottom up, in two rows of ``bytes``: each query is answered when its row
    is solved (the queries are listed by row first), so nothing of the size of the board is made."""
    data = carray(data_ptr, size)
    end = off + n * stride
    room = (size - end) // 2 + 1
    half = room // 2 + 1
    if end > size or work_size < room + 2 * half + n + 2 * (n + m - 1) or bytes_size < 2 * m + half:
        return REJECTED
    for r in range(n):
        at = off + r * stride + m
        if (stride == m + 1 and data[at] != 10) or (stride == m + 2 and (data[at] != 13 or data[at + 1] != 10)):
            return REJECTED
    if data[end - stride + m - 1] == grid.BLOCKED:
        return REJECTED
    work = carray(work_ptr, work_size)
    numbers = work[:room]
    count = grid.parse_uints(data, end, numbers)
    if count < 1 or count != 2 * numbers[0] + 1:
        return REJECTED
    asked = numbers[0]
    queries = work[room:room + asked]
    if not grid.query_cells(data, off, stride, n, m, numbers[1:count], queries):
        return REJECTED
    # The queries of each row, as a list threaded through ``after``: first[r] is one of them (-1: none).
    after = work[room + half:room + half + asked]
    first = work[room + 2 * half:room + 2 * half + n]
    first[:] = -1
    for q in range(asked):
        r = queries[q] // m
        after[q] = first[r]
        first[r] = q
    space = carray(bytes_ptr, bytes_size)
    rows = space[:2 * m]
    lost = space[2 * m:2 * m + asked]
    near_lose, near_open = grid.diagonals(work[room + 2 * half + n:], n, m)
    for r in range(n - 1, -1, -1):
        here = (r & 1) * m
        if grid.solve_row(data, off, stride, n, m, k, False, r, rows, here, m - here, near_lose, near_open) > 0:
            return REJECTED  # a cell that is neither '.' nor '#'
        q = first[r]
        while q >= 0:
            lost[q] = rows[here + queries[q] - r * m]
            q = after[q]
    out = carray(out_ptr, 7 * asked)
    j = 0
    for q in range(asked):
        j = grid.write_answer(lost[q] != 0, out, j)
    return j
