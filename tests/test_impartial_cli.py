"""``gamedp nimber`` and ``gamedp grundy`` through the real command line, including every bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def gamedp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gamedp", *args], capture_output=True, text=True, timeout=120)


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
