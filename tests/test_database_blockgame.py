"""BLOCKGAME through the database: solve, query, the judge's look-up path, against a plain brute force."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from command import gamedp
from data import SAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamedp.database import Reader
from gamedp.games.indexed import table_spec



def placements(rows: int, cols: int) -> list[frozenset]:
    """Every L-tromino (3 cells of a 2x2 square) and domino, as sets of (row, col), from the rules."""
    pieces = set()
    for r in range(rows - 1):
        for c in range(cols - 1):
            square = {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)}
            pieces |= {frozenset(square - {cell}) for cell in square}
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                pieces.add(frozenset({(r, c), (r, c + 1)}))
            if r + 1 < rows:
                pieces.add(frozenset({(r, c), (r + 1, c)}))
    return sorted(pieces, key=sorted)


def brute(filled: frozenset, pieces: list[frozenset]) -> tuple[str, int]:
    """Plain recursion: (outcome for the mover, remoteness); no move loses."""
    results = [brute(filled | p, pieces) for p in pieces if not p & filled]
    if not results:
        return "LOSE", 0
    wins = [r for o, r in results if o == "LOSE"]
    return ("WIN", min(wins) + 1) if wins else ("LOSE", max(r for _, r in results) + 1)


def board_text(filled: frozenset, rows: int, cols: int) -> str:
    return "\n".join("".join("#" if (r, c) in filled else "." for c in range(cols)) for r in range(rows))


@pytest.fixture(scope="module")
def small_db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("bg")
    proc = gamedp("solve", "blockgame", "-V", "rows=3", "-V", "cols=4", "-r", db_dir=folder)
    assert proc.returncode == 0, proc.stderr
    assert "longest loss: remoteness" in proc.stdout
    return folder


@given(cells=st.sets(st.tuples(st.integers(0, 2), st.integers(0, 3)), min_size=5))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_small_board_database_matches_brute_force(small_db, cells):
    spec = table_spec("blockgame", rows=3, cols=4)
    filled = frozenset(cells)
    with Reader(next(small_db.glob("*.gdb")), spec.game_id, spec.variant, spec.size) as db:
        value = db.value(spec.index(spec.parse_position(board_text(filled, 3, 4))))
    assert (value.outcome.name, value.remoteness) == brute(filled, placements(3, 4))


@pytest.fixture(scope="module")
def full_db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("bg5")
    proc = gamedp("solve", "blockgame", db_dir=folder)
    assert proc.returncode == 0, proc.stderr
    return folder


def test_full_database_is_one_bit_per_board_plus_a_small_header(full_db):
    (path,) = full_db.glob("*.gdb")
    assert path.stat().st_size <= (1 << 25) * 2 // 8 + 4096
    with Reader(path) as db:
        assert db.outcome_bits == 1 and not db.has_remoteness
        db.verify()


def test_judge_answers_from_the_database(full_db, tmp_path):
    """The judge reads a saved table when there is one; its answers equal those computed without it."""
    import random

    rng = random.Random(5)
    boards = [board_text(frozenset((r, c) for r in range(5) for c in range(5) if rng.random() < p), 5, 5)
              for p in [0.0, 0.05, 0.2, 0.4, 0.6] * 20]
    text = f"{len(boards)}\n" + "\n".join(boards) + "\n"
    sample = (SAMPLES / "blockgame-sample.in").read_text()
    for judge_input in (sample, text):
        with_db = gamedp("judge", "blockgame", stdin=judge_input, db_dir=full_db)
        without = gamedp("judge", "blockgame", stdin=judge_input, db_dir=tmp_path)
        assert with_db.returncode == 0 and with_db.stdout == without.stdout
    assert with_db.stdout.count("\n") == 100
    # Proof that the database was read: damage every block, and the judge refuses instead of answering.
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (path,) = full_db.glob("*.gdb")
    data = bytearray(path.read_bytes())
    for offset in range(4096, len(data), 65536):
        data[offset] ^= 0x55
    (damaged / path.name).write_bytes(bytes(data))
    proc = gamedp("judge", "blockgame", stdin=sample, db_dir=damaged)
    assert proc.returncode == 2 and "solve again: gamedp solve blockgame" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_query_answers_the_official_sample(full_db):
    lines = [line.strip() for line in (SAMPLES / "blockgame-sample.in").read_text().split("\n") if line.strip()]
    boards = ["\n".join(lines[1 + 5 * k:6 + 5 * k]) for k in range(int(lines[0]))]
    proc = gamedp("query", "blockgame", *boards, db_dir=full_db)
    assert proc.returncode == 0, proc.stderr
    expected = (SAMPLES / "blockgame-sample.out").read_text().split()
    answers = [line.rpartition(": ")[2] for line in proc.stdout.splitlines()]  # each line: the board, then its value
    assert [line.rpartition(": ")[0] for line in proc.stdout.splitlines()] == [" ".join(b.split()) for b in boards]
    assert answers == ["WIN" if e == "WINNING" else "LOSE" for e in expected]


def test_blockgame_bad_requests(full_db):
    proc = gamedp("query", "blockgame", "###", db_dir=full_db)
    assert proc.returncode == 2 and "a blockgame board is 5 lines" in proc.stderr and "Traceback" not in proc.stderr
    proc = gamedp("query", "blockgame", "-V", "rows=2", ".." * 5, db_dir=full_db)
    assert proc.returncode == 2 and "no database of" in proc.stderr
    assert proc.stderr.rstrip().endswith("create it with: gamedp solve blockgame -V rows=2")


def test_judge_answers_from_the_database_without_numpy_or_numba(full_db):
    """Start-up is most of a look-up's cost: the database path imports neither numpy nor numba."""
    code = ("import sys; from gamedp.judge.blockgame import run; "
            "out = run(sys.stdin.read()); "
            "print(out, 'numpy' in sys.modules, 'numba' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], input=(SAMPLES / "blockgame-sample.in").read_text(),
                          capture_output=True, text=True, env={**os.environ, "GAMEDP_DB_DIR": str(full_db)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == (SAMPLES / "blockgame-sample.out").read_text().split() + ["False", "False"]
