"""Shards on a Dask cluster give the same database, byte for byte, as shards in this process; a worker killed
mid-tier has its shards run again."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
import types

import pytest
from command import gamedp

from gamedp.executors import DaskExecutor, LocalExecutor
from gamedp.games.connect4_tiers import connect4_table
from gamedp.solvers.tier_solver import PAUSE_ENV, SHARD_ENV, solve_tiered, work_dir


@pytest.fixture
def small_shards(monkeypatch):
    monkeypatch.setenv(SHARD_ENV, "256")


@pytest.mark.slow
def test_a_two_process_cluster_gives_the_same_bytes_as_this_process(tmp_path, small_shards) -> None:
    game = connect4_table(4, 3)
    local = solve_tiered(game, "connect4", tmp_path / "local.gdb", remoteness=True, executor=LocalExecutor())
    out = gamedp("solve", "connect4", "-V", "width=4", "-V", "height=3", "-r", "--workers", "2", "--json", "--db",
                 str(tmp_path / "dask.gdb"), timeout=300)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "dask.gdb").read_bytes() == (tmp_path / "local.gdb").read_bytes()
    assert f'"positions": {local["positions"]}' in out.stdout


@pytest.mark.slow
def test_a_worker_killed_mid_tier_has_its_shards_run_elsewhere(tmp_path, small_shards, monkeypatch) -> None:
    game = connect4_table(4, 3)
    solve_tiered(game, "connect4", tmp_path / "local.gdb", remoteness=True)
    monkeypatch.setenv(PAUSE_ENV, "0.2")  # the workers inherit it: each shard takes a while
    path = tmp_path / "dask.gdb"
    with DaskExecutor(workers=2) as executor:
        pids = executor.client.run(os.getpid)
        errors: list[BaseException] = []

        def solve() -> None:
            try:
                solve_tiered(game, "connect4", path, remoteness=True, executor=executor)
            except BaseException as e:  # reported by the main thread
                errors.append(e)

        worker = threading.Thread(target=solve)
        worker.start()
        deadline = time.monotonic() + 120
        while len(list(work_dir(path).glob("tier*.values"))) < 3:
            assert time.monotonic() < deadline and worker.is_alive()
            time.sleep(0.05)
        os.kill(next(iter(pids.values())), signal.SIGKILL)
        worker.join(timeout=300)
        assert not worker.is_alive() and not errors, errors
    assert path.read_bytes() == (tmp_path / "local.gdb").read_bytes()


def test_a_cluster_left_without_workers_stops_with_one_line(monkeypatch) -> None:
    """No worker to run the jobs, and none coming back: a clear error after the patience, not a wait forever."""
    from gamedp import executors
    from gamedp.errors import GamedpError

    monkeypatch.setattr(executors, "PATIENCE", 2.0)
    with DaskExecutor(workers=1) as executor:
        executor.start()
        executor.cluster.scale(0)
        deadline = time.monotonic() + 30
        while executor.client.nthreads():
            assert time.monotonic() < deadline
            time.sleep(0.1)
        clock = time.monotonic()
        with pytest.raises(GamedpError, match="no workers left") as e:
            executor.run(abs, [-1, -2], lambda job: None)
        assert time.monotonic() - clock < 10 and "\n" not in str(e.value)


class Forged(Exception):
    """A failure that arrives as no exception at all: unpickled, it is a plain object (a worker may send anything;
    this one gets past Dask's own check on the worker, which unpickles it once)."""

    def __reduce__(self):
        return types.SimpleNamespace, ()


def fail_forged(job: int) -> None:
    raise Forged(job)


def test_a_failure_report_dask_cannot_read_stops_the_run_with_one_line(monkeypatch) -> None:
    """Dask's client drops a job's failure whose exception is no exception (its report handler fails an assertion
    and logs it), and the job was waited on for ever: the scheduler is asked, and the run stops in one line."""
    from distributed import LocalCluster

    from gamedp import executors
    from gamedp.errors import GamedpError

    monkeypatch.setattr(executors, "LOST_AFTER", 0.5, raising=False)
    logged: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = logged.append  # type: ignore[method-assign]
    monkeypatch.setattr(logging.getLogger("distributed.client"), "handlers", [handler])
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                      dashboard_address=None) as cluster, DaskExecutor(address=cluster.scheduler_address) as executor:
        raised: list[BaseException] = []

        def run() -> None:
            try:
                executor.run(fail_forged, [1], lambda job: None)
            except BaseException as e:  # checked by the test's thread
                raised.append(e)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        thread.join(timeout=20)
        assert not thread.is_alive(), "the run waited on a job whose report was lost"
    [error] = raised
    assert isinstance(error, GamedpError) and "\n" not in str(error)
    assert "reported a job's end in a message gamedp could not read" in str(error), error
    assert not [record for record in logged if record.exc_info], "Dask's traceback was printed too"


