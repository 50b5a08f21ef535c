"""Take-from-the-ends card games: the interval engine, the Game classes and the Baekjoon 11062 judge, checked
against brute force written here from the rules alone (plain recursion, no memo, no gamedp code)."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys

import numpy as np
import pytest
from command import gamedp, gamedp_within
from data import SAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st

from gamedp.errors import GamedpError
from gamedp.games.cards import Cards, CardsDiscard, CardsPosition, CardsUpTo3
from gamedp.judge import cardgame
from gamedp.solvers.interval import IntervalSolver, Rule, batch_margins, parse_rule
from gamedp.solvers.memo import solve
from judge_paths import assert_paths_agree

# The official sample, written out as a reader sees it (checked equal to the copy in examples/ below).
SAMPLE_IN, SAMPLE_OUT = "2\n4\n1 2 5 2\n9\n1 1 1 1 2 2 2 2 2\n", "6\n8\n"
# (take, discard): the three rule families, plus a mix of both
RULES = [(1, 0), (1, 2), (2, 0), (3, 0), (2, 3)]


# -- brute force, straight from the rules ----------------------------------------------------------------------
def brute_moves(cards: tuple, take: int, discard: int) -> list[tuple[str, int, bool, tuple, int]]:
    """(side, count, scored, cards left, points) for every legal move."""
    out = []
    for t in range(1, take + 1):
        if t <= len(cards):
            out.append(("L", t, True, cards[t:], sum(cards[:t])))
            out.append(("R", t, True, cards[:len(cards) - t], sum(cards[len(cards) - t:])))
    if discard and discard <= len(cards):
        out.append(("L", discard, False, cards[discard:], 0))
        out.append(("R", discard, False, cards[:len(cards) - discard], 0))
    return out


def brute_margin(cards: tuple, take: int, discard: int) -> int:
    """The mover's best final margin, by trying every line of play."""
    if not cards:
        return 0
    return max(points - brute_margin(rest, take, discard) for *_, rest, points in brute_moves(cards, take, discard))


def brute_total(cards: tuple, take: int) -> int:
    """The mover's best total when every card is scored: what is left is worth the rest minus the opponent's."""
    if not cards:
        return 0
    best = None
    for t in range(1, min(take, len(cards)) + 1):
        for mine, rest in ((cards[:t], cards[t:]), (cards[len(cards) - t:], cards[:len(cards) - t])):
            total = sum(mine) + sum(rest) - brute_total(rest, take)
            best = total if best is None or total > best else best
    return best


def random_rows(count: int, longest: int, seed: int, low: int = -9, high: int = 9) -> list[tuple]:
    rng = random.Random(seed)
    return [tuple(rng.randint(low, high) for _ in range(rng.randint(0, longest))) for _ in range(count)]


def longest_for(take: int, discard: int) -> int:
    return 6 if take <= 2 else 5  # keeps the plain recursion to seconds


# -- the engine against brute force ---------------------------------------------------------------------------
@pytest.mark.parametrize("take,discard", RULES)
@pytest.mark.slow
def test_margins_match_brute_force_on_ten_thousand_rows(take, discard):
    rows = random_rows(10_000, longest_for(take, discard), seed=take * 10 + discard)
    values = np.array([v for row in rows for v in row], dtype=np.int64)
    bounds = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([len(r) for r in rows], out=bounds[1:])
    got = batch_margins(values, bounds, Rule(take, discard))
    # one batch call: a row must not be affected by the rows before it (the kernel reuses its buffers)
    expected = [brute_margin(row, take, discard) for row in rows]
    assert got.tolist() == expected


