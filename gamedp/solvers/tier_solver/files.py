"""The tier solver's working files, beside the database: their names, their identity, and reading them.

Every working file is a :class:`~gamedp.database.Container` (header, CRC per block) whose metadata carries the
solve's identity (:func:`identity`: the game, its variant and sizes, remoteness, the shard size and
:data:`FORMAT`), so a file of another solve is never taken for this one's. In the work directory
(:func:`gamedp.solvers.tier_work.work_dir`) a tier ``t`` has ``tier{t}.reach`` (its reach bits, from the forward pass),
``tier{t}.marks{piece}`` (a forward piece's children, until merged), ``tier{t}.shard{s}`` (a backward shard's
codes and remoteness) and, once its shards are sealed, ``tier{t}.values``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from gamedp.solvers.tier_solver.plan import Job
from gamedp.tiers import TieredGame

FORMAT = 4  # of the working files (4: shards cut by reachable positions, their range recorded); a change makes
# old ones stale


def identity(game: TieredGame, remoteness: bool, shard: int) -> str:
    return json.dumps({"format": FORMAT, "game_id": game.game_id, "variant": game.variant, "sizes": game.sizes,
                       "remoteness": remoteness, "shard": shard}, sort_keys=True)


def shard_path(work: Path, tier: int, shard: int) -> Path:
    return work / f"tier{tier}.shard{shard}"


def tier_path(work: Path, tier: int) -> Path:
    return work / f"tier{tier}.values"


def reach_path(work: Path, tier: int) -> Path:
    return work / f"tier{tier}.reach"


def marks_path(work: Path, tier: int, piece: int) -> Path:
    return work / f"tier{tier}.marks{piece}"


class WorkFile:
    """A working file (a :class:`~gamedp.database.Container`) checked against the solve's identity."""

    def __init__(self, path: Path, ident: str):
        from gamedp.database import Container

        self.c = Container(path, "the solve will redo it")
        if self.c.meta.get("identity") != ident:
            self.c.close()
            raise Stale(path)
        st = os.stat(path)
        self.stamp = (str(path), st.st_ino, st.st_mtime_ns, st.st_size)
        if self.stamp in _CHECKED:  # every shard of a tier maps the same child files: check them once per process
            self.c.take_as_verified()

    def trust(self) -> WorkFile:
        """Count every block as checked, for a file its writer reported whole in this solve: a worker writes to a
        temporary file and renames it when done (a killed one leaves no torn file), and one found at a resume was
        checked by :func:`finished_meta`; only a machine crash tears a file, and it ends this solve too. (Checking
        again costs the driver seconds on a large board: see docs/performance.md.)"""
        self.c.take_as_verified()
        return self

    def verify(self) -> None:
        """Every block checked (and remembered for this process)."""
        self.c.verify()
        _CHECKED.add(self.stamp)

    def section(self, name: str) -> memoryview:
        """A whole section, every block checked (once per process, for a file of one section)."""
        view = self.c.section(name)
        if len(self.c._sections) == 1:
            _CHECKED.add(self.stamp)
        return view

    def span(self, first: str, count: int) -> memoryview:
        """Sections ``first0..first{count-1}``, which lie end to end, as one read-only view (every block checked)."""
        import mmap

        start = stop = None
        for i in range(count):
            view = self.c.section(f"{first}{i}")  # checks the CRCs, unless this process has
            s = self.c._sections[f"{first}{i}"]  # by name: a tier file has a section per shard
            if stop is not None and s["offset"] != stop:
                raise Stale(self.c.path)
            start = s["offset"] if start is None else start
            stop = s["offset"] + s["length"]
            view.release()
        _CHECKED.add(self.stamp)  # the solver reads a file's sections all together
        if start is None:
            return memoryview(b"")
        base = self.c._data  # the data area: sections' offsets count from it
        assert isinstance(self.c._map, mmap.mmap)
        return memoryview(self.c._map)[base + start:base + stop]

    def close(self) -> None:
        self.c.close()


#: Working files whose every block this process has checked: (path, inode, mtime, size), so a file made again
#: is checked again.
_CHECKED: set[tuple] = set()


class Stale(Exception):
    pass


def open_whole(path: Path, ident: str) -> WorkFile | None:
    """The working file at ``path`` if it is whole and of this solve; else None (and it is removed)."""
    from gamedp.database import DatabaseError

    if not path.exists():
        return None
    try:
        f = WorkFile(path, ident)
    except (DatabaseError, Stale, KeyError, ValueError, TypeError):
        path.unlink(missing_ok=True)
        return None
    try:
        f.verify()  # every block: working files skip fsync, so one a crash tore is redone, never trusted
    except DatabaseError:
        f.close()
        path.unlink(missing_ok=True)
        return None
    return f


def finished_meta(path: Path, job: Job) -> dict | None:
    """The metadata of the piece or shard file at ``path`` if it is whole, of this solve and of ``job``'s range;
    else None (and a file of another range is removed: a solve resumed on another number of workers cuts its
    tiers otherwise)."""
    done = open_whole(path, job.identity)
    if done is None:
        return None
    meta = done.c.meta
    done.close()
    if (meta.get("lo"), meta.get("hi")) != (job.lo, job.hi):
        path.unlink()
        return None
    return meta


def place_codes(outcomes: Any, at: int, packed: Any, size: int) -> None:
    """Put ``size`` packed codes (index i at bits 2(i%4) of byte i//4; what follows them ignored) into
    ``outcomes`` from index ``at``, where every code is still 0, by whole bytes: shifted when ``at`` is not a
    multiple of 4.

    >>> import numpy as np
    >>> from gamedp.solvers.statistics import pack_codes
    >>> out = np.zeros(3, dtype=np.uint8)
    >>> place_codes(out, 3, pack_codes(np.array([1, 2, 3, 1, 2, 3], dtype=np.uint8)), 5)
    >>> [(int(out[g >> 2]) >> 2 * (g & 3)) & 3 for g in range(10)]
    [0, 0, 0, 1, 2, 3, 1, 2, 0, 0]
    """
    import numpy as np

    whole = size >> 2
    first, shift = at >> 2, (at & 3) << 1
    full = packed[:whole]
    if shift == 0:
        np.bitwise_or(outcomes[first:first + whole], full, out=outcomes[first:first + whole])
    else:  # each byte's codes straddle two bytes of the whole space
        np.bitwise_or(outcomes[first:first + whole], np.left_shift(full, shift), out=outcomes[first:first + whole])
        np.bitwise_or(outcomes[first + 1:first + 1 + whole], np.right_shift(full, 8 - shift),
                      out=outcomes[first + 1:first + 1 + whole])
    for i in range(whole << 2, size):
        g = at + i
        outcomes[g >> 2] |= ((int(packed[i >> 2]) >> ((i & 3) << 1)) & 3) << ((g & 3) << 1)
