"""The gamedp command as a user runs it: a process of its own (``python -m gamedp``), its output captured."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

#: The command that starts gamedp, for a test that needs the process itself (Popen, pexpect, a prefix).
GAMEDP = [sys.executable, "-m", "gamedp"]


def gamedp(*args: str, stdin: str | bytes = "", env: dict[str, str] | None = None, db_dir: Any = None,
           timeout: float = 300, **kw: Any) -> subprocess.CompletedProcess:
    """Run ``gamedp ARGS`` to its end and return what it did. ``stdin`` is its whole input (text, or bytes for a
    byte-exact run: then stdout and stderr are bytes too), never the test's own stdin (under xdist, a pipe of
    the test runner's); ``env`` adds to this process's environment and ``db_dir`` sets ``GAMEDP_DB_DIR``; other
    keywords go to :func:`subprocess.run` (``cwd``, say)."""
    environment = {**os.environ, **(env or {})}
    if db_dir is not None:
        environment["GAMEDP_DB_DIR"] = str(db_dir)
    return subprocess.run([*GAMEDP, *args], input=stdin, capture_output=True, text=not isinstance(stdin, bytes),
                          env=environment, timeout=timeout, **kw)


def one_clear_error(proc: subprocess.CompletedProcess, *phrases: str) -> None:
    """``proc`` ended with exit status 2 and one line ``gamedp: error: ...`` holding each of ``phrases``."""
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stderr.startswith("gamedp: error: ") and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    for phrase in phrases:
        assert phrase in proc.stderr, proc.stderr


def gamedp_within(memory: int, *args: str, stdin: bytes) -> subprocess.CompletedProcess:
    """``gamedp ARGS`` (bytes in and out) in ``memory`` bytes of address space, as under ``ulimit -v``: what it
    does with more input than it needs shows quickly, without the machine's memory."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run([*GAMEDP, *args], input=stdin, capture_output=True, timeout=120, preexec_fn=limit)