@pytest.mark.parametrize("take,discard", RULES)
def test_moves_best_move_and_line_match_brute_force(take, discard):
    rule = Rule(take, discard)
    for row in random_rows(400, longest_for(take, discard), seed=100 + take * 10 + discard):
        solver = IntervalSolver(row, rule)
        value = brute_margin(row, take, discard)
        assert solver.value() == value
        moves = solver.moves()
        expected = sorted((points - brute_margin(rest, take, discard), side, count, scored)
                          for side, count, scored, rest, points in brute_moves(row, take, discard))
        assert sorted((v, m.side, m.count, m.scored) for m, v in moves) == expected
        assert [v for _, v in moves] == sorted((v for _, v in moves), reverse=True)
        if row:
            assert moves[0][1] == value and solver.best_move() == moves[0][0]
        else:
            assert solver.best_move() is None and solver.line() == []
        # the line: every move legal and optimal where it is played; the scores add up to the value
        cards, sign, margin = row, 1, 0
        for move, points in solver.line():
            options = {(s, c, sc): (rest, p) for s, c, sc, rest, p in brute_moves(cards, take, discard)}
            rest, p = options[(move.side, move.count, move.scored)]
            assert p == points and p - brute_margin(rest, take, discard) == brute_margin(cards, take, discard)
            cards, margin, sign = rest, margin + sign * p, -sign
        assert cards == () and margin == value


@pytest.mark.parametrize("take", [1, 2, 3])
def test_total_matches_brute_force(take):
    for row in random_rows(2000, longest_for(take, 0), seed=7 + take, low=-20, high=50):
        assert IntervalSolver(row, Rule(take)).total() == brute_total(row, take)


def test_sub_intervals_and_large_take():
    row = (5, -3, 8, 1, -7, 2)
    solver = IntervalSolver(row, Rule(100, 2))
    for lo in range(len(row) + 1):
        for hi in range(lo, len(row) + 1):
            assert solver.value(lo, hi) == brute_margin(row[lo:hi], len(row), 2)
            line = solver.line(lo, hi)
            assert sum(m.count for m, _ in line) == hi - lo
            assert sum(p * (-1) ** k for k, (_, p) in enumerate(line)) == solver.value(lo, hi)


def test_discard_rules_have_no_total():
    with pytest.raises(GamedpError, match="margin"):
        IntervalSolver([1, 2, 3], Rule(1, 2)).total()


def test_compiled_kernels_agree_with_a_plain_table_on_long_rows():
    """Rows long enough for the compiled kernels, against a plain O(N^2 k) table written here."""
    rng = random.Random(5)
    for take, discard in RULES:
        n = 220  # past PLAIN_WORK: the compiled kernels run
        row = [rng.randint(-10**9, 10**9) for _ in range(n)]
        f = [[0] * (n + 1) for _ in range(n + 1)]  # f[i][j]: mover's margin on row[i:j]
        for length in range(1, n + 1):
            for i in range(n - length + 1):
                j = i + length
                options = [sum(row[i:i + t]) - f[i + t][j] for t in range(1, min(take, length) + 1)]
                options += [sum(row[j - t:j]) - f[i][j - t] for t in range(1, min(take, length) + 1)]
                if discard and discard <= length:
                    options += [-f[i + discard][j], -f[i][j - discard]]
                f[i][j] = max(options)
        solver = IntervalSolver(row, Rule(take, discard))
        assert solver.value() == f[0][n]
        assert solver.value(7, 150) == f[7][150]
        cases = np.array(row + row[::-1], dtype=np.int64)
        got = batch_margins(cases, np.array([0, n, 2 * n]), Rule(take, discard))
        assert got[0] == f[0][n]
        # the line's scores add up to the value
        line = solver.line()
        assert sum(p * (1 if k % 2 == 0 else -1) for k, (_, p) in enumerate(line)) == f[0][n]


def test_exact_at_the_int64_bound_and_refused_beyond():
    n = 4
    edge = 2**61 // n
    row = [edge, -edge, edge - 1, -edge + 3]
    for take, discard in RULES:
        assert IntervalSolver(row, Rule(take, discard)).value() == brute_margin(tuple(row), take, discard)
    with pytest.raises(GamedpError, match="overflow"):
        IntervalSolver(row + [1], Rule())
    with pytest.raises(GamedpError, match="integers"):
        IntervalSolver([1, 2.5])


def test_rule_names_round_trip():
    for take, discard in RULES + [(7, 1)]:
        rule = Rule(take, discard)
        assert parse_rule(rule.name) == rule
    with pytest.raises(GamedpError):
        Rule(0)


