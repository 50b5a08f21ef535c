"""Stopping and resuming a long score search (gamedp.solvers.search_checkpoint): killed at any moment, the same
command goes on from the last checkpoint to the answer an uninterrupted run gives, exploring fewer positions;
Ctrl-C and SIGTERM keep it; a file that cannot be trusted whole is refused in one line."""

from __future__ import annotations

import json
import os
import random
import re
import resource
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from command import GAMEDP, gamedp, one_clear_error

from gamedp.errors import GamedpError
from gamedp.games.connect4 import Connect4
from gamedp.games.placement import Domineering
from gamedp.solvers.score_search import ScoreSearch
from gamedp.solvers.search_checkpoint import Keeping

#: (game, the line searched: 2-5 s of one core in December 2026; without the opening book, which holds 44535)
#: Searches of a few CPU seconds on a quiet machine: Domineering 8x8 after Vertical's f1-f2, Horizontal to move
#: (8 million positions), and a Connect-Four opening
LONG = {"domineering": ("domineering:8x8", ".....#.." * 2 + "." * 48 + " H"), "connect4": ("connect4", "44535")}


def checkpoint_of(tmp_path: Path, rules, position, search: str = "value", **options):
    return Keeping("gamedp value ... --fresh", directory=tmp_path, **options).checkpoint(
        rules, rules.arguments(position), search)


def start(tmp_path: Path, *args: str, stdin: str, seconds: str, **popen: Any) -> subprocess.Popen:
    """``gamedp ARGS`` started with ``stdin``, checkpoints every ``seconds``, Ctrl-C's signal at its default (a
    test started in the background by a script inherits it ignored, and so would gamedp); ``popen``: more of
    :class:`subprocess.Popen`'s keywords."""
    env = {**os.environ, "GAMEDP_DB_DIR": str(tmp_path), "GAMEDP_CHECKPOINT_SECONDS": seconds}
    process = subprocess.Popen([*GAMEDP, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), **popen)
    process.stdin.write(stdin)
    process.stdin.close()
    process.stdin = None  # all given: communicate() has none to send
    return process


