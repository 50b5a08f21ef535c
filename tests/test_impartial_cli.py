"""``gamedp nimber`` and ``gamedp grundy`` through the real command line, including every bad input."""

from __future__ import annotations

import json

import pytest
from command import gamedp


def plain_nim_sum(heaps):
    total = 0
    for h in heaps:
        total ^= h
    return total


def test_nim_position_nimber_and_moves():
    r = gamedp("nimber", "nim", "3", "4", "5")
    assert r.returncode == 0, r.stderr
    assert "nimber: 2 = 3 ^ 4 ^ 5" in r.stdout
    assert "winning moves: 3 -> 1" in r.stdout
    out = json.loads(gamedp("nimber", "nim", "3 4 5", "--json").stdout)
    assert out["nimber"] == plain_nim_sum([3, 4, 5]) and out["winning_moves"] == ["3 -> 1"]
    assert out["outcome"] == "win"


def test_misere_and_judge_style_subtraction():
    out = json.loads(gamedp("nimber", "nim", "1 1 1", "--misere", "--json").stdout)
    assert out["outcome"] == "lose" and out["winning_moves"] == []
    # take 1, 3 or 4 stones: 7 is lost when the last to take wins; with the last to take losing, 8 is lost
    assert json.loads(gamedp("nimber", "subtraction:1,3,4", "7", "--json").stdout)["outcome"] == "lose"
    assert json.loads(gamedp("nimber", "subtraction:1,3,4", "8", "--misere", "--json").stdout)["outcome"] == "lose"
    assert json.loads(gamedp("nimber", "subtraction:1,3,4", "7", "--misere", "--json").stdout)["outcome"] == "win"


def test_grundy_sequence_with_period():
    out = json.loads(gamedp("grundy", "kayles", "--upto", "100", "--json").stdout)
    assert out["values"][:8] == [0, 1, 2, 3, 1, 4, 3, 2] and len(out["values"]) == 101
    assert (out["period"], out["last_exception"]) == (12, 70)
    text = gamedp("grundy", "dawson", "--upto", "40").stdout
    assert "period 34" in text and "last exceptional heap 52" in text
    bare = gamedp("grundy", "subtraction:1,3,4", "--upto", "13", "--bare").stdout.split()
    assert bare == "0 1 0 1 2 3 2 0 1 0 1 2 3 2".split()


