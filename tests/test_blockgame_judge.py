"""BLOCKGAME's judge on its native kernels (gamedp.judge.blockgame_native): each kernel against the brute force,
the native run against the numpy path on many board sets (both ways of deciding: memo search, whole table), and a
judge run without numpy or numba."""

from __future__ import annotations

import ctypes
import os
import random
import subprocess
import sys

import pytest
from command import gamedp_within
from data import SAMPLES
from test_blockgame import boards_5x5, brute

from gamedp import native
from gamedp.games.placement_search import search_first
from gamedp.judge import blockgame

NAME = "gamedp.judge.blockgame_native"


@pytest.fixture(scope="module")
def lib():
    lib = native.load_native(NAME)
    assert lib is not None, "the native kernels should build here"
    return lib


def scratch(lib) -> list[int]:
    sizes = (ctypes.c_int64 * 4)()
    assert lib.sizes(sizes) == 4
    return list(sizes)


def by_search(lib, boards: list[int]) -> list[bool] | None:
    """The memo search's answers, or None if it gave up (its budget is the judge's)."""
    words, numbers, nbytes, _ = scratch(lib)
    out = ctypes.create_string_buffer(len(boards))
    used = lib.search((ctypes.c_uint64 * len(boards))(*boards), len(boards), (ctypes.c_uint64 * words)(),
                      (ctypes.c_int64 * numbers)(), ctypes.create_string_buffer(nbytes), out)
    assert set(out.raw) <= {1, 2} or used < 0
    return None if used < 0 else [code == 2 for code in out.raw]


def by_table(lib, boards: list[int]) -> list[bool]:
    out = ctypes.create_string_buffer(len(boards))
    assert lib.table((ctypes.c_uint64 * len(boards))(*boards), len(boards), (ctypes.c_uint64 * scratch(lib)[3])(),
                     out) == 0
    assert set(out.raw) <= {1, 2}
    return [code == 2 for code in out.raw]


def few_filled(rng: random.Random, low: int, high: int) -> int:
    return sum(1 << c for c in rng.sample(range(25), rng.randint(low, high)))


def test_each_kernel_against_brute_force(lib):
    boards = boards_5x5(2500, seed=21) + [0, (1 << 25) - 1]
    want = [brute(b)[0] for b in boards[:-2]] + [False, False]  # the empty board is lost in 12 (the sample)
    assert by_table(lib, boards) == want
    searched = 0
    for k in range(0, 2500, 50):  # the judge's 50 boards a run, one memo each
        got = by_search(lib, boards[k:k + 50])
        if got is not None:
            assert got == want[k:k + 50]
            searched += 1
    assert searched > 40
    assert by_search(lib, [0]) is None  # the empty board takes more states than the budget


def board_sets(rng: random.Random, count: int):
    """Sets of 1-50 boards: mostly full ones (the search answers), with a nearly empty one (straight to the
    table), or with 4-9 of 4 filled cells (the search may give up, then the table answers)."""
    for k in range(count):
        boards = boards_5x5(rng.randint(1, 50), seed=rng.randrange(10**9))
        extra = [few_filled(rng, 0, 3)] if k % 3 == 1 else [few_filled(rng, 4, 4) for _ in range(rng.randint(4, 9))]
        for board in extra if k % 3 else []:
            boards.insert(rng.randrange(len(boards) + 1), board)
        yield boards


@pytest.mark.slow
def test_native_and_numpy_paths_agree(lib):
    rng = random.Random(17)
    ways = {"search": 0, "table": 0, "search, then table": 0}
    for boards in board_sets(rng, 90):
        got = blockgame._native_wins(boards)
        assert got == blockgame.checked_wins(boards), boards
        if not search_first(boards):
            ways["table"] += 1
        else:
            ways["search" if by_search(lib, boards) is not None else "search, then table"] += 1
    assert min(ways.values()) >= 5, ways


