"""Where compiled kernels are kept, and what their keys depend on besides their source.

Both kinds of built kernels — extension modules (:mod:`gamedp.aot`) and plain shared libraries
(:mod:`gamedp.native`) — live in one cache directory, in folders named by a hash of their source and of
:func:`machine_tag`. This module uses nothing but ``os``: a judge run reads it before anything else.
"""

from __future__ import annotations

import importlib.util
import os
import sys


def cache_dir() -> str:
    """Where compiled kernels live: $GAMEDP_CACHE_DIR/kernels, else the user's cache directory (XDG)."""
    env = os.environ.get("GAMEDP_CACHE_DIR")
    if env:
        return os.path.join(env, "kernels")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "gamedp", "kernels")


class CompilingNotice:
    """A line on a terminal's stderr while kernels compile (a person is waiting); nothing for a pipe or a judge."""

    TEXT = "gamedp: compiling the kernels for this machine, once (a few seconds)..."

    def __enter__(self) -> None:
        self.shown = sys.stderr.isatty()
        if self.shown:
            sys.stderr.write(self.TEXT)
            sys.stderr.flush()

    def __exit__(self, *exc: object) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * len(self.TEXT) + "\r")
            sys.stderr.flush()


def machine_tag() -> str:
    """What a compiled kernel depends on besides its source: Python, numba and, as kernels are built for this
    CPU (target "host"), the CPU."""
    return sys.version + _numba_version() + _cpu()


def _cpu() -> str:
    machine = os.uname().machine
    try:
        with open("/proc/cpuinfo") as f:
            return next((line for line in f if line.startswith(("model name", "flags"))), machine)
    except OSError:
        return machine


def _numba_version() -> str:
    # Where numba lives and when it was installed: enough to notice an upgrade, and cheap; importing numba
    # (or even importlib.metadata) here would cost what the built kernels exist to save.
    spec = importlib.util.find_spec("numba")
    if spec is None or spec.origin is None:
        return "none"
    return f"{spec.origin}:{os.stat(spec.origin).st_mtime_ns}"
