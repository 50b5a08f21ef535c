"""The working folder of a tier solve (``DB.tiers`` beside database ``DB``): the lock a solve holds on it, and
the removal of one a killed solve left behind.

A solve holds an exclusive ``flock`` on the folder while it writes there (the kernel lets go of it when the
process ends, however it ends), so a second solve into the same database is refused at once rather than sharing
the folder's files, and a folder nobody holds is a leftover. Cheap to import: no numpy, no numba.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from pathlib import Path

from gamedp.errors import GamedpError


def work_dir(path: Path) -> Path:
    return path.with_name(path.name + ".tiers")


class WorkLock:
    """The working folder of database ``path``, made if missing and locked for this process (``with``); a folder
    another solve holds raises :class:`GamedpError` naming that process."""

    def __init__(self, path: Path):
        self.path, self.work, self._fd = path, work_dir(path), -1

    def __enter__(self) -> WorkLock:
        self.work.mkdir(parents=True, exist_ok=True)
        fd = _held(self.work)
        if fd is None:
            raise GamedpError(f"another gamedp solve is writing {self.path} (process {_holder(self.work)}); wait "
                              "for it to end (it leaves the same database), or choose another --db")
        self._fd = fd
        return self

    def mark(self) -> None:
        """Write this process's id in the folder, for the message of a solve that finds it held (after the folder
        is cleaned of another solve's files)."""
        tmp = self.work / "pid.tmp"
        tmp.write_text(f"{os.getpid()}\n")
        os.replace(tmp, self.work / "pid")

    def __exit__(self, *exc: object) -> None:
        os.close(self._fd)


def remove_leftover(path: Path, has_remoteness: bool) -> None:
    """Remove the working folder of the whole database at ``path`` if no solve holds it: what a solve killed
    between its final rename and its clean-up left. A folder that would resume a solve adding remoteness to a
    database without it is kept (it is work done towards a database that is not there yet)."""
    work = work_dir(path)
    if not work.is_dir():
        return
    fd = _held(work)
    if fd is None:
        return  # a solve is writing there now
    try:
        try:
            more = json.loads((work / "identity.json").read_text()).get("remoteness") and not has_remoteness
        except (OSError, ValueError, AttributeError):
            more = False
        if not more:
            shutil.rmtree(work, ignore_errors=True)
    finally:
        os.close(fd)


def _held(work: Path) -> int | None:
    """A descriptor of folder ``work`` holding its lock, or None when another process holds it."""
    fd = os.open(work, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except BaseException:
        os.close(fd)
        raise
    return fd


def _holder(work: Path) -> str:
    try:
        pid = (work / "pid").read_text(errors="replace").strip()
    except OSError:
        pid = ""
    return pid if pid.isdigit() else "unknown"