def test_wythoff_table():
    rows = json.loads(gamedp("grundy", "wythoff", "--upto", "5", "--json").stdout)["table"]
    assert rows[1][2] == 0 and rows[3][5] == 0 and rows[0] == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("args,words", [
    (("nimber", "nim", "3", "-1"), "negative"),
    (("nimber", "kayles", "3 -2"), "negative"),
    (("nimber", "nim", "3", "x"), "whole number"),
    (("nimber", "octal:0.8", "5"), "not octal"),
    (("nimber", "octal:077", "5"), "point"),
    (("nimber", "octal:1.7", "5"), "before the point"),
    (("nimber", "octal:0.7a", "5"), "octal digit"),
    (("grundy", "octal:", "--upto", "5"), "point"),
    (("nimber", "subtraction:", "5"), "empty"),
    (("nimber", "subtraction:0,2", "5"), "at least one stone"),
    (("grundy", "subtraction:allbut:x", "--upto", "5"), "whole number"),
    (("grundy", "kayles", "--upto", "-3"), "negative"),
    (("grundy", "kayles", "--upto", "ten"), "whole number"),
    (("grundy", "kayles", "--upto", "1e12"), "memory"),
    (("grundy", "octal:0.16", "--upto", "1e12"), "memory"),
    (("nimber", "octal:0.16", "1000000000000"), "memory"),
    (("grundy", "wythoff", "--upto", "1e7"), "memory"),
    (("nimber", "wythoff", "3 4 5"), "two heap sizes"),
    (("nimber", "chess", "3"), "unknown impartial family"),
    (("nimber", "kayles", "30 30", "--misere"), "direct search"),
])
def test_bad_input_is_one_clear_line_and_status_2(args, words):
    r = gamedp(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamedp: error:"), r.stderr
    assert words in lines[0]
    assert "Traceback" not in r.stderr


# -- analyze: a big sum of impartial games is valued through its nimbers -----------------------------------------
def plain_wins(heaps: tuple[int, ...], options, memo: dict) -> bool:
    """Does the mover win the sum of heaps, by a plain search of the rules (``options(n)``: what a heap of n can
    become, as tuples of heaps)? No nimbers involved."""
    key = tuple(sorted(h for h in heaps if h))
    if key not in memo:
        memo[key] = any(not plain_wins(key[:i] + key[i + 1:] + option, options, memo)
                        for i, h in enumerate(key) for option in options(h))
    return memo[key]


SMALL_SUMS = {
    "nim": (lambda n: [(k,) for k in range(n)], [(1, 2, 3), (2, 5, 7), (4, 4), (3, 6, 9, 12)]),
    "kayles": (lambda n: [(a, n - t - a) for t in (1, 2) for a in range(n - t + 1)], [(3, 4), (5, 7, 2), (8, 9)]),
    "subtraction:1,3,4": (lambda n: [(n - k,) for k in (1, 3, 4) if k <= n], [(7, 9), (5, 6, 10), (14,)]),
}


@pytest.mark.parametrize("family", sorted(SMALL_SUMS))
def test_nimber_analysis_agrees_with_a_plain_search_on_small_sums(family):
    from gamedp.games.impartial import family as load_family
    from gamedp.solvers.by_nimbers import NimberSolution

    options, positions = SMALL_SUMS[family]
    game, memo = load_family(family), {}
    solution = NimberSolution(game)
    for heaps in positions:
        position = game.parse_position(" ".join(map(str, heaps)))
        analysis = solution.analyze(position)
        assert (analysis.value.outcome.name == "WIN") == plain_wins(heaps, options, memo), heaps
        assert analysis.value.remoteness is None
        for mv in analysis.moves:  # a move wins exactly when it leaves the opponent lost
            assert (mv.value.outcome.name == "WIN") == (not plain_wins(mv.child, options, memo)), (heaps, mv.move)
        assert [mv.value.outcome.name for mv in analysis.moves] == sorted(
            (mv.value.outcome.name for mv in analysis.moves), key=lambda o: o != "WIN")


def test_analyze_values_a_big_nim_sum_at_once_and_says_remoteness_is_left_out():
    from gamedp.gamesman import REMOTENESS_UNKNOWN

    heaps = (40, 60, 80)
    out = gamedp("analyze", "nim", *map(str, heaps), timeout=20)
    assert out.returncode == 0, out.stderr
    assert f"WIN for the player to move, nimber *{plain_nim_sum(heaps)}" in out.stdout
    assert "remoteness" in out.stdout and "nimbers" in out.stdout
    doc = json.loads(gamedp("analyze", "nim", "40 60 80", "--json").stdout)
    winning = [m["moveName"] for m in doc["moves"] if m["moveValue"] == "win"]
    total = plain_nim_sum(heaps)
    assert winning == [f"{h} -> {h ^ total}" for h in heaps if h ^ total < h]
    assert doc["remoteness"] == REMOTENESS_UNKNOWN
    for m in doc["moves"]:
        child = [int(h) for h in m["position"].split()]
        assert (m["moveValue"] == "win") == (plain_nim_sum(child) == 0), m
    explained = gamedp("explain", "nim", "40", "60", "80")
    assert "you win" in explained.stdout and "longest" not in explained.stdout  # nothing is known of lengths
    small = json.loads(gamedp("analyze", "nim", "3 4 5", "--json").stdout)
    assert small["remoteness"] >= 0  # a quick search still gives remoteness
