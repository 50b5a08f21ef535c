"""Take-and-break games given by an octal code: Kayles (0.77), Dawson's Kayles (0.07), any code typed.

Digit ``k`` of the code (``k = 1, 2, ...`` after the point; ``k = 0`` before it) says what removing ``k``
stones from a heap may leave: bit 1 -- no heap (the whole heap was ``k``), bit 2 -- one heap, bit 4 -- two
non-empty heaps. So Kayles 0.77 takes 1 or 2 pins and may split the row; Dawson's Kayles 0.07 takes exactly 2.
A digit before the point may be 4 (split a heap without taking anything) or 0.

Grundy sequences are indexed by the heap size in the code's own terms: G(n) is a heap of n stones, G(0) = 0.
(Dawson's chess with n pawns is the heap n + 1 of 0.07.) The period is reported once the Guy-Smith criterion
proves it: if G(n + p) = G(n) for all n0 <= n < 2 n0 + p + t, where t is the number of digits after the point,
then for all n >= n0.

>>> kayles = Octal("0.77")
>>> seq = kayles.heap_sequence(30)
>>> list(seq.values[:12])
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
>>> seq.period, seq.preperiod        # periodic from heap 71: the last exceptional heap is 70
(12, 71)
>>> kayles.heap_nimber(10**18)       # any heap, once the period is proven: 10^18 = 4 (mod 12)
1
>>> Octal("0.07").heap_sequence(10).period, Octal("0.07").heap_sequence(10).preperiod
(34, 53)
>>> Octal("0.8")
Traceback (most recent call last):
...
gamedp.errors.InputError: octal code, line 1, column 3: digit 8 is not octal: each digit is 0-7 (1: take all, 2: take and leave one heap, 4: take and split in two)
"""

from __future__ import annotations

from bisect import bisect_right
from math import isqrt
from typing import Callable, Iterable, Sequence

from gamedp.errors import InputError, ResourceError
from gamedp.games.impartial.heaps import GrundySequence, Heaps, HeapGame, check_terms

#: Sequences up to this many terms are computed in plain Python: faster than loading a compiled kernel.
SMALL = 512
#: How far a sequence is computed to look for a provable period, unless more terms are asked anyway.
PERIOD_SEARCH = 1 << 13
#: Mex steps (one per split looked at) a sequence may take: about two minutes at the kernel's speed (measured).
#: A game whose splits have no provable period (Grundy's game) costs n^2/4 steps for n terms.
STEP_LIMIT = 6 * 10**10
STEPS_PER_SECOND = 5 * 10**8
#: A move that takes stones costs the kernel this many split steps (a read at random, not vectorised), and a
#: digit of an infinite set listed in Python as many (docs/performance.md).
TAKE_STEP = 10
PYTHON_STEP = 500
#: A sequence of more steps than this (a second or more) is computed in up to PROGRESS_PIECES pieces, with progress.
PROGRESS_STEPS = 5 * 10**8
PROGRESS_PIECES = 50


