"""Dyadic rationals, the numbers of short games: the simplest number between two others, and how to write one.

A short game's numbers are the fractions m/2^k; :class:`fractions.Fraction` holds them exactly.

>>> simplest_between(Fraction(1, 4), Fraction(3, 4))
Fraction(1, 2)
>>> simplest_between(None, Fraction(-3, 2)), simplest_between(Fraction(2), None)
(Fraction(-2, 1), Fraction(3, 1))
>>> format_number(Fraction(-5, 4)), number_temperature(Fraction(3, 8))
('-5/4', Fraction(-1, 8))
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil, floor

__all__ = ["Fraction", "simplest_between", "format_number", "is_dyadic", "number_temperature"]


def is_dyadic(x: Fraction) -> bool:
    d = x.denominator
    return d & (d - 1) == 0


def simplest_between(low: Fraction | None, high: Fraction | None) -> Fraction:
    """The simplest number strictly between ``low`` and ``high`` (None: unbounded on that side); ``low < high``.

    Simplest means: an integer if one fits, the one nearest zero; else the fraction with the smallest power of
    two as its denominator (there is just one, since the interval then lies between two integers).
    """
    if low is None and high is None:
        return Fraction(0)
    if low is None:
        return Fraction(0) if high > 0 else Fraction(ceil(high) - 1)
    if high is None:
        return Fraction(0) if low < 0 else Fraction(floor(low) + 1)
    if low < 0 < high:
        return Fraction(0)
    if low >= 0 and floor(low) + 1 < high:
        return Fraction(floor(low) + 1)
    if high <= 0 and ceil(high) - 1 > low:
        return Fraction(ceil(high) - 1)
    d = 2
    while True:
        n = floor(low * d) + 1
        if Fraction(n, d) < high:
            return Fraction(n, d)
        d *= 2


def format_number(x: Fraction) -> str:
    """``3``, ``-1/2``, ``3/4``: as CGSuite writes numbers."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def number_temperature(x: Fraction) -> Fraction:
    """A number's temperature as CGSuite gives it: -1 for an integer, -1/2^k for m/2^k (m odd)."""
    return Fraction(-1, x.denominator)
