"""Baekjoon 11062, card game: T cases of N cards; players alternately take the leftmost or rightmost card and
both play optimally; print the first player's total, one line per case.

The layout is checked line by line (T alone, then per case N alone and the N values on one line; blank lines are
skipped), so a wrong count is reported where it happens. The input is read and answered about a megabyte of cases
at a time, and no further than its T cases: text after them is refused where it starts, and a line longer than
any line of cards (8 MiB) once that much of it is read. Beyond the judge's limits (N <= 1000, values 1..10000)
any integers are accepted as long as the 64-bit sums are provably exact: ``N * max|value| <= 2**61``.

A run first tries the native kernels (:mod:`gamedp.kernels.cardgame_judge`: no numpy, so it starts in a third
of the time); they accept only well-formed input. Anything they refuse is read again by :func:`checked_run`,
which answers it or names the first problem with its line.

>>> print(run("2\\n4\\n1 2 5 2\\n9\\n1 1 1 1 2 2 2 2 2\\n"), end="")
6
8
>>> run("1\\n3\\n1 2\\n")
Traceback (most recent call last):
...
gamedp.errors.InputError: input, line 3: N is 3 (line 2) but this line has 2 values
"""

from __future__ import annotations

import ctypes
import io

from gamedp.errors import InputError, require_text
from gamedp.judge import byte_stream, numbered_lines

#: what a judge input starts with
FIRST = "T, the number of cases"

TYPE_CHECKING = False  # typing's own flag, and typing, would add ~3 ms to every judge run
if TYPE_CHECKING:
    from typing import BinaryIO, Iterator

    import numpy as np

#: the longest line read: a line of cards holds at most MAX_N (100,000) numbers of at most 20 characters, and
#: the spaces between them
LONGEST_LINE = 1 << 23
#: about how many bytes of cases are read and answered at a time: a run's memory is this and the answers
BATCH = 1 << 20
#: an input of at most this many bytes is read and answered whole: the layout of many small cases checked line
#: by line in Python, batch by batch, took three times as long as the native reader (300,000 cases of 1-3 cards)
WHOLE = 1 << 23


def run(text: str | bytes | BinaryIO) -> str:
    """The judge's output for its input: an input of at most :data:`WHOLE` bytes answered whole, a longer one a
    batch of cases at a time (a stream only as far as T takes it)."""
    stream = byte_stream(text)
    start = stream.read(WHOLE + 1)
    if len(start) <= WHOLE:
        require_text(start, FIRST)
        return _answer_batch(start, 1)
    return "".join(_answer_batch(batch, first_line) for first_line, batch in _batches(_Resumed(start, stream)))


class _Resumed:
    """The lines of a stream whose first bytes were read already: ``start``, then the rest of ``stream``."""

    def __init__(self, start: bytes, stream: BinaryIO):
        self._start, self._stream = io.BytesIO(start), stream

    def readline(self, size: int = -1) -> bytes:
        line = self._start.readline(size)
        if not line.endswith(b"\n") and (size < 0 or len(line) < size):  # the rest of a line cut where start ends
            line += self._stream.readline(size - len(line) if size >= 0 else -1)
        return line


def _answer_batch(batch: bytes, first_line: int) -> str:
    """The answers to ``batch``, an input of its own whose first line is the input's line ``first_line``."""
    answer = _native_run(batch)
    if answer is not None:
        return answer
    return checked_run(batch.decode("utf-8", "replace"), first_line)


def _batches(stream: BinaryIO) -> Iterator[tuple[int, bytes]]:
    """The input's cases in batches of about :data:`BATCH` bytes, each an input of its own (its count of cases,
    then its lines as they were), with the number of the input's line that its first line stands for. The
    layout of lines (T, then an N line and a line of cards per case) is checked here, where the whole input
    is in view; what is on the lines, by the batches' readers."""
    lines = numbered_lines(stream, LONGEST_LINE)
    t_line, head = next(((no, line) for no, line in lines if line.strip()), (1, b""))
    require_text(head, FIRST)
    cases = _cases(head, t_line)
    held: list[bytes] = []
    size = done = in_batch = 0
    begun = last = t_line  # the line the batch's count stands for; the last non-blank line
    wants_n = True  # the next non-blank line is a case's N (else its cards)
    for no, line in lines:
        if not line.strip():
            if held:
                held.append(line)
            else:
                begun = no
            continue
        if done == cases:
            raise _after_last(cases, t_line, no)
        held.append(line)
        size += len(line)
        last = no
        wants_n = not wants_n
        if wants_n:  # a case's cards: the case is whole
            done += 1
            in_batch += 1
            if size >= BATCH:
                yield begun, b"%d\n" % in_batch + b"".join(held)
                held, size, in_batch, begun = [], 0, 0, no
    if done < cases:
        raise _ends_inside(done, cases, t_line, wants_n, last)
    if held:
        yield begun, b"%d\n" % in_batch + b"".join(held)


