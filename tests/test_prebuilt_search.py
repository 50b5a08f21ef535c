"""The pruned search built ahead of time for a compiled game of plain-function kernels: the same values as numba's
path and as the Python engine, a key that follows the kernels, neither numba nor numpy in a run that loads it, a
cache trusted as the kernel cache is, and numba's path (same answers) after a failed build, reported once."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gamedp import Value, kernel_cache, native
from gamedp.compiled import CompiledGame
from gamedp.games.connect4 import Connect4
from gamedp.solvers import prebuilt_search
from gamedp.solvers.compiled_alphabeta import CompiledPrunedSolution
from gamedp.solvers.memo import solve
from test_alphabeta import random_positions

AS_ROOT = pytest.mark.skipif(os.getuid() != 0, reason="giving a file to another user takes root")
NOBODY = 65534
SIDE = 12


# -- games written as a user would: plain functions, no numba imported -------------------------------------------
def wythoff(key, out):
    """Two heaps, key = a * SIDE + b: take from one heap, or the same number from both; who cannot move loses."""
    a, b = key // SIDE, key % SIDE
    count = 0
    for k in range(1, max(a, b) + 1):
        if k <= a:
            out[count] = key - k * SIDE
            count += 1
        if k <= b:
            out[count] = key - k
            count += 1
        if k <= a and k <= b:
            out[count] = key - k * (SIDE + 1)
            count += 1
    return count


def race(limit):
    """Count up from 0 by 1 or 2; whoever reaches ``limit`` exactly ties the game, past it loses: closures over
    one constant, and a primitive."""
    def children(n, out):
        if n >= limit:
            return 0
        out[0], out[1] = n + 1, n + 2
        return 2

    def primitive(n):
        return 3 if n == limit else 2 if n > limit else 0

    return CompiledGame(f"race-{limit}", 0, children, 2, primitive=primitive, num_positions=limit + 2)


def values(game, positions, remoteness):
    solution = CompiledPrunedSolution(game, remoteness=remoteness)
    return [solution.value(p) for p in positions]


@pytest.mark.parametrize("make", [
    lambda: (Connect4(4, 3).compiled(), Connect4(4, 3, symmetry=False)),
    lambda: (Connect4(3, 4, 3).compiled(), Connect4(3, 4, 3, symmetry=False)),
    lambda: (CompiledGame("wythoff", SIDE * SIDE - 1, wythoff, 3 * SIDE, num_positions=SIDE * SIDE), None),
    lambda: (CompiledGame("wythoff misere", SIDE * SIDE - 1, wythoff, 3 * SIDE, num_positions=SIDE * SIDE,
                          misere=True), None),
    lambda: (race(9), None),
], ids=["connect4-4x3", "connect3-3x4", "wythoff", "wythoff-misere", "race"])
@pytest.mark.slow
def test_the_prebuilt_search_agrees_with_numbas_and_the_python_engine(make, monkeypatch):
    game, rules = make()
    assert prebuilt_search.load_search(game) is not None  # the path under test is taken
    positions = random_positions(rules, 40, seed=3) if rules else list(range(game.num_positions))
    python = solve(game.as_python_game())
    for remoteness in (False, True):
        expected = [python.value(p) if remoteness else Value(python.value(p).outcome) for p in positions]
        assert values(game, positions, remoteness) == expected
        with monkeypatch.context() as numba_path:
            numba_path.setenv("GAMEDP_JIT", "1")
            assert prebuilt_search.load_search(game) is None
            assert values(game, positions, remoteness) == expected


def test_the_key_follows_the_kernels_and_their_constants():
    tag = prebuilt_search._tag
    assert tag(Connect4(4, 3).compiled()) == tag(Connect4(4, 3).compiled())
    assert tag(Connect4(4, 3).compiled()) != tag(Connect4(3, 4).compiled())
    assert tag(race(9)) != tag(race(10))
    from numba import njit

    assert tag(CompiledGame("njit", 5, njit(wythoff), 3 * SIDE)) is None  # a numba kernel keeps numba's path


def test_a_run_that_loads_the_prebuilt_search_imports_neither_numba_nor_numpy():
    script = ("import sys; from gamedp.games.connect4 import Connect4; from gamedp.solvers.alphabeta import value_of;"
              " v = value_of(Connect4(4, 3).compiled()); print(v.outcome.name, 'numba' in sys.modules,"
              " 'numpy' in sys.modules)")
    for _ in range(2):  # the first run may build it
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["TIE", "False", "False"]


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """A fresh kernel cache holding an honest build of Connect-4 4x3's search; the build function records
    its calls and fails, so a test sees whether a build was tried."""
    game = Connect4(4, 3).compiled()
    tag = prebuilt_search._tag(game)
    assert prebuilt_search.load_search(game) is not None
    built = Path(kernel_cache.kernel_folder(tag))
    monkeypatch.setenv("GAMEDP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(kernel_cache, "_dirs", {})
    folder = Path(kernel_cache.cache_dir()) / tag
    shutil.copytree(built, folder)
    builds = []

    def no_build(stem, entries, where, track_sources):
        builds.append(Path(where))
        raise RuntimeError("no C compiler here")

    monkeypatch.setattr(native, "build_library", no_build)
    return game, folder, builds


def test_an_honest_build_in_the_cache_is_loaded(fresh):
    game, folder, builds = fresh
    assert prebuilt_search.load_search(game) is not None and builds == []


@pytest.mark.parametrize("mode", [0o720, 0o702])
def test_a_search_writable_by_others_is_not_loaded(fresh, mode, capfd):
    game, folder, builds = fresh
    os.chmod(folder / "libpruned_search.so", mode)
    assert prebuilt_search.load_search(game) is None and builds == [folder]  # built again (here: failed)
    assert "no C compiler here" in capfd.readouterr().err


@AS_ROOT
def test_a_search_owned_by_another_user_is_not_loaded(fresh):
    game, folder, builds = fresh
    for name in os.listdir(folder):
        os.chown(folder / name, NOBODY, NOBODY)
    assert prebuilt_search.load_search(game) is None and builds == [folder]


def test_a_failed_build_is_reported_once_and_numbas_path_answers(fresh, capfd):
    game, folder, builds = fresh
    shutil.rmtree(folder)
    expected = solve(game.as_python_game()).value(game.start()).outcome
    assert CompiledPrunedSolution(game).value(game.start()).outcome is expected
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "the search of connect4:4x3" in err and "no C compiler here" in err
    assert (folder / "libpruned_search.failed").exists()
    assert CompiledPrunedSolution(game).value(game.start()).outcome is expected
    assert capfd.readouterr().err == "" and len(builds) == 1  # remembered: not tried again


def test_a_failure_marker_someone_else_could_write_is_not_believed(fresh):
    game, folder, builds = fresh
    marker = folder / "libpruned_search.failed"
    marker.write_text("planted\n")
    os.chmod(marker, 0o666)
    assert prebuilt_search.load_search(game) is not None and builds == []