# -- the Game classes and the generic memo engine ------------------------------------------------------------
@pytest.mark.parametrize("cls", [Cards, CardsDiscard, CardsUpTo3])
def test_memo_engine_agrees_with_interval_engine(cls):
    for row in random_rows(150, 6, seed=hash(cls.__name__) % 1000):
        game = cls(row)
        solution = solve(game)
        start = game.start()
        assert solution.value(start).score == game.solver().value()
        # the running lead is part of the value: a position after a move scores lead + the rest's margin
        for move in game.moves(start):
            child = game.do_move(start, move)
            assert solution.value(child).score == child.lead + game.solver(child).value(child.lo, child.hi)


def test_ends_solution_gives_the_memo_engines_values_and_analyses():
    """Under the ends rule the front ends use the interval engine: same values, remoteness included."""
    from gamedp.games.cards import EndsSolution
    from gamedp.solvers.memo import Solution

    rng = random.Random(9)
    for row in random_rows(120, 7, seed=9, low=-3, high=3):  # small values: many ties and zero margins
        game = Cards(row)
        fast, memo = EndsSolution(game), Solution(game)
        p = game.start()
        while True:
            assert fast.value(p) == memo.value(p)
            a, b = fast.analyze(p), memo.analyze(p)
            assert a.value == b.value
            assert sorted((str(m.move), m.child, m.value.rank()) for m in a.moves) == \
                sorted((str(m.move), m.child, m.value.rank()) for m in b.moves)
            if not a.moves:
                break
            p = rng.choice(a.moves).child
    assert not isinstance(CardsUpTo3().solution(), EndsSolution)  # other rules: the memo engine's remoteness


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-10**12, 10**12), max_size=12), st.data())
def test_notation_round_trips(row, data):
    lo = data.draw(st.integers(0, len(row)))
    hi = data.draw(st.integers(lo, len(row)))
    lead = data.draw(st.integers(-10**6, 10**6))
    p = CardsPosition(tuple(row), lo, hi, lead)
    game = Cards()
    assert game.parse_position(game.format_position(p)) == p


def test_notation_reads_plain_rows_and_refuses_nonsense():
    game = CardsUpTo3()
    assert game.parse_position("3, -1, 4") == CardsPosition((3, -1, 4), 0, 3, 0)
    assert game.parse_position("3 [-1 4] lead +2") == CardsPosition((3, -1, 4), 1, 3, 2)
    p = game.parse_position("[1 2 3 4]")
    assert [game.format_move(p, m) for m in game.moves(p)] == ["L", "R", "L2", "R2", "L3", "R3"]
    for bad in ("1 2.5", "[1 [2]", "1 ] 2 [", "x"):
        with pytest.raises(GamedpError):
            game.parse_position(bad)


def test_registered_games_load():
    from gamedp.loader import load_game

    for name in ("cards", "cards-discard2", "cards-upto3"):
        assert load_game(name).name == name


# -- the judge -----------------------------------------------------------------------------------------------


def test_official_sample_byte_for_byte():
    sample_in = (SAMPLES / "cardgame-sample.in").read_text()
    expected = (SAMPLES / "cardgame-sample.out").read_bytes()
    assert (sample_in, expected) == (SAMPLE_IN, SAMPLE_OUT.encode())
    assert cardgame.run(sample_in).encode() == expected
    done = gamedp("judge", "cardgame", stdin=sample_in.encode())
    assert done.returncode == 0 and done.stdout == expected


def judge_input(rows: list[list[int]]) -> str:
    return f"{len(rows)}\n" + "".join(f"{len(r)}\n{' '.join(map(str, r))}\n" for r in rows)


def test_judge_matches_brute_force_and_cases_are_independent():
    rng = random.Random(11062)
    rows = [[rng.randint(1, 10_000) for _ in range(rng.randint(1, 9))] for _ in range(300)]
    expected = [brute_total(tuple(r), 1) for r in rows]
    assert cardgame.run(judge_input(rows)).split() == list(map(str, expected))
    order = list(range(len(rows)))
    for seed in range(3):
        random.Random(seed).shuffle(order)
        got = cardgame.run(judge_input([rows[k] for k in order])).split()
        assert got == [str(expected[k]) for k in order]
    # a long case between short ones must not leak into them
    long_row = [rng.randint(1, 10_000) for _ in range(700)]
    alone = cardgame.run(judge_input([long_row])).split()
    mixed = cardgame.run(judge_input([rows[0], long_row, rows[1]])).split()
    assert mixed == [str(expected[0]), alone[0], str(expected[1])]