def _cases(line: bytes, number: int) -> int:
    """T, from its line (the input's line ``number``); anything else there is refused as :func:`parse` refuses it."""
    words = line.split()
    digits = words[0][1:] if len(words) == 1 and words[0][:1] == b"+" else words[0] if len(words) == 1 else b""
    if digits.isdigit() and len(digits.lstrip(b"0")) <= 18 and int(digits) >= 1:
        return int(digits)
    parse(line.decode("utf-8", "replace"), number)  # raises what is wrong with the line
    raise AssertionError(f"parse took {line!r} for T")


def _ends_inside(done: int, cases: int, t_line: int, wants_n: bool, line: int) -> InputError:
    expected = "N" if wants_n else "the values"
    return InputError(f"the input ends after this line, inside case {done + 1} of the {cases} that T announced "
                      f"(line {t_line}); expected {expected} of case {done + 1}", line)


def _after_last(cases: int, t_line: int, line: int) -> InputError:
    return InputError(f"unexpected text after the last case (T = {cases}, line {t_line})", line)


def checked_run(text: str, first_line: int = 1) -> str:
    """:func:`run` with numpy, for a whole input (whose first line is the input's line ``first_line``): slower
    to start, but it names what is wrong with a malformed input."""
    import numpy as np

    from gamedp.solvers.interval import ENDS, batch_margins

    values, bounds = parse(text, first_line)
    totals = (np.add.reduceat(values, bounds[:-1]) + batch_margins(values, bounds, ENDS)) // 2
    out = np.empty(21 * len(totals), dtype=np.uint8)
    return out[:_kernels(len(totals) * 20).write_integers(totals, out)].tobytes().decode("ascii")


def _native_run(data: bytes) -> str | None:
    """The answer by the native kernels (no numpy: a judge run starts faster than numpy imports), or None when
    they are not available here or the input is not laid out as the judge lays it out."""
    from gamedp.native import load_native

    lib = load_native("gamedp.kernels.cardgame_judge")
    if lib is None:
        return None
    room = len(data) // 2 + 1
    values, bounds, info = (ctypes.c_int64 * room)(), (ctypes.c_int64 * (room + 1))(), (ctypes.c_int64 * 2)()
    if lib.read(data, len(data), values, bounds, info) < 0:
        return None
    out = ctypes.create_string_buffer(21 * info[0])
    size = lib.solve(values, bounds, info, (ctypes.c_int64 * info[1])(), out)
    return out.raw[:size].decode("ascii")


