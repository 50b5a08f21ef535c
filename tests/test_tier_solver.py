"""The tier solver on Connect-N, against a plain recursive solver written from the rules (a grid of columns)."""

from __future__ import annotations

import functools
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest
from command import gamedp

from gamedp.database import Reader
from gamedp.executors import LocalExecutor
from gamedp.games.connect4_tiers import connect4_table
from gamedp.solvers.tier_solver import PAUSE_ENV, SHARD_ENV, solve_tiered, work_dir
from gamedp.tiers import check_tiers
from gamedp.values import Outcome, Value
from test_tier_games import wait_for


# -- the reference: columns as strings of X/O, bottom first; no bitboards, no ranks -------------------------------
@functools.lru_cache(maxsize=None)
def lines(width: int, height: int, connect: int) -> list[list[tuple[int, int]]]:
    """Every line of ``connect`` cells (column, row) on the board: along a row, a column or either diagonal."""
    return [[(c + dc * k, r + dr * k) for k in range(connect)]
            for c in range(width) for r in range(height) for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
            if 0 <= c + dc * (connect - 1) < width and 0 <= r + dr * (connect - 1) < height]


@functools.lru_cache(maxsize=None)  # the walk of reachable positions and the solver ask of the same boards
def has_line(cols: tuple[str, ...], height: int, connect: int, who: str) -> bool:
    return any(all(r < len(cols[c]) and cols[c][r] == who for c, r in line)
               for line in lines(len(cols), height, connect))


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


def compare_all(width: int, height: int, connect: int, tmp_path: Path, remoteness: bool = True) -> None:
    game = connect4_table(width, height, connect)
    stats = solve_tiered(game, "connect4", tmp_path / "c.gdb", remoteness=remoteness)
    positions = reachable(width, height, connect)
    value = plain_solver(height, connect)
    assert stats["positions"] == len(positions)
    with Reader(tmp_path / "c.gdb", "connect4", game.variant, game.size) as db:
        assert not db.has("reachable") and db.unreachable_code == 3  # reachability is in the 2-bit code
        reached = set()
        # Each position's key: its parent's (met first) with one stone more, rather than its whole line replayed;
        # every 50th is read from its line too.
        keys = {"": game.board.start()}
        for n, (cols, played) in enumerate(positions.items()):
            if played:
                keys[played] = game.board.do_move(keys[played[:-1]], int(played[-1]) - 1)
            assert n % 50 or game.parse_position(played) == keys[played], played
            i = game.index(keys[played])
            got, expected = db.value(i), value(cols)
            assert (got.outcome.name, got.remoteness) == (expected if remoteness else (expected[0], None)), played
            assert db.reachable(i)
            reached.add(i)
        unreached = [i for i in range(game.size) if i not in reached]
        assert unreached and not any(db.reachable(i) for i in unreached)  # every other index reads unreachable
    assert not work_dir(tmp_path / "c.gdb").exists()


@pytest.mark.parametrize("width,height,connect", [(3, 3, 3), (4, 3, 3), (4, 3, 4), (3, 4, 3)])
def test_every_position_of_small_boards_matches_the_plain_solver(width, height, connect, tmp_path) -> None:
    compare_all(width, height, connect, tmp_path)


@pytest.mark.parametrize("width,height,connect", [(4, 3, 3), (3, 4, 3)])
def test_without_remoteness_too(width, height, connect, tmp_path, monkeypatch) -> None:
    compare_all(width, height, connect, tmp_path)
    monkeypatch.setenv(SHARD_ENV, "256")  # the sharded way, not the in-memory one
    compare_all(width, height, connect, tmp_path / "sharded", remoteness=False)


#: 4x3: X played last, yet O's stone is on top of column 1, so play never reaches this board.
UNREACHED = "O... X... X..."