@pytest.mark.slow
def test_judge_under_numba_jit_reads_inputs_past_2000_bytes():
    """GAMEDP_JIT=1 takes numba's JIT kernels; the integer reader is compiled from 2000 bytes on, and a
    read-only view of the input must not be refused there."""
    rng = random.Random(7)
    rows = [[rng.randint(1, 10_000) for _ in range(rng.randint(1, 9))] for _ in range(300)]
    text = judge_input(rows)
    assert len(text) > 2000
    done = gamedp("judge", "cardgame", stdin=text, env={"GAMEDP_JIT": "1"}, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(brute_total(tuple(r), 1)) for r in rows]


def test_judge_beyond_the_judge_limits_negative_and_huge_values():
    rng = random.Random(3)
    rows = [[rng.randint(-10**9, 10**9) for _ in range(rng.randint(1, 8))] for _ in range(200)]
    assert cardgame.run(judge_input(rows)).split() == [str(brute_total(tuple(r), 1)) for r in rows]
    big = [[10**9] * 10_000]
    assert cardgame.run(judge_input(big)) == f"{10**9 * 5000}\n"
    # blank lines and CRLF line ends are fine
    assert cardgame.run("\r\n2\r\n\r\n2\r\n3 -4\r\n1\r\n7\r\n\r\n") == "3\n7\n"


