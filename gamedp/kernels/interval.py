"""Kernels of the take-from-the-ends interval games (compiled ahead of time by :mod:`gamedp.aot`).

A rule is ``(take, discard)``: the mover takes 1..``take`` cards from one end and scores them, or (when
``discard`` > 0) throws exactly ``discard`` cards away from one end without scoring. ``f(i, L)`` is the best
final margin (mover minus opponent) the mover can force on the cards ``row[i:i+L]``; ``f(i, 0) = 0``.

Moves are numbered in the order ties are broken (the first best move wins): code ``2(t-1)`` takes ``t`` cards
from the left, ``2(t-1)+1`` takes ``t`` from the right, ``2 take`` discards on the left, ``2 take + 1`` on the
right. Values are int64; callers make sure ``n * max|value| <= 2**61`` so that no sum below can overflow.

The table is kept by interval length: length ``L`` needs only lengths ``L-1 .. L-max(take, discard)``, so a ring
of ``max(take, discard) + 1`` rows of ``n + 1`` numbers holds everything (O(N) memory for a fixed rule).

These functions also run as plain Python (slowly) on small rows, which is how the doctests use them:

>>> import numpy as np
>>> out = np.zeros(1, np.int64)
>>> margins(np.array([1, 2, 5, 2]), np.array([0, 4]), 1, 0, out); int(out[0])
2
"""

import numpy as np

#: Exact-arithmetic bound: a row is solved in int64 only when ``len(row) * max|value|`` is at most this.
SAFE_BOUND = 2**61
#: The most cards in a row the card game's judge reads (its own limit is 1000; the work grows as N^2).
MAX_N = 100_000

EXPORTS = {
    "margins": "void(i8[::1], i8[::1], i8, i8, i8[::1])",
    "solve_row": "i8(i8[::1], i8, i8, i8[::1], u2[::1])",
    "read_integers": "i8(u1[::1], i8[::1], i8[::1])",
    "write_integers": "i8(i8[::1], u1[::1])",
}

#: The value of an illegal move (never a real margin: those stay within +-2**62).
ILLEGAL = -(2**63)


def _fill(row, n, take, discard, layers, prefix, ring, codes, move_values):
    """Fill the ring ``layers`` (depth rows of width >= n + 1, one after the other) for every length 1..n
    (length L in row L % depth). When not empty, ``codes`` gets each interval's first best move (by length,
    then start) and ``move_values`` the value of every move from the whole row (ILLEGAL where a move is not
    allowed). ``ring`` (size depth) is scratch."""
    depth = ring.shape[0]
    width = layers.shape[0] // depth
    prefix[0] = 0
    for i in range(n):
        prefix[i + 1] = prefix[i] + row[i]
    for i in range(n + 1):
        layers[i] = 0
    record = codes.shape[0] > 0
    for code in range(move_values.shape[0]):
        move_values[code] = ILLEGAL
    base = 0
    for length in range(1, n + 1):
        cur = length % depth
        root = length == n and move_values.shape[0] > 0
        if take == 1 and discard == 0 and not record and not root:
            # The judged rule: a branch-free loop over two rows that LLVM vectorises, ~25x the general loop
            # (written as a conditional expression: the builtin max() on int64 is 3.5x slower here).
            now = layers[cur * width:(cur + 1) * width]
            prev = layers[(length - 1) % depth * width:((length - 1) % depth + 1) * width]
            last = length - 1
            for i in range(n - length + 1):
                left = row[i] - prev[i + 1]
                right = row[i + last] - prev[i]
                now[i] = left if left > right else right
            continue
        # Helpers taking arrays are not inlined and cost refcounting per call: the moves are spelled out here.
        for t in range(min(length, depth - 1) + 1):
            ring[t] = (length - t) % depth * width  # where the row of length - t starts
        for i in range(n - length + 1):
            j = i + length
            best = ILLEGAL
            best_code = 0
            for t in range(1, min(take, length) + 1):
                r = ring[t]
                left = prefix[i + t] - prefix[i] - layers[r + i + t]
                right = prefix[j] - prefix[j - t] - layers[r + i]
                if root:
                    move_values[2 * t - 2] = left
                    move_values[2 * t - 1] = right
                if left > best:
                    best = left
                    best_code = 2 * t - 2
                if right > best:
                    best = right
                    best_code = 2 * t - 1
            if 0 < discard <= length:
                r = ring[discard]
                left = -layers[r + i + discard]
                right = -layers[r + i]
                if root:
                    move_values[2 * take] = left
                    move_values[2 * take + 1] = right
                if left > best:
                    best = left
                    best_code = 2 * take
                if right > best:
                    best = right
                    best_code = 2 * take + 1
            layers[cur * width + i] = best
            if record:
                codes[base + i] = best_code
        base += n - length + 1