class TakeBreak:
    """The rules of a take-and-break game as digits per number of stones removed (see the module doc).

    ``digits`` is a list (finite code: ``t = len(digits) - 1``) or a function ``limit -> list`` giving the
    digits up to ``limit`` (infinite rule sets such as squares; no period can be proven then). ``unequal``
    requires the two heaps of a split to differ (Grundy's game), which also voids the periodicity criterion.
    """

    def __init__(self, digits: Sequence[int] | Callable[[int], Sequence[int]], unequal: bool = False):
        self._fixed = None if callable(digits) else list(digits)
        self._make = digits if callable(digits) else None
        self._made: list[int] = []
        self._moves: list[tuple[int, int]] = []
        self.unequal = unequal
        #: Largest number of stones one move removes, when finite and the criterion applies.
        self.t: int | None = None
        if self._fixed is not None and not unequal:
            nonzero = [k for k, d in enumerate(self._fixed) if d]
            self.t = nonzero[-1] if nonzero else 0

    def digits(self, limit: int) -> list[int]:
        """Digits for k = 0..limit (at most)."""
        if self._fixed is not None:
            return self._fixed[:limit + 1]
        if limit >= len(self._made):  # kept, doubling: a search lists the options of every heap below its own
            self._made = list(self._make(max(limit, 2 * len(self._made))))  # type: ignore[misc]
            self._moves = [(k, d) for k, d in enumerate(self._made) if d]
        return self._made[:limit + 1]

    def moves(self, n: int) -> list[tuple[int, int]]:
        """(k, digit) for the k <= n that a move may take, digit nonzero: a heap's options without a pass over
        every k (an infinite set such as squares has few members below n)."""
        if self._fixed is not None:
            return [(k, d) for k, d in enumerate(self._fixed[:n + 1]) if d]
        self.digits(n)
        return self._moves[:bisect_right(self._moves, (n, 8))]

    def options(self, n: int) -> Iterable[Heaps]:
        """What a heap of n can become, each result once (different k leave different totals)."""
        for k, d in self.moves(n):
            m = n - k
            if d & 1 and m == 0:
                yield ()
            if d & 2 and m > 0:
                yield (m,)
            if d & 4:
                top = (m - 1) // 2 if self.unequal else m // 2
                for a in range(1, top + 1):
                    yield (a, m - a)

    def option_count(self, n: int) -> int:
        """How many options a heap of ``n`` has, without listing them.

        >>> TakeBreak([0, 7, 7]).option_count(5), len(list(TakeBreak([0, 7, 7]).options(5)))
        (5, 5)
        """
        count_members = getattr(self._make, "count", None)
        if count_members is not None:  # the infinite subtraction sets: one option per member k <= n
            return count_members(n)
        count = 0
        for k, d in self.moves(n):
            m = n - k
            count += bool(d & 1 and m == 0) + bool(d & 2 and m > 0)
            if d & 4:
                count += max((m - 1) // 2 if self.unequal else m // 2, 0)
        return count

    def sequence(self, upto: int, extrapolate: bool = True) -> GrundySequence:
        """G(0..upto), with the period where the criterion proves one.

        With ``extrapolate`` the terms past the proof are filled in from the period; without it every term is
        computed by mex (the period is still reported).
        """
        check_terms(upto)
        if self.t is None:
            return GrundySequence(self._compute([0], upto + 1))
        if not extrapolate:
            values = self._compute([0], upto + 1)
            found = _proven_period(values, self.t)
        else:
            # Short sequences are still searched for a period, so that every answer can report it.
            limit = max(upto + 1, PERIOD_SEARCH)
            values, hi = [0], 64
            while True:
                # counted from 0: the doublings together stay within the limit, not each of them
                values = self._compute(values, min(hi, limit), since=0)
                found = _proven_period(values, self.t)
                if found or hi >= limit:
                    break
                hi *= 2
        if found is None:
            return GrundySequence(values)
        p, n0 = found
        if len(values) < upto + 1:
            values = _extend(values, upto + 1, p, n0)
        return GrundySequence(values, p, n0, 2 * max(n0, 1) + 2 * p + self.t - 1)

    def _compute(self, values: Sequence[int], hi: int, since: int | None = None) -> Sequence[int]:
        """``values`` (G(0..lo-1)) extended to G(0..hi-1), refused if G(since..hi-1) (default: the new terms)
        would take too long."""
        lo = len(values)
        if hi <= lo:
            return values
        first = lo if since is None else since
        refuse_long(first, hi, lambda top: self._steps(first, top))
        digits = self.digits(hi - 1)
        if hi <= SMALL:
            return _sequence_py(list(values), digits, self.unequal, hi)
        import numpy as np

        from gamedp.aot import load_kernels

        from gamedp.progress import ProgressLine

        kernels = load_kernels("gamedp.kernels.octal")
        g = np.zeros(hi, np.int32)
        g[:lo] = values
        d = np.asarray(digits, np.uint8)
        ks = np.flatnonzero(d).astype(np.int64)
        # Long sequences go in pieces of equal work, so that a terminal shows how far they are.
        pieces = max(1, min(PROGRESS_PIECES, self._steps(lo, hi) // PROGRESS_STEPS))
        bounds = sorted({isqrt(lo * lo + j * (hi * hi - lo * lo) // pieces) for j in range(pieces)} | {lo, hi})
        line = ProgressLine(f"computing G({lo}..{hi - 1})")
        try:
            for a, b in zip(bounds, bounds[1:]):
                kernels.take_break(d, ks, np.uint8(self.unequal), a, b, g)
                if pieces > 1:
                    line.update(b, hi)
        finally:
            line.close()
        return g


    def _steps(self, lo: int, hi: int) -> int:
        """The kernel's steps for G(lo..hi-1), split steps as the unit (the pieces' costs were measured)."""
        listing = PYTHON_STEP * hi if self._make is not None and hi > len(self._made) else 0
        count_members = getattr(self._make, "count", None)
        if count_members is not None:  # an infinite subtraction set: counted without listing it
            splitting, takes = 0, count_members(hi - 1)
        else:
            digits = self._fixed if self._fixed is not None else self.digits(hi - 1)
            splitting = sum(1 for d in digits if d & 4)
            takes = sum(1 for d in digits[:hi] if d & 3)
        return splitting * (hi * hi - lo * lo) // 4 + TAKE_STEP * takes * (hi - lo) + listing


def refuse_long(lo: int, hi: int, steps: Callable[[int], int], what: str | None = None) -> None:
    """Refuse G(lo..hi-1) (or ``what``) when ``steps(hi)`` (see :meth:`TakeBreak._steps`) is past
    :data:`STEP_LIMIT`, saying how long it would take and the largest heap that would not.

    >>> refuse_long(1, 10**6, lambda hi: hi * hi)
    Traceback (most recent call last):
    ...
    gamedp.errors.ResourceError: G(1..999999) takes about 1.0e+12 mex steps, some 33 minutes (each term looks at every move from its heap); keep heaps (or --upto) below about 244,948
    """
    total = steps(hi)
    if total <= STEP_LIMIT:
        return
    good, bad = lo, hi  # steps grow with hi: the last hi within the limit, by bisection
    while bad - good > 1:
        mid = (good + bad) // 2
        good, bad = (mid, bad) if steps(mid) <= STEP_LIMIT else (good, mid)
    minutes = total / STEPS_PER_SECOND / 60
    took = f"{minutes / 60:.0f} hours" if minutes >= 120 else f"{minutes:.0f} minutes"
    raise ResourceError(f"{what or f'G({lo}..{hi - 1})'} takes about {total:.1e} mex steps, some {took} (each term looks at "
                        f"every move from its heap); keep heaps (or --upto) below about {good:,}")


def _sequence_py(values: list[int], digits: Sequence[int], unequal: bool, hi: int) -> list[int]:
    # The same mex as the kernel, for short sequences where loading the kernel would cost more than it saves.
    moves = [(k, d) for k, d in enumerate(digits) if d]
    for n in range(len(values), hi):
        seen = set()
        for k, d in moves:
            m = n - k
            if m < 0:
                break
            if d & 1 and m == 0:
                seen.add(0)
            if d & 2 and m > 0:
                seen.add(values[m])
            if d & 4:
                for a in range(1, ((m - 1) // 2 if unequal else m // 2) + 1):
                    seen.add(values[a] ^ values[m - a])
        v = 0
        while v in seen:
            v += 1
        values.append(v)
    return values


def _proven_period(values: Sequence[int], t: int) -> tuple[int, int] | None:
    """(period, preperiod) proven by the Guy-Smith criterion from ``values``, or None."""
    if len(values) <= SMALL:
        return _proven_period_py(values, t)
    import numpy as np

    from gamedp.aot import load_kernels

    out = np.zeros(2, np.int64)
    g = np.asarray(values, np.int32)
    if load_kernels("gamedp.kernels.octal").proven_period(g, len(g), t, out):
        return int(out[0]), int(out[1])
    return None


def _proven_period_py(g: Sequence[int], t: int) -> tuple[int, int] | None:
    # Short sequences: the kernel's check in plain Python (see gamedp.kernels.octal.proven_period).
    last = len(g) - 1
    for p in range(1, len(g)):
        n0max = (last + 1 - 2 * p - t) // 2
        if n0max < 1:
            return None
        i = last - p
        while i >= 0 and g[i] == g[i + p]:
            i -= 1
        if max(i + 1, 1) <= n0max:
            for d in range(1, p):
                if p % d == 0 and all(g[j] == g[j + d] for j in range(i + 1, i + 1 + p)):
                    p = d
                    i = last - p
                    while i >= 0 and g[i] == g[i + p]:
                        i -= 1
                    break
            return p, i + 1
    return None


def _extend(values: Sequence[int], count: int, p: int, n0: int) -> Sequence[int]:
    """The first ``count`` terms of the sequence that repeats with period p from n0."""
    if isinstance(values, list):
        block = values[n0:n0 + p]
        return values + [block[(n - n0) % p] for n in range(len(values), count)]
    import numpy as np

    out = np.empty(count, np.int32)
    out[:len(values)] = values
    idx = n0 + (np.arange(len(values), count) - n0) % p
    out[len(values):] = np.asarray(values)[idx]
    return out


def parse_octal(code: str) -> list[int]:
    """The digits of an octal code such as ``0.77``, ``.137`` or ``4.07``, with errors that say what is wrong.

    >>> parse_octal("0.137"), parse_octal(".07"), parse_octal("4.3")
    ([0, 1, 3, 7], [0, 0, 7], [4, 3])
    """
    text = code.strip()
    whole, point, frac = text.partition(".")
    if not point:
        raise InputError(f"an octal code has a point, like 0.77 (Kayles) or 0.07 (Dawson's Kayles); got {code!r}",
                         1, 1, "octal code")
    if not frac:
        raise InputError("an octal code needs digits after the point, like 0.77", 1, len(text) + 1, "octal code")
    for i, c in enumerate(text):
        if c == ".":
            continue
        if not c.isdigit():
            raise InputError(f"{c!r} is not an octal digit; an octal code looks like 0.77", 1, i + 1, "octal code")
        if c in "89":
            raise InputError(f"digit {c} is not octal: each digit is 0-7 (1: take all, 2: take and leave one "
                             "heap, 4: take and split in two)", 1, i + 1, "octal code")
    if len(whole) > 1 or whole not in ("", "0", "4"):
        raise InputError("before the point an octal code has 0 or 4 (4: split a heap without taking); "
                         f"got {whole!r}", 1, 1, "octal code")
    digits = [int(whole or "0")] + [int(c) for c in frac]
    while len(digits) > 1 and digits[-1] == 0:
        digits.pop()
    return digits


class Octal(HeapGame):
    """A take-and-break game given by its octal code (see the module doc); position: heap sizes."""

    default_heaps = (10,)

    def __init__(self, code: str = "0.137", misere: bool = False, heaps: Iterable[int] | None = None):
        self.digits = parse_octal(code)
        self.code = format_octal(self.digits)
        self.family = f"octal:{self.code}"
        self.rules = TakeBreak(self.digits)
        self.splits = any(d & 4 for d in self.digits)
        super().__init__(misere, heaps)

    def heap_options(self, n: int) -> Iterable[Heaps]:
        return self.rules.options(n)

    def heap_sequence(self, upto: int, extrapolate: bool = True) -> GrundySequence:
        return self.rules.sequence(upto, extrapolate)


def format_octal(digits: Sequence[int]) -> str:
    """The code of ``digits``: ``[0, 7, 7]`` is ``0.77``."""
    return f"{digits[0]}." + "".join(map(str, digits[1:] or [0]))


class Kayles(Octal):
    """Kayles, 0.77: knock down one pin or two adjacent pins of a row; a row may break in two."""

    def __init__(self, misere: bool = False, heaps: Iterable[int] | None = None):
        super().__init__("0.77", misere, heaps)
        self.family = "kayles"
        self.name = ("misere-" if misere else "") + self.family


class Dawson(Octal):
    """Dawson's Kayles, 0.07: knock down exactly two adjacent pins."""

    def __init__(self, misere: bool = False, heaps: Iterable[int] | None = None):
        super().__init__("0.07", misere, heaps)
        self.family = "dawson"
        self.name = ("misere-" if misere else "") + self.family
