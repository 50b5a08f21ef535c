"""Baekjoon 11062, card game: T cases of N cards; players alternately take the leftmost or rightmost card and
both play optimally; print the first player's total, one line per case.

The layout is checked line by line (T alone, then per case N alone and the N values on one line; blank lines are
skipped), so a wrong count is reported where it happens. Beyond the judge's limits (N <= 1000, values 1..10000)
any integers are accepted as long as the 64-bit sums are provably exact: ``N * max|value| <= 2**61``.

>>> print(run("2\\n4\\n1 2 5 2\\n9\\n1 1 1 1 2 2 2 2 2\\n"), end="")
6
8
>>> run("1\\n3\\n1 2\\n")
Traceback (most recent call last):
...
gamedp.errors.InputError: input, line 3: N is 3 (line 2) but this line has 2 values
"""

from __future__ import annotations

import re
from itertools import chain

import numpy as np

from gamedp.errors import InputError
from gamedp.solvers.interval import ENDS, SAFE_BOUND, batch_margins

#: Largest N accepted (the judge's limit is 1000; the work grows as N^2).
MAX_N = 100_000
#: Anything but digits, signs and whitespace (int() alone would also accept 1_000 and non-ASCII digits).
_STRAY = re.compile(r"[^0-9+\-\s]")


def run(text: str) -> str:
    values, bounds = parse(text)
    totals = (np.add.reduceat(values, bounds[:-1]) + batch_margins(values, bounds, ENDS)) // 2
    return "\n".join(map(str, totals.tolist())) + "\n"


def parse(text: str) -> tuple[np.ndarray, np.ndarray]:
    """All cases' values (int64, concatenated) and where each case starts (length T + 1)."""
    stray = _STRAY.search(text)
    if stray:
        at = stray.start()
        line = text.count("\n", 0, at) + 1
        raise InputError(f"unexpected character {text[at]!r}: the input is integers only", line,
                         at - text.rfind("\n", 0, at))
    lines = text.split("\n")
    rows = [i for i, line in enumerate(lines) if line and not line.isspace()]  # the non-blank lines
    if not rows:
        raise InputError("the input is empty; expected T, the number of cases", 1)
    cases = _count(lines, rows[0], "T (the number of cases)", 1, None)
    n_rows, value_rows = rows[1::2][:cases], rows[2::2][:cases]
    try:
        sizes = np.array([lines[r] for r in n_rows], dtype=np.int64)
        valid = len(sizes) == 0 or (1 <= sizes.min() and sizes.max() <= MAX_N)
    except (ValueError, OverflowError):
        valid = False
    if not valid:  # find the culprit (or read the sizes one by one)
        sizes = np.array([_count(lines, r, "N (the number of cards)", 1, MAX_N) for r in n_rows], dtype=np.int64)
    if len(rows) < 1 + 2 * cases:
        done = (len(rows) - 1) // 2
        expected = "N" if len(rows) % 2 else "the values"
        raise InputError(f"the input ends after this line, inside case {done + 1} of the {cases} that T announced "
                         f"(line {rows[0] + 1}); expected {expected} of case {done + 1}", rows[-1] + 1)
    if len(rows) > 1 + 2 * cases:
        raise InputError(f"unexpected text after the last case (T = {cases}, line {rows[0] + 1})",
                         rows[1 + 2 * cases] + 1)
    tokens = [lines[r].split() for r in value_rows]
    counts = np.fromiter(map(len, tokens), dtype=np.int64, count=cases)
    if (counts != sizes).any():
        c = int(np.flatnonzero(counts != sizes)[0])
        raise InputError(f"N is {sizes[c]} (line {n_rows[c] + 1}) but this line has {counts[c]} values",
                         value_rows[c] + 1)
    bounds = np.zeros(cases + 1, dtype=np.int64)
    np.cumsum(sizes, out=bounds[1:])
    try:
        values = np.array(list(chain.from_iterable(tokens)), dtype=np.int64)
    except (ValueError, OverflowError):
        raise _bad_value(lines, value_rows, tokens) from None
    # Exactness: per case, max|value| <= 2**61 // N (compared in int64 without ever taking abs).
    limit = SAFE_BOUND // sizes
    starts = bounds[:-1]
    too_big = (np.maximum.reduceat(values, starts) > limit) | (np.minimum.reduceat(values, starts) < -limit)
    if too_big.any():
        c = int(np.flatnonzero(too_big)[0])
        raise InputError(f"values this large could overflow 64-bit sums: with N = {sizes[c]} every |value| must "
                         f"be at most 2**61 / N = {limit[c]}", value_rows[c] + 1)
    return values, bounds


def _count(lines: list[str], row: int, what: str, low: int, high: int | None) -> int:
    """The single integer on line ``row``, within ``low..high``."""
    text = lines[row].strip()
    if not (text.isdigit() or (text[:1] in "+-" and text[1:].isdigit())):
        raise InputError(f"expected {what} alone on the line, got {text[:40]!r}", row + 1)
    value = int(text)
    if value < low or (high is not None and value > high):
        bound = f"at least {low}" if high is None else f"between {low} and {high}"
        raise InputError(f"{what} must be {bound}, not {value}", row + 1)
    return value


def _bad_value(lines: list[str], value_rows: list[int], tokens: list[list[str]]) -> InputError:
    for r, words in zip(value_rows, tokens):
        for w in words:
            body = w[1:] if w[:1] in "+-" else w
            if not body.isdigit():
                column = lines[r].find(w) + 1
                return InputError(f"{w[:40]!r} is not an integer card value", r + 1, column)
            if not -2**63 <= int(w) < 2**63:
                return InputError(f"{w[:40]} does not fit in 64 bits", r + 1, lines[r].find(w) + 1)
    return InputError("a card value is not an integer")
