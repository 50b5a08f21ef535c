"""Databases and books planted by someone else, or forged, damaged or cut short under a running command: refused in
one line, never answered from, never a traceback or a death by signal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from command import GAMEDP, gamedp, one_clear_error

from gamedp.database import write_container, write_database
from gamedp.games.connect4 import Connect4
from gamedp.games.indexed import table_spec
from gamedp.solvers.opening_book import write_book

AS_ROOT = pytest.mark.skipif(os.getuid() != 0, reason="giving a file to another user takes root")
NOBODY = 65534
BOOK = "connect4-book_height4_width5.gdb"


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    """A database directory anyone may write in."""
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o777)
    return folder


def forged_tictactoe(folder: Path) -> Path:
    """A tic-tac-toe database whose checksums are right and whose every position is a WIN."""
    spec = table_spec("tictactoe")
    path = folder / "tictactoe.gdb"
    write_database(path, spec.game_id, spec.variant, spec.size, outcomes=b"\x55" * -(-spec.size // 4),
                   outcome_bits=2)
    return path


def book_of(folder: Path, score: int) -> Path:
    """A 5x4 Connect-Four book that gives the position after ``33`` (a TIE in 18) ``score``."""
    rules = Connect4(5, 4).score_search()
    path = folder / BOOK
    write_book(path, rules.book_id, rules.variant, 2, {rules.book_key(rules.read_moves("33")): score})
    return path


@AS_ROOT
def test_a_database_another_user_owns_is_not_answered_from(shared):
    path = forged_tictactoe(shared)
    path.chmod(0o666)
    os.chown(path, NOBODY, NOBODY)
    one_clear_error(gamedp("query", "tictactoe", ".........", db_dir=shared), str(path), f"owned by uid {NOBODY}",
                    "chown", "GAMEDP_DB_DIR")


def test_a_database_others_may_write_is_not_answered_from(shared):
    path = forged_tictactoe(shared)
    path.chmod(0o666)
    one_clear_error(gamedp("query", "tictactoe", ".........", db_dir=shared), str(path),
                    "writable by its group and others", "chmod go-w")
    path.chmod(0o644)  # this user's alone: answered (from the forged file: its checksums are right)
    assert gamedp("query", "tictactoe", ".........", db_dir=shared).stdout == ".........: WIN\n"


def test_databases_are_written_writable_by_their_owner_alone_whatever_the_umask(tmp_path):
    spec = table_spec("tictactoe")
    mask = os.umask(0)
    try:
        write_database(tmp_path / "t.gdb", spec.game_id, spec.variant, spec.size,
                       outcomes=bytes(-(-spec.size // 4)), outcome_bits=2)
    finally:
        os.umask(mask)
    assert (tmp_path / "t.gdb").stat().st_mode & 0o777 == 0o644


@AS_ROOT
def test_a_book_another_user_owns_is_not_answered_from(shared):
    path = book_of(shared, 9)
    path.chmod(0o666)
    os.chown(path, NOBODY, NOBODY)
    one_clear_error(gamedp("value", "connect4:5x4", stdin="33\n", db_dir=shared), str(path), f"owned by uid {NOBODY}")


@pytest.mark.parametrize("command", [["value", "connect4:5x4"], ["analyze", "connect4:5x4", "33"],
                                     ["explain", "connect4:5x4", "33"]])
def test_a_score_no_position_can_have_is_refused(shared, command):
    path = book_of(shared, 127)
    one_clear_error(gamedp(*command, stdin="33\n", db_dir=shared), str(path), "127", "damaged",
                    "gamedp book connect4:5x4")


@pytest.mark.parametrize("sections", [{"scores": b"\0"}, {"keys": bytes(8)}, {"keys": bytes(7), "scores": b"\0"},
                                      {"keys": bytes(16), "scores": b"\0"}])
@pytest.mark.parametrize("command", [["value", "connect4:5x4"], ["analyze", "connect4:5x4", "33"]])
def test_a_book_without_its_sections_whole_is_refused(shared, sections, command):
    """Checksums right, sections missing or of lengths that do not fit: damage, said in one line."""
    rules = Connect4(5, 4).score_search()
    path = shared / BOOK
    write_container(path, {"game_id": rules.book_id, "variant": rules.variant, "depth": 2, "size": 1},
                    list(sections.items()))
    one_clear_error(gamedp(*command, stdin="33\n", db_dir=shared), str(path), "damaged", "gamedp book connect4:5x4")


def test_a_book_cut_short_while_it_is_read_from_changes_no_answer(shared):
    """The book is read whole when opened: cut short (or rewritten) later, it is not read again, and the process
    is not killed by SIGBUS, as it was when the book was mapped."""
    book_of(shared, 0)
    env = {**os.environ, "GAMEDP_DB_DIR": str(shared)}
    with subprocess.Popen([*GAMEDP, "value", "connect4:5x4"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env=env) as process:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write("33\n")
        process.stdin.flush()
        assert process.stdout.readline() == "33\tTIE\t18\n"  # the book is open
        os.truncate(shared / BOOK, 0)
        out, err = process.communicate("33\n", timeout=60)
    assert (process.returncode, out, err) == (0, "33\tTIE\t18\n", "")


CUT_SHORT = """
import os, sys
from gamedp.database import DatabaseError, open_database
db = open_database(sys.argv[1])
db.value(0)
os.truncate(sys.argv[1], 0)
try:
    db.value(1)
except DatabaseError as e:
    print(e)
"""


def test_a_database_cut_short_while_it_is_read_from_is_refused_not_a_sigbus(tmp_path):
    """A database is mapped (it may be larger than memory); cut short under a reader (``cp`` over it while a
    server answers from it), it is refused as damaged, where reading the map killed the process by SIGBUS."""
    path = forged_tictactoe(tmp_path)
    done = subprocess.run([sys.executable, "-c", CUT_SHORT, str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", (done.returncode, done.stderr)
    assert done.stdout.startswith(f"the database {path} was cut short while it was read from: it is damaged")
