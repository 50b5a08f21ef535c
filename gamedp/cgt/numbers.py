"""Dyadic rationals, the numbers of short games: their arithmetic, the simplest number between two others, and
how to write and read one.

A short game's numbers are the fractions m/2^k. :class:`Dyadic` holds them exactly as an integer and a power
of two: it adds, compares and halves without a gcd, and loading it costs nothing (:mod:`fractions` takes longer
to import than a small game takes to value). It equals, and hashes as, the :class:`fractions.Fraction` or ``int``
of the same value; the public API hands out Fractions (:meth:`Dyadic.as_fraction`).

>>> Dyadic.of("3/4") + Dyadic.of("1/4"), Dyadic.of("-1.25"), Dyadic(3, 1) / 3
(Dyadic(1, 0), Dyadic(-5, 2), Dyadic(1, 1))
>>> simplest_between(Dyadic.of("1/4"), Dyadic.of("3/4")), simplest_between(None, Dyadic.of("-3/2"))
(Dyadic(1, 1), Dyadic(-2, 0))
>>> format_number(Dyadic.of("-5/4")), str(number_temperature(Dyadic.of("3/8")))
('-5/4', '-1/8')
>>> Dyadic.of("1/3")
Traceback (most recent call last):
...
ValueError: 1/3 is not a dyadic rational (its denominator must be a power of 2)
"""

from __future__ import annotations

import sys
from math import ceil, floor, gcd

__all__ = ["Dyadic", "simplest_between", "format_number", "number_temperature"]

_MODULUS = sys.hash_info.modulus


class Dyadic:
    """The number ``m / 2**k`` (``k >= 0``), kept reduced: ``m`` is odd unless ``k`` is 0. Adds, subtracts,
    multiplies and divides with Dyadics and ints; compares with Fractions too."""

    __slots__ = ("m", "k")

    def __init__(self, m: int = 0, k: int = 0):
        if k and not m & 1:
            shift = min(k, (m & -m).bit_length() - 1) if m else k
            m >>= shift
            k -= shift
        self.m, self.k = m, k

    @classmethod
    def of(cls, x: Dyadic | int | str | object) -> Dyadic:
        """``x`` as a Dyadic: an int, a Dyadic, a ``fractions.Fraction`` (anything with a numerator and a
        denominator) or a text ``a``, ``a/b`` or ``a.b`` (a leading ``-`` allowed); a ValueError when it is not a
        dyadic rational or not a number."""
        if isinstance(x, Dyadic):
            return x
        if isinstance(x, bool):  # an int, with a numerator, but no number a person means
            raise ValueError(f"{x!r} is not a number")
        if isinstance(x, int):
            return cls(x)
        if isinstance(x, str):
            n, d = _read(x)
        else:
            try:
                n, d = int(x.numerator), int(x.denominator)  # type: ignore[attr-defined]
            except (AttributeError, TypeError, ValueError):
                raise ValueError(f"{x!r} is not a number") from None
        return cls.ratio(n, d)

    @classmethod
    def ratio(cls, n: int, d: int) -> Dyadic:
        """The number ``n / d``; a ValueError when it is not a dyadic rational."""
        if d <= 0:
            raise ValueError(f"{n}/{d} is not a number (its denominator is {d})")
        g = gcd(n, d)
        n, d = n // g, d // g
        if d & (d - 1):
            raise ValueError(f"{n}/{d} is not a dyadic rational (its denominator must be a power of 2)")
        return cls(n, d.bit_length() - 1)

    @property
    def numerator(self) -> int:
        return self.m

    @property
    def denominator(self) -> int:
        return 1 << self.k

    def as_fraction(self):
        """This number as a :class:`fractions.Fraction`."""
        from fractions import Fraction

        return Fraction(self.m, 1 << self.k)

    # -- arithmetic ---------------------------------------------------------------------------------------
    def __add__(self, other: Dyadic | int) -> Dyadic:
        o = _coerce(other)
        if o is None:
            return NotImplemented
        if self.k == o.k:
            return Dyadic(self.m + o.m, self.k)
        if self.k > o.k:
            return Dyadic(self.m + (o.m << (self.k - o.k)), self.k)
        return Dyadic((self.m << (o.k - self.k)) + o.m, o.k)

    __radd__ = __add__

    def __neg__(self) -> Dyadic:
        return Dyadic(-self.m, self.k)

    def __sub__(self, other: Dyadic | int) -> Dyadic:
        o = _coerce(other)
        return NotImplemented if o is None else self + Dyadic(-o.m, o.k)

    def __rsub__(self, other: Dyadic | int) -> Dyadic:
        o = _coerce(other)
        return NotImplemented if o is None else o + Dyadic(-self.m, self.k)

    def __mul__(self, other: Dyadic | int) -> Dyadic:
        o = _coerce(other)
        return NotImplemented if o is None else Dyadic(self.m * o.m, self.k + o.k)

    __rmul__ = __mul__

    def __truediv__(self, other: Dyadic | int) -> Dyadic:
        """Exact division; a ValueError when the quotient is not dyadic (or the divisor is 0)."""
        o = _coerce(other)
        if o is None:
            return NotImplemented
        if not o.m:
            raise ValueError("division of a number by 0")
        twos = (o.m & -o.m).bit_length() - 1
        odd = o.m >> twos
        q, r = divmod(self.m, odd)
        if r:
            raise ValueError(f"{self} / {o} is not a dyadic rational")
        k = self.k + twos - o.k
        return Dyadic(q, k) if k >= 0 else Dyadic(q << -k)

    def __abs__(self) -> Dyadic:
        return Dyadic(abs(self.m), self.k)

    def __floor__(self) -> int:
        return self.m >> self.k

    def __ceil__(self) -> int:
        return -(-self.m >> self.k)

    # -- comparison ---------------------------------------------------------------------------------------
    def _pair(self, other) -> tuple[int, int] | None:
        """Two integers that compare as ``self`` and ``other`` (a Dyadic, an int or a Fraction) do."""
        o = _coerce(other)
        if o is None:
            try:
                return self.m * other.denominator, other.numerator << self.k
            except (AttributeError, TypeError):
                return None
        if self.k == o.k:
            return self.m, o.m
        if self.k > o.k:
            return self.m, o.m << (self.k - o.k)
        return self.m << (o.k - self.k), o.m

    def __eq__(self, other) -> bool:
        pair = self._pair(other)
        return NotImplemented if pair is None else pair[0] == pair[1]

    def __lt__(self, other) -> bool:
        pair = self._pair(other)
        return NotImplemented if pair is None else pair[0] < pair[1]

    def __le__(self, other) -> bool:
        pair = self._pair(other)
        return NotImplemented if pair is None else pair[0] <= pair[1]

    def __gt__(self, other) -> bool:
        pair = self._pair(other)
        return NotImplemented if pair is None else pair[0] > pair[1]

    def __ge__(self, other) -> bool:
        pair = self._pair(other)
        return NotImplemented if pair is None else pair[0] >= pair[1]

    def __hash__(self) -> int:
        if not self.k:
            return hash(self.m)
        # as Python hashes every rational (int, Fraction, float alike): equal numbers, equal hashes
        h = hash(abs(self.m)) * pow(1 << self.k, -1, _MODULUS) % _MODULUS
        h = h if self.m >= 0 else -h
        return -2 if h == -1 else h

    def __bool__(self) -> bool:
        return self.m != 0

    def __float__(self) -> float:
        return self.m / (1 << self.k)

    def __repr__(self) -> str:
        return f"Dyadic({self.m}, {self.k})"

    def __str__(self) -> str:
        return format_number(self)


