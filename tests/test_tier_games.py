"""blockgame, tictactoe and subtraction on the tier solver: against plain brute force, the in-memory and the
sharded ways byte for byte, their errors, kills and resumes, stale temporary files, the memory guard."""

from __future__ import annotations

import functools
import json
import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from command import gamedp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamedp.database import Reader
from gamedp.errors import GameDefinitionError, GamedpError
from gamedp.games.impartial.subtraction_tiers import subtraction_table
from gamedp.games.indexed import table_spec
from gamedp.games.placement_tiers import blockgame_table
from gamedp.games.tictactoe_tiers import tictactoe_table
from gamedp.solvers.tier_solver import driver, files
from gamedp.solvers.statistics import table_stats
from gamedp.solvers.tier_solver import PAUSE_ENV, SHARD_ENV, solve_small, solve_tiered, work_dir
from gamedp.tiers import TieredGame, TierFunctions, check_tiers

NAMES = ("LOSE", "WIN", "TIE", "DRAW")
settings.register_profile("tables", deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
settings.load_profile("tables")


# -- plain brute force, from the rules ----------------------------------------------------------------------------
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@functools.lru_cache(maxsize=None)
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


def ttt_reached() -> dict[tuple[frozenset, frozenset], int]:
    """Every tic-tac-toe board play reaches from the empty one, breadth first (X moves first, play stops at a
    line or a full board), as (the mover's marks, the opponent's) -> the moves made."""
    level = {(frozenset(), frozenset())}
    seen: dict = {}
    for ply in range(10):
        for board in level:
            seen[board] = ply
        level = {(theirs, mine | {c}) for mine, theirs in level
                 if not any(set(line) <= mine or set(line) <= theirs for line in LINES)
                 for c in range(9) if c not in mine | theirs}
    return seen


def subtraction_reached(n: int, moves: tuple) -> set[int]:
    """The heaps play reaches from ``n`` stones."""
    seen, todo = set(), [n]
    while todo:
        heap = todo.pop()
        if heap not in seen:
            seen.add(heap)
            todo += [heap - k for k in moves if k <= heap]
    return seen


def subtraction_brute(n: int, moves: tuple, misere: bool) -> tuple[str, int]:
    options = [subtraction_brute(n - k, moves, misere) for k in moves if k <= n]
    if not options:
        return ("WIN" if misere else "LOSE"), 0
    wins = [r for o, r in options if o == "LOSE"]
    return ("WIN", min(wins) + 1) if wins else ("LOSE", max(r for _, r in options) + 1)


@pytest.fixture(scope="module")
def ttt_solved(tmp_path_factory):
    """Tic-tac-toe with remoteness, in memory by the plain functions (a tiny index space), as a database."""
    db = tmp_path_factory.mktemp("ttt") / "ttt.gdb"
    solve_tiered(tictactoe_table(), "tictactoe", db, remoteness=True)
    with Reader(db, "tictactoe", {}) as reader:
        yield db, reader


def cells(key: int) -> tuple[frozenset, frozenset]:
    digits = [(key // 3 ** i) % 3 for i in range(9)]
    return frozenset(i for i, d in enumerate(digits) if d == 1), frozenset(i for i, d in enumerate(digits) if d == 2)


def looked_up(reader: Reader, game: TieredGame, key: int) -> tuple[str, int]:
    index = game.index(key)
    return NAMES[reader.code(index)], reader.remoteness(index)


@given(key=st.integers(1, 3 ** 9 - 1))  # the empty board is left to the memo cross-check (plain minimax is slow)
@settings(max_examples=300)
def test_tictactoe_matches_brute_force(ttt_solved, key):
    mine, theirs = cells(key)
    assert looked_up(ttt_solved[1], tictactoe_table(), key) == ttt_brute(mine, theirs)


def test_tictactoe_matches_memo_solver_on_every_reachable_board(ttt_solved):
    from gamedp.games.tictactoe import TicTacToe
    from gamedp.solvers.memo import solve

    spec, game = tictactoe_table(), TicTacToe(symmetry=False)
    solution = solve(game)
    seen, todo = set(), [game.start()]
    while todo:
        board = todo.pop()
        if board in seen:
            continue
        seen.add(board)
        value = solution.value(board)
        assert looked_up(ttt_solved[1], spec, spec.parse_position(board)) == (value.outcome.name, value.remoteness)
        todo += game.children(board)
    assert len(seen) == 5478


def counted(values: dict, tier_of, terminal) -> dict:
    """The statistics ``gamedp solve`` reports, of ``values`` (position -> (outcome, remoteness)): per tier (by
    ``tier_of``), by outcome and by remoteness."""
    tiers = {}
    by_r: dict = {}
    for position, (outcome, r) in values.items():
        row = tiers.setdefault(tier_of(position), dict.fromkeys(("positions", "WIN", "LOSE", "TIE", "terminal"), 0))
        row["positions"] += 1
        row[outcome] += 1
        row["terminal"] += terminal(position)
        by_r.setdefault(outcome, {}).setdefault(str(r), 0)
        by_r[outcome][str(r)] += 1
    return {"tiers": tiers, "positions": len(values), "remoteness": by_r,
            "outcomes": {o: sum(v[0] == o for v in values.values()) for o in ("WIN", "LOSE", "TIE")}}


def assert_counts_what_play_reaches(stats: dict, game: TieredGame, values: dict, tier_of, terminal, key_of) -> None:
    """``stats`` of a solve with remoteness count exactly the positions ``values`` holds (those play reaches)."""
    want = counted(values, tier_of, terminal)
    assert {row["tier"]: {k: v for k, v in row.items() if k != "tier"} for row in stats["tiers"] if row["positions"]} \
        == want["tiers"]
    assert all(row["positions"] or not any(row[o] for o in ("WIN", "LOSE", "TIE")) for row in stats["tiers"])
    assert (stats["positions"], stats["outcomes"], stats["remoteness"]) == \
        (want["positions"], want["outcomes"], want["remoteness"])
    by_key = {key_of(position): value for position, value in values.items()}
    for outcome, longest in stats["longest"].items():  # the least index of the longest, among those play reaches
        assert by_key[game.position(longest["index"])] == (outcome, longest["remoteness"])
        assert longest["remoteness"] == max(r for o, r in values.values() if o == outcome)


@pytest.mark.parametrize("shard", [None, "256"])
def test_tictactoe_statistics_count_the_boards_play_reaches(tmp_path, monkeypatch, shard):
    """5,478 boards from the empty one (not the 3^9 the database answers): per tier, by outcome, by remoteness,
    in memory and sharded alike."""
    if shard:
        monkeypatch.setenv(SHARD_ENV, shard)
    reached = ttt_reached()
    game = tictactoe_table()
    stats = solve_tiered(game, "tictactoe", tmp_path / "t.gdb", remoteness=True)
    values = {board: ttt_brute(*board) for board in reached}

    def over(board: tuple[frozenset, frozenset]) -> bool:
        return any(set(line) <= marks for line in LINES for marks in board) or len(board[0] | board[1]) == 9

    assert_counts_what_play_reaches(stats, game, values, reached.get, over,
                                    lambda board: sum(3 ** c for c in board[0]) + sum(2 * 3 ** c for c in board[1]))
    assert len(reached) == 5478 and stats["index_space"] == 3 ** 9


def blockgame_reached(rows: int, cols: int) -> dict[int, tuple[str, int]]:
    """BLOCKGAME from the rules: every board (bit r * cols + c filled) play reaches from the empty one, placing
    dominoes and L-trominoes on empty cells, with its (outcome, remoteness) by plain minimax (no move loses)."""
    def cell(r: int, c: int) -> int:
        return 1 << (r * cols + c)

    pieces = [cell(r, c) | cell(r, c + 1) for r in range(rows) for c in range(cols - 1)]
    pieces += [cell(r, c) | cell(r + 1, c) for r in range(rows - 1) for c in range(cols)]
    for r in range(rows - 1):
        for c in range(cols - 1):
            square = cell(r, c) | cell(r, c + 1) | cell(r + 1, c) | cell(r + 1, c + 1)
            pieces += [square ^ cell(r + dr, c + dc) for dr in (0, 1) for dc in (0, 1)]
    values: dict[int, tuple[str, int]] = {}

    def value(board: int) -> tuple[str, int]:
        if board not in values:
            results = [value(board | p) for p in pieces if not board & p]
            wins = [r for o, r in results if o == "LOSE"]
            values[board] = ("WIN", min(wins) + 1) if wins else \
                ("LOSE", max(r for _, r in results) + 1) if results else ("LOSE", 0)
        return values[board]

    value(0)
    return values


@pytest.mark.parametrize("rows, cols", [(3, 4), (4, 4)])  # in memory by the plain rules; 64 boards a word
def test_blockgame_statistics_count_the_boards_play_reaches(tmp_path, rows, cols):
    values = blockgame_reached(rows, cols)
    game = blockgame_table(rows, cols)
    stats = solve_tiered(game, "blockgame", tmp_path / "b.gdb", remoteness=True)
    assert_counts_what_play_reaches(stats, game, values, lambda board: game.functions().tier_of(game.key(board)),
                                    lambda board: values[board] == ("LOSE", 0), game.key)
    assert stats["index_space"] == 1 << rows * cols > len(values)


@given(n=st.integers(0, 22), moves=st.sets(st.integers(1, 6), min_size=1, max_size=3), misere=st.booleans(),
       remoteness=st.booleans())
@settings(max_examples=30)
def test_subtraction_matches_brute_force(n, moves, misere, remoteness):
    game = subtraction_table(n=n, moves=sorted(moves), misere=misere)
    assert check_tiers(game).ok
    outcomes, rem, stats, _ = solve_small(game, remoteness)
    assert len(rem) == (n + 1 if remoteness else 0)
    reached = [subtraction_brute(heap, tuple(moves), misere)[0] for heap in subtraction_reached(n, tuple(moves))]
    assert {o: sum(s[o] for s in stats) for o in ("positions", "WIN", "LOSE")} == \
        {"positions": len(reached), "WIN": reached.count("WIN"), "LOSE": reached.count("LOSE")}
    for stones in range(n + 1):
        outcome, r = subtraction_brute(stones, tuple(moves), misere)
        i = game.index(stones)
        assert NAMES[(outcomes[i >> 2] >> 2 * (i & 3)) & 3] == outcome
        if remoteness:
            assert rem[i] == r


@pytest.mark.parametrize("name, variant", [("tictactoe", {}), ("blockgame", {"rows": 3, "cols": 4}),
                                           ("subtraction", {"n": 200, "moves": [2, 3, 5], "misere": True})])
@pytest.mark.slow
def test_in_memory_and_sharded_solves_give_the_same_bytes(tmp_path, monkeypatch, name, variant):
    """A tiny index space is solved in memory by the plain functions; the sharded way (the generic kernels, or
    BLOCKGAME's 64 boards per word) must write the very same database."""
    game = table_spec(name, **variant)
    assert check_tiers(game, compiled=True).ok
    small, sharded = tmp_path / "small.gdb", tmp_path / "sharded.gdb"
    assert solve_tiered(game, name, small, remoteness=True)["resumed_shards"] == 0
    monkeypatch.setenv(SHARD_ENV, "256")
    solve_tiered(game, name, sharded, remoteness=True)
    assert small.read_bytes() == sharded.read_bytes()
    assert not work_dir(sharded).exists()


def test_blockgame_words_match_the_plain_rules_on_every_small_board(tmp_path):
    """BLOCKGAME's shards come from the word-parallel table; the plain rules (what `gamedp check` verifies) give
    the same values and statistics on every board of small boards."""
    for rows, cols in ((2, 3), (3, 3), (2, 5), (4, 3)):
        game = blockgame_table(rows, cols)
        assert check_tiers(game).ok
        outcomes, rem, stats, _ = solve_small(game, True)
        for t in range(game.num_tiers):
            codes, words_rem, word_stats = game.shard_values(t, 0, game.sizes[t], True)
            at = game.offsets[t]
            plain = [(outcomes[(at + i) >> 2] >> 2 * ((at + i) & 3)) & 3 for i in range(game.sizes[t])]
            assert codes.tolist() == plain and words_rem.tolist() == list(rem[at:at + game.sizes[t]])
            assert word_stats == stats[t], (rows, cols, t)


class Broken(TieredGame):
    """A line of positions 0..4 whose rules break the tier contract on request."""

    every_index = True

    def __init__(self, fault: str):
        super().__init__("broken", {"fault": fault}, num_tiers=5, max_children=1, start=0)
        self.fault = fault

    def tier_size(self, tier: int) -> int:
        return 1

    def child_tiers(self, tier: int) -> tuple[int, ...]:
        return (tier + 1,) if tier < 4 else ()

    def functions(self) -> TierFunctions:
        fault = self.fault

        def children(key, out):
            if key < 4:
                out[0] = key + (2 if fault == "skip" else 1)
                return 1
            return 0

        def primitive(key):
            return 7 if fault == "primitive" and key == 2 else 0

        return TierFunctions(lambda key: 0, lambda tier, index: tier, lambda key: key, children, primitive)


def test_description_errors_are_named(tmp_path):
    with pytest.raises(GameDefinitionError, match=r"position 3 \(tier 3\) has the child 5, which is not in a declared "
                                                  r"child tier"):
        solve_tiered(Broken("skip"), "broken", tmp_path / "a.gdb")
    with pytest.raises(GameDefinitionError, match=r"primitive\(2\) returned 7; expected 0-3"):
        solve_tiered(Broken("primitive"), "broken", tmp_path / "b.gdb")
    with pytest.raises(GamedpError, match="more than a byte holds"):
        solve_small(subtraction_table(n=300, moves=[1]), True)
    assert solve_small(subtraction_table(n=300, moves=[1]), False)[2][0]["WIN"] == 0  # 300 stones, taking 1: LOSE
    assert not list(tmp_path.iterdir())


# -- kills, resumes, stale temporaries --------------------------------------------------------------------------
def run_gamedp(*args: str, env: dict | None = None, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "gamedp", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, **(env or {})}, **kw)


def wait_for(predicate, proc: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)


BLOCK = ["solve", "blockgame", "-V", "rows=3", "-V", "cols=4", "-r"]  # 4,096 boards, 7 tiers


def test_sigkill_mid_solve_leaves_no_database_then_resumes_at_the_last_shard(tmp_path):
    whole, db = tmp_path / "whole.gdb", tmp_path / "block.gdb"
    env = {SHARD_ENV: "256"}
    done = gamedp(*BLOCK, "--db", str(whole), env=env)
    assert done.returncode == 0, done.stderr
    proc = run_gamedp(*BLOCK, "--db", str(db), env={**env, PAUSE_ENV: "0.3"})
    wait_for(lambda: len(list(work_dir(db).glob("tier*.shard*"))) >= 2, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not db.exists()
    again = gamedp(*BLOCK, "--db", str(db), env=env)
    assert again.returncode == 0, again.stderr
    assert re.search(r"resumed: \d+ shards were already solved", again.stderr), again.stderr
    assert db.read_bytes() == whole.read_bytes() and not work_dir(db).exists()


def test_sigkill_of_a_resolve_keeps_the_old_database(tmp_path):
    db = tmp_path / "block.gdb"
    first = gamedp(*BLOCK[:-1], "--db", str(db))
    assert first.returncode == 0, first.stderr
    before = db.read_bytes()
    proc = run_gamedp(*BLOCK, "--force", "--db", str(db), env={SHARD_ENV: "256", PAUSE_ENV: "5"})
    wait_for(lambda: any(work_dir(db).glob("tier*.shard*")), proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert db.read_bytes() == before
    with Reader(db, "blockgame", {"rows": 3, "cols": 4}) as reader:
        reader.verify()
        assert not reader.has_remoteness


def test_stale_temporaries_of_killed_writes_are_removed_when_a_solve_starts(tmp_path, monkeypatch):
    """Killed writers leave temporary files (of a shard, a tier, the database); a solve removes, before it starts,
    those whose writer is gone, and only those that are gamedp's."""
    gone = _dead_pid()
    db = tmp_path / "t.gdb"
    work = work_dir(db)
    work.mkdir()
    (work / "identity.json").write_text(files.identity(tictactoe_table(), False, 256))  # a solve to resume
    stale = [work / f".tier3.shard0.{gone}.k1l2.tmp", work / f".tier2.values.{gone}.abcd.tmp",
             tmp_path / f".t.gdb.{gone}.x9.tmp"]
    kept = [work / f".tier3.shard1.{os.getpid()}.live.tmp", tmp_path / f".t.gdb.{gone}.mine"]
    for p in stale + kept:
        p.write_bytes(b"x" * 100)
    monkeypatch.setenv(SHARD_ENV, "256")
    monkeypatch.setenv(PAUSE_ENV, "0")
    with pytest.raises(KeyboardInterrupt):  # stopped at the first shard: the clean-up came before it
        monkeypatch.setattr(driver, "run_shard", _interrupt)
        solve_tiered(tictactoe_table(), "tictactoe", db)
    assert not any(p.exists() for p in stale) and all(p.exists() for p in kept)


def _interrupt(job):
    raise KeyboardInterrupt


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


# -- memory guard, the command line --------------------------------------------------------------------------------
def test_memory_guard_refuses_up_front_naming_both_numbers(tmp_path, monkeypatch):
    import gamedp.memory

    monkeypatch.setattr(gamedp.memory, "available_memory", lambda: 10_000)
    with pytest.raises(GamedpError, match=r"needs about [\d,]+ bytes of memory even sharded .* but 10,000 are "
                                          r"available; refusing to start"):
        solve_tiered(blockgame_table(), "blockgame", tmp_path / "b.gdb", remoteness=True)
    assert not list(tmp_path.iterdir())
    with pytest.raises(GamedpError, match="n=10000000000000 stones is more than the tier solver takes"):
        table_spec("subtraction", n=10 ** 13)


def test_solve_reports_statistics_and_reuses_a_valid_database(tmp_path):
    db = tmp_path / "sub.gdb"
    args = [sys.executable, "-m", "gamedp", "solve", "subtraction", "-V", "n=40", "-V", "moves=2,3", "-r", "--db",
            str(db), "--json"]
    first = subprocess.run(args, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    stats = json.loads(first.stdout)
    expected = {s: subtraction_brute(s, (2, 3), False) for s in subtraction_reached(40, (2, 3))}  # not 39
    assert stats["outcomes"] == {o: sum(e[0] == o for e in expected.values()) for o in ("LOSE", "WIN", "TIE")}
    assert stats["positions"] == len(expected) and stats["index_space"] == 41
    wins = [r for o, r in expected.values() if o == "WIN"]
    spec = table_spec("subtraction", n=40, moves=[2, 3])
    assert stats["longest"]["WIN"]["remoteness"] == max(wins)
    assert expected[spec.position(stats["longest"]["WIN"]["index"])] == ("WIN", max(wins))
    assert sum(stats["remoteness"]["WIN"].values()) == len(wins)
    assert not stats["already_solved"] and stats["bytes"] < 4096  # mostly the header's statistics per tier
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
    assert spec.parse_position(" 7 ") == 7 and spec.position(spec.index(7)) == 7
    with pytest.raises(GamedpError, match="outside this game's 0..10"):
        spec.parse_position("11")


@given(codes=st.lists(st.integers(0, 3), min_size=1, max_size=300), data=st.data())
def test_statistics_count_every_position_once(codes, data):
    packed = np.zeros(-(-len(codes) // 4), dtype=np.uint8)
    for i, c in enumerate(codes):
        packed[i // 4] |= c << (2 * (i % 4))
    rem = np.array(data.draw(st.lists(st.integers(0, 255), min_size=len(codes), max_size=len(codes))), np.uint8)
    plain = {NAMES[c]: codes.count(c) for c in range(4) if c in codes}
    assert table_stats(packed, None, len(codes))["outcomes"] == plain
    with_rem = table_stats(packed, rem, len(codes))
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


def test_a_torn_working_file_is_redone_not_trusted(tmp_path):
    """Working files are written without fsync: after a crash one may be whole in its header and torn in its
    data. Resuming checks every block, and one that fails is removed (so its shard or tier is solved again)."""
    from gamedp.database import write_container

    ident = "a solve"
    path = tmp_path / "tier3.values"
    write_container(path, {"identity": ident, "tier": 3}, [("codes0", bytes(range(200)) * 700)], durable=False)
    f = files.open_whole(path, ident)
    assert f is not None
    f.close()
    data = bytearray(path.read_bytes())
    data[-1000] ^= 1
    path.write_bytes(bytes(data))
    assert files.open_whole(path, ident) is None and not path.exists()
