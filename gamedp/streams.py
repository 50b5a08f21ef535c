"""The standard streams at a run's edges, so that none of them ends a run in a traceback.

A stream closed before gamedp started (``>&-``, ``<&-``) is None in :mod:`sys`: a closed standard output is
refused at once; a closed standard input refuses to be read, with that error, when a command reads it. A write
that standard output refuses (a full disk, ``/dev/full``) ends the run with one error line; its reader gone
(``| head``) ends the run quietly, as it ends any command-line tool.
"""

from __future__ import annotations

import io
import os
import sys

from gamedp.errors import GamedpError


class OutputError(OSError):
    """Standard output refused what was written (the error it gave is ``errno`` and ``strerror``)."""


class _Output(io.RawIOBase):
    """Standard output's descriptor, whose failures say that it was standard output that failed."""

    def __init__(self, fd: int):
        super().__init__()
        self.fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def write(self, data) -> int:
        try:
            return os.write(self.fd, data)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputError(e.errno, e.strerror) from None


class _ClosedInput(io.RawIOBase):
    """Standard input when it was closed: any read is the error that says so."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        raise GamedpError("standard input is closed (<&-); give the input on it: from a file (< FILE) or a pipe")


def check_standard_streams() -> None:
    """Refuse a closed standard output, and make the process's own one report its failures as
    :class:`OutputError`; let a closed standard input be read only to say that it is closed."""
    if sys.stdin is None:
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_ClosedInput()))
    out = sys.stdout
    if out is None:
        raise GamedpError("standard output is closed (>&-); give the output somewhere to go (> /dev/null drops it)")
    if out is sys.__stdout__ and isinstance(out, io.TextIOWrapper):  # not a test's capture
        out.flush()
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(_Output(out.fileno())), encoding=out.encoding,
                                      errors=out.errors, line_buffering=out.line_buffering)


def output_failure(e: OSError) -> str | None:
    """When ``e`` is standard output refusing what was written: the error line's message ('' when its reader
    went away: nothing more to say), after which standard output writes to /dev/null, so that the interpreter's
    last flush finds nothing wrong. None when ``e`` is another error."""
    if not isinstance(e, (OutputError, BrokenPipeError)):
        return None
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return "" if isinstance(e, BrokenPipeError) else f"cannot write the output: {e.strerror}"


def say(line: str) -> None:
    """``line`` on standard error, if it is open."""
    if sys.stderr is not None:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
