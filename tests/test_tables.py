"""The tiered table solver against plain brute force, its errors, checkpoints, kills, and the memory guard."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamedp.compiled import CompiledGame
from gamedp.database import DatabaseError, Reader
from gamedp.errors import GameDefinitionError, GamedpError
from gamedp.games.indexed import subtraction_table, table_spec, tictactoe_table
from gamedp.solvers import tables
from gamedp.solvers.tables import CompiledTable, checkpoint_path, code_at

NAMES = ("LOSE", "WIN", "TIE", "DRAW")
settings.register_profile("tables", deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
settings.load_profile("tables")


# -- plain brute force, from the rules ----------------------------------------------------------------------------
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def ttt_brute(mine: frozenset, theirs: frozenset) -> tuple[str, int]:
    """Tic-tac-toe by plain minimax: (outcome for the mover, remoteness); whoever has a line has won."""
    if any(set(line) <= theirs for line in LINES):
        return "LOSE", 0
    if any(set(line) <= mine for line in LINES):
        return "WIN", 0
    empty = [c for c in range(9) if c not in mine and c not in theirs]
    if not empty:
        return "TIE", 0
    results = [ttt_brute(theirs, mine | {c}) for c in empty]
    wins = [r for o, r in results if o == "LOSE"]
    ties = [r for o, r in results if o == "TIE"]
    if wins:
        return "WIN", min(wins) + 1
    if ties:
        return "TIE", min(ties) + 1
    return "LOSE", max(r for _, r in results) + 1


def subtraction_brute(n: int, moves: tuple, misere: bool) -> tuple[str, int]:
    options = [subtraction_brute(n - k, moves, misere) for k in moves if k <= n]
    if not options:
        return ("WIN" if misere else "LOSE"), 0
    wins = [r for o, r in options if o == "LOSE"]
    return ("WIN", min(wins) + 1) if wins else ("LOSE", max(r for _, r in options) + 1)


@pytest.fixture(scope="module")
def ttt_solved():
    outcomes, rem = tictactoe_table().solve_table(remoteness=True)
    return outcomes, rem


def cells(index: int) -> tuple[frozenset, frozenset]:
    digits = [(index // 3 ** i) % 3 for i in range(9)]
    return frozenset(i for i, d in enumerate(digits) if d == 1), frozenset(i for i, d in enumerate(digits) if d == 2)


@given(index=st.integers(1, 3 ** 9 - 1))  # the empty board is left to the memo cross-check (plain minimax is slow)
@settings(max_examples=300)
def test_tictactoe_table_matches_brute_force(ttt_solved, index):
    outcomes, rem = ttt_solved
    mine, theirs = cells(index)
    assert (NAMES[code_at(outcomes, index)], int(rem[index])) == ttt_brute(mine, theirs)


def test_tictactoe_table_matches_memo_solver_on_every_reachable_board(ttt_solved):
    from gamedp.games.tictactoe import TicTacToe
    from gamedp.solvers.memo import solve

    outcomes, rem = ttt_solved
    spec, game = tictactoe_table(), TicTacToe(symmetry=False)
    solution = solve(game)
    seen, todo = set(), [game.start()]
    while todo:
        board = todo.pop()
        if board in seen:
            continue
        seen.add(board)
        index = spec.index(spec.parse_position(board))
        value = solution.value(board)
        assert (NAMES[code_at(outcomes, index)], int(rem[index])) == (value.outcome.name, value.remoteness), board
        todo += game.children(board)
    assert len(seen) == 5478


@given(n=st.integers(0, 22), moves=st.sets(st.integers(1, 6), min_size=1, max_size=3), misere=st.booleans(),
       remoteness=st.booleans())
@settings(max_examples=30)
def test_subtraction_table_matches_brute_force(n, moves, misere, remoteness):
    spec = subtraction_table(n=n, moves=sorted(moves), misere=misere)
    outcomes, rem = spec.solve_table(remoteness=remoteness)
    assert (rem is not None) == remoteness and len(outcomes) == -(-(n + 1) // 4)
    for stones in range(n + 1):
        outcome, r = subtraction_brute(stones, tuple(moves), misere)
        assert NAMES[code_at(outcomes, stones)] == outcome
        if remoteness:
            assert rem[stones] == r


def test_threads_over_chunks_give_the_same_table(monkeypatch, ttt_solved):
    monkeypatch.setattr(tables, "BATCH", 64)  # every tier above 64 positions is cut into chunks for both cores
    for _ in range(5):  # races show up now and then, not every time
        calls = []
        outcomes, rem = tictactoe_table().solve_table(True, progress=lambda done, total: calls.append((done, total)))
        assert np.array_equal(outcomes, ttt_solved[0]) and np.array_equal(rem, ttt_solved[1])
    assert calls[-1] == (3 ** 9, 3 ** 9) and len(calls) > 20
    assert all(a[0] <= b[0] for a, b in zip(calls, calls[1:]))


# -- description errors ------------------------------------------------------------------------------------------
def line_game(children, tier, n=5, max_children=2, primitive=None):
    game = CompiledGame("line", 0, children, max_children, num_positions=n, primitive=primitive)
    return CompiledTable(game, tier, n + 1)


def _to_next(p, out):
    if p < 4:
        out[0] = p + 1
        return 1
    return 0


def _flat(p):
    return 0


def _up(p):
    return p


def _outside(p, out):
    out[0] = p + 10
    return 1


def _too_many(p, out):
    return 3


def _always_lose(p):
    return 1


def test_description_errors_are_named():
    with pytest.raises(GameDefinitionError, match=r"position 3 \(tier 0\) has the child 4 \(tier 0\): every move "
                                                  r"must go up a tier"):
        line_game(_to_next, _flat).solve_table(False)
    with pytest.raises(GameDefinitionError, match="has the child 14, outside 0..4"):
        line_game(_outside, _up).solve_table(False)
    with pytest.raises(GameDefinitionError, match="has 3 children, more than max_children=2"):
        line_game(_too_many, _up).solve_table(False)
    with pytest.raises(GameDefinitionError, match="is primitive but has 1 moves"):
        line_game(_to_next, _up, primitive=_always_lose).solve_table(False)
    with pytest.raises(GameDefinitionError, match=r"tier\(1\) = 1, outside 0..0"):
        CompiledTable(CompiledGame("line", 0, _to_next, 1, num_positions=5), _up, 1).solve_table(False)
    with pytest.raises(GamedpError, match="more than a byte holds"):
        subtraction_table(n=300, moves=[1]).solve_table(True)
    assert len(subtraction_table(n=300, moves=[1]).solve_table(False)[0]) == 76


# -- checkpoints, resume, SIGKILL ----------------------------------------------------------------------------------
def test_interrupted_solve_resumes_from_its_checkpoint(tmp_path, monkeypatch, ttt_solved):
    monkeypatch.setenv(tables.PAUSE_ENV, "0.001")  # a checkpoint after every tier
    ckpt = tmp_path / "t.ckpt"
    with pytest.raises(Crash):
        tictactoe_table().solve_table(True, crash_after_half, checkpoint=ckpt)
    assert ckpt.exists()
    spec = tictactoe_table()
    outcomes, rem = spec.solve_table(True, checkpoint=ckpt)
    assert spec.resumed_below_tier is not None and 0 < spec.resumed_below_tier < 10
    assert np.array_equal(outcomes, ttt_solved[0]) and np.array_equal(rem, ttt_solved[1])
    # A checkpoint of another request (here: without remoteness) is not used.
    other = subtraction_table(n=50)
    other.solve_table(False, checkpoint=ckpt)
    assert other.resumed_below_tier is None


def test_damaged_checkpoint_means_a_clean_start(tmp_path, ttt_solved):
    ckpt = tmp_path / "t.ckpt"
    ckpt.write_bytes(b"GAMEDPDB" + bytes(100))
    spec = tictactoe_table()
    outcomes, _ = spec.solve_table(False, checkpoint=ckpt)
    assert spec.resumed_below_tier is None and np.array_equal(outcomes, ttt_solved[0])


class Crash(Exception):
    pass


def crash_after_half(done, total):
    if done > total // 2:
        raise Crash


@pytest.mark.parametrize("make, remoteness", [(tictactoe_table, False), (tictactoe_table, True),
                                              (lambda: subtraction_table(n=300_000), False)])
def test_a_checkpoint_takes_no_more_room_than_the_database(tmp_path, monkeypatch, make, remoteness):
    """Checkpoints once kept a byte per position (four to eight times the database): now they are packed as
    the database is, 2 bits a position, or 1 when no tie or draw is solved yet."""
    if make is tictactoe_table:
        monkeypatch.setenv(tables.PAUSE_ENV, "0.001")  # ten tiers: a checkpoint after each
    else:
        monkeypatch.setattr(tables, "CHECKPOINT_SECONDS", 0.0)  # 300,001 tiers: a checkpoint every kernel call
    db = tmp_path / "x.gdb"
    with pytest.raises(Crash):
        make().solve_table(remoteness, crash_after_half, checkpoint=checkpoint_path(db))
    checkpoint = checkpoint_path(db).stat().st_size
    tables.build_database(make(), tmp_path / "whole.gdb", remoteness=remoteness)
    assert checkpoint <= (tmp_path / "whole.gdb").stat().st_size
    spec = make()  # and it still resumes, to the same table
    tables.build_database(spec, db, remoteness=remoteness)
    assert spec.resumed_below_tier is not None
    with Reader(db) as resumed, Reader(tmp_path / "whole.gdb") as whole:
        assert bytes(resumed.section("outcomes")) == bytes(whole.section("outcomes"))
        assert resumed.has_remoteness == remoteness
        if remoteness:
            assert bytes(resumed.section("remoteness")) == bytes(whole.section("remoteness"))


def test_stale_temporaries_of_killed_writes_are_removed_when_a_solve_starts(tmp_path):
    """A killed checkpoint write left a temporary file (200 MB seen) that nothing removed; now a solve removes,
    before it starts, the ones of its database and checkpoint whose writer is gone, and only those that are
    this user's regular files."""
    db = tmp_path / "t.gdb"
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    stale = [tmp_path / f".t.gdb.checkpoint.{gone}.k1l2.tmp", tmp_path / f".t.gdb.{gone}.abcd.tmp"]
    kept = [tmp_path / f".t.gdb.checkpoint.{os.getpid()}.live.tmp",  # a writer still running
            tmp_path / f".other.gdb.{gone}.abcd.tmp",                  # another database's
            tmp_path / f".t.gdb.checkpoint.{gone}.mine"]               # not a name gamedp gives
    for f in stale + kept:
        f.write_bytes(bytes(1 << 20))
    os.symlink(tmp_path / "target", tmp_path / f".t.gdb.{gone}.link.tmp")
    kept.append(tmp_path / f".t.gdb.{gone}.link.tmp")
    if os.getuid() == 0:
        theirs = tmp_path / f".t.gdb.{gone}.theirs.tmp"
        theirs.write_bytes(b"x")
        os.chown(theirs, 65534, 65534)
        kept.append(theirs)
    tables.build_database(subtraction_table(n=50), db)
    assert not any(f.exists() for f in stale)
    assert all(os.path.lexists(f) for f in kept)


