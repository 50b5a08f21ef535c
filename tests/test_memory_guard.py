"""The memory guard: refusals up front with the bytes needed, searches stopped before memory runs out,
``ulimit -v`` honoured, and estimates checked against measured peaks."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from gamedp.errors import ResourceError
from gamedp.game import Game
from gamedp.solvers.memo import Solution


def gamedp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gamedp", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args", [["analyze", "nim", "1000000000", "3"], ["analyze", "kayles", "100000"],
                                  ["play", "nim", "1000000000", "3"]])
def test_huge_searches_are_refused_up_front_with_the_bytes_needed(args):
    r = gamedp(*args)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "needs about" in r.stderr and "bytes of memory" in r.stderr and "are available" in r.stderr


@pytest.mark.parametrize("args", [["nimber", "grundy-game", "1000000"], ["grundy", "grundy-game", "--upto", "1e7"],
                                  ["grundy", "kayles", "--upto", "1e7", "--no-extrapolate"]])
def test_sequences_of_hours_are_refused(args):
    r = gamedp(*args)
    assert r.returncode == 2 and "mex steps" in r.stderr and "keep heaps" in r.stderr, r.stderr


def peak_bytes(*args: str) -> int:
    """The peak resident memory of one whole `gamedp` run, as /usr/bin/time reports it (a child forked from this
    big test process would inherit its peak)."""
    r = subprocess.run(["/usr/bin/time", "-f", "%M", sys.executable, "-m", "gamedp", *args], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return int(r.stderr.split()[-1]) * 1024


@pytest.mark.skipif(not os.path.exists("/usr/bin/time"), reason="needs /usr/bin/time")
def test_the_estimate_is_within_ten_percent_of_the_measured_peak():
    from gamedp.games.impartial.nim import Nim

    grew = peak_bytes("analyze", "nim", "40", "60", "80") - peak_bytes("analyze", "nim", "1", "2")
    estimate = Nim().memory_estimate((40, 60, 80))
    assert abs(estimate - grew) <= 0.1 * grew, (estimate, grew)


LIMITED = textwrap.dedent('''
    import resource
    from gamedp.memory import available_memory, _statm, MemoryGuard, RESERVE
    size = _statm()[0]
    resource.setrlimit(resource.RLIMIT_AS, (size + RESERVE // 2, resource.RLIM_INFINITY))
    print(available_memory() <= RESERVE // 2)
    try:
        MemoryGuard("searching nim").check(65536)
    except Exception as e:
        print(type(e).__name__, e)
''')


def test_the_guard_honours_ulimit_v():
    r = subprocess.run([sys.executable, "-c", LIMITED], capture_output=True, text=True, timeout=60)
    first, second = r.stdout.splitlines()
    assert first == "True"
    assert second.startswith("ResourceError searching nim stopped after 65,536 positions") and "ulimit -v" in second


class Chain(Game):
    """Counts down by one: a long chain of positions, cheap per position."""

    name = "chain"

    def start(self):
        return 200_000

    def children(self, n):
        return [n - 1] if n else []


@pytest.mark.parametrize("outcomes_only", [False, True])
def test_a_growing_search_stops_with_a_clear_message(monkeypatch, outcomes_only):
    import gamedp.memory

    monkeypatch.setattr(gamedp.memory, "available_memory", lambda: 0)
    with pytest.raises(ResourceError, match=r"searching chain stopped after 65,5\d\d positions"):
        Solution(Chain(), outcomes_only=outcomes_only).value(200_000)
