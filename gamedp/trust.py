"""Whether a file on disk could have been written by another user, who would then decide what gamedp runs or
answers: compiled kernels (:mod:`gamedp.kernel_cache`), numba's cache, databases, books and saved solves
(:mod:`gamedp.database`), Dask scheduler files (:mod:`gamedp.executors`). A file is trusted when this user
owns it and neither its group nor others may write it; a checksum only says it is whole, not whose it is.
Standard library only: every run reads this first.
"""

from __future__ import annotations

import os
import stat


def untrusted(st: os.stat_result) -> str | None:
    """Why a file or folder with status ``st`` must not be trusted, or None if it may be.

    >>> untrusted(os.stat(os.devnull)) is None  # root's, and writable by everyone
    False
    """
    if st.st_uid != os.getuid():
        return f"it is owned by uid {st.st_uid}, not by this user ({os.getuid()})"
    writable = st.st_mode & 0o022
    if writable:
        who = {0o020: "its group", 0o002: "others"}.get(writable, "its group and others")
        return f"it is writable by {who} (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def refusal(path: str | os.PathLike, why: str, elsewhere: str) -> str:
    """The one line that refuses the untrusted file ``path``: ``why`` (from :func:`untrusted`), and the two ways
    out, taking it as this user's or (``elsewhere``) using another file.

    >>> refusal("/x/b.gdb", "it is writable by others (mode 666)", "point GAMEDP_DB_DIR elsewhere")[:69]
    '/x/b.gdb is not read: it is writable by others (mode 666), so another'
    """
    return (f"{path} is not read: {why}, so another user could have written what it says; if you trust it, make it "
            f"yours and writable by you alone (chown, chmod go-w), else {elsewhere}")