def wait_for_cpu(process: subprocess.Popen, seconds: float) -> None:
    """Wait until ``process`` has used ``seconds`` of CPU time (Linux's /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / ticks >= seconds:  # utime and stime
            return
        time.sleep(0.02)
    raise AssertionError(f"the process did not use {seconds} CPU s in two minutes")


def wait_for_checkpoint(tmp_path: Path, process: subprocess.Popen) -> Path:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        kept = list(tmp_path.glob("*.resume"))
        if kept:
            return kept[0]
        assert process.poll() is None, process.communicate()
        time.sleep(0.02)
    raise AssertionError("no checkpoint written")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(LONG))
def test_a_search_killed_at_any_moment_resumes_to_the_same_answer_exploring_less(tmp_path, name):
    game, line = LONG[name]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    fresh = gamedp("value", game, "--json", "--no-book", stdin=line + "\n", db_dir=tmp_path / "fresh",
                   env={"GAMEDP_CHECKPOINT_SECONDS": "0"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert fresh.returncode == 0, fresh.stderr
    whole = json.loads(fresh.stdout)
    process = start(tmp_path, "value", game, "--json", "--no-book", stdin=line + "\n", seconds="0.2")
    wait_for_checkpoint(tmp_path, process)
    # killed at a random moment of its search's middle, by CPU used (a loaded machine gives a process little of
    # its wall time): killed just after its first checkpoint, it has kept too little to save anything
    wait_for_cpu(process, random.uniform(0.4, 0.8) * (after.ru_utime + after.ru_stime - before.ru_utime -
                                                      before.ru_stime))
    process.kill()
    process.communicate()
    assert list(tmp_path.glob("*.resume")), "the checkpoint is not left whole"
    again = gamedp("value", game, "--json", "--no-book", stdin=line + "\n", db_dir=tmp_path,
                   env={"GAMEDP_CHECKPOINT_SECONDS": "0.2"})
    assert again.returncode == 0 and "gamedp: resuming from " in again.stderr, again.stderr
    resumed = json.loads(again.stdout)
    assert (resumed["value"], resumed["remoteness"]) == (whole["value"], whole["remoteness"])
    assert resumed["explored"] < whole["explored"]
    assert not list(tmp_path.glob("*.resume")), "the checkpoint outlives the answer"


@pytest.mark.slow
@pytest.mark.parametrize("command, sent", [(("value", "domineering:8x8"), signal.SIGINT),
                                           (("analyze", "domineering:8x7", "--json"), signal.SIGTERM)])
def test_ctrl_c_and_sigterm_keep_the_search_and_the_same_command_goes_on(tmp_path, command, sent):
    done = gamedp(*command, stdin=LONG["domineering"][1] + "\n", db_dir=tmp_path / "whole",
                  env={"GAMEDP_CHECKPOINT_SECONDS": "0"})
    assert done.returncode == 0, done.stderr
    # no checkpoint before the signal: the one the signal writes is what the second run goes on from
    process = start(tmp_path, *command, stdin=LONG["domineering"][1] + "\n", seconds="0")
    wait_for_cpu(process, 1.5)  # past its start-up (some 0.4 CPU s), whatever the machine's load
    assert process.poll() is None
    process.send_signal(sent)
    out, err = process.communicate(timeout=30)
    lines = [line for line in err.splitlines() if line]  # click ends the terminal's ^C line with an empty one
    # on a busy machine the signal may come after a line that says the (piped) search is alive
    alive = r"gamedp: .*[\d,]+ positions, [\d.]+ s"
    assert all(re.fullmatch(alive, line) for line in lines[:-2]), err
    assert process.returncode == 130 and out == "" and len(lines) >= 2, (process.returncode, err)
    kept = list(tmp_path.glob("*.resume"))
    assert len(kept) == 1 and lines[-2].startswith(f"gamedp: stopped; what the search proved is kept in {kept[0]} (")
    assert "run the same command again to go on from it" in lines[-2] and lines[-1] == "gamedp: interrupted"
    again = gamedp(*command, stdin=LONG["domineering"][1] + "\n", db_dir=tmp_path)
    assert again.returncode == 0 and again.stdout == done.stdout
    assert again.stderr.startswith(f"gamedp: resuming from {kept[0]} (bounds "), again.stderr
    assert not kept[0].exists()


# -- refusals ----------------------------------------------------------------------------------------------------
def saved_checkpoint(tmp_path: Path, game=None):
    """A checkpoint of a Domineering board's outcome search, as a stopped search leaves it, and that board."""
    game = game or Domineering(6, 6)
    rules = game.score_search()
    search = ScoreSearch(rules, book=False, progress=False)
    search.value(game.start())
    checkpoint = checkpoint_of(tmp_path, rules, game.start())
    window = (rules.arguments(game.start()), -(1 << 20), 1 << 20)
    checkpoint.proved[window] = (-1, 1)
    checkpoint.save(memoryview(search._map)[:search.slots * 8], search.slots)
    return checkpoint, rules, game


def refused(tmp_path: Path, rules, game, *phrases: str, **options) -> None:
    with pytest.raises(GamedpError) as caught:
        checkpoint_of(tmp_path, rules, game.start(), **options).load()
    message = str(caught.value)
    assert "\n" not in message
    for phrase in phrases:
        assert phrase in message, message


def test_a_checkpoint_is_read_back_whole(tmp_path):
    checkpoint, rules, game = saved_checkpoint(tmp_path)
    again = checkpoint_of(tmp_path, rules, game.start())
    slots, table = again.load()
    assert table == memoryview(checkpoint.path.read_bytes())[-len(table):] and len(table) == 8 * slots
    assert again.proved == checkpoint.proved and oct(checkpoint.path.stat().st_mode & 0o777) == "0o644"


@pytest.mark.parametrize("damage", ["byte", "truncated", "empty"])
def test_a_damaged_checkpoint_is_refused_with_the_command_that_starts_afresh(tmp_path, damage):
    checkpoint, rules, game = saved_checkpoint(tmp_path)
    data = bytearray(checkpoint.path.read_bytes())
    if damage == "byte":
        data[-100] ^= 1
    checkpoint.path.write_bytes(data[:len(data) // 2] if damage == "truncated" else b"" if damage == "empty"
                                else data)
    refused(tmp_path, rules, game, str(checkpoint.path), "damaged" if damage == "byte" else "truncated",
            "start afresh with: gamedp value ... --fresh")


def test_a_checkpoint_others_could_have_written_is_refused(tmp_path, monkeypatch):
    checkpoint, rules, game = saved_checkpoint(tmp_path)
    checkpoint.path.chmod(0o664)
    refused(tmp_path, rules, game, str(checkpoint.path), "writable by its group")
    checkpoint.path.chmod(0o644)
    real = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: real + 1)
    refused(tmp_path, rules, game, str(checkpoint.path), f"owned by uid {real}")


