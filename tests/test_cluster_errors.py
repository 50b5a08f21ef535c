"""Reaching a Dask cluster fails in bounded time with one line naming the real cause: a scheduler file that is not
one (a device, a FIFO, a huge or missing file, not JSON), an address that is not a Dask scheduler (a silent
listener, an HTTP server), a protocol gamedp cannot speak."""

from __future__ import annotations

import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from distributed import LocalCluster

from gamedp import executors
from gamedp.cli.main import main
from gamedp.executors import DaskExecutor
from gamedp.errors import GamedpError

TIMEOUT = 2.0


@pytest.fixture(autouse=True)
def short_timeout(monkeypatch):
    monkeypatch.setattr(executors, "CONNECT_TIMEOUT", TIMEOUT)


def refused(**where) -> tuple[str, float]:
    """The message with which DaskExecutor refuses ``where``, and the seconds it took."""
    clock = time.monotonic()
    with pytest.raises(GamedpError) as e:
        DaskExecutor(**where)
    return str(e.value), time.monotonic() - clock


def solve_refused(capsys, tmp_path: Path, *args: str) -> str:
    """gamedp solve's one-line error for a cluster option (exit status 2)."""
    with pytest.raises(SystemExit) as ended:
        main(["solve", "tictactoe", "--db", str(tmp_path / "t.gdb"), *args])
    err = capsys.readouterr().err
    assert ended.value.code == 2 and err.count("\n") == 1 and err.startswith("gamedp: error: "), err
    assert "internal error" not in err and "out of memory" not in err and "Traceback" not in err
    return err


# -- scheduler files: read bounded, regular files only, in the time said ------------------------------------------
@pytest.mark.parametrize("path, why", [("/dev/zero", "a character device"), ("/dev/null", "a character device")])
def test_a_device_is_not_read_as_a_scheduler_file(path, why):
    message, took = refused(scheduler_file=path)
    assert f"{path} is {why}, not a regular file" in message and took < TIMEOUT


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    message, took = refused(scheduler_file=str(tmp_path / "fifo"))
    assert "a FIFO (named pipe), not a regular file" in message and took < TIMEOUT


