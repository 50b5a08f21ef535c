"""``gamedp cards``: the card game on a row given on the command line, through the real CLI."""

from __future__ import annotations

import json
import random

import pytest

from command import gamedp
from test_cards import brute_margin, brute_total


@pytest.mark.parametrize("rule,take,discard", [("ends", 1, 0), ("discard2", 1, 2), ("upto-3", 3, 0)])
def test_json_answer_matches_brute_force(rule, take, discard):
    rng = random.Random(len(rule))
    row = [rng.randint(-20, 20) for _ in range(7)]
    done = gamedp("cards", *map(str, row), "--rule", rule, "--line", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    margin = brute_margin(tuple(row), take, discard)
    assert answer["margin"] == margin
    assert answer["value"] == (brute_total(tuple(row), take) if discard == 0 else margin)
    assert answer["best_move"] == answer["moves"][0]["move"] and answer["moves"][0]["margin"] == margin
    signed = sum(step["scored"] * (1 if step["player"] == 1 else -1) for step in answer["line"])
    assert signed == margin


def test_text_output_and_stdin_row():
    done = gamedp("cards", "-", "--output", "margin", stdin="1 2\n5 2\n")
    assert done.returncode == 0 and "first player's margin (first minus second): 2" in done.stdout


@pytest.mark.parametrize("args,stdin,needle", [
    (["1", "x"], "", "'x' is not an integer"),
    (["-"], "1 2\n3 y\n", "line 2"),
    (["1", "2", "--rule", "sideways"], "", "unknown rule"),
    (["1", "2", "--rule", "discard2", "--output", "total"], "", "ask for the margin"),
    ([str(2**62), "1"], "", "overflow"),
])
def test_bad_input_one_line_exit_2(args, stdin, needle):
    done = gamedp("cards", *args, stdin=stdin)
    assert done.returncode == 2 and done.stdout == ""
    err = done.stderr.strip()
    assert err.startswith("gamedp: error:") and "\n" not in err and needle in err, err
