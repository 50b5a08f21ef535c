"""`gamedp value connect4` with the lines other solvers use: an empty line is the empty board, and `--format pons`
reads and writes the benchmark sets' `MOVES SCORE` lines as Pascal Pons' solver does (its score checked where a
line gives one)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from command import gamedp, one_clear_error
from output import without_compile_notices

from gamedp.batch import answer_lines, score_reader
from gamedp.games.connect4 import Connect4
from gamedp.solvers.score_search import ScoreSearch
from test_score_search import benchmark_sample
from test_value_lines import long_searches_early, mixed_text  # noqa: F401 (a fixture)


def benchmark_lines() -> list[tuple[str, int]]:
    """End-Easy and Middle-Easy lines, quick to search."""
    return benchmark_sample("Test_L3_R1", 30) + benchmark_sample("Test_L2_R1", 30)


@pytest.mark.parametrize("scored", [False, True])
def test_pons_format_writes_the_benchmark_lines_as_the_sets_do(scored):
    """Fed the moves alone, or the sets' own lines (whose scores are then checked), the answers are the sets'
    lines, byte for byte."""
    sample = benchmark_lines()
    expected = "".join(f"{moves} {score}\n" for moves, score in sample)
    given = expected if scored else "".join(moves + "\n" for moves, _ in sample)
    out = gamedp("value", "connect4", "--format", "pons", stdin=given)
    assert (out.returncode, without_compile_notices(out.stderr)) == (0, ""), out.stderr
    assert out.stdout == expected


@pytest.mark.usefixtures("long_searches_early")
@pytest.mark.parametrize("threads", [1, 2])
def test_pons_lines_answered_by_the_compiled_kernel_are_those_answered_one_by_one(threads):
    """Plain move strings are answered many at a time in compiled code, their answers turned into scores; the
    other lines (boards drawn, bad lines, long searches) one by one."""
    text = mixed_text()
    game = Connect4()
    got, calls = [], []
    for compiled in (True, False):
        reader = score_reader(game, game.score_search(), progress=False, threads=threads, scores=True)
        reader.search.answer_lines = lambda *args, lines=reader.search.answer_lines: \
            calls.append(lines(*args)) or calls[-1]
        stream = io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8") if compiled else \
            io.StringIO(text, newline=None)
        both = io.StringIO()
        answer_lines(reader, stream, both, both, threads=threads, stop=reader.stop, scores=True)
        got.append(both.getvalue())
    assert got[0] == got[1] and got[0].count("gamedp: error: line ") == 9
    assert any(answers for _, _, answers in calls)


def test_pons_format_with_outcomes_only_writes_the_sign():
    """As Pons' solver's weak search (-w) does: 1, 0 or -1."""
    sample = benchmark_lines()
    out = gamedp("value", "connect4", "--format", "pons", "--outcomes-only",
                 stdin="".join(moves + "\n" for moves, _ in sample))
    assert out.returncode == 0, out.stderr
    assert out.stdout == "".join(f"{moves} {(score > 0) - (score < 0)}\n" for moves, score in sample)


def test_a_score_the_line_gives_wrongly_is_answered_and_reported():
    (moves, score), (other, other_score) = benchmark_sample("Test_L3_R1", 2)
    out = gamedp("value", "connect4", "--format", "pons", stdin=f"{moves} {score + 1}\n{other} {other_score}\n")
    assert out.returncode == 2
    assert out.stdout == f"{moves} {score}\n{other} {other_score}\n"
    assert without_compile_notices(out.stderr) == \
        f"gamedp: error: line 1: {moves} scores {score}, not {score + 1} as the line says\n"


@pytest.mark.parametrize("line", ["4453 x", "4453 -3 7", "4453 +-3", "4453 ٣"])
def test_a_malformed_score_column_is_one_error_line_naming_the_line(line):
    out = gamedp("value", "connect4:5x4", "--format", "pons", stdin=f"44\n{line}\n")
    one_clear_error(out, "line 2: ", "is not POSITION or POSITION SCORE")
    assert out.stdout.startswith("44 ") and out.stdout.count("\n") == 1


@pytest.mark.parametrize("args", [["value", "tictactoe", "--format", "pons"],
                                  ["value", "connect4", "--format", "pons", "--json"]])
def test_pons_format_is_refused_where_it_has_no_meaning(args):
    one_clear_error(gamedp(*args, stdin="4453\n"), "--format pons")


@pytest.mark.parametrize("args", [["connect4:5x4"], ["connect4", "-V", "width=5", "-V", "height=4"],
                                  ["connect4:5x4", "--threads", "2", "--format", "tab"]])
def test_an_empty_line_is_the_empty_board(args):
    """In every format, as Pons' solver reads it (it was refused); the start of 5x4 takes a moment, 7x6 minutes."""
    game = Connect4(5, 4)
    search = ScoreSearch(game.score_search(), progress=False)
    value, score = search.value(game.start()), search.score(game.start())
    plain = gamedp("value", *args, stdin="\n33\n")
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.splitlines()[0] == f"\t{value.outcome.name}\t{value.remoteness}"  # the position is empty
    assert plain.stdout.splitlines()[1].startswith("33\t")
    if "--format" not in args:
        pons = gamedp("value", *args, "--format", "pons", stdin="\n")
        assert pons.stdout == f" {score}\n"  # Pons writes the line, a space and the score
    row = json.loads(gamedp("value", *args, "--json", stdin="\n").stdout)
    assert (row["position"], row["value"], row["remoteness"]) == ("", value.outcome.name, value.remoteness)


def test_other_games_still_refuse_an_empty_line():
    one_clear_error(gamedp("value", "tictactoe", stdin="\n"), "line 1: the line is empty")


def test_a_short_pons_run_imports_no_more_than_a_plain_one(tmp_path):
    """`--format pons` takes the short path too: no command-line library, no numpy, nothing a plain run does not
    import."""
    moves = "5554224333234511764415115"

    def modules(*form: str) -> tuple[str, set[str]]:
        code = ("import sys\nfrom gamedp.cli.entry import main\n"
                f"try:\n    main({['value', 'connect4', *form, '--threads', '1']!r})\n"
                "except SystemExit:\n    pass\nsys.stderr.write(' '.join(sys.modules))\n")
        done = subprocess.run([sys.executable, "-c", code], input=moves + "\n", capture_output=True, text=True,
                              timeout=300, env={**os.environ, "GAMEDP_DB_DIR": str(tmp_path)})
        return done.stdout, set(done.stderr.split())

    game = Connect4()
    score = ScoreSearch(game.score_search(), progress=False, book=False).score(game.parse_position(moves))
    pons, imported = modules("--format", "pons")
    assert pons == f"{moves} {score}\n", imported
    plain, plainly = modules()
    assert plain.startswith(moves + "\t")
    assert not {"dataclasses", "click", "numpy", "numba"} & imported and imported <= plainly, imported - plainly