def test_a_huge_file_is_not_read(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(8 << 30)  # sparse: 8 GB to whoever reads it all
    message, took = refused(scheduler_file=str(big))
    assert "8,589,934,592 bytes" in message and "not a Dask scheduler file" in message and took < TIMEOUT


def test_a_missing_file_is_waited_for_the_time_said_then_named(tmp_path):
    message, took = refused(scheduler_file=str(tmp_path / "nonexistent.json"))
    assert f"no scheduler file at {tmp_path / 'nonexistent.json'} after {TIMEOUT:g} s" in message
    assert TIMEOUT <= took < TIMEOUT + 2


@pytest.mark.parametrize("text, why", [
    ("notjson\n", "not JSON (line 1, column 1: expecting value)"),
    ('{"address": \n', "not JSON (line 2, column 1: expecting value)"),
    ("[1, 2]\n", 'no "address" of a scheduler'),
    ('{"address": 7}\n', 'no "address" of a scheduler'),
    ("\xff\xfe\n", "not JSON"),
])
def test_a_file_that_is_not_a_scheduler_file_says_why(capsys, tmp_path, text, why):
    path = tmp_path / "scheduler.json"
    path.write_bytes(text.encode("latin-1"))
    err = solve_refused(capsys, tmp_path, "--scheduler-file", str(path))
    assert f"--scheduler-file {path} is not a Dask scheduler file: {why}" in err


@pytest.mark.parametrize("owner, mode, why", [
    (65534, 0o644, "it is owned by uid 65534, not by this user"),
    (None, 0o666, "it is writable by its group and others (mode 666)"),
    (None, 0o602, "it is writable by others (mode 602)"),
])
def test_a_scheduler_file_another_user_could_have_written_is_not_read(capsys, tmp_path, owner, mode, why):
    """Another user's scheduler would run code in this process (what its workers send back is unpickled here):
    refused before anything connects to it."""
    if owner is not None and os.getuid() != 0:
        pytest.skip("giving a file to another user takes root")
    path = tmp_path / "planted.json"
    path.write_text(json.dumps({"type": "Scheduler", "address": "tcp://127.0.0.1:9"}))
    path.chmod(mode)
    if owner is not None:
        os.chown(path, owner, owner)
    clock = time.monotonic()
    err = solve_refused(capsys, tmp_path, "--scheduler-file", str(path))
    assert f"--scheduler-file {path} is not read: {why}" in err and "chmod go-w" in err, err
    assert time.monotonic() - clock < TIMEOUT


# -- addresses that are no Dask scheduler -------------------------------------------------------------------------
@pytest.fixture
def silent_listener():
    """A TCP server that accepts connections and never says a word."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except TimeoutError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    for s in held + [server]:
        s.close()


@pytest.fixture
def http_server():
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_silent_listener_is_given_up_in_the_time_said(capsys, tmp_path, silent_listener):
    clock = time.monotonic()
    err = solve_refused(capsys, tmp_path, "--cluster", silent_listener)
    assert time.monotonic() - clock < TIMEOUT + 3
    assert f"--cluster {silent_listener}: no answer as a Dask scheduler within {TIMEOUT:g} s" in err


def test_an_http_server_is_not_a_dask_scheduler(capsys, tmp_path, http_server):
    clock = time.monotonic()
    err = solve_refused(capsys, tmp_path, "--cluster", http_server)
    assert time.monotonic() - clock < TIMEOUT + 3
    assert f"--cluster {http_server}:" in err and "Dask scheduler" in err


def test_a_closed_port_says_connection_refused(capsys, tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as s:
        port = s.getsockname()[1]
    err = solve_refused(capsys, tmp_path, "--cluster", f"tcp://127.0.0.1:{port}")
    assert "refused" in err.lower() and f"127.0.0.1:{port}" in err


def test_a_scheduler_file_naming_a_silent_listener(capsys, tmp_path, silent_listener):
    path = tmp_path / "scheduler.json"
    path.write_text(json.dumps({"type": "Scheduler", "address": silent_listener}))
    err = solve_refused(capsys, tmp_path, "--scheduler-file", str(path))
    assert f"no answer as a Dask scheduler within {TIMEOUT:g} s" in err and silent_listener in err


@pytest.mark.parametrize("address, why", [
    ("tls://127.0.0.1:1", "tls:// needs Dask's TLS settings"),
    ("ucx://127.0.0.1:1", "gamedp reaches Dask schedulers over tcp://"),
    ("http://127.0.0.1:1", "gamedp reaches Dask schedulers over tcp://"),
])
def test_a_protocol_gamedp_cannot_speak_is_named(capsys, tmp_path, address, why):
    err = solve_refused(capsys, tmp_path, "--cluster", address)
    assert f"--cluster {address}: {why}" in err


def test_a_real_scheduler_is_reached_by_address_and_by_its_scheduler_file(tmp_path):
    """The control: a Dask scheduler is reached either way, and runs the jobs."""
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                      dashboard_address=None) as cluster:
        path = tmp_path / "scheduler.json"
        path.write_text(json.dumps({"type": "Scheduler", "address": cluster.scheduler_address}))
        for where in ({"address": cluster.scheduler_address}, {"scheduler_file": str(path)}):
            done: list[int] = []
            with DaskExecutor(**where) as executor:
                executor.run(abs, [-1, -2], done.append)
            assert sorted(done) == [-2, -1]


# -- more local workers than the machine holds --------------------------------------------------------------------
def test_a_worker_count_past_the_machines_memory_is_refused_at_once(capsys, tmp_path):
    clock = time.monotonic()
    err = solve_refused(capsys, tmp_path, "--workers", "100000")
    assert time.monotonic() - clock < 5
    assert "--workers 100000 is more than this machine holds" in err and "MB" in err and "at most" in err
    assert not (tmp_path / "t.gdb").exists()


def test_a_worker_count_past_the_open_files_limit_is_refused(tmp_path):
    """Under ``ulimit -n 64`` 20 workers' connections do not fit: said before any process starts."""
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64)); "
            "from gamedp.cli.main import main; main(sys.argv[1:])")
    r = subprocess.run([sys.executable, "-c", code, "solve", "tictactoe", "--db", str(tmp_path / "t.gdb"),
                        "--workers", "20"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "--workers 20 is more than this machine holds" in r.stderr and "ulimit -n" in r.stderr


def test_the_most_workers_the_machine_holds_allows_a_few():
    most, _ = executors.most_workers()
    assert most >= 2
