"""Where compiled kernels are kept, and what their keys depend on besides their source.

Both kinds of built kernels — extension modules (:mod:`gamedp.aot`) and plain shared libraries
(:mod:`gamedp.native`) — live in one cache directory, in folders named by a hash of their source and of
:func:`machine_tag`. This module uses nothing but the standard library's basics: every run reads it before anything else.

A built kernel is run code, so the cache is trusted only as far as only this user could have written it: the
cache directory, each folder and each file loaded must be owned by the current user and writable by no one
else (:func:`read_trusted`, by :func:`gamedp.trust.untrusted`). A cache directory that is not is left alone with
one warning, and kernels are built in a private directory for the run instead. Each build also records a CRC-32
of what it wrote, checked before loading (:func:`checksum`), so that a damaged file (a flipped bit, a truncated
copy) is built again rather than run. numba's own cache of ``cache=True`` functions (``NUMBA_CACHE_DIR``) is held to the same rules
(:func:`trust_numba_cache`, run when gamedp is imported).
"""

from __future__ import annotations

import os
import stat
import sys
import zlib

from gamedp.trust import untrusted


def configured_dir() -> str:
    """Where compiled kernels are kept: $GAMEDP_CACHE_DIR/kernels, else the user's cache directory (XDG)."""
    env = os.environ.get("GAMEDP_CACHE_DIR")
    if env:
        return os.path.join(env, "kernels")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "gamedp", "kernels")


_dirs: dict[str, str] = {}


def cache_dir() -> str:
    """:func:`configured_dir`, created private (mode 700) if missing, when it is trusted; else, after one
    warning, a private directory of this process (removed at exit), so kernels are built rather than loaded
    from where another user could have put them."""
    path = configured_dir()
    if path not in _dirs:
        why = _make_trusted(path)
        _dirs[path] = path if why is None else _private_dir(path, why)
    return _dirs[path]


def kernel_folder(tag: str) -> str:
    """The folder of the kernels whose key is ``tag``: in :func:`cache_dir`, unless a folder of that name is
    there and not trusted (then, after one warning, in a private directory)."""
    path = os.path.join(cache_dir(), tag)
    try:
        st = os.stat(path)
    except OSError:  # missing: the build makes it, private
        return path
    why = untrusted(st) if stat.S_ISDIR(st.st_mode) else "it is not a directory"
    return path if why is None else os.path.join(_private_dir(path, why), tag)


def read_trusted(path: str) -> bytes | None:
    """The bytes of regular file ``path`` if it is trusted (see :func:`untrusted`), else None (missing,
    unreadable, a symbolic link, a FIFO, someone else's, or writable by others). The check is on the open
    file, so it is the file read that was checked."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or untrusted(st) is not None:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read()
    except OSError:
        return None
    finally:
        os.close(fd)


def checksum(*parts: bytes) -> str:
    """The CRC-32 of ``parts`` one after the other, as 8 hex digits: cheap (a cached library of 0.1-0.7 MB
    takes well under a millisecond), and enough to notice damage; ownership guards against malice.

    >>> checksum(b"gamed", b"p") == checksum(b"gamedp")
    True
    """
    crc = 0
    for part in parts:
        crc = zlib.crc32(part, crc)
    return f"{crc:08x}"


def make_private_dir(path: str) -> None:
    """Create folder ``path`` and its missing parents, each readable by this user only (mode 700) whatever the
    umask (os.makedirs would leave the parents as the umask says: 777 under a umask of 000)."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        if not os.path.isdir(path):
            raise
        return
    except FileNotFoundError:
        parent = os.path.dirname(os.path.abspath(path))
        if parent == os.path.abspath(path):
            raise
        make_private_dir(parent)
        make_private_dir(path)
        return
    os.chmod(path, 0o700)


