"""numba's cache of ``cache=True`` functions, held to the kernel cache's rules (see :mod:`gamedp.kernel_cache`).

numba keeps each source folder's functions in a folder of its cache directory: an index (``.nbi``) and compiled
code (``.nbc``), both pickles, so loading one runs it. :func:`gamedp.kernel_cache.trust_numba_cache` checks the
cache directory and names the locators below in ``NUMBA_CACHE_LOCATOR_CLASSES``; numba imports this module when it
first caches a function. A locator uses a function's folder only if the folder and every file in it are this
user's and writable by no one else: a file that is not (or is not a regular file) is removed, so its function is
compiled again, as a refused kernel library is built again; a folder that is not is left alone with one warning,
and the run caches in a private directory instead. Folders are made mode 700 and files 600 whatever the umask, so
that the next run trusts what this one wrote.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import uuid
from collections.abc import Iterator

from numba.core import caching, config

from gamedp.kernel_cache import make_private_dir, private_numba_dir
from gamedp.trust import untrusted

_checked: dict[str, str] = {}


def trusted_folder(path: str) -> str:
    """``path`` if it is missing, or if it is this user's folder, writable by no one else, once every file in it
    that is not so has been removed; else (after one warning) a folder of the same name in a private directory
    of this run."""
    if path not in _checked:
        _checked[path] = _check(path)
    return _checked[path]


def _check(path: str) -> str:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return path
    why = untrusted(st) if stat.S_ISDIR(st.st_mode) else "it is not a directory"
    if why is not None:
        fix = "make it yours and private (chown -R, chmod -R go-w) or remove it"
        return os.path.join(private_numba_dir(path, why, fix), os.path.basename(path))
    with os.scandir(path) as entries:
        for entry in entries:
            est = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(est.st_mode) and untrusted(est) is None:
                continue
            if stat.S_ISDIR(est.st_mode):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)
    return path


class _Private:
    """What both locators share: a checked folder, made private whatever the umask."""

    _cache_path: str

    def get_cache_path(self) -> str:
        return self._cache_path

    def ensure_cache_path(self) -> None:
        make_private_dir(self._cache_path)
        super().ensure_cache_path()  # type: ignore[misc]  # numba's check that it can write there


class TrustedFileLocator(_Private, caching.UserProvidedCacheLocator):
    """Functions defined in a source file, cached in ``NUMBA_CACHE_DIR`` (which gamedp always sets)."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = trusted_folder(self._cache_path)


class TrustedIPythonLocator(_Private, caching.IPythonCacheLocator):
    """Functions typed at an IPython prompt or in a notebook cell, cached in ``NUMBA_CACHE_DIR/ipython`` rather
    than in IPython's own cache directory, which nothing checks."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = trusted_folder(os.path.join(config.CACHE_DIR, "ipython"))


@contextlib.contextmanager
def _open_private(self: caching.IndexDataCacheFile, filepath: str) -> Iterator[object]:
    # numba writes its files with open(), so with whatever mode the umask leaves (666 under a umask of 000): the
    # next run would refuse them. The same write (a temporary file, then a rename), made 600.
    tmp = f"{filepath}.tmp.{uuid.uuid4().hex[:16]}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb", closefd=False) as f:
            yield f
        os.replace(tmp, filepath)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        os.close(fd)


caching.IndexDataCacheFile._open_for_write = _open_private  # type: ignore[method-assign]
