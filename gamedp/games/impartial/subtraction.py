"""Subtraction games: take k stones from one heap, k from a set -- finite, all-but, squares, powers, Fibonacci.

These are the stone-taking games of judge problems ("take 1, 3 or 4 stones; who takes the last wins" --
or, misère, loses). A finite set is the octal code with digit 3 at each k, so its period is proven by the same
criterion (t = the largest k); the infinite sets have no such proof and are computed term by term.

>>> game = Subtraction("1,3,4")
>>> seq = game.heap_sequence(20)
>>> list(seq.values[:14]), seq.period, seq.preperiod
([0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2], 7, 0)
>>> [n for n in range(15) if game.misere_outcome((n,)).name == "LOSE"]    # last to take loses
[1, 3, 8, 10]
>>> list(Subtraction("squares").heap_sequence(10).values)
[0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0]
>>> Subtraction("allbut:1,2").heap_options(4)
[(1,), ()]
>>> Subtraction("")
Traceback (most recent call last):
...
gamedp.errors.InputError: subtraction set, line 1, column 1: the subtraction set is empty; give the amounts a move may take, e.g. 1,3,4
"""

from __future__ import annotations

import re
from math import isqrt
from typing import Any, Callable, Iterable

from gamedp.errors import InputError
from gamedp.games.impartial.heaps import BYTES_PER_PYTHON_TERM, GrundySequence, Heaps, HeapGame, check_terms
from gamedp.games.impartial.octal import PYTHON_STEP, TakeBreak, refuse_long

SYNTAX = ("a subtraction set is amounts like 1,3,4, or allbut:1,2 (every amount but these), squares, "
          "powers:B (1, B, B^2, ...) or fibonacci")


def _error(message: str, column: int = 1) -> InputError:
    return InputError(message, 1, column, "subtraction set")


def _amounts(text: str, offset: int = 0) -> list[int]:
    values = []
    for m in re.finditer(r"[^,\s]+", text):
        if not re.fullmatch(r"-?\d+", m.group()):
            raise _error(f"{m.group()!r} is not a whole number; {SYNTAX}", offset + m.start() + 1)
        k = int(m.group())
        if k < 1:
            raise _error(f"a move takes at least one stone, so {k} cannot be in the set", offset + m.start() + 1)
        values.append(k)
    return sorted(set(values))


def _infinite(kind: str, member: Callable[[int], bool], count: Callable[[int], int]) -> Callable[[int], list[int]]:
    """The digits of an infinite set up to a limit; ``.count(n)``: how many members are at most ``n``, found without
    listing them (estimates of the work ahead need it for huge heaps)."""
    def digits(limit: int) -> list[int]:
        return [3 if k and member(k) else 0 for k in range(limit + 1)]

    digits.__name__ = kind
    digits.count = count  # type: ignore[attr-defined]
    return digits


def _members_upto(n: int, first: int, step: Callable[[int, int], tuple[int, int]]) -> int:
    """How many terms of a growing sequence (first term, then ``step``) are at most ``n``.

    >>> _members_upto(10, 1, lambda a, b: (b, a + b))     # 1 2 3 5 8
    5
    """
    count, a, b = 0, first, first
    while b <= n:
        count += 1
        a, b = step(a, b)
    return count


def _is_square(k: int) -> bool:
    r = int(k ** 0.5)
    while r * r > k:
        r -= 1
    while (r + 1) * (r + 1) <= k:
        r += 1
    return r * r == k


def _powers_of(base: int) -> Callable[[int], bool]:
    def member(k: int) -> bool:
        while k % base == 0:
            k //= base
        return k == 1
    return member


def _is_fibonacci(k: int) -> bool:
    return _is_square(5 * k * k + 4) or _is_square(5 * k * k - 4)


