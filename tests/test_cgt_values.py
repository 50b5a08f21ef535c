"""Canonical forms, sums, comparisons, notation, mean and temperature, checked against a plain search."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgt_oracle import add, equal, leq, neg, outcome, tree_of
from gamedp.cgt.values import parse
from gamedp.cgt.values import GameValue
from gamedp.errors import InputError

ZERO_TREE = ((), ())


def trees(depth: int = 3):
    """Random game trees of a few generations."""
    return st.recursive(st.just(ZERO_TREE),
                        lambda kids: st.tuples(st.lists(kids, max_size=2).map(tuple),
                                               st.lists(kids, max_size=2).map(tuple)),
                        max_leaves=6)


def value(t) -> GameValue:
    return GameValue.of([value(o) for o in t[0]], [value(o) for o in t[1]])


@settings(max_examples=150, deadline=None)
@given(trees(), trees())
def test_equal_and_leq_as_the_difference_game_says(g, h):
    vg, vh = value(g), value(h)
    assert (vg == vh) == equal(g, h)
    assert (vg <= vh) == leq(g, h)


@settings(max_examples=100, deadline=None)
@given(trees())
def test_the_canonical_form_equals_the_game_and_outcome_matches(g):
    v = value(g)
    assert equal(tree_of(v), g)
    assert v.outcome == outcome((g,))
    assert value(neg(g)) == -v


@settings(max_examples=60, deadline=None)
@given(trees(), trees())
def test_sums(g, h):
    s = value(g) + value(h)
    assert equal(tree_of(s), add(g, h))
    assert s.mean == value(g).mean + value(h).mean  # the mean is additive


@settings(max_examples=100, deadline=None)
@given(trees())
def test_notation_reads_back(g):
    v = value(g)
    assert parse(str(v)) == v
    assert parse(v.braces) == v


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.just(()), lambda kids: st.lists(kids, max_size=3).map(tuple), max_leaves=8))
def test_an_impartial_game_is_its_nimber(options):
    def tree(opts):
        kids = tuple(tree(o) for o in opts)
        return (kids, kids)

    def mex(opts):
        seen = {mex(o) for o in opts}
        return next(k for k in range(len(seen) + 1) if k not in seen)

    assert value(tree(options)) == GameValue.nimber(mex(options))


@pytest.mark.parametrize("text, name, mean, temperature", [
    ("{1|-1}", "±1", 0, 1),
    ("{2|-1/2}", "{2|-1/2}", Fraction(3, 4), Fraction(5, 4)),
    ("{0|*}", "↑", 0, 0),
    ("{0,*|0}", "↑*", 0, 0),
    ("{0,*|0,*}", "*2", 0, 0),
    ("{{2|0}|0}", "Miny(2)", 0, 0),
    ("{0|1}", "1/2", Fraction(1, 2), Fraction(-1, 2)),
    ("{2|}", "3", 3, -1),
    ("{0||0|-2}", "Tiny(2)", 0, 0),
    ("{1,1*|-1,-1*}", "±{1,1*}", 0, 1),
    ("{3|1}", "{3|1}", 2, 1),
])
def test_known_values(text, name, mean, temperature):
    v = parse(text)
    assert (str(v), v.mean, v.temperature) == (name, mean, temperature)


def test_ups_and_stars_by_name():
    up = parse("↑")
    assert str(up + up + up) == "↑3" and str(-up) == "↓" and str(up + up + parse("*")) == "⇑*"
    assert str(up + 1) == "1↑" and parse("1↑") == up + 1 and parse("^3") == up + up + up and parse("↑ 3") - 3 == up
    assert parse("*2 + *3") == parse("*") and parse("^ + v") == 0 and parse("v3*") == -(up + up + up) + parse("*")


def number_tree(x: Fraction):
    """A number's tree from its definition: n = {n-1|}, -n = {|-n+1}, m/2^k = {x - 2^-k | x + 2^-k}."""
    if x.denominator > 1:
        step = Fraction(1, x.denominator)
        return ((number_tree(x - step),), (number_tree(x + step),))
    if x == 0:
        return ZERO_TREE
    return ((number_tree(x - 1),), ()) if x > 0 else ((), (number_tree(x + 1),))


