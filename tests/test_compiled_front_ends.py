"""Compiled games in ``analyze`` and ``play``: the compiled search, and moves with names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from command import gamedp
from numba import njit

from gamedp.analysis import Analyst
from gamedp.compiled import CompiledGame
from gamedp.errors import ResourceError
from gamedp.solvers.compiled import CompiledSolution
from gamedp.solvers.compiled_alphabeta import CompiledPrunedSolution
from gamedp.solvers.memo import Solution
from test_analyze_games import take_134 as plain_take_134
from test_compiled import countdown
from output import only_plain_progress

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


take_134 = njit(nogil=True)(plain_take_134)  # the same rules, compiled this time


def named(position: int, child: int) -> str:
    return f"take {position - child}"


def test_analyze_uses_the_compiled_search_and_agrees_with_the_memo_engine():
    game = CompiledGame("take-1-3-4", start=30, children=take_134, max_children=3, format_move=named)
    analyst = Analyst(game)
    by_python = Solution(game.as_python_game())
    for n in range(31):
        analysis = analyst.analyze(n)
        assert analysis.value == by_python.value(n)
        assert sorted(mv.value.rank() for mv in analysis.moves) == \
            sorted(by_python.value(n - k).for_parent().rank() for k in (1, 3, 4) if k <= n)
    assert isinstance(analyst._engine(), CompiledSolution)


def test_moves_of_a_compiled_game_have_names_both_ways():
    game = CompiledGame("take-1-3-4", start=30, children=take_134, max_children=3, format_move=named)
    analyst = Analyst(game)
    analysis = analyst.analyze(10)
    assert sorted(analyst.move_name(10, mv.move) for mv in analysis.moves) == ["take 1", "take 3", "take 4"]
    assert analyst.read_move(10, "TAKE 3") == 7
    plain = Analyst(CompiledGame("take-1-3-4", start=30, children=take_134, max_children=3))
    assert plain.move_name(10, 7) == "7"  # without the hook a move is its child's number


def test_a_file_game_is_imported_under_its_own_module_name():
    # Numba's cache imports a kernel's module by name: `import blockgame_compiled` and the file given to gamedp
    # must be the one module (it was a new random name each run, and the cached kernel then failed to load).
    code = ("from gamedp.loader import load_game; import blockgame_compiled; "
            "print(load_game('blockgame_compiled.py') is blockgame_compiled.game)")
    for _ in range(2):  # the second run loads the kernels from the cache
        r = subprocess.run([sys.executable, "-c", code], cwd=EXAMPLES, capture_output=True, text=True, timeout=300)
        assert r.stdout.strip() == "True", r.stderr


@pytest.mark.slow
def test_playing_the_compiled_blockgame_example_by_cell_names():
    # the board with everything filled but a 2x2 square at the bottom right and one cell: a domino to place
    board = "##### ##### ##### ###.. ###.#"
    r = gamedp("play", str(EXAMPLES / "blockgame_compiled.py"), board, stdin="d4 e4\n", timeout=300)
    assert r.returncode == 0, r.stderr
    assert "Your moves: d4 e4, d4 d5, d4 e4 d5" in r.stdout
    assert "Game over. You win" in r.stdout


#: A long compiled search (no bound: a hash table that grows), for progress and the memory guard.
chain = CompiledGame("compiled-chain", start=3_000_000, children=countdown, max_children=1)


@pytest.mark.parametrize("engine, values, game", [
    (CompiledSolution, ("WIN in 21", "LOSE in 20"), chain),
    (CompiledPrunedSolution, ("WIN", "LOSE"), chain),
    # the pruned search built ahead of time (plain kernels): its own table, the same guard
    (CompiledPrunedSolution, ("WIN", "LOSE"), CompiledGame("compiled-chain", 3_000_000, countdown.py_func, 1)),
], ids=["full", "pruned", "pruned-prebuilt"])
@pytest.mark.slow
def test_a_compiled_search_growing_past_memory_stops_with_the_guards_message(monkeypatch, engine, values, game):
    import gamedp.memory
    import gamedp.solvers.search_status

    monkeypatch.setattr(gamedp.solvers.search_status, "POLL_SECONDS", 0.0001)
    monkeypatch.setattr(gamedp.memory, "available_memory", lambda: 0)
    solution = engine(game)
    with pytest.raises(ResourceError, match=r"searching compiled-chain stopped after [\d,]+ positions: only 0 bytes"):
        solution.value(3_000_000)
    monkeypatch.undo()
    # the table was emptied, not left with positions marked under way (a cycle, it would seem)
    assert (str(solution.value(21)), str(solution.value(20))) == values


@pytest.mark.slow
def test_a_compiled_search_shows_progress_on_a_terminal_and_piped_only_plain_lines():
    command = ["-m", "gamedp", "analyze", f"{Path(__file__)}:chain"]
    child = pexpect.spawn(sys.executable, command, encoding="utf-8", timeout=120, dimensions=(30, 150))
    child.expect(pexpect.EOF)
    assert "searching compiled-chain" in child.before and "positions" in child.before, child.before
    piped = subprocess.run([sys.executable, *command], capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0 and only_plain_progress(piped.stderr) and "LOSE" in piped.stdout, piped.stderr


def test_a_dense_table_that_cannot_fit_is_refused_up_front(monkeypatch):
    import gamedp.memory

    monkeypatch.setattr(gamedp.memory, "available_memory", lambda: 1000)
    game = CompiledGame("take-1-3-4", start=30, children=take_134, max_children=3, num_positions=1 << 20)
    with pytest.raises(ResourceError, match=r"searching take-1-3-4 needs about 4,194,304 bytes of memory; 1,000 are"):
        CompiledSolution(game)