def parse(text: str, first_line: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """All cases' values (int64, concatenated) and where each case starts (length T + 1); the text's first line
    is numbered ``first_line`` in the messages.

    One compiled pass reads every integer with its line number; the layout is then checked on whole arrays
    (the count per line), so a million small cases read as fast as one big one. Messages, and the text
    search they need, are made only when something is wrong.
    """
    import numpy as np

    from gamedp.kernels.interval import MAX_N, SAFE_BOUND

    require_text(text, FIRST)
    data = np.frombuffer(text.encode(), dtype=np.uint8)
    if data.size and data.max() >= 128:
        at = int(np.argmax(data >= 128))  # the bytes before are ASCII, so byte and character offsets agree
        raise InputError(f"unexpected character {text[at]!r}: the input is integers only",
                         text.count("\n", 0, at) + first_line, at - text.rfind("\n", 0, at))
    numbers = np.empty(data.size // 2 + 1, dtype=np.int64)
    token_line = np.empty(data.size // 2 + 1, dtype=np.int64)
    kernels = _kernels(data.size)
    if getattr(kernels, "compiled", None) == "jit":  # numba's JIT kernels (GAMEDP_JIT=1) refuse a read-only array
        data = data.copy()
    count = kernels.read_integers(data, numbers, token_line)
    if count < 0:
        raise _bad_token(text, -1 - count, first_line)
    numbers, token_line = numbers[:count], token_line[:count]
    # the non-blank lines: their 1-based numbers, first token and number of tokens
    first = np.concatenate(([0], np.flatnonzero(np.diff(token_line)) + 1))
    line_no = token_line[first] + first_line
    per_line = np.diff(np.append(first, count))

    def alone(k: int, what: str, low: int, high: int | None) -> int:
        if per_line[k] != 1:
            got = text.split("\n")[line_no[k] - first_line].strip()
            raise InputError(f"expected {what} alone on the line, got {got[:40]!r}", int(line_no[k]))
        value = int(numbers[first[k]])
        if value < low or (high is not None and value > high):
            bound = f"at least {low}" if high is None else f"between {low} and {high}"
            raise InputError(f"{what} must be {bound}, not {value}", int(line_no[k]))
        return value

    cases = alone(0, "T (the number of cases)", 1, None)
    lines = len(first)
    n_lines = np.arange(1, min(lines, 1 + 2 * cases), 2)  # the lines that must hold one N each
    bad = np.flatnonzero((per_line[n_lines] != 1) | (numbers[first[n_lines]] < 1) | (numbers[first[n_lines]] > MAX_N))
    if len(bad):
        alone(int(n_lines[bad[0]]), "N (the number of cards)", 1, MAX_N)
    if lines < 1 + 2 * cases:
        raise _ends_inside((lines - 1) // 2, cases, int(line_no[0]), lines % 2 == 1, int(line_no[-1]))
    if lines > 1 + 2 * cases:
        raise _after_last(cases, int(line_no[0]), int(line_no[1 + 2 * cases]))
    sizes = numbers[first[n_lines]]
    counts = per_line[n_lines + 1]
    if (counts != sizes).any():
        c = int(np.flatnonzero(counts != sizes)[0])
        raise InputError(f"N is {sizes[c]} (line {line_no[n_lines[c]]}) but this line has {counts[c]} values",
                         int(line_no[n_lines[c] + 1]))
    keep = np.ones(len(numbers), dtype=bool)
    keep[first[0]] = keep[first[n_lines]] = False  # T and the N
    values = numbers[keep]
    bounds = np.zeros(cases + 1, dtype=np.int64)
    np.cumsum(sizes, out=bounds[1:])
    # Exactness: per case, max|value| <= 2**61 // N (compared in int64 without ever taking abs).
    limit = SAFE_BOUND // sizes
    case_starts = bounds[:-1]
    too_big = (np.maximum.reduceat(values, case_starts) > limit) | (np.minimum.reduceat(values, case_starts) < -limit)
    if too_big.any():
        c = int(np.flatnonzero(too_big)[0])
        raise InputError(f"values this large could overflow 64-bit sums: with N = {sizes[c]} every |value| must "
                         f"be at most 2**61 / N = {limit[c]}", int(line_no[n_lines[c] + 1]))
    return values, bounds


def _kernels(size: int):
    """The integer reader and writer: compiled for big inputs, plain Python for a few lines (no compiled code)."""
    if size <= 2000:
        from gamedp.kernels import interval

        return interval
    from gamedp.aot import load_kernels

    return load_kernels("gamedp.kernels.interval")


def _bad_token(text: str, k: int, first_line: int = 1) -> InputError:
    """Where the ``k``-th word of (ASCII) ``text`` is, and what is wrong with it. Words are split as
    :func:`read_integers` splits them: at the whitespace bytes.split() knows."""
    for number, line in enumerate(text.encode().split(b"\n"), first_line):
        words = line.split()
        if k < len(words):
            word = words[k].decode()
            body = word[1:] if word[:1] in "+-" else word
            column = line.find(words[k]) + 1  # the first such word on the line is the first bad one
            if body.isdigit():
                return InputError(f"{word[:40]} does not fit in 64 bits", number, column)
            stray = next((ch for ch in body if not ch.isdigit()), word)
            what = f"unexpected character {stray!r} in {word[:40]!r}" if body else "a sign without digits"
            return InputError(f"{what}: the input is integers only", number, column)
        k -= len(words)
    raise AssertionError("read_integers pointed past the last word")