def test_a_checkpoint_that_does_not_fit_does_not_stop_the_solve(tmp_path, monkeypatch, capfd, ttt_solved):
    """A disk with room for the database but not for a checkpoint: the solve warns once and goes on; and
    where the database fits only once the checkpoint is gone, the checkpoint makes room for it."""
    from gamedp import database

    monkeypatch.setenv(tables.PAUSE_ENV, "0.001")
    write = database.write_container

    def no_room_for_checkpoints(path, meta, sections):
        if str(path).endswith(".checkpoint"):
            raise GamedpError(f"cannot write {path}: No space left on device")
        write(path, meta, sections)

    monkeypatch.setattr(database, "write_container", no_room_for_checkpoints)
    db = tmp_path / "t.gdb"
    tables.build_database(tictactoe_table(), db)
    err = capfd.readouterr().err
    assert err.count("warning") == 1 and "No space left on device" in err and "without checkpoints" in err
    with Reader(db, "tictactoe", {}) as reader:
        assert all(reader.code(i) == code_at(ttt_solved[0], i) for i in range(0, 3 ** 9, 5))

    monkeypatch.setattr(database, "write_container", write)
    db.unlink()
    with pytest.raises(Crash):
        tictactoe_table().solve_table(False, crash_after_half, checkpoint=checkpoint_path(db))

    def room_for_one(path, meta, sections):
        if path == db and checkpoint_path(db).exists():
            raise GamedpError(f"cannot write {path}: No space left on device")
        write(path, meta, sections)

    monkeypatch.setattr(database, "write_container", room_for_one)
    tables.build_database(tictactoe_table(), db)
    assert db.exists() and not checkpoint_path(db).exists()


