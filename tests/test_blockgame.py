"""BLOCKGAME: the judge, the compiled memo search and the strong-solve tables against the brute force.

The brute force (tests/test_placement.py) knows nothing of bitboards, symmetry or dead cells. Boards are drawn
mostly full so that it stays quick; the empty and nearly empty boards are checked through the counts the
tables must agree on and through the official sample.
"""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from command import gamedp
from data import SAMPLES
from test_placement import BLOCKGAME_SHAPES, Brute, random_board

from gamedp.games.placement import blockgame_rules, blockgame_table_spec
from gamedp.games.placement_search import MemoSearch, wins
from gamedp.games.placement_table import TableSpec
from gamedp.judge.blockgame import run

FILLS = (1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.6)
_BRUTES: dict[tuple[int, int], Brute] = {}


def boards_5x5(count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [random_board(rng, 25, rng.choice(FILLS)) for _ in range(count)]


def brute(board: int, rows: int = 5, cols: int = 5) -> tuple[bool, int]:
    if (rows, cols) not in _BRUTES:
        _BRUTES[rows, cols] = Brute([BLOCKGAME_SHAPES], rows, cols)
    return _BRUTES[rows, cols].value(board)


def rows_of(board: int, rows: int, cols: int) -> list[str]:
    return ["".join("#" if board >> (r * cols + c) & 1 else "." for c in range(cols)) for r in range(rows)]


def judge_text(boards: list[int]) -> str:
    lines = [str(len(boards))] + [row for b in boards for row in rows_of(b, 5, 5)]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def table_5x5():
    spec = blockgame_table_spec()
    bits, rem = spec.solve_bits(remoteness=True)
    return spec, bits, rem


def bit(bits, i: int) -> bool:
    return bool(bits[i >> 3] >> (i & 7) & 1)


# -- the judge ------------------------------------------------------------------------------------------------
def test_official_sample_byte_for_byte():
    sample_in = (SAMPLES / "blockgame-sample.in").read_text()
    want = (SAMPLES / "blockgame-sample.out").read_text()
    assert run(sample_in) == want.rstrip("\n") + "\n"
    out = gamedp("judge", "blockgame", stdin=sample_in, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout == want.rstrip("\n") + "\n"


def test_judge_many_cases_against_brute_force():
    boards = boards_5x5(400, seed=7)
    got = run(judge_text(boards)).split()
    assert got == ["WINNING" if brute(b)[0] else "LOSING" for b in boards]


def test_judge_takes_the_table_path_too(table_5x5):
    spec, bits, _ = table_5x5
    boards = [0, 1 << 12, (1 << 3) | (1 << 20)] + boards_5x5(60, seed=11)  # nearly empty boards: whole table
    got = wins(blockgame_rules(), boards)
    assert list(got) == [bit(bits, spec.index(b)) for b in boards]
    assert [bool(x) for x in got[3:]] == [brute(b)[0] for b in boards[3:]]


BAD_INPUTS = [
    ("", "line 1", "the input is empty"),
    ("two\n", "line 1", "number of cases"),
    ("\u0661\n.....\n.....\n.....\n.....\n.....\n", "line 1", "digits 0-9"),   # Arabic-Indic 1, int() reads it
    ("\u00b2\n", "line 1", "digits 0-9"),                                          # int() raises on it
    ("9" * 5000 + "\n", "line 1", "5000 digits"),                                    # past int()'s digit limit
    ("1\n.....\n.....\n..x..\n.....\n.....\n", "line 4, column 3", "'x'"),
    ("1\n.....\n....\n.....\n.....\n.....\n", "line 3", "5 characters"),
    ("1\n.....\n.....\n.....\n.....\n......\n", "line 6", "5 characters"),
    ("2\n.....\n.....\n.....\n.....\n.....\n", "line 7", "says 2 cases"),
    ("1\n.....\n.....\n.....\n", "line 5", "says 1 cases"),
    ("1\n.....\n.....\n.....\n.....\n.....\n#####\n", "line 7", "says 1 cases"),
]


@pytest.mark.parametrize("text, where, what", BAD_INPUTS)
def test_bad_input_is_one_clear_line(text, where, what):
    out = gamedp("judge", "blockgame", stdin=text, timeout=300)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamedp: error:"), out.stderr
    assert where in lines[0] and what in lines[0]


def test_zero_cases_print_nothing():
    assert run("0\n") == ""


# -- the compiled memo search -------------------------------------------------------------------------------
@pytest.mark.slow
def test_memo_search_against_brute_force():
    boards = boards_5x5(10_000, seed=1)
    search = MemoSearch(blockgame_rules())
    got = search.wins(boards)
    assert [bool(x) for x in got] == [brute(b)[0] for b in boards]
    assert search.states > 0


def test_memo_search_grows_its_table():
    search = MemoSearch(blockgame_rules(), capacity=16)
    boards = boards_5x5(50, seed=2)
    assert [bool(x) for x in search.wins(boards)] == [brute(b)[0] for b in boards]
    assert search.capacity > 16


@pytest.mark.parametrize("rows, cols", [(3, 4), (4, 4), (4, 5), (2, 2), (2, 3), (1, 5)])
@pytest.mark.slow
def test_other_sizes_against_brute_force(rows, cols):
    """Boards too small for 6 lanes (2 x 2 has room for one) take the same kernels with fewer boards a word."""
    rules = blockgame_rules(rows, cols)
    spec = blockgame_table_spec(rows, cols)
    bits, rem = spec.solve_bits(remoteness=True)
    plain_bits, _ = spec.solve_bits()
    assert np.array_equal(bits, plain_bits)
    rng = random.Random(rows * cols)
    n = rows * cols
    fills = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0) if n < 20 else (0.35, 0.5, 0.7, 0.9, 1.0)  # 4 x 5 from empty: 2**20
    boards = [random_board(rng, n, rng.choice(fills)) for _ in range(2000 if n < 20 else 800)]
    memo = MemoSearch(rules).wins(boards)
    for b, m in zip(boards, memo):
        won, r = brute(b, rows, cols)
        i = spec.index(b)
        assert (bit(bits, i), int(rem[i]), bool(m)) == (won, r, won)


def test_sparse_6x6_against_brute_force():
    rules = blockgame_rules(6, 6)
    rng = random.Random(66)
    boards = [random_board(rng, 36, rng.choice((0.9, 0.8, 0.75, 0.7))) for _ in range(1000)] + [(1 << 36) - 1]
    got = MemoSearch(rules).wins(boards)
    assert [bool(x) for x in got] == [brute(b, 6, 6)[0] for b in boards]
    assert list(wins(rules, boards[:20])) == list(got[:20])


# -- the strong solve -----------------------------------------------------------------------------------------
@pytest.mark.slow
def test_table_against_brute_force(table_5x5):
    spec, bits, rem = table_5x5
    for b in boards_5x5(10_000, seed=5) + [(1 << 25) - 1]:
        won, r = brute(b)
        i = spec.index(b)
        assert (bit(bits, i), int(rem[i])) == (won, r)


def test_table_without_remoteness_is_the_same(table_5x5):
    spec, bits, rem = table_5x5
    plain, none = spec.solve_bits()
    assert none is None and np.array_equal(plain, bits)
    assert np.array_equal(np.unpackbits(bits, bitorder="little"), rem & 1)  # odd remoteness = WIN


def test_table_spec_interface(table_5x5):
    spec, bits, rem = table_5x5
    assert spec.game_id == "placement" and spec.size == 1 << 25
    import json

    assert json.loads(json.dumps(spec.variant)) == spec.variant
    rng = random.Random(9)
    for _ in range(1000):
        b = rng.randrange(1 << 25)
        assert spec.position(spec.index(b)) == b
        assert spec.index(spec.position(b)) == b
    codes, r = spec.solve_table(remoteness=False)
    assert r is None and codes.dtype == np.uint8 and len(codes) == spec.size // 4
    for i in [0, 1, 2, 3, 5, 12345, spec.size - 1] + [rng.randrange(spec.size) for _ in range(200)]:
        assert codes[i // 4] >> (2 * (i % 4)) & 3 == int(bit(bits, i))


def test_strong_solve_counts(table_5x5):
    """The empty board is lost in 12 (the sample says LOSING), and the counts add up."""
    spec, bits, rem = table_5x5
    assert int(rem[spec.index(0)]) == 12
    counts = np.bincount(rem)
    assert counts.sum() == 1 << 25 and counts[1::2].sum() == int(np.unpackbits(bits).sum())


def test_analysis_of_every_placement():
    from gamedp.games.placement import Blockgame
    from gamedp.values import LOSE, WIN

    game = Blockgame()
    for b in boards_5x5(30, seed=13):
        analysis = game.analyze(b)
        won, r = brute(b)
        assert (analysis.value.outcome, analysis.value.remoteness) == (WIN if won else LOSE, r)
        assert len(analysis.moves) == sum(1 for m in game.rules.placements[0] if m & b == 0)
        ranks = [mv.value.rank() for mv in analysis.moves]
        assert ranks == sorted(ranks, reverse=True)
        for mv in analysis.moves:
            child_won, child_r = brute(mv.child)
            assert (mv.value.outcome, mv.value.remoteness) == (LOSE if child_won else WIN, child_r + 1)


def test_table_refuses_what_it_cannot_hold():
    from gamedp.errors import GamedpError
    from gamedp.games.placement import Domineering

    with pytest.raises(GamedpError):
        blockgame_table_spec(6, 6)
    with pytest.raises(GamedpError):
        TableSpec(Domineering(3, 3).rules)


def test_strong_solve_command_prints_the_table():
    out = subprocess.run([sys.executable, "-m", "gamedp.games.placement", "-r", "3", "4"], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    spec = blockgame_table_spec(3, 4)
    _, rem = spec.solve_bits(remoteness=True)
    lines = out.stdout.splitlines()
    assert lines[1].split() == ["WIN", f"{int(np.count_nonzero(rem & 1)):,}"]
    assert "remoteness" in out.stdout
