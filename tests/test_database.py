"""The database file: round trips, corruption and truncation caught, foreign and newer files refused, atomic writes."""

from __future__ import annotations

import json
import os
import stat
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from command import gamedp, one_clear_error
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamedp import database
from gamedp.database import DatabaseError, Reader, find, open_database, write_database
from gamedp.errors import GamedpError
from gamedp.values import Outcome

NAMES = ("LOSE", "WIN", "TIE", "DRAW")
settings.register_profile("db", deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
settings.load_profile("db")


def pack(codes: list[int], bits: int) -> bytes:
    """Pack codes the plain way, bit by bit, as the format document says."""
    out = bytearray(-(-len(codes) * bits // 8))
    for i, c in enumerate(codes):
        out[i * bits // 8] |= c << (i * bits % 8)
    return bytes(out)


def make(path: Path, codes: list[int], rem: list[int] | None = None, game: str = "g", variant=None) -> None:
    bits = 1 if max(codes, default=0) <= 1 else 2
    write_database(path, game, variant or {"n": len(codes)}, len(codes), outcomes=pack(codes, bits),
                   outcome_bits=bits, remoteness=None if rem is None else bytes(rem))


code_lists = st.integers(1, 3).flatmap(lambda top: st.lists(st.integers(0, top), min_size=1, max_size=400))


@given(codes=code_lists, with_rem=st.booleans(), data=st.data())
def test_round_trip(tmp_path, codes, with_rem, data):
    rem = data.draw(st.lists(st.integers(0, 255), min_size=len(codes), max_size=len(codes))) if with_rem else None
    path = tmp_path / "x.gdb"
    make(path, codes, rem)
    with open_database(path, "g", {"n": len(codes)}, len(codes)) as db:
        db.verify()
        assert db.outcome_bits == (1 if max(codes) <= 1 else 2)
        for i, c in enumerate(codes):
            assert db.outcome(i).name == NAMES[c]
            expected = None if rem is None or c == 3 else rem[i]
            assert db.remoteness(i) == expected
        with pytest.raises(IndexError):
            db.code(len(codes))


def test_big_database_uses_many_blocks_and_one_bit(tmp_path):
    size = 3 * database.BLOCK_SIZE * 8 + 5  # four blocks at one bit per position
    codes = [(i * 7919 >> 3) & 1 for i in range(size)]
    path = tmp_path / "big.gdb"
    make(path, codes)
    with Reader(path) as db:
        assert db.meta["sections"][0]["blocks"] == 4
        assert all(db.outcome(i).name == NAMES[codes[i]] for i in range(0, size, 997))
    assert path.stat().st_size <= size // 8 + 1 + 1024  # one bit a position plus a small header


def test_every_flipped_byte_is_detected(tmp_path):
    codes = [i % 3 for i in range(300)]
    path = tmp_path / "x.gdb"
    make(path, codes, [i % 200 for i in range(300)])
    good = path.read_bytes()
    for at in range(len(good)):
        damaged = bytearray(good)
        damaged[at] ^= 1 << (at % 8)
        path.write_bytes(bytes(damaged))
        with pytest.raises(DatabaseError) as caught:
            with Reader(path, "g", {"n": 300}) as db:
                db.verify()
        assert caught.value.damaged and "solve again: gamedp solve g -V n=300" in str(caught.value), at


def test_damage_found_on_first_read_of_a_block(tmp_path):
    size = 2 * database.BLOCK_SIZE * 4  # two blocks at two bits
    codes = [2] * size
    path = tmp_path / "x.gdb"
    make(path, codes)
    damaged = bytearray(path.read_bytes())
    damaged[-1] ^= 0xFF  # the last block's last byte
    path.write_bytes(bytes(damaged))
    with Reader(path) as db:
        assert db.outcome(0).name == "TIE"  # the first block is whole
        with pytest.raises(DatabaseError, match="outcomes block 1"):
            db.outcome(size - 1)


@given(cut=st.integers(0, 10_000))
def test_truncated_file_is_refused(tmp_path, cut):
    path = tmp_path / "x.gdb"
    make(path, [1, 0, 2] * 1000, [5] * 3000)
    whole = path.read_bytes()
    path.write_bytes(whole[:cut % len(whole)])
    with pytest.raises(DatabaseError, match="damaged") as caught:
        Reader(path)
    assert caught.value.damaged


def newer_version(path: Path) -> None:
    data = bytearray(path.read_bytes())
    length = struct.unpack_from("<I", data, 12)[0]
    struct.pack_into("<I", data, 8, database.FORMAT_VERSION + 1)
    struct.pack_into("<I", data, 16 + length, zlib.crc32(bytes(data[:16 + length])))
    path.write_bytes(bytes(data))


def test_newer_format_version_is_refused_as_newer(tmp_path):
    path = tmp_path / "x.gdb"
    make(path, [1, 0])
    newer_version(path)
    with pytest.raises(DatabaseError, match="newer gamedp") as caught:
        Reader(path)
    assert not caught.value.damaged


def test_other_game_or_variant_is_refused(tmp_path):
    path = tmp_path / "x.gdb"
    make(path, [1, 0, 1], game="g", variant={"n": 3})
    with pytest.raises(DatabaseError, match=r"database of g \(n=3\), not of h \(n=3\)"):
        Reader(path, "h", {"n": 3})
    with pytest.raises(DatabaseError, match=r"not of g \(n=4\)"):
        Reader(path, "g", {"n": 4})
    with pytest.raises(DatabaseError, match="positions"):
        Reader(path, "g", {"n": 3}, size=4)
    assert Reader(path, "g", {"n": 3}, size=3).value(0).outcome.name == "WIN"


def test_checkpoint_is_never_a_database(tmp_path):
    path = tmp_path / "x.gdb"
    database.write_container(path, {"game_id": "g", "variant": {}, "size": 1, "checkpoint": {"solved_from_tier": 1},
                                    "encoding": {"outcome_bits": 2, "remoteness": None}}, [("outcomes", b"\0")])
    with pytest.raises(DatabaseError, match="checkpoint of an unfinished solve"):
        Reader(path)


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "x.gdb"
    make(path, [1, 1, 1])
    before = path.read_bytes()

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(GamedpError, match="No space left"):
        make(path, [0, 0, 0])
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["x.gdb"]


def test_stale_temporaries_of_dead_writers_are_removed(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f".x.gdb.{dead.stdout.strip()}.abc.tmp"
    stale.write_bytes(b"half a file")
    make(tmp_path / "x.gdb", [1])
    assert not stale.exists()


def test_default_locations(monkeypatch, tmp_path):
    monkeypatch.delenv("GAMEDP_DB_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert database.db_dir() == tmp_path / "xdg" / "gamedp" / "db"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert database.db_dir() == tmp_path / "home" / ".cache" / "gamedp" / "db"
    monkeypatch.setenv("GAMEDP_DB_DIR", str(tmp_path / "env"))
    assert database.default_path("g", {"n": 3}) == tmp_path / "env" / "g_n3.gdb"
    assert database.default_path("g", {"n": 3}, tmp_path) == tmp_path / "g_n3.gdb"  # a directory
    assert database.default_path("g", {"n": 3}, tmp_path / "f.gdb") == tmp_path / "f.gdb"
    assert database.file_name("g", {"s": "a/b"}).startswith("g_")  # odd values fall back to a checksum name
    assert "/" not in database.file_name("g", {"s": "a/b"})


def test_find(monkeypatch, tmp_path):
    monkeypatch.setenv("GAMEDP_DB_DIR", str(tmp_path))
    assert find("g", {"n": 2}) is None
    make(tmp_path / "g_n2.gdb", [1, 0])
    db = find("g", {"n": 2})
    assert isinstance(db, Reader) and db.outcome(1).name == "LOSE"
    db.close()
    (tmp_path / "g_n2.gdb").write_bytes(b"GAMEDPDB" + bytes(40))
    with pytest.raises(DatabaseError, match="damaged"):
        find("g", {"n": 2})


def test_check_writable(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(GamedpError, match="cannot write the database"):
        database.check_writable(blocker / "sub" / "x.gdb")
    with pytest.raises(GamedpError, match="is a directory, not a regular file"):
        database.check_writable(tmp_path)
    database.check_writable(tmp_path / "new" / "x.gdb")
    assert list((tmp_path / "new").iterdir()) == []


def test_format_matches_its_documentation(tmp_path):
    path = tmp_path / "x.gdb"
    make(path, [0, 1, 2, 3, 1], [1, 2, 3, 4, 5])
    data = path.read_bytes()
    magic, version, length = struct.unpack_from("<8sII", data)
    assert (magic, version) == (b"GAMEDPDB", 2)
    meta = json.loads(data[16:16 + length])
    assert struct.unpack_from("<I", data, 16 + length)[0] == zlib.crc32(data[:16 + length])
    start = -(-(16 + length + 4) // 64) * 64
    sections = {s["name"]: s for s in meta["sections"]}
    out = sections["outcomes"]
    body = data[start + out["offset"]:start + out["offset"] + out["length"]]
    assert body == bytes([0b11100100, 0b01])
    assert struct.unpack_from("<I", data, start + out["crc_offset"])[0] == zlib.crc32(body)
    rem = sections["remoteness"]
    assert data[start + rem["offset"]:start + rem["offset"] + 5] == bytes([1, 2, 3, 4, 5])
    assert meta["encoding"] == {"outcome_bits": 2, "remoteness": "u8"}


def test_a_version_1_file_without_a_reachable_section_reads_as_it_did(tmp_path, monkeypatch):
    """Only version 1's separate reachability changed meaning; any other version-1 file is read as before."""
    path = tmp_path / "x.gdb"
    with monkeypatch.context() as m:
        m.setattr(database, "FORMAT_VERSION", 1)
        make(path, [0, 1, 2, 3, 1], [1, 2, 3, 4, 5])
    with Reader(path) as db:
        assert db.version == 1 and db.unreachable_code is None
        assert [str(db.value(i)) for i in range(5)] == ["LOSE in 1", "WIN in 2", "TIE in 3", "DRAW", "WIN in 5"]
        assert all(db.reachable(i) for i in range(5))


def test_code_3_marks_unreachable_when_the_encoding_says_so(tmp_path):
    path = tmp_path / "x.gdb"
    meta = {"game_id": "g", "variant": {}, "size": 5, "encoding": {"outcome_bits": 2, "remoteness": None,
                                                                   "unreachable": 3}}
    database.write_container(path, meta, [("outcomes", pack([0, 1, 2, 3, 1], 2))])
    with Reader(path) as db:
        assert [db.reachable(i) for i in range(5)] == [True, True, True, False, True]
        assert [db.outcome(i).name for i in range(5)] == ["LOSE", "WIN", "TIE", "LOSE", "WIN"]  # as version 1 read
    for bad in ({"outcome_bits": 2, "unreachable": 2}, {"outcome_bits": 1, "unreachable": 3}):
        outcomes = pack([0, 1, 1, 0, 1], bad["outcome_bits"])
        database.write_container(path, {**meta, "encoding": bad}, [("outcomes", outcomes)])
        with pytest.raises(DatabaseError, match="unreadable metadata") as caught:
            Reader(path)
        assert caught.value.damaged


# -- through the command line ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tictactoe_db(tmp_path_factory) -> Path:
    """A tic-tac-toe database with remoteness, solved once by the real command."""
    path = tmp_path_factory.mktemp("db") / "ttt.gdb"
    proc = gamedp("solve", "tictactoe", "-r", "--db", str(path))
    assert proc.returncode == 0, proc.stderr
    assert "longest win: remoteness" in proc.stdout and "TIE" in proc.stdout
    return path


def test_query_answers_without_numba_or_numpy(tictactoe_db):
    code = ("import sys; from gamedp.cli.main import main\n"
            "try: main(['query', 'tictactoe', '--db', sys.argv[1], '.........', 'XX.OO....', 'X.XOO....'])\n"
            "except SystemExit: pass\n"
            "print('numba' in sys.modules, 'numpy' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code, str(tictactoe_db)], capture_output=True, text=True)
    assert proc.stdout.split("\n") == [".........: TIE in 9", "XX.OO....: WIN in 1", "X.XOO....: WIN in 1", "False False", ""], proc.stderr


@pytest.mark.parametrize("remoteness", [[], ["-r"]])
def test_a_small_solve_imports_neither_numba_nor_numpy_and_writes_the_same_bytes(tictactoe_db, tmp_path, remoteness):
    """An index space small enough for the plain functions is solved and written without numpy (its import is
    most of such a run); the file is the one the fixture's run wrote (with -r), or its outcomes alone."""
    path = tmp_path / "ttt.gdb"
    code = ("import sys; from gamedp.cli.main import main\n"
            "try: main(['solve', 'tictactoe', '--db', sys.argv[1], *sys.argv[2:]])\n"
            "except SystemExit: pass\n"
            "print('numba' in sys.modules, 'numpy' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code, str(path), *remoteness], capture_output=True, text=True)
    assert proc.stdout.splitlines()[-1] == "False False", proc.stderr
    if remoteness:
        assert path.read_bytes() == tictactoe_db.read_bytes()
    else:
        from gamedp.games.tictactoe_tiers import tictactoe_table

        game = tictactoe_table()
        opened = [Reader(p, game.game_id, game.variant, game.size) for p in (path, tictactoe_db)]
        with opened[0] as db, opened[1] as full:
            assert not db.has_remoteness
            assert all(db.outcome(i) == full.outcome(i) for i in range(0, 3 ** 9, 7))
            assert db.outcome(game.index(game.parse_position("XX.OO...."))) is Outcome.WIN


def test_query_json_agrees_with_the_memo_solver(tictactoe_db):
    from gamedp.games.tictactoe import TicTacToe
    from gamedp.solvers.memo import solve

    boards = ["XXO.O....", "X...O....", "XO.XO....", "XOXOXO..."]
    proc = gamedp("query", "tictactoe", "--db", str(tictactoe_db), "--json", *boards)
    solution = solve(TicTacToe(symmetry=False))
    for board, line in zip(boards, proc.stdout.splitlines(), strict=True):
        assert json.loads(line) == {"position": board, **solution.value(board).to_json()}


def test_cli_damaged_database_names_the_fix(tictactoe_db, tmp_path):
    path = tmp_path / "t.gdb"
    data = bytearray(tictactoe_db.read_bytes())
    data[-100] ^= 0x40
    path.write_bytes(bytes(data))
    one_clear_error(gamedp("query", "tictactoe", "--db", str(path), "..O.X..X."), "damaged",
                    f"solve again: gamedp solve tictactoe --db {path}")
    path.write_bytes(tictactoe_db.read_bytes()[:5000])
    one_clear_error(gamedp("query", "tictactoe", "--db", str(path), "........."), "truncated")


def test_cli_newer_version_and_foreign_databases(tictactoe_db, tmp_path):
    path = tmp_path / "t.gdb"
    path.write_bytes(tictactoe_db.read_bytes())
    newer_version(path)
    one_clear_error(gamedp("query", "tictactoe", "--db", str(path), "........."), "newer gamedp")
    one_clear_error(gamedp("solve", "tictactoe", "--db", str(path)), "newer gamedp", "--force")
    one_clear_error(gamedp("query", "subtraction", "--db", str(tictactoe_db), "3"),
                    "is the database of tictactoe, not of subtraction")


def test_cli_bad_requests(tictactoe_db, tmp_path):
    db = str(tictactoe_db)
    one_clear_error(gamedp("query", "chess", "e4"), "unknown game 'chess'")
    one_clear_error(gamedp("solve", "chess"), "unknown game 'chess'")
    one_clear_error(gamedp("solve", "tictactoe", "-V", "size=4"), "no variant parameter size")
    one_clear_error(gamedp("solve", "subtraction", "-V", "moves=0"), "moves are numbers of stones")
    one_clear_error(gamedp("solve", "subtraction", "-V", "n"), "KEY=VALUE")
    one_clear_error(gamedp("query", "tictactoe", "--db", db, "XXXXX"), "9 cells")
    one_clear_error(gamedp("query", "tictactoe", "--db", str(tmp_path / "none.gdb"), "........."),
                    "no database of tictactoe", "create it with: gamedp solve tictactoe --db")
    blocker = tmp_path / "file"
    blocker.write_text("keep me")
    one_clear_error(gamedp("solve", "tictactoe", "--db", str(blocker / "x.gdb")), "cannot write the database")
    one_clear_error(gamedp("solve", "tictactoe", "--db", str(blocker)), "not a gamedp database",
                    "refusing to overwrite")
    assert blocker.read_text() == "keep me"


# -- special files: never replaced, never waited on ------------------------------------------------------------
def special_files(tmp_path: Path) -> dict[str, Path]:
    """A FIFO, a socket, a directory and (as root) a device node like /dev/null, each named like a database."""
    import socket

    made = {"FIFO": tmp_path / "fifo.gdb", "socket": tmp_path / "socket.gdb", "directory": tmp_path / "dir.gdb"}
    os.mkfifo(made["FIFO"])
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(made["socket"]))
    server.close()  # the socket file stays
    made["directory"].mkdir()
    if os.getuid() == 0:
        made["character device"] = tmp_path / "null.gdb"
        os.mknod(made["character device"], 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    return made


def test_solve_query_and_judge_refuse_special_files_without_blocking(tmp_path):
    """`solve --db /dev/null` as root once replaced the device node by a file; a FIFO made every command wait
    for a writer. Now each is refused in one line, at once (the timeout of gamedp() catches a wait), and left
    as it was."""
    for kind, path in special_files(tmp_path).items():
        if kind == "directory":  # given as --db, a directory is where the database goes: see the test below
            continue
        before = os.lstat(path)
        for force in ([], ["--force"]):
            one_clear_error(gamedp("solve", "tictactoe", "--db", str(path), *force), str(path), "not a regular file")
        one_clear_error(gamedp("query", "tictactoe", "--db", str(path), "........."), "not a regular file")
        after = os.lstat(path)
        assert (after.st_mode, after.st_ino, after.st_rdev) == (before.st_mode, before.st_ino, before.st_rdev), kind
    from gamedp.games.placement_tiers import blockgame_table

    spec = blockgame_table()
    os.mkfifo(tmp_path / database.file_name(spec.game_id, spec.variant))  # where the judge finds a saved table
    proc = gamedp("judge", "blockgame", stdin="1\n.....\n.....\n.....\n.....\n.....\n", timeout=120,
                  env={"GAMEDP_DB_DIR": str(tmp_path)})
    one_clear_error(proc, "FIFO", "not a regular file")


def test_a_database_is_never_written_over_a_special_file(tmp_path):
    for path in special_files(tmp_path).values():
        with pytest.raises(GamedpError, match="not a regular file"):
            make(path, [0, 1])
        with pytest.raises(DatabaseError, match="not a regular file"):
            Reader(path)


def test_the_database_format_imports_no_game():
    """database.py sits below games and solvers: not even a function of it imports one (the fix in its
    messages is the command its callers pass down)."""
    import ast

    tree = ast.parse(Path(database.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module} | \
        {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not [m for m in imported if m.startswith(("gamedp.games", "gamedp.solvers", "gamedp.judge", "gamedp.cli"))]
    assert database.solve_command("g", {"n": 3}) == "gamedp solve g -V n=3"


def test_a_container_closed_while_a_view_of_it_lives_leaves_the_view_whole(tmp_path) -> None:
    """Closing must not fail when a reader's view outlives it (an array a kernel hands to the garbage collector):
    the map stays until the view goes, and the view keeps the bytes."""
    database.write_container(tmp_path / "c", {"x": 1}, [("data", bytes(range(200)))])
    c = database.Container(tmp_path / "c")
    view = c.section("data")
    c.close()
    assert bytes(view[:3]) == b"\x00\x01\x02" and len(view) == 200
    view.release()


def test_checksums_made_by_threads_are_the_blocks_own(tmp_path, monkeypatch) -> None:
    """A section of many blocks is checksummed by threads: each block's CRC is still its own, in order."""
    monkeypatch.setattr(database, "PARALLEL_BLOCKS", 2)
    data = bytes(range(256)) * (5 * database.BLOCK_SIZE // 256) + b"end"
    database.write_container(tmp_path / "c", {}, [("data", data)])
    with database.Container(tmp_path / "c") as c:
        assert bytes(c.section("data")) == data  # every block checked against its CRC
    crcs = database.block_crcs(memoryview(data))
    assert len(crcs) == 6 and crcs == [zlib.crc32(data[b * database.BLOCK_SIZE:(b + 1) * database.BLOCK_SIZE])
                                       for b in range(6)]