class BuildLock:
    """Held while a kernel is built into ``folder``: a process that needs the same build meanwhile (two runs
    started at once on a fresh machine, or test workers) waits for it and then loads what it built, rather
    than compiling it a second time. Where no lock file can be made (a read-only cache), builds go unlocked,
    as they are atomic anyway."""

    def __init__(self, folder: str):
        self.folder = folder
        self.fd: int | None = None

    def __enter__(self) -> None:
        import fcntl

        try:
            make_private_dir(self.folder)
            self.fd = os.open(os.path.join(self.folder, "build.lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW,
                              0o600)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        except OSError:
            self.__exit__()

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the file releases the lock
            self.fd = None


NUMBA_LOCATORS = "gamedp.numba_cache.TrustedFileLocator,gamedp.numba_cache.TrustedIPythonLocator"


def trust_numba_cache() -> str:
    """Point numba's own cache (``NUMBA_CACHE_DIR``, where ``cache=True`` functions keep their index and code,
    else a ``__pycache__`` next to each source file) at a directory trusted as the kernel cache is: the user's
    ``NUMBA_CACHE_DIR`` if it is trusted, else the ``numba`` folder of :func:`cache_dir`; failing that, after one
    warning, a private directory of this process. numba is also told to find its folders there through
    :mod:`gamedp.numba_cache`, which holds every folder and file in it to the same rules. Numba reads these when
    it first caches or loads a function, so this runs when gamedp is imported (numba imported before gamedp is
    told too). Returns the directory."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    path = given or os.path.join(cache_dir(), "numba")
    why = _make_trusted(path)
    if why is not None or not os.path.isdir(path):  # untrusted (one warning), or it cannot be made (none)
        fix = "unset NUMBA_CACHE_DIR" if given is not None else "set GAMEDP_CACHE_DIR to a directory of your own"
        path = private_numba_dir(path, why, "make it yours and private (chown, chmod 700) or " + fix)
    os.environ["NUMBA_CACHE_DIR"] = path
    os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = NUMBA_LOCATORS
    config = sys.modules.get("numba.core.config")
    if config is not None:
        config.CACHE_DIR = path  # type: ignore[attr-defined]
        config.CACHE_LOCATOR_CLASSES = NUMBA_LOCATORS  # type: ignore[attr-defined]
    return path


def private_numba_dir(refused: str, why: str | None, fix: str) -> str:
    """The private numba cache directory of this process (made once, removed at exit); unless ``why`` is None,
    one warning first, naming what was refused, why, and the ``fix``."""
    if "numba" not in _dirs:
        import atexit
        import shutil
        import tempfile

        _dirs["numba"] = tempfile.mkdtemp(prefix="gamedp-numba-")
        atexit.register(shutil.rmtree, _dirs["numba"], ignore_errors=True)
    if why is not None and "numba warned" not in _dirs:
        _dirs["numba warned"] = refused
        sys.stderr.write(f"gamedp: warning: not using numba's cache in {refused}: {why}, so another user could "
                         f"have put code there. Compiled functions are compiled for this run only (slow); to fix, "
                         f"{fix}\n")
    return _dirs["numba"]


def _make_trusted(path: str) -> str | None:
    """Create ``path`` if missing; why it must not be used, or None."""
    try:
        make_private_dir(path)
        st = os.stat(path)
    except OSError:
        return None  # cannot even be made: every build there fails and says so, and nothing is loaded from it
    return untrusted(st) if stat.S_ISDIR(st.st_mode) else "it is not a directory"


def _private_dir(refused: str, why: str) -> str:
    """The private directory of this process (made once, removed at exit), after one warning naming what was
    refused and why."""
    if "" not in _dirs:
        import atexit
        import shutil
        import tempfile

        sys.stderr.write(f"gamedp: warning: not loading kernels from {refused}: {why}, so another user could have "
                         f"put code there. Kernels are built for this run only (slow); to fix, make the cache "
                         f"yours and private (chown, chmod 700) or set GAMEDP_CACHE_DIR to a directory of your "
                         f"own\n")
        _dirs[""] = tempfile.mkdtemp(prefix="gamedp-kernels-")
        atexit.register(shutil.rmtree, _dirs[""], ignore_errors=True)
    return _dirs[""]


class CompilingNotice:
    """One line on stderr, piped or not, around a first compile (a person, or a judge's log, waits for it): what
    is compiled, roughly how long that takes, and how long it took. It appears once the compile has taken
    ``DELAY`` seconds, so that kernels numba loads from its cache stay silent.

    ``ABOUT`` is what first compiles took on a 2-core machine under load (numba's ahead-of-time and JIT builds
    alike; docs/performance.md); later runs load the kernels from the cache.
    """

    ABOUT = "usually 10-30 s"
    DELAY = 1.0

    def __init__(self, what: str):
        self.what = what

    def __enter__(self) -> None:
        import threading
        import time

        self.began = time.perf_counter()
        self.lock = threading.Lock()
        self.shown: bool | None = False  # None once the compile is over
        self.timer = threading.Timer(self.DELAY, self._show)
        self.timer.daemon = True
        if self.DELAY > 0:
            self.timer.start()
        else:
            self._show()

    def _show(self) -> None:
        with self.lock:
            if self.shown is None:  # already over
                return
            self.shown = True
            sys.stderr.write(f"gamedp: compiling {self.what} for this machine, once ({self.ABOUT})...")
            sys.stderr.flush()

    def __exit__(self, kind: object, *exc: object) -> None:
        import time

        self.timer.cancel()
        with self.lock:
            shown, self.shown = self.shown, None
        if shown:
            took = time.perf_counter() - self.began
            sys.stderr.write(f" {'failed after' if kind is not None else 'done in'} {took:.1f} s\n")
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
    # (or even importlib.metadata, or importlib.util: 7 ms) here would cost what the built kernels exist to save.
    # The finders importlib.util.find_spec would ask, asked directly.
    loaded = sys.modules.get("numba")
    spec = getattr(loaded, "__spec__", None)
    for finder in sys.meta_path if spec is None else ():
        find = getattr(finder, "find_spec", None)
        spec = find("numba", None) if find is not None else None
        if spec is not None:
            break
    if spec is None or spec.origin is None:
        return "none"
    return f"{spec.origin}:{os.stat(spec.origin).st_mtime_ns}"