@pytest.mark.parametrize("text,line", [
    ("2\n4\n1 2 5\n9\n1 1 1 1 2 2 2 2 2\n", 3),        # N disagrees with the values on its line
    ("1\n3\n1 2 3 4\n", 3),
    ("1\n4\n1 2 5 x\n", 3),                              # not integers
    ("1\n4\n1 2 5 2.5\n", 3),
    ("1\n2\n1 2-3\n", 3),
    ("1\n4\n1 2 5 1_0\n", 3),
    ("1\n2\n7 -\n", 3),
    ("1\n2\n7 \u00e9\n", 3),
    ("1\n2\n7\x1c8\n", 3),
    ("", 1),                                             # T missing
    ("0\n", 1),                                          # T out of range
    ("-3\n1\n5\n", 1),
    ("2 3\n", 1),
    ("2\n4\n1 2 5 2\n", 3),                             # a case (its N) missing
    ("1\n", 1),
    ("1\n0\n\n", 2),                                     # N out of range
    ("1\n100001\n1\n", 2),
    ("1\nfour\n1 2 3 4\n", 2),
    ("1\n2\n99999999999999999999 1\n", 3),              # beyond 64 bits
    ("1\n2\n2000000000000000000 1\n", 3),               # N * max|value| beyond 2**61: could overflow
    ("1\n1\n5\n6\n", 4),                                 # text after the last case
])
def test_judge_bad_input_one_line_exit_2(text, line):
    done = gamedp("judge", "cardgame", stdin=text)
    assert done.returncode == 2, done
    assert done.stdout == ""
    err = done.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err.startswith("gamedp: error: input, line ") and f"line {line}" in err, err


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-2**63 + 1, 2**63 - 1), min_size=1, max_size=40), st.data())
def test_integer_reader_and_writer_match_python(numbers, data):
    """The judge's reader and writer, plain and compiled, on random layouts: values and line numbers as int()
    sees them, and str() back."""
    from gamedp.aot import load_kernels
    from gamedp.kernels import interval

    seps = data.draw(st.lists(st.sampled_from([" ", "\n", "\t", "\r\n", "  \n\n", "\x0b", "\x0c"]),
                              min_size=len(numbers), max_size=len(numbers)))
    words = [data.draw(st.sampled_from([str(v), f"+{v}" if v >= 0 else str(v), f"{v:+d}"])) for v in numbers]
    text, lines = "", []
    for word, sep in zip(words, seps):
        lines.append(text.count("\n"))
        text += word + sep
    text = text.encode()
    for reader in (interval, load_kernels("gamedp.kernels.interval")):
        values = np.empty(len(text) // 2 + 1, dtype=np.int64)
        where = np.empty(len(text) // 2 + 1, dtype=np.int64)
        count = reader.read_integers(np.frombuffer(text, dtype=np.uint8), values, where)
        assert count == len(numbers)
        assert values[:count].tolist() == numbers and where[:count].tolist() == lines
        out = np.empty(21 * count, dtype=np.uint8)
        written = reader.write_integers(values[:count], out)
        assert out[:written].tobytes().decode() == "".join(f"{v}\n" for v in numbers)
    too_big = np.frombuffer(b"1 2 9223372036854775808 4", dtype=np.uint8)
    assert interval.read_integers(too_big, np.empty(20, np.int64), np.empty(20, np.int64)) == -3


def test_judge_path_does_not_import_numba():
    text = judge_input([[1, 2, 3] * 200] * 3)  # big enough for the compiled kernel
    cardgame.run(text)  # builds the kernels into the cache if needed
    code = ("import sys; from gamedp.judge import cardgame; "
            f"out = cardgame.run({text!r}); print('numba' in sys.modules, len(out.split()))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "3"], done.stderr


def test_judge_path_imports_neither_numpy_nor_numba():
    from gamedp.native import load_native

    assert load_native("gamedp.kernels.cardgame_judge") is not None  # built into the cache if needed
    code = ("import sys; from gamedp.judge import cardgame; "
            f"out = cardgame.run({SAMPLE_IN!r}); print('numpy' in sys.modules, 'numba' in sys.modules, out.split())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "False", "['6',", "'8']"], done.stderr


def layouts(rows: list[list[int]], rng: random.Random) -> str:
    """A judge input with the liberties any reader must take: blank lines, CRLF, tabs, spaces, + signs."""
    def line(words: list[int]) -> str:
        gap = rng.choice([" ", " ", "\t", "  "])
        text = gap.join(f"+{w}" if w >= 0 and rng.random() < 0.05 else str(w) for w in words)
        return rng.choice(["", " ", "\t"]) * (rng.random() < 0.1) + text + rng.choice(["", " ", "\r"]) * (rng.random() < 0.2)
    lines = [line([len(rows)])]
    for row in rows:
        lines += [line([len(row)]), line(row)]
    lines = [x for piece in lines for x in ([piece, ""] if rng.random() < 0.05 else [piece])]
    return "\n".join(lines) + rng.choice(["\n", "", "\n\n"])


def mutate(text: str, rng: random.Random) -> str:
    """The text with one small slip: a character changed, dropped or added, or a line dropped or repeated."""
    lines = text.split("\n")
    kind = rng.randrange(5)
    if kind == 3 and len(lines) > 1:
        del lines[rng.randrange(len(lines))]
        return "\n".join(lines)
    if kind == 4:
        k = rng.randrange(len(lines))
        return "\n".join(lines[:k + 1] + lines[k:])
    at = rng.randrange(len(text) + 1)
    char = rng.choice("0123456789 \n-+x.\t\u00e9")
    if kind == 0:
        return text[:at] + char + text[at:]
    if kind == 1:
        return text[:at] + text[at + 1:]
    return text[:at] + char + text[at + 1:]


def test_native_reader_accepts_exactly_what_the_checked_reader_accepts():
    """On well-formed inputs with varied layouts, and on slips of them (see judge_paths)."""
    rng = random.Random(28)

    def cases():
        for trial in range(1500):
            low, high = rng.choice([(1, 10_000), (-9, 9), (-10**9, 10**9), (-2**61, 2**61)])
            rows = [[rng.randint(low, high) for _ in range(rng.randint(1, 12))] for _ in range(rng.randint(1, 5))]
            text = layouts(rows, rng)
            slip = trial % 2 == 1
            yield (mutate(text, rng) if slip else text).encode(), not slip and high <= 2**61 // 12

    accepted, refused = assert_paths_agree(cases(), cardgame._native_run, lambda d: cardgame.checked_run(d.decode()))
    assert accepted > 700 and refused > 300


@pytest.mark.slow
def test_without_a_c_compiler_the_judge_answers_by_the_checked_path(tmp_path):
    env = {**os.environ, "GAMEDP_CACHE_DIR": str(tmp_path), "CC": str(tmp_path / "no-such-compiler")}
    for first in (True, False):  # the second run finds the failure remembered: no build, no warning
        done = gamedp("judge", "cardgame", stdin=SAMPLE_IN, env=env)
        assert (done.returncode, done.stdout) == (0, SAMPLE_OUT)
        assert ("could not build the native kernels" in done.stderr) == first
        assert ("compiling the native kernels" in done.stderr) == first and done.stderr.count("\n") == 2 * first
    failed = list(tmp_path.glob("kernels/*/libcardgame_judge.failed"))
    assert len(failed) == 1 and "no-such-compiler" in failed[0].read_text()
    assert not list(tmp_path.glob("kernels/*/*.so"))


@pytest.mark.slow
def test_a_first_run_on_a_terminal_says_it_is_compiling(tmp_path):
    """A person at a terminal is told why the first run waits, on one line that ends with the time it took,
    before the answer (a pipe gets the same line: see the tests above)."""
    import pexpect

    child = pexpect.spawn(sys.executable, ["-m", "gamedp", "judge", "cardgame"], timeout=300, echo=False,
                          env={**os.environ, "GAMEDP_CACHE_DIR": str(tmp_path)})
    for line in SAMPLE_IN.splitlines():
        child.sendline(line)
    child.sendeof()
    child.expect("compiling the native kernels of gamedp.kernels.cardgame_judge for this machine, once")
    child.expect(pexpect.EOF)
    assert re.search(rb"\(usually \d+-\d+ s\)\.\.\. done in \d+\.\d s\r\n" + re.escape(
        SAMPLE_OUT.replace("\n", "\r\n").encode()) + rb"$", child.before), child.before




@pytest.mark.parametrize("data, says", [(bytes(100 << 20), b"line 1: the line is longer than"),
                                        (b"1\n" * (50 << 20), b"line 4: unexpected text after the last case")])
def test_the_input_is_read_a_case_at_a_time_and_no_further_than_t(data, says):
    """1.5 GB of zero bytes took 13.8 GB and 100 s: now a line longer than any line of cards is refused when
    that much is read, and text after the T cases where it starts, in 300 MB of address space."""
    r = gamedp_within(300 << 20, "judge", "cardgame", stdin=data)
    assert r.returncode == 2 and says in r.stderr and r.stderr.count(b"\n") == 1, r.stderr[-300:]


def test_cases_are_answered_in_batches_with_their_own_line_numbers(monkeypatch):
    """Inputs longer than a batch are read a batch at a time: the answers are those of the whole, and an error
    in a later batch names its line in the whole input. (Inputs up to WHOLE bytes are answered whole: here it is
    made small, so that batches follow the first bytes read, which end inside a line.)"""
    from gamedp.judge import cardgame as module
    from gamedp.judge.cardgame import BATCH

    monkeypatch.setattr(module, "WHOLE", 1001)
    cases = 3 * BATCH // 10  # 10 bytes a case: more than three batches
    text = f"{cases}\n" + "\n".join(f"4\n{k % 9 + 1} 2 5 2" for k in range(cases)) + "\n"
    alone = [cardgame.run(f"1\n4\n{first} 2 5 2\n") for first in range(1, 10)]
    assert cardgame.run(text) == "".join(alone[k % 9] for k in range(cases))
    with pytest.raises(GamedpError, match=rf"line {2 * cases + 1}: N is 4 \(line {2 * cases}\) but this line has 3"):
        cardgame.run(text[:-len("2\n")] + "\n")


def test_an_input_of_at_most_whole_bytes_is_answered_whole(monkeypatch):
    """300,000 cases of 1-3 cards (3.5 MB) took three times as long checked line by line in Python, batch by batch,
    as read whole by the native reader; an input that fits in WHOLE bytes skips the batches."""
    from gamedp.judge import cardgame as module

    def batches(stream):
        raise AssertionError("a small input went through the batches")

    monkeypatch.setattr(module, "_batches", batches)
    assert cardgame.run(SAMPLE_IN) == SAMPLE_OUT
    monkeypatch.setattr(module, "WHOLE", len(SAMPLE_IN) - 1)
    with pytest.raises(AssertionError, match="went through the batches"):
        cardgame.run(SAMPLE_IN)
