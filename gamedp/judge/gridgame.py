"""Baekjoon 28218, grid game: ``N M K``, N rows of ``.``/``#``, Q, then Q queries ``x y``; print ``First``
if the player to move a token from (x, y) wins, else ``Second``.

The input is read as bytes and solved in place by a native kernel (:mod:`gamedp.kernels.gridgame_judge`, no
numpy): the board rows are read where they are in the input, newlines and all. That fast path accepts only
well-formed input; anything it does not like is read again, line by line, by a plain parser that either
accepts it too (e.g. trailing spaces on a row) or names the first problem with its line number.

Beyond the judge's limits: any N, M >= 1 and any Q are accepted (memory allows), but a header is believed
only as far as the input backs it: nothing sized N * M is made before the N rows are there. The input is read
only as far as its counts take it (N rows, Q queries, then a block more to find any text after them), and a
wrong first line, or one longer than 64 KiB, is refused before the rest is read. Checked: K in
0..min(N-1, M-1), (N, M) open, every query on an open cell of the board. A query may be (N, M) itself: its
mover has no move and loses. That every open cell reaches (N, M) is the judge's promise, not checked: a cell
without moves is lost by its mover like any other.

>>> print(run("2 2 0\\n.#\\n..\\n2\\n1 1\\n2 1\\n"), end="")     # doctest: +SKIP
Second
First
"""

from __future__ import annotations

from gamedp.errors import MAX_DIGITS, InputError, parse_count, require_text
from gamedp.judge import byte_stream, numbered_lines

TYPE_CHECKING = False  # typing's own flag, and typing, would add ~3 ms to every judge run
if TYPE_CHECKING:
    from typing import BinaryIO

    import numpy as np

    from gamedp.games.grid import GridBoard

SOURCE = "input"


class Problem:
    """The board and the queries of an input read by :func:`read` (a plain class: see :class:`gamedp.judge.Problem`)."""

    __slots__ = ("board", "queries")

    def __init__(self, board: GridBoard, queries: np.ndarray):
        self.board = board
        #: 0-based flat cell index ``r * M + c`` of each query
        self.queries = queries


#: the longest first line read (a stream without a newline is refused after this much): it holds N M K
LONGEST_HEAD = 1 << 16
#: the bytes of queries read at a time, until Q's are all there
QUERY_BLOCK = 1 << 20
#: the most bytes of rows a header is trusted to announce before they are read (a 3000 x 3000 board is 9 MB: read
#: a block at a time, each block a fresh allocation copied on, it took some 800 more page faults, ~9% of the run's)
TRUSTED_ROWS = 1 << 26


def run(text: str | bytes | BinaryIO) -> str:
    """The judge's output for its whole input."""
    data = _input(byte_stream(text))
    require_text(data, "'N M K' on the first line", SOURCE)
    answer = _native_run(data)
    if answer is not None:
        return answer
    return checked_run(data)


def _input(stream: BinaryIO) -> bytes | bytearray:
    """The input as far as its own counts take it: the first line, N rows, then words up to Q's 2 Q numbers and
    one more block (text past the queries, which the reader then refuses where it starts), not the rest."""
    first = next(numbered_lines(stream, LONGEST_HEAD, SOURCE), (1, b""))[1]
    head = _head(first)
    if head is None:  # a first line the fast path does not take: refused here if it is wrong
        if first.strip():
            try:
                checked_run(first)
            except InputError as e:
                if e.line == 1:
                    raise
        return first + stream.read()
    n, m, _ = head
    # The rows, as many bytes as N rows of M cells and their newlines take, in the input's one buffer (pieces
    # joined at the end made a second copy of a board-sized input). Up to TRUSTED_ROWS bytes the buffer is sized
    # by the header and read into in place; past it, the header is not trusted before the input backs it, and the
    # rows are added a block at a time. A row of another length shifts what follows; the reader then refuses that
    # row, which lies within what was read.
    rows_end = len(first) + n * (m + 1)
    if rows_end <= TRUSTED_ROWS:
        data = bytearray(rows_end)
        data[:len(first)] = first
        filled = len(first)
        with memoryview(data) as view:
            while filled < rows_end and (got := stream.readinto(view[filled:])):
                filled += got
        del data[filled:]
    else:
        data = bytearray(first)
        while len(data) < rows_end and (block := stream.read(min(QUERY_BLOCK, rows_end - len(data)))):
            data += block
    words, q = 0, None  # the words after the rows (Q, then the queries' numbers), and Q
    while q is None or words <= 1 + 2 * q:
        block = stream.read(QUERY_BLOCK) + stream.readline(LONGEST_HEAD)  # whole lines: no word cut in two
        if not block:
            break
        data += block
        if q is None and (found := block.split(maxsplit=1)):
            q = int(found[0]) if found[0].isdigit() and len(found[0]) <= MAX_DIGITS else -1  # -1: refused anyway
        words += _words(block)
    return data


