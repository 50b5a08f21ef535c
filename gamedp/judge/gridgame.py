"""Baekjoon 28218, grid game: ``N M K``, N rows of ``.``/``#``, Q, then Q queries ``x y``; print ``First``
if the player to move a token from (x, y) wins, else ``Second``.

The input is read as bytes and solved in place: the board rows are a strided view of the input buffer (no copy),
the query numbers are parsed by a compiled kernel, and the answer lines are written by another. That fast path
accepts only well-formed input; anything it does not like is read again, line by line, by a plain parser that
either accepts it too (e.g. trailing spaces on a row) or names the first problem with its line number.

Beyond the judge's limits: any N, M >= 1 and any Q are accepted (memory allows). Checked: K in
0..min(N-1, M-1), (N, M) open, every query on an open cell of the board. A query may be (N, M) itself: its
mover has no move and loses. That every open cell reaches (N, M) is the judge's promise, not checked: a cell
without moves is lost by its mover like any other.

>>> print(run("2 2 0\\n.#\\n..\\n2\\n1 1\\n2 1\\n"), end="")     # doctest: +SKIP
Second
First
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from gamedp.aot import load_kernels
from gamedp.errors import InputError
from gamedp.games.grid import BLOCKED, GridBoard

SOURCE = "input"


class Problem(NamedTuple):
    board: GridBoard
    #: 0-based flat cell index ``r * M + c`` of each query
    queries: np.ndarray


def run(text: str | bytes) -> str:
    """The judge's output for its whole input."""
    kernels = load_kernels("gamedp.kernels.grid")
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else bytes(text)
    problem = _read_fast(data, kernels) or read(data)
    lose = problem.board.losing_flat()
    if problem.board.strange:  # a cell that is neither '.' nor '#': let the plain reader say where
        read(data)
        raise AssertionError("the plain reader accepted a board the fast reader found strange characters in")
    out = np.empty(7 * len(problem.queries), dtype=np.uint8)
    size = kernels.write_answers(lose, problem.queries, out)
    return out[:size].tobytes().decode("ascii")


def _read_fast(data: bytes, kernels) -> Problem | None:
    """The problem, if the input is laid out as the judge lays it out; else None (nothing is reported here)."""
    eol = data.find(b"\n")
    head = data[:eol].split()
    if eol < 0 or len(head) != 3 or not all(t.isdigit() for t in head):
        return None
    n, m, k = map(int, head)
    if n < 1 or m < 1 or k > min(n - 1, m - 1):
        return None
    off = eol + 1
    stride = m + 1 if data[off + m:off + m + 1] == b"\n" else m + 2  # "\n" or "\r\n" after each row
    end = off + n * stride
    if end > len(data):
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    if stride == m + 1:
        well_formed = (buf[off + m:end:stride] == 10).all()
    else:
        well_formed = (buf[off + m:end:stride] == 13).all() and (buf[off + m + 1:end:stride] == 10).all()
    if not well_formed:
        return None
    if buf[off + (n - 1) * stride + m - 1] == BLOCKED:
        return None
    numbers = np.empty((len(data) - end) // 2 + 1, dtype=np.int64)
    count = kernels.parse_uints(buf, end, numbers)
    if count < 1 or count != 2 * numbers[0] + 1:
        return None
    queries = np.empty(numbers[0], dtype=np.int64)
    if not kernels.query_cells(buf, off, stride, n, m, numbers[1:count], queries):
        return None
    return Problem(GridBoard.from_buffer(buf, off, stride, n, m, k), queries)


def read(data: bytes) -> Problem:
    """The problem, read line by line; raises :class:`InputError` naming the first problem in the input."""
    text = data.decode("utf-8", "replace")
    board = GridBoard.parse(text, SOURCE, k_within_board=True)
    lines = text.split("\n")
    n, m = board.n, board.m
    if board.cells[n - 1, m - 1] == BLOCKED:
        _fail(f"the goal cell ({n}, {m}) is '#'; it must be open", n + 1, m)
    tokens = [(t.group(), number, t.start() + 1)
              for number, line in enumerate(lines[n + 1:], n + 2) for t in re.finditer(r"\S+", line)]
    if not tokens:
        _fail("the input ended before Q, the number of queries", len(lines))
    word, line, column = tokens[0]
    if not word.isdigit():
        _fail(f"expected Q, the number of queries, found {word!r}", line, column)
    q = int(word)
    numbers = []
    for j in range(2 * q):
        what = f"the {'row' if j % 2 == 0 else 'column'} of query {j // 2 + 1} of {q}"
        if j + 1 >= len(tokens):
            _fail(f"the input ended before {what}", len(lines))
        word, line, column = tokens[j + 1]
        if not word.isdigit():
            _fail(f"expected {what}, found {word!r}", line, column)
        numbers.append(int(word))
        if j % 2:
            x, y = numbers[-2], numbers[-1]
            if not (1 <= x <= n and 1 <= y <= m):
                _fail(f"query {j // 2 + 1} ({x}, {y}) is off the board: rows 1..{n}, columns 1..{m}", line)
            if board.cells[x - 1, y - 1] == BLOCKED:
                _fail(f"query {j // 2 + 1} ({x}, {y}) is on a '#' cell; a token stands on an open cell", line)
    if len(tokens) > 2 * q + 1:
        word, line, column = tokens[2 * q + 1]
        _fail(f"unexpected {word!r} after the {q} queries", line, column)
    pairs = np.array(numbers, dtype=np.int64).reshape(q, 2) - 1
    return Problem(board, pairs[:, 0] * m + pairs[:, 1])


def _fail(message: str, line: int, column: int | None = None):
    raise InputError(message, line, column, source=SOURCE)
