"""What gamedp solve does with what it finds at --db: a file that is not a database (even one /proc shows as
regular), another game's damaged database, the working folder a killed solve left after its final rename, and a
second solve into a path another solve is writing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamedp.cli.main import main
from gamedp.database import Reader
from gamedp.solvers.tier_solver import PAUSE_ENV, SHARD_ENV, work_dir

C4 = ["connect4", "-V", "width=4", "-V", "height=3"]


def solve(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as ended:
        main(["solve", *args])
        raise SystemExit(0)
    captured = capsys.readouterr()
    return ended.value.code, captured.out, captured.err


def test_a_proc_file_is_refused_in_one_line(capsys):
    for force in ([], ["--force"]):
        code, out, err = solve(capsys, "tictactoe", "--db", "/proc/self/status", *force)
        assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("gamedp: error: "), err
        assert "/proc/self/status" in err


def flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0x04
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", [
    lambda p: flip(p, 40),                                                    # in the header's JSON: its CRC fails
    lambda p: p.write_bytes(p.read_bytes()[:-100]),                           # truncated
    lambda p: p.write_bytes(p.read_bytes()[:200]),                            # truncated inside the header
], ids=["header", "truncated", "header cut"])
def test_a_damaged_database_of_another_game_is_not_replaced_without_force(capsys, tmp_path, damage):
    db = tmp_path / "x.gdb"
    assert solve(capsys, *C4, "--db", str(db))[0] == 0
    damage(db)
    before = db.read_bytes()
    code, out, err = solve(capsys, "tictactoe", "--db", str(db))
    assert code == 2 and err.count("\n") == 1 and "--force" in err and db.read_bytes() == before, err
    code, out, err = solve(capsys, "tictactoe", "--db", str(db), "--force")
    assert code == 0
    with Reader(db, "tictactoe", {}) as reader:
        reader.verify()


def test_a_damaged_database_of_this_game_is_solved_again(capsys, tmp_path):
    """The control: damage to this game's own database is repaired by solving again, without --force."""
    db = tmp_path / "x.gdb"
    assert solve(capsys, *C4, "--db", str(db))[0] == 0
    flip(db, 40)
    code, out, err = solve(capsys, *C4, "--db", str(db))
    assert code == 0 and "is damaged" in err and "solving" in err


def test_the_working_folder_left_by_a_kill_after_the_final_rename_is_removed(capsys, tmp_path, monkeypatch):
    db = tmp_path / "c.gdb"
    monkeypatch.setenv(SHARD_ENV, "256")
    from gamedp.solvers.tier_solver import driver

    monkeypatch.setattr(driver.shutil, "rmtree", lambda *a, **k: None)  # killed just after the rename
    assert solve(capsys, *C4, "--db", str(db))[0] == 0
    assert work_dir(db).is_dir() and any(work_dir(db).iterdir())
    monkeypatch.undo()
    code, out, err = solve(capsys, *C4, "--db", str(db))
    assert code == 0 and "already solved" in out
    assert not work_dir(db).exists()


def test_a_second_solve_into_a_path_being_solved_says_so_and_the_first_finishes(capsys, tmp_path, monkeypatch):
    db = tmp_path / "c.gdb"
    monkeypatch.setenv(SHARD_ENV, "256")  # both solve in shards (a small solve writes its database at once)
    env = {**os.environ, SHARD_ENV: "256", PAUSE_ENV: "0.1"}
    first = subprocess.Popen([sys.executable, "-m", "gamedp", "solve", *C4, "--db", str(db)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not list(work_dir(db).glob("tier*")):
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.05)
        code, out, err = solve(capsys, *C4, "--db", str(db))
        assert code == 2 and err.count("\n") == 1 and "another gamedp solve is writing" in err, (out, err)
        assert str(first.pid) in err
        out, err = first.communicate(timeout=120)
        assert first.returncode == 0, err
    finally:
        if first.poll() is None:
            first.send_signal(signal.SIGKILL)
            first.wait()
    with Reader(db) as reader:
        reader.verify()
    assert not work_dir(db).exists()