#: bytes.split()'s whitespace as b" ", any other byte as b"x": a word starts where b" x" stands
_WORD_MARKS = bytes(32 if c in b" \t\n\r\x0b\x0c" else 120 for c in range(256))


def _words(block: bytes) -> int:
    r"""``len(block.split())`` without making the words (200,000 queries' numbers: 12 ms and 11 MB of pages).

    >>> [_words(b) for b in (b"", b"  ", b"2\n1 1\n3 4", b" 7\t8\r\n")] == [len(b.split()) for b in
    ...     (b"", b"  ", b"2\n1 1\n3 4", b" 7\t8\r\n")]
    True
    """
    marks = block.translate(_WORD_MARKS)
    return marks.count(b" x") + (marks[:1] == b"x")


def checked_run(data: bytes) -> str:
    """:func:`run` with numpy, the input read line by line: slower, but it names what is wrong with it."""
    import numpy as np

    from gamedp.aot import load_kernels

    problem = read(data)
    out = np.empty(7 * len(problem.queries), dtype=np.uint8)
    size = load_kernels("gamedp.kernels.grid").write_answers(problem.board.losing_flat(), problem.queries, out)
    return out[:size].tobytes().decode("ascii")


def _native_run(data: bytes | bytearray) -> str | None:
    """The answer by the native kernel (no numpy: it starts in a third of the time), or None when it is not
    available here or the input is not laid out as the judge lays it out."""
    eol = data.find(b"\n")
    head = _head(data[:eol]) if eol >= 0 else None
    if head is None:
        return None
    n, m, k = head
    off = eol + 1
    # Nothing is allocated for a board the input does not hold: the rows come before any buffer sized by N * M.
    if off + n * (m + 1) > len(data):
        return None
    import ctypes

    from gamedp.native import load_native, scratch

    lib = load_native("gamedp.kernels.gridgame_judge")
    if lib is None:
        return None
    stride = m + 1 if data[off + m:off + m + 1] == b"\n" else m + 2  # "\n" or "\r\n" after each row
    room = max(len(data) - off - n * stride, 0) // 2 + 1  # the most numbers the rest of the input can hold
    half = room // 2 + 1
    work = room + 2 * half + n + 2 * (n + m - 1)
    # One scratch, sized for the most queries the input could hold: only what the kernel writes is ever made.
    at_bytes = 8 * work
    at_out = at_bytes + 2 * m + half
    buffer, address = scratch(at_out + 7 * half)
    given = data if isinstance(data, bytes) else (ctypes.c_char * len(data)).from_buffer(data)
    size = lib.judge(given, len(data), off, stride, n, m, k, address, work, address + at_bytes, 2 * m + half,
                     address + at_out)
    return str(buffer[at_out:at_out + size], "ascii") if size >= 0 else None


def _head(line: bytes) -> tuple[int, int, int] | None:
    """N, M, K from a first line as the judge writes it (three numbers in range), else None."""
    words = line.split()
    if len(words) != 3 or not all(t.isdigit() and len(t) <= MAX_DIGITS for t in words):
        return None
    n, m, k = map(int, words)
    return (n, m, k) if n >= 1 and m >= 1 and k <= min(n - 1, m - 1) else None


def read(data: bytes) -> Problem:
    """The problem, read line by line; raises :class:`InputError` naming the first problem in the input."""
    import re

    import numpy as np

    from gamedp.games.grid import BLOCKED, GridBoard

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
    q = parse_count(word, "Q, the number of queries,", line, column, SOURCE)
    numbers = []
    for j in range(2 * q):
        what = f"the {'row' if j % 2 == 0 else 'column'} of query {j // 2 + 1} of {q}"
        if j + 1 >= len(tokens):
            _fail(f"the input ended before {what}", len(lines))
        word, line, column = tokens[j + 1]
        numbers.append(parse_count(word, what, line, column, SOURCE))
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