@pytest.mark.parametrize("remoteness", [False, True])
def test_an_unreachable_index_reads_unreachable_and_is_refused(remoteness, tmp_path) -> None:
    """Code 3 marks an index play never reaches: the reader says so, and analyze's lookups and `gamedp query`
    refuse it (no value is stored there)."""
    from gamedp.errors import GamedpError
    from gamedp.games.connect4 import Connect4
    from gamedp.solvers.database_answers import SavedSolution

    game = Connect4(4, 3)
    tiered = game.tiered()
    db = tmp_path / "c.gdb"
    solve_tiered(tiered, "connect4", db, remoteness=remoteness)
    unreached, played = tiered.parse_position(UNREACHED), tiered.parse_position("112")
    expected = plain_solver(3, 4)(("XO", "X", "", ""))
    with Reader(db, "connect4", tiered.variant, tiered.size) as reader:
        i = tiered.index(unreached)
        assert reader.code(i) == 3 and not reader.reachable(i)
        assert reader.value(i) == Value(Outcome.LOSE, 0 if remoteness else None)
        got = reader.value(tiered.index(played))
        assert reader.reachable(tiered.index(played))
        assert (got.outcome.name, got.remoteness) == (expected if remoteness else (expected[0], None))
        saved = SavedSolution(game, tiered, reader, lambda key: key)
        assert saved.known(unreached) is None and saved.known(played) == got
        with pytest.raises(GamedpError, match="not a position play reaches from the start"):
            saved.value(unreached)
    # `gamedp query` answers the others, says on one line which it cannot answer, and exits 2
    out = gamedp("query", "connect4", "-V", "width=4", "-V", "height=3", "--db", str(db), UNREACHED, "112")
    assert out.returncode == 2 and out.stdout == f"112: {got}\n"
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert f"{UNREACHED}: not a position play reaches from the start" in out.stderr
    out = gamedp("query", "connect4", "-V", "width=4", "-V", "height=3", "--db", str(db), "--json", UNREACHED)
    assert out.returncode == 2 and json.loads(out.stdout) == {"position": UNREACHED, "reachable": False}