def test_another_games_or_positions_checkpoint_is_refused(tmp_path):
    checkpoint, rules, game = saved_checkpoint(tmp_path)
    other = Domineering(6, 7)
    other_rules = other.score_search()
    os.replace(checkpoint.path, checkpoint_of(tmp_path, other_rules, other.start()).path)
    refused(tmp_path, other_rules, other, "keeps another search", "domineering:6x6 by", "--fresh")
    moved = checkpoint_of(tmp_path, rules, rules.children(game.start())[0][1])
    os.replace(checkpoint_of(tmp_path, other_rules, other.start()).path, moved.path)
    with pytest.raises(GamedpError, match="keeps another search"):
        moved.load()


def test_a_file_gamedp_did_not_write_is_neither_read_nor_written_over(tmp_path):
    game = Domineering(6, 6)
    rules = game.score_search()
    path = checkpoint_of(tmp_path, rules, game.start()).path
    path.write_text("my notes\n")
    for fresh in (False, True):
        refused(tmp_path, rules, game, str(path), "gamedp did not write it", fresh=fresh)
    checkpoint_of(tmp_path, rules, game.start()).remove()
    assert path.read_text() == "my notes\n"


def test_fresh_neither_reads_nor_refuses_a_checkpoint(tmp_path):
    checkpoint, rules, game = saved_checkpoint(tmp_path)
    checkpoint.path.write_bytes(checkpoint.path.read_bytes()[:100])
    assert checkpoint_of(tmp_path, rules, game.start(), fresh=True).load() is None


def test_a_table_kept_larger_than_the_bound_is_folded_into_it(tmp_path):
    """A checkpoint read by a search given less --memory: its entries keep their slots' top bits, so they are found."""
    game = Connect4(6, 5)
    rules = game.score_search()
    position = game.parse_position("4")
    plain = ScoreSearch(rules, book=False, progress=False)
    value = plain.value(position)
    assert plain.slots > 1 << 16
    keeping = Keeping("gamedp value ... --fresh", directory=tmp_path, seconds=None)
    checkpoint = keeping.checkpoint(rules, rules.arguments(position), "value")
    checkpoint.save(memoryview(plain._map)[:plain.slots * 8], plain.slots)
    small = ScoreSearch(rules, book=False, progress=False, memory=(1 << 16) * 8, keeping=keeping)
    assert small.value(position) == value
    again = ScoreSearch(rules, book=False, progress=False, memory=(1 << 16) * 8)
    assert again.value(position) == value and small.explored < again.explored


@pytest.mark.slow
def test_the_command_line_refuses_a_damaged_checkpoint_in_one_line_and_fresh_replaces_it(tmp_path):
    game = Domineering(8, 8)  # 2.8 million positions: long enough to look for a checkpoint, not to write one
    line = "." * 64 + "\n"
    checkpoint = checkpoint_of(tmp_path, game.score_search(), game.start())
    checkpoint.path.write_bytes(b"GAMEDPDB" + bytes(100))
    one_clear_error(gamedp("value", "domineering:8x8", stdin=line, db_dir=tmp_path), str(checkpoint.path),
                    "start afresh with: gamedp value domineering:8x8 --fresh")
    answered = gamedp("value", "domineering:8x8", "--fresh", stdin=line, db_dir=tmp_path)
    assert answered.returncode == 0 and answered.stdout.split() == [line.strip(), "WIN", "-"], answered.stderr
    assert not checkpoint.path.exists()


def test_a_bad_checkpoint_interval_is_one_line():
    one_clear_error(gamedp("analyze", "domineering:8x7", env={"GAMEDP_CHECKPOINT_SECONDS": "soon"}),
                    "GAMEDP_CHECKPOINT_SECONDS='soon'", "e.g. 60")


def test_ctrl_c_while_waiting_for_the_table_leaves_it_free(tmp_path):
    """Stopped while it waits for the searches in the table to pause (before a checkpoint, or the table's growth),
    a thread must not leave the table held: the checkpoint written after Ctrl-C waits for it."""
    import threading

    from gamedp.solvers.score_search import Searcher

    search = ScoreSearch(Domineering(6, 6).score_search(), book=False, progress=False)
    search._running.add(Searcher(1))  # a search that does not pause: the wait goes on until the signal
    threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
    with pytest.raises(KeyboardInterrupt), signal_default(signal.SIGINT):
        with search._alone():
            pass
    assert not search._alone_now


class signal_default:
    """SIGINT raising KeyboardInterrupt here (a test runner in the background may have it ignored)."""

    def __init__(self, number):
        self.number = number

    def __enter__(self):
        self.before = signal.signal(self.number, signal.default_int_handler)

    def __exit__(self, *exc):
        signal.signal(self.number, self.before)
