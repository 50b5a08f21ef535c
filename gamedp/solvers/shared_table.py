"""A search table the processes of one machine share: the workers of a local cluster searching parts of one
position (:mod:`gamedp.solvers.split_search`) read what the others proved instead of proving it again.

The table is a file in a folder of this user's alone (memory-backed ``/dev/shm`` where there is one), mapped by
every process at once. It is sound to share for the reason the threads of one search share theirs
(:mod:`gamedp.kernels.null_window`): an entry is one 64-bit word, read and written whole, holding only proven
bounds of the position its tag names. It is made at its full size at once, where its file system has the room
for it (its pages are taken as the searches first touch them), and never grows: a table growing in place would
move entries under the other processes' feet.

A process is handed a :class:`TableFile` (a path and a size: it pickles small) and maps it with
:func:`map_table`, which first checks that the folder and the file are this user's and no one else's: another
user's file would decide the answers.

>>> with SharedTable(1 << 16) as shared:
...     mapped = map_table(shared.file)
...     mapped[:8] == bytes(8), len(mapped) == (1 << 16) * 8
(True, True)
"""

from __future__ import annotations

import mmap
import os
import shutil
import stat
import tempfile
from typing import NamedTuple

from gamedp.errors import GamedpError
from gamedp.trust import untrusted

#: Bytes an entry takes (the search's table of 64-bit words).
ENTRY_BYTES = 8
#: Where the table goes when this folder is there: memory, not a disk the kernel would write the table back to.
MEMORY_FOLDER = "/dev/shm"


class TableFile(NamedTuple):
    """A shared table as a process is handed it: its file and its size in entries."""

    path: str
    slots: int


class SharedTable:
    """A table of ``slots`` entries (a power of 2), zeroed, in a private folder of its own; removed by
    :meth:`close` (or at the end of a ``with`` block)."""

    def __init__(self, slots: int):
        if slots <= 0 or slots & (slots - 1):
            raise ValueError(f"a table's slots are a power of 2, not {slots}")
        folder = MEMORY_FOLDER if os.path.isdir(MEMORY_FOLDER) and os.access(MEMORY_FOLDER, os.W_OK) else None
        self._folder = tempfile.mkdtemp(prefix="gamedp-table-", dir=folder)  # mode 700
        path = os.path.join(self._folder, "table")
        size = slots * ENTRY_BYTES
        disk = os.statvfs(self._folder)
        if disk.f_bavail * disk.f_frsize < size:
            self.close()
            raise GamedpError(f"a shared search table of {size:,} bytes does not fit in {self._folder}'s file "
                              f"system ({disk.f_bavail * disk.f_frsize:,} bytes free); give --memory less")
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.ftruncate(fd, size)
        finally:
            os.close(fd)
        self.file = TableFile(path, slots)

    def close(self) -> None:
        shutil.rmtree(self._folder, ignore_errors=True)

    def __enter__(self) -> SharedTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def map_table(table: TableFile) -> mmap.mmap:
    """``table``'s file mapped for reading and writing, shared with every other process that maps it; refused
    where its folder or the file could have been written by another user, or it is not the size it should be."""
    for where in (os.path.dirname(table.path), table.path):
        st = os.stat(where)
        why = untrusted(st) or (None if stat.S_IMODE(st.st_mode) & 0o077 == 0 else
                                f"others may read it (mode {stat.S_IMODE(st.st_mode):o})")
        if why is not None:
            raise GamedpError(f"the shared search table {where} is not used: {why}")
    fd = os.open(table.path, os.O_RDWR | os.O_NOFOLLOW)
    try:
        if os.fstat(fd).st_size != table.slots * ENTRY_BYTES:
            raise GamedpError(f"the shared search table {table.path} is not {table.slots * ENTRY_BYTES:,} bytes")
        return mmap.mmap(fd, table.slots * ENTRY_BYTES, flags=mmap.MAP_SHARED)
    finally:
        os.close(fd)
