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

NATIVE = {"judge": "i8(CPointer(u1), i8, i8, i8, i8, i8, i8, CPointer(i8), i8, CPointer(u1), CPointer(u1))"}

REJECTED = -1


def judge(data_ptr, size, off, stride, n, m, k, work_ptr, work_size, lose_ptr, out_ptr):
    """Answer the input ``data[:size]`` whose n x m board starts at ``off``, a row every ``stride`` bytes
    (m + 1: rows end in LF, m + 2: in CRLF), longest jump ``k``. ``work`` holds ``work_size`` numbers (at
    least 1.5 (size - end) / 2 + 2 (n + m) + 2, where end = off + n stride), ``lose`` n m bytes, ``out`` 7
    bytes a query. Returns the length of the answer, or REJECTED."""
    data = carray(data_ptr, size)
    end = off + n * stride
    room = (size - end) // 2 + 1
    if end > size or work_size < room + room // 2 + 1 + 2 * (n + m - 1):
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
    queries = work[room:room + numbers[0]]
    if not grid.query_cells(data, off, stride, n, m, numbers[1:count], queries):
        return REJECTED
    lose = carray(lose_ptr, n * m)
    if grid.solve_outcomes_into(data, off, stride, n, m, k, False, lose, work[room + room // 2 + 1:]) > 0:
        return REJECTED  # a cell that is neither '.' nor '#'
    return grid.write_answers(lose, queries, carray(out_ptr, 7 * numbers[0]))