def test_a_version_1_database_is_refused_with_the_command_that_solves_it_again(tmp_path, monkeypatch) -> None:
    """Version 1 kept reachability in a section of its own and stored LOSE at unreachable indices: read as
    version 2 its code 0 would pass for a value, so it is refused, and `gamedp solve` makes it again."""
    from gamedp import database
    from gamedp.database import DatabaseError

    new, old = tmp_path / "new.gdb", tmp_path / "old.gdb"
    board = ["-V", "width=4", "-V", "height=3"]
    assert gamedp("solve", "connect4", *board, "--db", str(new)).returncode == 0
    with Reader(new) as db:
        size, meta = db.size, {k: v for k, v in db.meta.items() if k not in ("sections", "block_size")}
        codes = [db.code(i) for i in range(size)]
    outcomes, reach = bytearray(-(-size // 4)), bytearray(-(-size // 8))
    for i, code in enumerate(codes):  # as version 1 wrote them
        if code != 3:
            outcomes[i >> 2] |= code << 2 * (i & 3)
            reach[i >> 3] |= 1 << (i & 7)
    meta["encoding"] = {"outcome_bits": 2, "remoteness": None}
    with monkeypatch.context() as m:
        m.setattr(database, "FORMAT_VERSION", 1)
        database.write_container(old, meta, [("outcomes", outcomes), ("reachable", reach)])
    with pytest.raises(DatabaseError, match="format version 1, written by an older gamedp") as caught:
        Reader(old, "connect4", meta["variant"], size)
    assert caught.value.damaged  # solving again is the fix
    out = gamedp("query", "connect4", *board, "--db", str(old), "")
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "older gamedp" in out.stderr and "solve again: gamedp solve connect4 " in out.stderr, out.stderr
    assert f"--db {old}" in out.stderr, out.stderr
    fixed = gamedp("solve", "connect4", *board, "--db", str(old))
    assert fixed.returncode == 0 and "is of an older format; solving" in fixed.stderr, fixed.stderr
    assert old.read_bytes() == new.read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("connect", [3, 4])
def test_every_position_of_4x4_matches_the_plain_solver(connect, tmp_path) -> None:
    compare_all(4, 4, connect, tmp_path)


@pytest.mark.parametrize("width,height,connect,remoteness", [(3, 3, 3, True), (4, 3, 3, False), (4, 3, 4, True),
                                                              (3, 4, 3, False), (4, 4, 4, True), (2, 3, 1, True)])
@pytest.mark.slow
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
@pytest.mark.slow
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
def test_a_killed_solve_resumes_at_its_last_shard_and_gives_the_same_bytes(tmp_path) -> None:
    whole = tmp_path / "whole.gdb"
    assert gamedp("solve", "connect4", "-V", "width=4", "-V", "height=3", "-r", "--db", str(whole)).returncode == 0
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
    tiers = connect4_table(4, 3).num_tiers
    sealed = {t for t in range(tiers) if (work / f"tier{t}.values").exists()}
    reach = {t for t in range(tiers) if (work / f"tier{t}.reach").exists()}
    # A sealed tier's reach file goes (a kill may come between the two), the others' stay until they are sealed.
    assert len(sealed & reach) <= 1 and sealed | reach == set(range(tiers)), (sealed, reach)
    again = gamedp("solve", "connect4", "-V", "width=4", "-V", "height=3", "-r", "--db", str(killed),
                env={SHARD_ENV: "256"})
    assert again.returncode == 0, again.stderr
    assert "resumed" in again.stderr
    assert killed.read_bytes() == whole.read_bytes()
    assert not work.exists() and not list(tmp_path.glob(".*.tmp"))


def test_a_resume_takes_the_sealed_tiers_reachability_from_their_codes(tmp_path, monkeypatch) -> None:
    """A sealed tier's reach file is gone: a resume reads its reachability in its codes (3) and does not redo the
    forward pass; the database is the same bytes as one solved in one go."""
    from gamedp.solvers.tier_solver import driver

    game = connect4_table(4, 3)
    solve_tiered(game, "connect4", tmp_path / "whole.gdb")
    monkeypatch.setenv(SHARD_ENV, "256")
    db, real = tmp_path / "c.gdb", driver.run_shard
    last = game.num_tiers - 1

    def killed_below_the_last_three_tiers(job):
        if job.tier < last - 2:
            raise KeyboardInterrupt
        return real(job)

    monkeypatch.setattr(driver, "run_shard", killed_below_the_last_three_tiers)
    with pytest.raises(KeyboardInterrupt):
        solve_tiered(game, "connect4", db)
    work = work_dir(db)
    assert sorted(p.name for p in work.glob("tier*.values")) == sorted(f"tier{t}.values" for t in range(last - 2,
                                                                                                        last + 1))
    assert sorted(p.name for p in work.glob("tier*.reach")) == sorted(f"tier{t}.reach" for t in range(last - 2))

    def no_forward_pass(job):
        raise AssertionError("the forward pass ran again")

    monkeypatch.setattr(driver, "run_shard", real)
    monkeypatch.setattr(driver, "run_marks", no_forward_pass)
    assert solve_tiered(game, "connect4", db)["resumed_shards"] > 0
    assert db.read_bytes() == (tmp_path / "whole.gdb").read_bytes() and not work.exists()


def test_query_answers_from_the_tiered_database(tmp_path) -> None:
    db = tmp_path / "c.gdb"
    assert gamedp("solve", "connect4", "-V", "width=4", "-V", "height=3", "-V", "connect=3", "--db", str(db),
               "-r").returncode == 0
    out = gamedp("query", "connect4", "-V", "width=4", "-V", "height=3", "-V", "connect=3", "--db", str(db), "", "11")
    value = plain_solver(3, 3)
    expected = [Value(Outcome[v], r) for v, r in (value(("", "", "", "")), value(("XO", "", "", "")))]
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [f'"": {expected[0]}', f"11: {expected[1]}"]


@pytest.mark.parametrize("args,message", [
    (["-V", "width=0"], "width must be a whole number >= 1"),
    (["-V", "width=x"], "width"),
    (["-V", "depth=3"], "no variant parameter depth"),
    (["-V", "width=9", "-V", "height=9"], "more than 62 cells"),
    (["--cluster", "tcp://127.0.0.1:9", "-V", "width=3", "-V", "height=3"], "connection refused"),
    (["--workers", "2", "--cluster", "tcp://127.0.0.1:9", "-V", "width=3", "-V", "height=3"],
     "cannot be used together"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path) -> None:
    out = gamedp("solve", "connect4", *args, "--db", str(tmp_path / "c.gdb"), timeout=120)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamedp: error:") and message in lines[0], out.stderr
    assert not (tmp_path / "c.gdb").exists()


def test_a_tier_too_big_for_memory_or_disk_is_refused_up_front(tmp_path) -> None:
    out = gamedp("solve", "connect4", "--db", str(tmp_path / "c.gdb"))  # 7x6: 7e13 indices
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


@pytest.mark.slow
def test_gamedp_check_checks_the_tiers_of_connect4() -> None:
    out = gamedp("check", "connect4:3x3:3")
    assert out.returncode == 0 and "rank/unrank round trips" in out.stdout, out.stderr


def test_a_worker_that_cannot_see_the_database_directory_says_so(tmp_path) -> None:
    from gamedp.errors import GamedpError
    from gamedp.solvers.tier_solver.plan import Job
    from gamedp.solvers.tier_solver.worker import run_shard

    job = Job("connect4", (("connect", 3), ("height", 3), ("width", 3)), str(tmp_path / "elsewhere.tiers"), "{}",
              0, 0, 0, 1, False)
    with pytest.raises(GamedpError, match="workers must see the database directory"):
        run_shard(job)


class Slots(LocalExecutor):
    """Runs every job here, but asks for the cuts of a cluster of ``n`` workers."""

    def __init__(self, n: int):
        self.n = n

    def slots(self) -> int:
        return self.n


def interrupt_after(monkeypatch, kernel: str, when: Callable) -> Callable[[], None]:
    """Make the tier solver's ``kernel`` (run_marks or run_shard) raise KeyboardInterrupt, as a kill would, right
    after a job that ``when`` picks; returns what puts the real one back."""
    from gamedp.solvers.tier_solver import driver

    real = getattr(driver, kernel)

    def killed(job):
        result = real(job)
        if when(job):
            raise KeyboardInterrupt
        return result

    monkeypatch.setattr(driver, kernel, killed)
    return lambda: monkeypatch.setattr(driver, kernel, real)


def biggest_tier(game) -> int:
    return max(range(game.num_tiers), key=game.sizes.__getitem__)


def test_the_forward_pass_cut_into_pieces_gives_the_same_bytes(tmp_path, monkeypatch) -> None:
    game = connect4_table(4, 3, 3)
    solve_tiered(game, "connect4", tmp_path / "whole.gdb", remoteness=True)
    monkeypatch.setenv(SHARD_ENV, "256")
    stats = solve_tiered(game, "connect4", tmp_path / "pieces.gdb", remoteness=True, executor=Slots(3))
    assert stats["positions"] == len(reachable(4, 3, 3))
    assert (tmp_path / "pieces.gdb").read_bytes() == (tmp_path / "whole.gdb").read_bytes()


def test_a_forward_pass_resumed_with_another_number_of_workers_redoes_the_pieces_cut_otherwise(
        tmp_path, monkeypatch) -> None:
    """A solve killed in the forward pass leaves the marks of a tier's first pieces; resumed on another number of
    workers, the tier is cut otherwise, and a piece file of another range is made again, not ORed in."""
    game = connect4_table(4, 3, 3)
    solve_tiered(game, "connect4", tmp_path / "whole.gdb")
    monkeypatch.setenv(SHARD_ENV, "256")
    db, biggest = tmp_path / "c.gdb", biggest_tier(game)
    restore = interrupt_after(monkeypatch, "run_marks", lambda job: job.tier == biggest)
    with pytest.raises(KeyboardInterrupt):
        solve_tiered(game, "connect4", db, executor=Slots(3))
    assert [p.name for p in work_dir(db).glob("tier*.marks*")] == [f"tier{biggest}.marks0"]
    restore()
    solve_tiered(game, "connect4", db, executor=Slots(2))
    assert db.read_bytes() == (tmp_path / "whole.gdb").read_bytes()


@pytest.mark.parametrize("resumed_on", [1, 2])
def test_a_backward_pass_resumed_with_another_number_of_workers_redoes_the_shards_cut_otherwise(
        tmp_path, monkeypatch, resumed_on) -> None:
    """On several slots a tier's shards are cut by reachable positions, so another number of workers cuts them
    otherwise: a shard file of another range left by a killed solve is made again, not sealed in. (On 2 slots the
    cut kept in a reach file, made for 3, is not the one, so it is made again from the bits.)"""
    game = connect4_table(4, 4)
    solve_tiered(game, "connect4", tmp_path / "whole.gdb")
    monkeypatch.setenv(SHARD_ENV, "1024")  # the biggest tier: 3 pieces on 3 slots, then shards of 1024 at most
    db, biggest = tmp_path / "c.gdb", biggest_tier(game)
    last = game.sizes[biggest]  # killed after the biggest tier's last shard: all its shards there, none sealed
    restore = interrupt_after(monkeypatch, "run_shard", lambda job: job.tier == biggest and job.hi == last)
    with pytest.raises(KeyboardInterrupt):
        solve_tiered(game, "connect4", db, executor=Slots(3))
    assert len(list(work_dir(db).glob(f"tier{biggest}.shard*"))) > 6
    restore()
    solve_tiered(game, "connect4", db, executor=Slots(resumed_on))  # on 1: 34 shards of 1024 (and the rest)
    assert db.read_bytes() == (tmp_path / "whole.gdb").read_bytes()


def test_tiers_too_small_for_a_task_are_solved_by_the_driver(tmp_path, monkeypatch) -> None:
    """Only tiers of at least a shard over DRIVER_TIER indices go to the executor; the database is the same."""
    from gamedp.solvers.tier_solver.plan import DRIVER_TIER

    class Recording(Slots):
        tiers: set = set()

        def run(self, fn, jobs, on_done):
            self.tiers |= {job.tier for job in jobs}
            return super().run(fn, jobs, on_done)

    game = connect4_table(4, 3, 3)
    solve_tiered(game, "connect4", tmp_path / "whole.gdb")
    monkeypatch.setenv(SHARD_ENV, "1024")
    executor = Recording(2)
    solve_tiered(game, "connect4", tmp_path / "split.gdb", executor=executor)
    assert executor.tiers == {t for t, size in enumerate(game.sizes) if size >= 1024 // DRIVER_TIER}
    assert 0 < len(executor.tiers) < game.num_tiers
    assert (tmp_path / "split.gdb").read_bytes() == (tmp_path / "whole.gdb").read_bytes()


def test_the_backward_pass_cuts_a_tier_as_the_forward_pass_did(tmp_path, monkeypatch) -> None:
    """The forward pass keeps each tier's cut in its reach file; the backward pass, on as many slots, cuts the
    tier alike (then by shard size) without reading the bits, and on another number makes its own from them."""
    import numpy as np

    from gamedp.database import Container
    from gamedp.solvers.tier_solver import TierSolve, driver
    from gamedp.solvers.tier_solver.plan import capped, cuts

    class Recording(Slots):
        def __init__(self, n: int):
            super().__init__(n)
            self.pieces: dict = {}

        def run(self, fn, jobs, on_done):
            self.pieces[jobs[0].tier] = [(job.lo, job.hi) for job in jobs]
            return super().run(fn, jobs, on_done)

    game = connect4_table(4, 4)
    monkeypatch.setenv(SHARD_ENV, "1024")
    executor = Recording(3)
    solve = TierSolve(game, "connect4", tmp_path / "c.gdb", False, executor)
    solve._prepare_work()
    solve.reach()
    t = biggest_tier(game)
    bounds = [lo for lo, _ in executor.pieces[t]] + [game.sizes[t]]
    assert len(bounds) == 4
    with monkeypatch.context() as m:  # the kept cut: nothing computed again
        m.setattr(driver, "piece_bounds", lambda *a: pytest.fail("the cut was made again"))
        assert solve._shard_cuts(t, 3) == capped(bounds, 1024)
    with Container(solve.work / f"tier{t}.reach", "") as reach:
        bits = np.frombuffer(reach.section("reach"), dtype=np.uint8).copy()
    assert solve._shard_cuts(t, 2) == cuts(game.sizes[t], 2, 1024, bits, game.move_runs(t))
    assert solve._shard_cuts(t, 2) != capped(bounds, 1024)


def test_a_shard_file_damaged_before_a_resume_is_made_again(tmp_path, monkeypatch) -> None:
    """The seal trusts the shards of its solve; one left by a killed solve is checked, block by block, first."""
    game = connect4_table(4, 3, 3)
    solve_tiered(game, "connect4", tmp_path / "whole.gdb")
    monkeypatch.setenv(SHARD_ENV, "256")
    db, biggest = tmp_path / "c.gdb", biggest_tier(game)
    restore = interrupt_after(monkeypatch, "run_shard", lambda job: job.tier == biggest and job.shard == 1)
    with pytest.raises(KeyboardInterrupt):
        solve_tiered(game, "connect4", db)
    shard = work_dir(db) / f"tier{biggest}.shard1"
    data = bytearray(shard.read_bytes())
    data[-1] ^= 0x55  # the last byte of its codes, as a torn write would leave it
    shard.write_bytes(bytes(data))
    restore()
    solve_tiered(game, "connect4", db)
    assert db.read_bytes() == (tmp_path / "whole.gdb").read_bytes()


@pytest.mark.parametrize("width, height", [(4, 4), (5, 3), (3, 5)])
@pytest.mark.slow
def test_connect4s_move_runs_give_every_index_its_open_columns(width, height) -> None:
    """The tier solver weighs a piece's reachable positions by the moves move_runs gives their runs of indices:
    each must be the columns not full of every board in the run."""
    from gamedp.games.connect4_board import column_top

    game = connect4_table(width, height)
    f = game.functions()
    for t in range(game.num_tiers):
        run, moves = game.move_runs(t)
        assert run * len(moves) == game.sizes[t]
        for i in range(game.sizes[t]):
            key = f.unrank(t, i)
            columns = [(key >> (c * (height + 1))) & ((1 << (height + 1)) - 1) for c in range(width)]
            assert sum(column_top(col) < height for col in columns) == moves[i // run], (t, i)


# -- the first tiers in a forked process while a cluster starts ---------------------------------------------------
class Starting(LocalExecutor):
    """Runs every job here, like a cluster of ``n`` slots that takes until ``ready()`` says so to start."""

    def __init__(self, n: int, ready: Callable[[], bool]):
        self.n, self.ready, self.started = n, ready, False

    def start(self) -> None:
        deadline = time.monotonic() + 60
        while not self.ready():
            assert time.monotonic() < deadline
            time.sleep(0.01)
        self.started = True

    def slots(self) -> int:
        return self.n


@pytest.mark.parametrize("tiers_first", [0, 5, 13])
def test_the_first_tiers_passed_over_while_a_cluster_starts_give_the_same_bytes(tmp_path, monkeypatch,
                                                                               tiers_first) -> None:
    """A forked process passes over tiers until the cluster is up (here: until it has written the reach files of
    ``tiers_first`` tiers, or all of them), then hands the reachable indices so far back."""
    game = connect4_table(4, 3, 3)
    solve_tiered(game, "connect4", tmp_path / "whole.gdb")
    monkeypatch.setenv(SHARD_ENV, "256")
    db = tmp_path / "c.gdb"
    here = record_tiers_here(monkeypatch)
    executor = Starting(2, lambda: len(list(work_dir(db).glob("tier*.reach"))) >= tiers_first)
    solve_tiered(game, "connect4", db, executor=executor)
    assert executor.started
    # the child had begun that tier (or done them all): the driver did not start over
    assert (here[0][0] if here else game.num_tiers) >= tiers_first - 1
    assert db.read_bytes() == (tmp_path / "whole.gdb").read_bytes()


def record_tiers_here(monkeypatch) -> list[tuple[int, int]]:
    """The (tier, first index) of every forward-pass tier this process (not a forked one) passes over, as a list
    that fills as the solve goes."""
    from gamedp.solvers import tier_solver

    pid, real, calls = os.getpid(), tier_solver.TierSolve._reach_tier, []

    def recording(self, t, bits, start=0):
        if os.getpid() == pid:
            calls.append((t, start))
        return real(self, t, bits, start)

    monkeypatch.setattr(tier_solver.TierSolve, "_reach_tier", recording)
    return calls


@pytest.mark.slow
def test_a_tier_the_forked_process_was_in_when_the_cluster_came_up_is_finished_on_the_cluster(
        tmp_path, monkeypatch) -> None:
    """The forked process looks at whether the cluster is up every FIRST_STEP indices; told so in the middle of a
    tier, it hands over the indices it did, and the rest of the tier is cut into pieces for the cluster."""
    from gamedp.solvers.tier_solver import driver

    game = connect4_table(4, 4)
    solve_tiered(game, "connect4", tmp_path / "whole.gdb")
    monkeypatch.setenv(SHARD_ENV, "256")
    monkeypatch.setattr(driver, "FIRST_STEP", 256)
    here, real_mark = os.getpid(), driver.mark
    db, biggest, marked = tmp_path / "c.gdb", biggest_tier(game), tmp_path / "marked"

    def slow_there(game, tier, *rest):
        if os.getpid() == here:
            return real_mark(game, tier, *rest)
        time.sleep(0.02)
        done = real_mark(game, tier, *rest)
        if tier == biggest:
            marked.touch()
        return done

    monkeypatch.setattr(driver, "mark", slow_there)
    starts = record_tiers_here(monkeypatch)
    # up once the forked process has done a step of the biggest tier: a cluster up as soon as the tier began could
    # be seen before the forked process's first look, on a busy machine, and the tier would be handed over whole
    executor = Starting(2, marked.exists)
    solve_tiered(game, "connect4", db, executor=executor)
    first, start = starts[0]
    assert first == biggest and 0 < start < game.sizes[biggest] and start % 256 == 0
    assert db.read_bytes() == (tmp_path / "whole.gdb").read_bytes()


def test_a_failure_in_the_forked_first_tiers_is_passed_over_again_here(tmp_path, monkeypatch, capfd) -> None:
    """The forked process is only a head start: where it fails, this process does its tiers (and would say the
    error itself); it prints nothing."""
    from gamedp.solvers import tier_solver

    game = connect4_table(4, 3, 3)
    solve_tiered(game, "connect4", tmp_path / "whole.gdb")
    monkeypatch.setenv(SHARD_ENV, "256")
    here, real = os.getpid(), tier_solver.TierSolve._reach_file_of

    failed = tmp_path / "failed"

    def failing_there(self, t, bits, count):
        if os.getpid() != here and t == 4:
            failed.touch()
            raise OSError("no space left on device")
        return real(self, t, bits, count)

    monkeypatch.setattr(tier_solver.TierSolve, "_reach_file_of", failing_there)
    done_here = record_tiers_here(monkeypatch)
    db = tmp_path / "c.gdb"
    solve_tiered(game, "connect4", db, executor=Starting(2, failed.exists))
    assert done_here[0] == (0, 0)
    assert db.read_bytes() == (tmp_path / "whole.gdb").read_bytes()
    assert capfd.readouterr().err == ""


def test_the_forked_first_tiers_die_with_a_killed_driver(tmp_path) -> None:
    """A SIGKILLed driver must not leave its forked process writing beside the solve that resumes it."""
    script = f"""
import time
from pathlib import Path
from gamedp.executors import LocalExecutor
from gamedp.games.connect4_tiers import connect4_table
from gamedp.solvers import tier_solver

class Never(LocalExecutor):
    started = False
    def start(self):
        time.sleep(600)

real = tier_solver.TierSolve._reach_file_of
def slow(self, t, bits, count):
    time.sleep(600 if t == 2 else 0)  # killed in there
    return real(self, t, bits, count)
tier_solver.TierSolve._reach_file_of = slow
tier_solver.solve_tiered(connect4_table(4, 3, 3), "connect4", Path({str(tmp_path / 'c.gdb')!r}), executor=Never())
"""
    env = {**os.environ, SHARD_ENV: "256"}
    driver = subprocess.Popen([sys.executable, "-c", script], env=env)

    def stat(pid: int) -> list[str] | None:
        """The fields of /proc/PID/stat after the command (state first), or None once the process is gone."""
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None

    forked: list[int] = []
    try:
        wait_for(lambda: len(list(work_dir(tmp_path / "c.gdb").glob("tier*.reach"))) >= 2, driver)
        forked = [int(p.parent.name) for p in Path("/proc").glob("[0-9]*/stat")
                  if (fields := stat(int(p.parent.name))) and int(fields[1]) == driver.pid]
        assert len(forked) == 1
        driver.send_signal(signal.SIGKILL)
        driver.wait(timeout=30)
        deadline = time.monotonic() + 10
        while (fields := stat(forked[0])) is not None and fields[0] != "Z":
            assert time.monotonic() < deadline, "the forked process outlived its driver"
            time.sleep(0.05)
    finally:
        driver.kill()
        driver.wait(timeout=30)
        if forked and (fields := stat(forked[0])) is not None and fields[0] != "Z":  # the test failed: tidy up
            os.kill(forked[0], signal.SIGKILL)


@pytest.mark.parametrize("stop", ["start fails", "interrupted while handing over"])
def test_a_failed_start_or_an_interrupt_stops_the_forked_first_tiers(tmp_path, monkeypatch, stop) -> None:
    """The child's tiers are not wanted then: it is killed at once, not waited for (it would block forever
    sending bits nobody reads), and writes nothing more."""
    import multiprocessing
    import multiprocessing.connection
    import threading

    from gamedp.errors import InputError

    here, real_recv = os.getpid(), multiprocessing.connection.Connection.recv
    # 6x4's tier 16: its bits and the next tier's (3.5 MB) are more than a pipe holds, so a child left to send
    # them blocks
    game, db, raised, busy = connect4_table(6, 4), tmp_path / "c.gdb", [], 16

    class Failing(Starting):
        def start(self) -> None:
            super().start()
            if stop == "start fails":
                raise InputError("cannot reach a local cluster")

    def interrupted(conn):
        if os.getpid() == here and stop != "start fails":
            raise KeyboardInterrupt
        return real_recv(conn)

    monkeypatch.setattr(multiprocessing.connection.Connection, "recv", interrupted)
    monkeypatch.setenv(SHARD_ENV, "256")

    def solve() -> None:
        try:
            # up once the child is in the middle of that tier
            solve_tiered(game, "connect4", db, executor=Failing(1, (work_dir(db) / f"tier{busy}.reach").exists))
        except (InputError, KeyboardInterrupt) as e:
            raised.append(e)

    solving = threading.Thread(target=solve)
    solving.start()
    solving.join(timeout=60)
    assert not solving.is_alive(), "the solve waited on its forked process"
    assert raised and multiprocessing.active_children() == []
    written = sorted(p.name for p in work_dir(db).iterdir())
    time.sleep(0.3)
    assert sorted(p.name for p in work_dir(db).iterdir()) == written
