"""The tier solver on Connect-N, against a plain recursive solver written from the rules (a grid of columns)."""

from __future__ import annotations

import functools
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamedp.database import Reader
from gamedp.games.connect4_tiers import connect4_table
from gamedp.solvers.tier_solver import PAUSE_ENV, SHARD_ENV, solve_tiered, work_dir
from gamedp.tiers import check_tiers
from gamedp.values import Outcome, Value


# -- the reference: columns as strings of X/O, bottom first; no bitboards, no ranks -------------------------------
def has_line(cols: tuple[str, ...], height: int, connect: int, who: str) -> bool:
    width = len(cols)

    def at(c: int, r: int) -> str | None:
        return cols[c][r] if 0 <= c < width and 0 <= r < len(cols[c]) else None

    return any(all(at(c + dc * k, r + dr * k) == who for k in range(connect))
               for c in range(width) for r in range(height) for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)))


def plain_solver(height: int, connect: int):
    @functools.lru_cache(maxsize=None)
    def value(cols: tuple[str, ...]) -> tuple[str, int]:
        stones = sum(map(len, cols))
        mover, last = ("X", "O") if stones % 2 == 0 else ("O", "X")
        if has_line(cols, height, connect, last):
            return "LOSE", 0
        if all(len(c) == height for c in cols):
            return "TIE", 0
        options = [(flip[v], r + 1) for v, r in (value(cols[:c] + (cols[c] + mover,) + cols[c + 1:])
                                                 for c in range(len(cols)) if len(cols[c]) < height)]
        # Win before tie before loss; the shortest win or tie, the longest loss.
        return max(options, key=lambda o: (order[o[0]], o[1] if o[0] == "LOSE" else -o[1]))

    flip, order = {"WIN": "LOSE", "LOSE": "WIN", "TIE": "TIE"}, {"LOSE": 0, "TIE": 1, "WIN": 2}
    return value


def reachable(width: int, height: int, connect: int) -> dict[tuple[str, ...], str]:
    """Every position play can reach, with one sequence of columns that reaches it."""
    start = ("",) * width
    seen, stack = {start: ""}, [start]
    while stack:
        cols = stack.pop()
        stones = sum(map(len, cols))
        last = "O" if stones % 2 == 0 else "X"
        if has_line(cols, height, connect, last):
            continue
        for c in range(width):
            if len(cols[c]) < height:
                child = cols[:c] + (cols[c] + ("X" if stones % 2 == 0 else "O"),) + cols[c + 1:]
                if child not in seen:
                    seen[child] = seen[cols] + str(c + 1)
                    stack.append(child)
    return seen


def compare_all(width: int, height: int, connect: int, tmp_path: Path) -> None:
    game = connect4_table(width, height, connect)
    stats = solve_tiered(game, "connect4", tmp_path / "c.gdb", remoteness=True)
    positions = reachable(width, height, connect)
    value = plain_solver(height, connect)
    assert stats["positions"] == len(positions)
    with Reader(tmp_path / "c.gdb", "connect4", game.variant, game.size) as db:
        reach = db.section("reachable")
        assert sum(bin(b).count("1") for b in reach) == len(positions)
        reach.release()
        for cols, played in positions.items():
            i = game.index(game.parse_position(played))
            got = db.value(i)
            assert (got.outcome.name, got.remoteness) == value(cols), played
            assert db.byte("reachable", i >> 3) >> (i & 7) & 1
    assert not work_dir(tmp_path / "c.gdb").exists()