def descendants(pid: int) -> list[int]:
    rows = [line.split() for line in subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True,
                                                    text=True).stdout.splitlines()]
    found, frontier = [], [str(pid)]
    while frontier:
        parent = frontier.pop()
        for child, ppid in rows:
            if ppid == parent:
                found.append(int(child))
                frontier.append(child)
    return found


def test_a_local_workers_python_stderr_goes_nowhere() -> None:
    """A worker that fails as it closes (its nanny gone) prints its traceback to its Python stderr: that must not
    reach the user's terminal, while the driver's own stderr still does."""
    script = ("import sys\nfrom gamedp.executors import DaskExecutor\n"
              "with DaskExecutor(workers=1) as executor:\n"
              "    executor.client.run(lambda: print('from a worker', file=sys.stderr, flush=True))\n"
              "print('from the driver', file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "from the driver\n", done.stderr


@pytest.mark.slow
def test_killing_every_worker_again_and_again_ends_the_solve_quietly_and_it_resumes(tmp_path) -> None:
    """Every process the solve started (workers, and any resource tracker) killed as soon as it appears, for a few
    seconds: the solve finishes (its workers restarted) or stops with one line, never waits forever nor floods
    stderr; run again, it gives the same bytes as a solve in this process."""
    game = connect4_table(4, 3)
    solve_tiered(game, "connect4", tmp_path / "local.gdb", remoteness=True)
    path = tmp_path / "dask.gdb"
    args = [sys.executable, "-m", "gamedp", "solve", "connect4", "-V", "width=4", "-V", "height=3", "-r", "--db",
            str(path)]
    env = {**os.environ, SHARD_ENV: "256", PAUSE_ENV: "0.2"}
    proc = subprocess.Popen([*args, "--workers", "2"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 60
        while len(list(work_dir(path).glob("tier*.values"))) < 2:
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        until = time.monotonic() + 4
        while time.monotonic() < until:
            for pid in descendants(proc.pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.1)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode in (0, 2) and len(err.splitlines()) <= 1, err[-2000:]
    if proc.returncode == 2:
        assert err.startswith("gamedp: error: ") and "again" in err
        again = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
        assert again.returncode == 0, again.stderr
    assert path.read_bytes() == (tmp_path / "local.gdb").read_bytes()


def test_a_local_cluster_serves_no_dashboard_and_minds_no_taken_port() -> None:
    import socket
    import warnings

    taken = socket.socket()
    try:
        taken.bind(("", 8787))  # Dask's dashboard port, as another program may hold it
        taken.listen()
    except OSError:
        pass  # something holds it already
    try:
        with warnings.catch_warnings(record=True) as caught, DaskExecutor(workers=1) as executor:
            warnings.simplefilter("always")
            executor.start()
            scheduler = executor.cluster.scheduler
            bound = [s.getsockname()[0] for s in scheduler.http_server._sockets.values()]
        assert not [str(w.message) for w in caught if "Port" in str(w.message)]
        assert "dashboard" not in scheduler.services or set(bound) <= {"127.0.0.1", "::1"}, bound
    finally:
        taken.close()
