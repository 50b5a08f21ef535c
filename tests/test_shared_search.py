"""The exact-score search in several threads on one table (ScoreSearch(threads=N), `--threads N`): the same values
and remoteness as one thread, on the benchmark sets, in a table small enough to force replacements, and while
the table grows under searches running at once."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
import subprocess
import sys

import pytest

from gamedp.batch import answer_lines, score_reader
from gamedp.games.connect4 import Connect4
from gamedp.solvers import score_search
from gamedp.solvers.score_search import MIN_SLOTS, NODES, SLOT_BYTES, ScoreSearch
from output import without_compile_notices
from test_score_search import benchmark_sample, score_of

#: set -> positions checked, fewer than the one-thread test's: each is searched twice here
SAMPLES = {"Test_L3_R1": 30, "Test_L2_R1": 30, "Test_L1_R1": 30, "Test_L2_R2": 8, "Test_L1_R2": 4, "Test_L1_R3": 1}


@pytest.fixture
def helpers_early(monkeypatch):
    """Long-search paths (helpers, growth) taken after a few thousand positions, so that samples meet them."""
    monkeypatch.setattr(score_search, "QUICK", 1 << 12)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_two_threads_give_one_threads_values_on_every_benchmark_set(name, helpers_early):
    game = Connect4()
    one = ScoreSearch(game.score_search(), memory=64 << 20, progress=False, book=False)
    two = ScoreSearch(game.score_search(), memory=64 << 20, progress=False, book=False, threads=2)
    helped = 0
    for moves, expected in benchmark_sample(name, SAMPLES[name]):
        position = game.parse_position(moves)
        value = two.value(position)
        helped += two._searchers[1].watch[NODES]  # the helper's positions in this query (0 if it had none)
        assert value == one.value(position), moves
        assert score_of(value, len(moves)) == expected, moves
    if name != "Test_L3_R1":  # End-Easy's searches all end before a helper is called
        assert helped > 0


@pytest.mark.parametrize("threads", [2, 3])
def test_a_table_small_enough_to_force_replacements_gives_the_same_answers(threads, helpers_early):
    game = Connect4()
    smallest = MIN_SLOTS * SLOT_BYTES
    one = ScoreSearch(game.score_search(), memory=smallest, progress=False, book=False)
    many = ScoreSearch(game.score_search(), memory=smallest, progress=False, book=False, threads=threads)
    explored = 0
    for moves, _ in benchmark_sample("Test_L2_R2", 6) + benchmark_sample("Test_L1_R2", 3):
        position = game.parse_position(moves)
        assert many.value(position) == one.value(position), moves
        explored += many.explored
        assert many.outcome(position) == one.outcome(position), moves
    assert many.slots == MIN_SLOTS and explored > 10 * MIN_SLOTS  # far more positions than slots


def test_lines_searched_at_once_grow_the_table_and_keep_their_order(monkeypatch, helpers_early):
    """Two lines searched at once, each growing the table while the other searches (from 2^16 slots, doubling
    every 2^18 positions the searches explore); an error line among them keeps its place."""
    monkeypatch.setattr(score_search, "FIRST_SLOTS", MIN_SLOTS)
    game = Connect4()
    sample = benchmark_sample("Test_L1_R2", 6) + benchmark_sample("Test_L2_R2", 6)
    text = "".join(m + "\n" for m, _ in sample[:5]) + "8\n" + "".join(m + "\n" for m, _ in sample[5:])
    answers = {}
    for threads in (1, 2):
        reader = score_reader(game, game.score_search(), memory=16 << 20, progress=False, threads=threads)
        out, err = io.StringIO(), io.StringIO()
        assert answer_lines(reader, io.StringIO(text), out, err, threads=threads, stop=reader.stop) == 1
        assert err.getvalue().startswith("gamedp: error: line 6: ")
        answers[threads] = out.getvalue()
        assert reader.search.slots > MIN_SLOTS
    assert answers[2] == answers[1]
    rows = [line.split("\t") for line in answers[2].splitlines()]
    assert [r[0] for r in rows] == [m for m, _ in sample]


def test_the_value_command_with_two_threads_answers_as_with_one():
    sample = benchmark_sample("Test_L1_R1", 60)
    text = "".join(m + "\n" for m, _ in sample)
    outs = [subprocess.run([sys.executable, "-m", "gamedp", "value", "connect4", *extra], capture_output=True,
                           text=True, input=text, timeout=300) for extra in ([], ["--threads", "2"])]
    for out in outs:
        assert out.returncode == 0 and without_compile_notices(out.stderr) == "", out.stderr
    assert outs[1].stdout == outs[0].stdout and len(outs[0].stdout.splitlines()) == len(sample)


@pytest.mark.parametrize("argv, message", [
    (["value", "connect4", "--threads", "0"], "--threads"),
    (["value", "nim", "--threads", "2"], "--threads shares the search of a game searched one position at a time"),
    (["analyze", "nim", "3", "--threads", "2"], "--threads shares the search of a game searched one position"),
])
def test_bad_thread_counts_are_one_line_errors(argv, message):
    out = subprocess.run([sys.executable, "-m", "gamedp", *argv], capture_output=True, text=True, input="3\n",
                         timeout=120)
    assert out.returncode == 2, out
    lines = without_compile_notices(out.stderr).splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamedp: error: ") and message in lines[0], out.stderr


def test_analyze_with_two_threads_values_every_move_as_with_one():
    outs = [subprocess.run([sys.executable, "-m", "gamedp", "analyze", "connect4", "44444326555", "--json", *extra],
                           capture_output=True, text=True, timeout=300) for extra in ([], ["--threads", "2"])]
    assert outs[0].returncode == 0 and outs[1].stdout == outs[0].stdout, outs[1].stderr



@pytest.mark.slow
def test_positions_are_read_alike_from_several_threads():
    """Lines are read by the threads answering them, through the game's compiled reader."""
    game = Connect4()
    rules = game.score_search()
    lines = [m for m, _ in benchmark_sample("Test_L3_R1", 1000) + benchmark_sample("Test_L1_R1", 1000)] * 3
    with ThreadPoolExecutor(4) as pool:
        read = list(pool.map(rules.read_moves, lines, chunksize=1))
    assert read == [game.parse_position(m) for m in lines]