@pytest.mark.parametrize("width,height,connect", [(3, 3, 3), (4, 3, 3), (4, 3, 4), (3, 4, 3)])
def test_every_position_of_small_boards_matches_the_plain_solver(width, height, connect, tmp_path) -> None:
    compare_all(width, height, connect, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("connect", [3, 4])
def test_every_position_of_4x4_matches_the_plain_solver(connect, tmp_path) -> None:
    compare_all(4, 4, connect, tmp_path)


@pytest.mark.parametrize("width,height,connect,remoteness", [(3, 3, 3, True), (4, 3, 3, False), (4, 3, 4, True),
                                                              (3, 4, 3, False), (4, 4, 4, True), (2, 3, 1, True)])
def test_connect4s_own_passes_give_the_bytes_of_the_generic_loops_and_the_plain_solve(width, height, connect, remoteness,
                                                                                     tmp_path, monkeypatch) -> None:
    """The game's sweeps (gamedp.kernels.connect4_tiers), in shards of 256 that cut height-vector blocks, against
    the solver's loops over its per-index expansion, and against the plain functions in memory."""
    from gamedp.games.connect4_tiers import Connect4Tiers

    game = connect4_table(width, height, connect)
    if game.index_space <= 1 << 15:
        solve_tiered(game, "connect4", tmp_path / "plain.gdb", remoteness=remoteness)
    monkeypatch.setenv(SHARD_ENV, "256")
    own = solve_tiered(game, "connect4", tmp_path / "own.gdb", remoteness=remoteness)
    monkeypatch.setattr(Connect4Tiers, "passes", lambda self: None)
    generic = solve_tiered(game, "connect4", tmp_path / "generic.gdb", remoteness=remoteness)
    assert own["positions"] == generic["positions"] == len(reachable(width, height, connect))
    assert (tmp_path / "own.gdb").read_bytes() == (tmp_path / "generic.gdb").read_bytes()
    if (tmp_path / "plain.gdb").exists():
        assert (tmp_path / "own.gdb").read_bytes() == (tmp_path / "plain.gdb").read_bytes()


@pytest.mark.parametrize("width,height,connect", [(3, 3, 3), (4, 4, 4), (5, 4, 4), (6, 5, 4), (7, 6, 4)])
def test_rank_and_unrank_are_inverse_and_children_land_in_the_next_tier(width, height, connect) -> None:
    report = check_tiers(connect4_table(width, height, connect), limit=4000, compiled=True)
    assert report.ok, report.problem


def test_the_plain_and_compiled_functions_agree() -> None:
    game = connect4_table(5, 4)
    plain, compiled = game.functions(), game.compiled()
    rng = random.Random(3)
    for _ in range(500):
        t = rng.randrange(game.num_tiers)
        i = rng.randrange(game.sizes[t])
        key = plain.unrank(t, i)
        assert compiled.unrank(t, i) == key and compiled.rank(key) == plain.rank(key) == i


@pytest.mark.slow
def test_4x5_counts_the_published_positions_and_agrees_on_random_deep_positions(tmp_path) -> None:
    game = connect4_table(4, 5)
    stats = solve_tiered(game, "connect4", tmp_path / "c.gdb", remoteness=True)
    assert stats["positions"] == 1_706_255
    assert sum(t["positions"] for t in stats["tiers"]) == 1_706_255
    value = plain_solver(5, 4)
    rng = random.Random(11)
    with Reader(tmp_path / "c.gdb", "connect4", game.variant, game.size) as db:
        for _ in range(150):
            cols, played = [""] * 4, ""
            for _ in range(rng.randrange(8, 18)):
                options = [c for c in range(4) if len(cols[c]) < 5]
                stones = len(played)
                if has_line(tuple(cols), 5, 4, "O" if stones % 2 == 0 else "X") or not options:
                    break
                c = rng.choice(options)
                cols[c] += "X" if stones % 2 == 0 else "O"
                played += str(c + 1)
            got = db.value(game.index(game.parse_position(played)))
            assert (got.outcome.name, got.remoteness) == value(tuple(cols)), played


@pytest.mark.slow
def test_5x4_counts_the_published_positions(tmp_path) -> None:
    stats = solve_tiered(connect4_table(5, 4), "connect4", tmp_path / "c.gdb")
    assert stats["positions"] == 3_945_711
    assert sum(stats["outcomes"].values()) == 3_945_711


# -- resuming and running elsewhere ----------------------------------------------------------------------------
def cli(*args: str, env: dict | None = None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gamedp", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, **kw)


def test_a_killed_solve_resumes_at_its_last_shard_and_gives_the_same_bytes(tmp_path) -> None:
    whole = tmp_path / "whole.gdb"
    assert cli("solve", "connect4", "-V", "width=4", "-V", "height=3", "-r", "--db", str(whole)).returncode == 0
    killed = tmp_path / "killed.gdb"
    env = {SHARD_ENV: "256", PAUSE_ENV: "0.3"}
    proc = subprocess.Popen([sys.executable, "-m", "gamedp", "solve", "connect4", "-V", "width=4", "-V", "height=3",
                             "-r", "--db", str(killed)], env={**os.environ, **env}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    work = work_dir(killed)
    deadline = time.monotonic() + 120
    while not list(work.glob("tier*.shard*")) or len(list(work.glob("tier*.values"))) < 2:
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not killed.exists()
    again = cli("solve", "connect4", "-V", "width=4", "-V", "height=3", "-r", "--db", str(killed),
                env={SHARD_ENV: "256"})
    assert again.returncode == 0, again.stderr
    assert "resumed" in again.stderr
    assert killed.read_bytes() == whole.read_bytes()
    assert not work.exists() and not list(tmp_path.glob(".*.tmp"))


def test_query_answers_from_the_tiered_database(tmp_path) -> None:
    db = tmp_path / "c.gdb"
    assert cli("solve", "connect4", "-V", "width=4", "-V", "height=3", "-V", "connect=3", "--db", str(db),
               "-r").returncode == 0
    out = cli("query", "connect4", "-V", "width=4", "-V", "height=3", "-V", "connect=3", "--db", str(db), "", "11")
    value = plain_solver(3, 3)
    expected = [Value(Outcome[v], r) for v, r in (value(("", "", "", "")), value(("XO", "", "", "")))]
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [f'"": {expected[0]}', f"11: {expected[1]}"]


@pytest.mark.parametrize("args,message", [
    (["-V", "width=0"], "width must be a whole number >= 1"),
    (["-V", "width=x"], "width"),
    (["-V", "depth=3"], "no variant parameter depth"),
    (["-V", "width=9", "-V", "height=9"], "more than 62 cells"),
    (["--cluster", "tcp://127.0.0.1:9", "-V", "width=3", "-V", "height=3"], "cannot reach the scheduler"),
    (["--workers", "2", "--cluster", "tcp://127.0.0.1:9", "-V", "width=3", "-V", "height=3"],
     "cannot be used together"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path) -> None:
    out = cli("solve", "connect4", *args, "--db", str(tmp_path / "c.gdb"), timeout=120)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamedp: error:") and message in lines[0], out.stderr
    assert not (tmp_path / "c.gdb").exists()


def test_a_tier_too_big_for_memory_or_disk_is_refused_up_front(tmp_path) -> None:
    out = cli("solve", "connect4", "--db", str(tmp_path / "c.gdb"))  # 7x6: 7e13 indices
    assert out.returncode == 2 and "refusing to start" in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_check_tiers_names_a_child_outside_the_declared_tiers_and_a_broken_rank() -> None:
    from gamedp.games.connect4_tiers import Connect4Tiers
    from gamedp.tiers import TierFunctions

    class WrongTiers(Connect4Tiers):
        def child_tiers(self, tier):
            return (tier + 2,) if tier + 2 < self.num_tiers else ()

    class WrongRank(Connect4Tiers):
        def functions(self):
            f = super().functions()
            return TierFunctions(lambda key: f.rank(key) ^ 1, f.unrank, f.tier_of, f.children, f.primitive)

    report = check_tiers(WrongTiers(3, 3, 3))
    assert not report.ok and "not among the declared child tiers [2]" in report.problem
    report = check_tiers(WrongRank(3, 3, 3))
    assert not report.ok and "rank and unrank are not inverse" in report.problem


def test_gamedp_check_checks_the_tiers_of_connect4() -> None:
    out = cli("check", "connect4:3x3:3")
    assert out.returncode == 0 and "rank/unrank round trips" in out.stdout, out.stderr


def test_a_worker_that_cannot_see_the_database_directory_says_so(tmp_path) -> None:
    from gamedp.errors import GamedpError
    from gamedp.solvers.tier_solver import Job, run_shard

    job = Job("connect4", (("connect", 3), ("height", 3), ("width", 3)), str(tmp_path / "elsewhere.tiers"), "{}",
              0, 0, 0, 1, False)
    with pytest.raises(GamedpError, match="workers must see the database directory"):
        run_shard(job)


def test_the_forward_pass_cut_into_pieces_gives_the_same_bytes(tmp_path, monkeypatch) -> None:
    from gamedp.executors import LocalExecutor

    class ThreeSlots(LocalExecutor):  # as a 3-worker cluster asks for: six pieces per tier, run here
        def slots(self) -> int:
            return 3

    game = connect4_table(4, 3, 3)
    solve_tiered(game, "connect4", tmp_path / "whole.gdb", remoteness=True)
    monkeypatch.setenv(SHARD_ENV, "256")
    stats = solve_tiered(game, "connect4", tmp_path / "pieces.gdb", remoteness=True, executor=ThreeSlots())
    assert stats["positions"] == len(reachable(4, 3, 3))
    assert (tmp_path / "pieces.gdb").read_bytes() == (tmp_path / "whole.gdb").read_bytes()