def _coerce(x) -> Dyadic | None:
    if isinstance(x, Dyadic):
        return x
    if isinstance(x, int) and not isinstance(x, bool):
        return Dyadic(x)
    return None


def _read(text: str) -> tuple[int, int]:
    """``a``, ``a/b`` or ``a.b`` as a numerator and a denominator; a ValueError naming the text otherwise."""
    body = text.strip()
    sign = -1 if body.startswith("-") else 1
    body = body[1:] if sign < 0 else body
    whole, slash, below = body.partition("/")
    digits, dot, decimals = whole.partition(".")
    if not (digits.isascii() and digits.isdigit()) or (dot and not (decimals.isascii() and decimals.isdigit())) \
            or (slash and (dot or not (below.isascii() and below.isdigit()))):
        raise ValueError(f"{text!r} is not a number: write a, a/b or a.b")
    if slash:
        return sign * int(digits), int(below)
    return sign * int(digits + decimals), 10 ** len(decimals)


ZERO = Dyadic(0)


def simplest_between(low: Dyadic | None, high: Dyadic | None) -> Dyadic:
    """The simplest number strictly between ``low`` and ``high`` (None: unbounded on that side); ``low < high``.

    Simplest means: an integer if one fits, the one nearest zero; else the number with the smallest power of two
    as its denominator (there is just one, since the interval then lies between two integers).
    """
    if low is None and high is None:
        return ZERO
    if low is None:
        assert high is not None
        return ZERO if high > 0 else Dyadic(ceil(high) - 1)
    if high is None:
        return ZERO if low < 0 else Dyadic(floor(low) + 1)
    if low < 0 < high:
        return ZERO
    if low >= 0 and floor(low) + 1 < high:
        return Dyadic(floor(low) + 1)
    if high <= 0 and ceil(high) - 1 > low:
        return Dyadic(ceil(high) - 1)
    k = 1
    while True:  # the least n/2^k above low, for k = 1, 2, ...: the first below high is the simplest
        x = Dyadic(((low.m << k) >> low.k) + 1, k)
        if x < high:
            return x
        k += 1


def format_number(x) -> str:
    """``3``, ``-1/2``, ``3/4``: as CGSuite writes numbers (a Dyadic or a Fraction)."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def number_temperature(x: Dyadic) -> Dyadic:
    """A number's temperature as CGSuite gives it: -1 for an integer, -1/2^k for m/2^k (m odd)."""
    return Dyadic(-1, x.k)