STAR = ((ZERO_TREE,), (ZERO_TREE,))
UP = ((ZERO_TREE,), (STAR,))


def tiny(h):
    return ((ZERO_TREE,), (((ZERO_TREE,), (neg(h),)),))


def miny(h):
    return (((h,), (ZERO_TREE,)),), (ZERO_TREE,)


def switch(*lefts):
    return lefts, tuple(neg(o) for o in lefts)


def n(x) -> tuple:
    return number_tree(Fraction(x))


@pytest.mark.parametrize("name, tree", [
    ("Tiny(2)", tiny(n(2))),
    ("Miny(1/2)", miny(n("1/2"))),
    ("3Tiny(2)", add(n(3), tiny(n(2)))),
    ("-1Miny(1)", add(n(-1), miny(n(1)))),
    ("Tiny({3|1})", tiny(((n(3),), (n(1),)))),
    ("±1", switch(n(1))),
    ("±1/2", switch(n("1/2"))),
    ("±2", switch(n(2))),
    ("±(1*)", switch(add(n(1), STAR))),
    ("±{1,1*}", switch(n(1), add(n(1), STAR))),
    ("±{3|1}", add(switch(n(1)), switch(n(2)))),
    ("±(1Tiny(1))", switch(add(n(1), tiny(n(1))))),
    ("↑3*", add(add(UP, UP), add(UP, STAR))),
    ("-1/2↓*", add(n("-1/2"), neg(add(UP, STAR)))),
])
def test_names_are_printed_and_mean_their_definitions(name, tree):
    """Each name is printed for the game built from its definition, and reads back as a game that the plain
    search finds equal to it."""
    assert str(value(tree)) == name
    assert equal(tree_of(parse(name)), tree)


NAMED = st.sampled_from(["↑", "*", "*2", "±1", "1/2", "-3/4", "Tiny(1)", "Miny(2)", "{3|1}", "±{1,1*}",
                         "Tiny({3|1})", "±(1*)", "-2"])


@settings(max_examples=100, deadline=None)
@given(trees(depth=2), st.lists(NAMED, max_size=3))
def test_sums_with_names_read_back(g, names):
    v = value(g)
    for text in names:
        v += parse(text)
    assert parse(str(v)) == v
    assert parse(v.braces) == v


@pytest.mark.parametrize("text, column", [("{1|-1", 6), ("{1|-1}}", 7), ("1 + q", 5), ("{1,|2}", 4),
                                          ("1/3", 1), ("", 1), ("{1 2}", 5), ("±{1,2", 6),
                                          ("Tiny(", 6), ("3.↑", 2)])
def test_malformed_expressions_say_where(text, column):
    with pytest.raises(InputError, match=f"column {column}:"):
        parse(text)


def test_ups_and_stars_are_read_off_their_forms():
    """Every form met valuing some Domineering boards is n ups + *m exactly when it is one of those sums."""
    from gamedp.cgt import canonical as cf
    from gamedp.cgt.domineering import value_of_text
    from gamedp.cgt.notation import MOST_STARS, MOST_UPS, ups_and_star

    up = cf.make((cf.ZERO,), (cf.nimber(1),))
    sums = {}
    for sign, step in ((1, up), (-1, cf.negate(up))):
        g = cf.ZERO
        for n in range(1, MOST_UPS + 3):
            g = cf.add(g, step)
            for m in range(MOST_STARS + 2):
                if n <= MOST_UPS and m < MOST_STARS:
                    sums[cf.add(g, cf.nimber(m))] = (sign * n, m)
    for board in ("3x4", "2x6", "#..../...../....#"):
        value_of_text(board)
    assert len(sums) == 2 * MOST_UPS * MOST_STARS
    assert {g: ups_and_star(g) for g in range(len(cf.left)) if ups_and_star(g)} == sums


def test_numbers_mix_in_and_other_things_are_refused():
    from fractions import Fraction

    assert parse("*") + 1 == parse("1*") and parse("*") + Fraction(1, 2) == parse("1/2*")
    for wrong in (True, 0.5, "1"):
        with pytest.raises(TypeError, match="as a game value"):
            parse("*") + wrong
    with pytest.raises(ValueError, match="not a dyadic rational"):
        parse("*") + Fraction(1, 3)