def depth_of(longest, take, discard):
    """How many rows of the table a rule keeps for rows of up to ``longest`` cards."""
    return max(min(take, longest), min(discard, longest)) + 1


def work_size(longest, take, discard):
    """The scratch :func:`margins_into` needs for rows of up to ``longest`` cards."""
    depth = depth_of(longest, take, discard)
    return (depth + 1) * (longest + 1) + depth


def longest_row(bounds):
    longest = 0
    for c in range(bounds.shape[0] - 1):
        longest = max(longest, bounds[c + 1] - bounds[c])
    return longest


def margins(values, bounds, take, discard, out):
    """``out[c]`` = the first player's margin on ``values[bounds[c]:bounds[c+1]]``, for every case c."""
    margins_into(values, bounds, take, discard, out,
                 np.empty(work_size(longest_row(bounds), take, discard), np.int64))


def margins_into(values, bounds, take, discard, out, work):
    """:func:`margins` in the scratch ``work`` (at least :func:`work_size` long), allocating nothing: this is
    what the native card-game judge calls."""
    longest = longest_row(bounds)
    depth = depth_of(longest, take, discard)
    layers = work[:depth * (longest + 1)]
    prefix = work[depth * (longest + 1):(depth + 1) * (longest + 1)]
    ring = work[(depth + 1) * (longest + 1):(depth + 1) * (longest + 1) + depth]
    for c in range(bounds.shape[0] - 1):
        n = bounds[c + 1] - bounds[c]
        _fill(values[bounds[c]:bounds[c + 1]], n, take, discard, layers, prefix, ring, work[:0].view(np.uint16),
              work[:0])
        out[c] = layers[n % depth * (longest + 1)]


def solve_row(row, take, discard, move_values, codes):
    """The mover's margin on the whole ``row``. ``move_values`` (size 2 take + 2) gets each first move's
    margin or ILLEGAL; ``codes``, unless empty (else size n(n+1)/2), every interval's first best move."""
    n = row.shape[0]
    depth = depth_of(n, take, discard)
    layers = np.empty(depth * (n + 1), np.int64)
    prefix = np.empty(n + 1, np.int64)
    _fill(row, n, take, discard, layers, prefix, np.empty(depth, np.int64), codes, move_values)
    return layers[n % depth * (n + 1)]


def is_space(c):
    """The whitespace bytes of ``bytes.split()``."""
    return c == 32 or 9 <= c <= 13


def read_word(text, i):
    """The integer written at ``text[i:]`` (a non-space byte) up to the next space: ``(value, end, ok)``, where
    ``ok`` is false for a stray character, a sign without digits, or a value beyond +-(2**63 - 1)."""
    n = text.shape[0]
    negative = text[i] == 45
    if text[i] == 43 or text[i] == 45:
        i += 1
    value = 0
    digits = 0
    ok = True
    while i < n and not is_space(text[i]):
        d = int(text[i]) - 48
        if d < 0 or d > 9 or value > (9223372036854775807 - d) // 10:
            ok = False
        else:
            value = value * 10 + d
            digits += 1
        i += 1
    return -value if negative else value, i, ok and digits > 0


def read_integers(text, values, lines):
    """Read the whitespace-separated integers of ASCII ``text`` into ``values``, each one's 0-based line number
    into ``lines`` (both at least ``len(text) // 2 + 1`` long). Returns how many, or ``-1 - k`` when the k-th
    word is not an integer (a stray character, a misplaced sign) or is beyond +-(2**63 - 1)."""
    count = 0
    line = 0
    i = 0
    while i < text.shape[0]:
        c = text[i]
        if c == 10:
            line += 1
            i += 1
        elif is_space(c):
            i += 1
        else:
            value, i, ok = read_word(text, i)
            if not ok:
                return -1 - count
            values[count] = value
            lines[count] = line
            count += 1
    return count


def write_integers(values, out):
    """Write ``values`` in decimal, one per line, into ``out`` (at least 21 bytes per value); returns the length.
    (|value| < 2**63: the judge's totals are within 2**62.)"""
    k = 0
    for v in values:
        if v < 0:
            out[k] = 45
            k += 1
            v = -v
        end = k + 1
        rest = v // 10
        while rest > 0:
            end += 1
            rest //= 10
        for at in range(end - 1, k - 1, -1):  # the digits, last first
            out[at] = 48 + v % 10
            v //= 10
        out[end] = 10
        k = end + 1
    return k