def test_without_native_kernels_the_numpy_path_answers(monkeypatch):
    sample_in = (SAMPLES / "blockgame-sample.in").read_text()
    with_native = blockgame.run(sample_in)
    monkeypatch.setitem(native._loaded, NAME, None)  # as where no library can be built
    assert blockgame._native_wins([0]) is None
    assert blockgame.run(sample_in) == with_native == (SAMPLES / "blockgame-sample.out").read_text().rstrip() + "\n"


def test_judge_path_imports_neither_numpy_nor_numba(lib, tmp_path):
    sample_in = (SAMPLES / "blockgame-sample.in").read_text()
    code = ("import sys; from gamedp.judge import blockgame; "
            f"out = blockgame.run({sample_in!r}); print('numpy' in sys.modules, 'numba' in sys.modules, *out.split())")
    env = {**os.environ, "GAMEDP_DB_DIR": str(tmp_path)}  # no saved database: the kernels answer
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    want = (SAMPLES / "blockgame-sample.out").read_text().split()
    assert done.stdout.split() == ["False", "False", *want], done.stderr


def test_the_judge_looks_for_the_table_gamedp_solve_saves():
    """The judge looks for the saved table by its id and variant before it builds the tiers that read it."""
    from gamedp.games.placement_tiers import blockgame_table

    table = blockgame_table()
    assert (table.game_id, table.variant) == blockgame.SAVED


@pytest.mark.slow
def test_the_library_is_built_again_when_a_source_its_build_read_changes(tmp_path):
    """The native library lists the gamedp sources its build read outside its own folder: editing one (here: a
    copy of the package whose placement table, which makes the library's constant tables, gains a comment)
    builds the library again, and an unchanged one does not."""
    import shutil
    from pathlib import Path

    package = tmp_path / "src" / "gamedp"
    shutil.copytree(Path(blockgame.__file__).parents[1], package, ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "GAMEDP_CACHE_DIR": str(tmp_path / "cache"), "GAMEDP_DB_DIR": str(tmp_path / "db"),
           "PYTHONPATH": str(package.parent)}
    sample_in = (SAMPLES / "blockgame-sample.in").read_text()
    want = (SAMPLES / "blockgame-sample.out").read_text()

    def run() -> tuple[float, bool]:
        """The library's time of writing, and whether this run said it compiled (one line, nothing else)."""
        done = subprocess.run([sys.executable, "-m", "gamedp", "judge", "blockgame"], input=sample_in, env=env,
                              capture_output=True, text=True, cwd=tmp_path)
        assert (done.returncode, done.stdout) == (0, want)
        assert done.stderr == "" or done.stderr.startswith("gamedp: compiling") and done.stderr.count("\n") == 1
        [library] = (tmp_path / "cache").glob("kernels/*/libblockgame_native.so")
        return library.stat().st_mtime_ns, done.stderr != ""

    first, said = run()
    assert said
    deps = next((tmp_path / "cache").glob("kernels/*/libblockgame_native.deps")).read_text()
    table = package / "games" / "placement_table.py"
    assert str(table) in deps
    assert run() == (first, False)
    table.write_text(table.read_text() + "# an edit\n")
    later, said = run()
    assert later != first and said


@pytest.mark.parametrize("data, says", [(b"1\n" * (50 << 20), b"line 2, column 1: unexpected character '1'"),
                                        (b"1\n" + b"....#\n" * 5 + b"1\n" * (50 << 20), b"line 7: unexpected text")])
def test_the_input_is_read_only_as_far_as_its_count_of_cases(data, says):
    """100 MB of '1' lines took 3 GB (150 MB: 8.9 GB) before the first was found wrong: now the reading stops
    at the first wrong line, in 300 MB of address space."""
    r = gamedp_within(300 << 20, "judge", "blockgame", stdin=data)
    assert r.returncode == 2 and says in r.stderr and r.stderr.count(b"\n") == 1, r.stderr[-300:]
