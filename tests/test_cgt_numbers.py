"""gamedp's dyadic rationals against Python's Fractions, and the simplest number between two others against its
definition."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamedp.cgt.numbers import Dyadic, simplest_between

dyadics = st.builds(lambda m, k: (Dyadic(m, k), Fraction(m, 1 << k)), st.integers(-10 ** 6, 10 ** 6),
                    st.integers(0, 70))


@settings(max_examples=400, deadline=None)
@given(dyadics, dyadics, st.integers(-50, 50))
def test_arithmetic_and_order_as_fractions_have_them(a, b, n):
    (x, fx), (y, fy) = a, b
    for got, want in ((x + y, fx + fy), (x - y, fx - fy), (x * y, fx * fy), (-x, -fx), (abs(x), abs(fx)),
                      (x + n, fx + n), (n - x, n - fx), (x * n, fx * n)):
        assert got == want and hash(got) == hash(want)
        assert (got.numerator, got.denominator) == (want.numerator, want.denominator)  # kept reduced
    assert [x < y, x <= y, x == y, x >= y, x > y] == [fx < fy, fx <= fy, fx == fy, fx >= fy, fx > fy]
    assert [x < n, x == n, x > n] == [fx < n, fx == n, fx > n]
    assert (math.floor(x), math.ceil(x), float(x), bool(x)) == (math.floor(fx), math.ceil(fx), float(fx), bool(fx))
    assert x.as_fraction() == fx and Dyadic.of(fx) == x and str(x) == str(fx)
    if fy:
        quotient = fx / fy
        if quotient.denominator & (quotient.denominator - 1):
            with pytest.raises(ValueError, match="not a dyadic rational"):
                x / y
        else:
            assert x / y == quotient


@pytest.mark.parametrize("text, want", [("3", Fraction(3)), ("-3/4", Fraction(-3, 4)), ("6/8", Fraction(3, 4)),
                                        ("0.125", Fraction(1, 8)), ("-2.5", Fraction(-5, 2)), (" 7 ", Fraction(7))])
def test_read_from_text(text, want):
    assert Dyadic.of(text) == want


@pytest.mark.parametrize("text, message", [("1/3", "not a dyadic rational"), ("0.1", "not a dyadic rational"),
                                           ("1/0", "denominator is 0"), ("1/2.5", "not a number"),
                                           ("", "not a number"), ("½", "not a number"), ("1e3", "not a number")])
def test_text_that_is_no_dyadic_rational_is_refused(text, message):
    with pytest.raises(ValueError, match=message):
        Dyadic.of(text)


small = st.builds(lambda m: Dyadic(m, 4), st.integers(-64, 64))  # -4 ... 4 in steps of 1/16


def born_by_day():
    """The numbers born on day 0, 1, 2, ... (Winning Ways ch. 1): each day, one beyond either end and one between
    each two neighbours of the days before. Yields each day's new numbers."""
    known = [Fraction(0)]
    yield known
    while True:
        new = [known[0] - 1, known[-1] + 1] + [(a + b) / 2 for a, b in zip(known, known[1:])]
        known = sorted(known + new)
        yield new


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.none(), small), st.one_of(st.none(), small))
def test_simplest_between_is_the_first_number_born_in_between(low, high):
    if low is not None and high is not None and not low < high:
        return
    got = simplest_between(low, high)
    for new in born_by_day():
        inside = [x for x in new if (low is None or low < x) and (high is None or x < high)]
        if inside:
            assert inside == [got.as_fraction()]
            return