def parse_subtraction(spec: str) -> tuple[str, TakeBreak]:
    """(canonical name, rules) of a subtraction set written as in :data:`SYNTAX`."""
    text = spec.strip()
    kind, _, arg = text.partition(":")
    if kind == "squares" and not arg:
        return "squares", TakeBreak(_infinite("squares", _is_square, isqrt))
    if kind == "fibonacci" and not arg:
        return "fibonacci", TakeBreak(_infinite("fibonacci", _is_fibonacci,
                                                 lambda n: _members_upto(n, 1, lambda a, b: (b, a + b))))
    if kind == "powers":
        if not re.fullmatch(r"\d+", arg.strip()) or int(arg) < 2:
            raise _error(f"powers:B needs a whole base B >= 2, not {arg!r}", len(kind) + 2)
        base = int(arg)
        return f"powers:{base}", TakeBreak(_infinite(f"powers:{base}", _powers_of(base),
                                                          lambda n: _members_upto(n, 1, lambda _, b: (b, b * base))))
    if kind == "allbut":
        excluded = _amounts(arg, len(kind) + 1)
        barred = set(excluded)
        return ("allbut:" + ",".join(map(str, excluded)),
                TakeBreak(_infinite("allbut", lambda k: k not in barred,
                                   lambda n: n - sum(1 for e in excluded if e <= n))))
    if not text:
        raise _error("the subtraction set is empty; give the amounts a move may take, e.g. 1,3,4")
    if not re.fullmatch(r"[-\d,\s]+", text):
        raise _error(f"unknown subtraction set {spec!r}: {SYNTAX}")
    amounts = _amounts(text)
    if not amounts:
        raise _error("the subtraction set is empty; give the amounts a move may take, e.g. 1,3,4")
    digits = [0] * (amounts[-1] + 1)
    for k in amounts:
        digits[k] = 3
    return ",".join(map(str, amounts)), TakeBreak(digits)


class Subtraction(HeapGame):
    """Take k stones from one heap, k in the set. ``Subtraction()`` is the judge classic, take 1, 3 or 4."""

    default_heaps = (21,)

    def __init__(self, moves: str = "1,3,4", misere: bool = False, heaps: Iterable[int] | None = None):
        self.subtraction_set, self.rules = parse_subtraction(moves)
        self.family = f"subtraction:{self.subtraction_set}"
        kind, _, excluded = self.subtraction_set.partition(":")
        self.excluded = [int(k) for k in excluded.split(",") if k] if kind == "allbut" else None
        super().__init__(misere, heaps)

    def heap_options(self, n: int) -> list[Heaps]:
        return list(self.rules.options(n))

    def tiered(self) -> Any:
        """One heap of up to 1000 stones as a tiered game, for ``gamedp solve`` (a finite set only, else None)."""
        from gamedp.games.impartial.subtraction_tiers import subtraction_table

        if not re.fullmatch(r"[\d,]+", self.subtraction_set):
            return None
        return subtraction_table(moves=[int(k) for k in self.subtraction_set.split(",")], misere=self.misere)

    def heap_sequence(self, upto: int, extrapolate: bool = True) -> GrundySequence:
        if self.excluded is not None:
            check_terms(upto, per_term=BYTES_PER_PYTHON_TERM)
            refuse_long(0, upto + 1, lambda hi: PYTHON_STEP * hi * (len(self.excluded) + 1))
            return GrundySequence(allbut_sequence(self.excluded, upto))
        return self.rules.sequence(upto, extrapolate)


def allbut_sequence(excluded: list[int], upto: int) -> list[int]:
    """G(0..upto) when every amount but ``excluded`` may be taken, in O(upto * len(excluded)).

    Heap n reaches every smaller heap j except n - e for e excluded. So a value v is out of reach only when
    every heap j < n holding it is such an exception: the mex is the least such v, or else the mex of all of
    G(0..n-1), which only grows.

    >>> allbut_sequence([2], 8)
    [0, 1, 0, 1, 2, 3, 2, 3, 4]
    """
    count: dict[int, int] = {}  # value -> how many of G(0..n-1) hold it
    values: list[int] = []
    mex_all = 0
    for n in range(upto + 1):
        barred: dict[int, int] = {}
        for e in excluded:
            if e <= n:
                v = values[n - e]
                barred[v] = barred.get(v, 0) + 1
        g = min([v for v, c in barred.items() if c == count[v]] + [mex_all])
        values.append(g)
        count[g] = count.get(g, 0) + 1
        while count.get(mex_all):
            mex_all += 1
    return values