def run_gamedp(*args: str, env: dict | None = None, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "gamedp", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, **(env or {})}, **kw)


def wait_for(predicate, proc: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_sigkill_mid_solve_leaves_no_database_then_resumes(tmp_path, ttt_solved):
    db = tmp_path / "ttt.gdb"
    ckpt = checkpoint_path(db)
    proc = run_gamedp("solve", "tictactoe", "-r", "--db", str(db), env={tables.PAUSE_ENV: "0.4"})
    wait_for(ckpt.exists, proc)
    time.sleep(0.5)  # a tier or two more, perhaps mid-checkpoint
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not db.exists()
    with pytest.raises(DatabaseError):
        Reader(ckpt)  # the checkpoint never reads as a database
    done = subprocess.run([sys.executable, "-m", "gamedp", "solve", "tictactoe", "-r", "--db", str(db)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert re.search(r"resumed from the checkpoint \(tiers \d and up were solved\)", done.stderr), done.stderr
    assert not ckpt.exists()
    with Reader(db, "tictactoe", {}) as reader:
        reader.verify()
        for i in range(0, 3 ** 9, 7):
            assert reader.code(i) == code_at(ttt_solved[0], i) and reader.remoteness(i) == ttt_solved[1][i]


def test_sigkill_of_a_resolve_keeps_the_old_database(tmp_path, ttt_solved):
    db = tmp_path / "ttt.gdb"
    first = subprocess.run([sys.executable, "-m", "gamedp", "solve", "tictactoe", "--db", str(db)],
                           capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    before = db.read_bytes()
    proc = run_gamedp("solve", "tictactoe", "--force", "-r", "--db", str(db), env={tables.PAUSE_ENV: "5"})
    wait_for(lambda: checkpoint_path(db).exists(), proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert db.read_bytes() == before
    with Reader(db, "tictactoe", {}) as reader:
        reader.verify()
        assert not reader.has_remoteness


# -- memory guard, the command line --------------------------------------------------------------------------------
def test_memory_guard_refuses_up_front_naming_both_numbers(tmp_path):
    existing = tmp_path / "x.gdb"
    existing.write_bytes(b"GAMEDPDB not really")
    proc = subprocess.run([sys.executable, "-m", "gamedp", "solve", "subtraction", "-V", "n=10000000000000",
                           "--force", "--db", str(existing)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    found = re.search(r"needs about ([\d,]+) bytes of memory but ([\d,]+) bytes are available", proc.stderr)
    assert found, proc.stderr
    need, have = (int(x.replace(",", "")) for x in found.groups())
    assert need > have > 0
    assert need >= 10 ** 13 // 4  # at least the packed outcomes themselves
    assert list(tmp_path.iterdir()) == [existing] and existing.read_bytes() == b"GAMEDPDB not really"


def test_memory_guard_uses_available_memory(monkeypatch):
    monkeypatch.setattr(tables, "available_memory", lambda: 10_000)
    with pytest.raises(GamedpError, match=r"needs about [\d,]+ bytes of memory but 10,000 bytes are available"):
        tables.check_memory(tictactoe_table(), remoteness=True)
    assert tables.available_memory() > 0


def test_solve_reports_statistics_and_reuses_a_valid_database(tmp_path, ttt_solved):
    db = tmp_path / "sub.gdb"
    args = [sys.executable, "-m", "gamedp", "solve", "subtraction", "-V", "n=40", "-V", "moves=2,3", "-r", "--db",
            str(db), "--json"]
    first = subprocess.run(args, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    import json

    stats = json.loads(first.stdout)
    expected = [subtraction_brute(s, (2, 3), False) for s in range(41)]
    assert stats["outcomes"] == {o: sum(e[0] == o for e in expected) for o in ("LOSE", "WIN")}
    wins = [r for o, r in expected if o == "WIN"]
    assert stats["longest"]["WIN"]["remoteness"] == max(wins)
    assert expected[stats["longest"]["WIN"]["index"]] == ("WIN", max(wins))
    assert sum(stats["remoteness"]["WIN"].values()) == len(wins)
    assert not stats["already_solved"] and stats["bytes"] < 1024
    again = subprocess.run(args, capture_output=True, text=True)
    assert json.loads(again.stdout)["already_solved"] and json.loads(again.stdout)["outcomes"] == stats["outcomes"]
    damaged = bytearray(db.read_bytes())
    damaged[-3] ^= 1
    db.write_bytes(bytes(damaged))
    fixed = subprocess.run(args, capture_output=True, text=True)
    assert "is damaged; solving" in fixed.stderr and not json.loads(fixed.stdout)["already_solved"]
    with Reader(db, "subtraction", {"n": 40, "moves": [2, 3], "misere": False}) as reader:
        reader.verify()


def test_registry_entries():
    with pytest.raises(GamedpError, match="no variant parameter rows; its parameters: n=1000"):
        table_spec("subtraction", rows=3)
    with pytest.raises(GamedpError, match="n is the most stones"):
        table_spec("subtraction", n=-1)
    spec = table_spec("subtraction", n=10, moves=[2, 1, 2])
    assert spec.variant == {"n": 10, "moves": [1, 2], "misere": False}
    assert spec.index(spec.parse_position(" 7 ")) == 7
    with pytest.raises(GamedpError, match="outside this game's 0..10"):
        spec.parse_position("11")


@given(codes=st.lists(st.integers(0, 3), min_size=1, max_size=300), data=st.data())
def test_statistics_count_every_position_once(codes, data):
    packed = np.zeros(-(-len(codes) // 4), dtype=np.uint8)
    for i, c in enumerate(codes):
        packed[i // 4] |= c << (2 * (i % 4))
    rem = np.array(data.draw(st.lists(st.integers(0, 255), min_size=len(codes), max_size=len(codes))), np.uint8)
    plain = {NAMES[c]: codes.count(c) for c in range(4) if c in codes}
    assert tables.table_stats(packed, None, len(codes))["outcomes"] == plain
    with_rem = tables.table_stats(packed, rem, len(codes))
    assert with_rem["outcomes"] == plain
    for name in ("WIN", "LOSE"):
        mine = [int(r) for c, r in zip(codes, rem) if NAMES[c] == name]
        if mine:
            assert with_rem["longest"][name]["remoteness"] == max(mine)
            assert sum(with_rem["remoteness"][name].values()) == len(mine)


@pytest.mark.parametrize("option, message", [
    ("n=abc", "n must be a whole number, not 'abc'"),
    ("moves=1,x", "moves must be whole numbers separated by commas, not '1,x'"),
    ("misere=1", "misere must be true or false, not '1'"),
])
def test_variant_values_of_the_wrong_kind(option, message):
    from gamedp.games.indexed import parse_variant

    with pytest.raises(GamedpError, match=re.escape(f"subtraction: {message}")):
        table_spec("subtraction", **parse_variant([option]))
