"""Toads-and-Frogs, Hackenbush and impartial games valued through Game.options, checked from the rules."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgt_oracle import equal, tree_of
from gamedp.cgt.search import value
from gamedp.errors import InputError
from gamedp.games.hackenbush import Hackenbush
from gamedp.games.placement import Cram
from gamedp.games.toads_frogs import ToadsAndFrogs
from gamedp.games.impartial.nim import Nim
from gamedp.solvers.grundy import nimber


def strip_moves(strip: str, left: bool) -> list[str]:
    """Toads (Left) step right into an empty square or jump one frog; frogs the same leftwards, over a toad."""
    me, other, d = ("T", "F", 1) if left else ("F", "T", -1)
    padded = "##" + strip + "##"  # '#' off the strip: never empty, never jumped
    out = []
    for i in range(2, len(strip) + 2):
        if padded[i] != me:
            continue
        if padded[i + d] == ".":
            to = i + d
        elif padded[i + d] == other and padded[i + 2 * d] == ".":
            to = i + 2 * d
        else:
            continue
        s = list(padded)
        s[i], s[to] = ".", me
        out.append("".join(s)[2:-2])
    return out


@lru_cache(maxsize=None)
def strip_tree(strip: str):
    return tuple(tuple(strip_tree(s) for s in strip_moves(strip, side)) for side in (True, False))


@lru_cache(maxsize=None)
def mover_wins(strip: str, left: bool) -> bool:
    return any(not mover_wins(s, not left) for s in strip_moves(strip, left))


strips = st.text(alphabet="TF..", min_size=1, max_size=7)


@settings(max_examples=150, deadline=None)
@given(strips)
@pytest.mark.slow
def test_toads_and_frogs_against_the_rules(strip):
    v = value(ToadsAndFrogs(), strip + ":T")
    assert equal(tree_of(v), strip_tree(strip))
    expected = {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}
    assert v.outcome == expected[mover_wins(strip, True), mover_wins(strip, False)]
    mirrored = strip[::-1].translate(str.maketrans("TF", "FT"))
    assert value(ToadsAndFrogs(), mirrored) == -v  # the mirror swaps the sides


@pytest.mark.parametrize("strip, name", [("TFTF.", "0"), ("TF.TF", "0"), ("TFT.F", "*"), ("T.TFF", "↑")])
def test_winning_ways_toads_and_frogs(strip, name):
    assert str(value(ToadsAndFrogs(), strip)) == name


def berlekamp(stalk: str) -> Fraction:
    """Edges up to the first change of colour count 1 each; from there each counts half the one below."""
    total, weight, changed = Fraction(0), Fraction(1), False
    for k, edge in enumerate(stalk):
        if k and edge != stalk[0]:
            changed = True
        if changed:
            weight /= 2
        total += weight if edge == "B" else -weight
    return total


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="BR", max_size=12))
def test_hackenbush_strings_by_berlekamps_rule(stalk):
    v = value(Hackenbush(), stalk)
    assert v.is_number and v == berlekamp(stalk)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=3))
def test_an_impartial_games_value_is_its_nimber(heaps):
    game = Nim()
    position = tuple(sorted(h for h in heaps if h))
    expected = 0
    for h in position:
        expected ^= h
    assert str(value(game, position)) == ("0" if not expected else "*" if expected == 1 else f"*{expected}")


@pytest.mark.parametrize("rows, cols", [(2, 3), (3, 3), (2, 5), (1, 7)])
def test_cram_comes_out_as_its_nimber(rows, cols):
    from gamedp.cgt.values import GameValue

    game = Cram(rows, cols)
    assert value(game, 0) == GameValue.nimber(nimber(game, 0))


def test_bad_strips_say_where():
    with pytest.raises(InputError, match="column 3: unexpected 'X'"):
        ToadsAndFrogs().parse_position("TFX")
    with pytest.raises(InputError, match="column 2: unexpected 'G'"):
        Hackenbush().parse_position("BG")
