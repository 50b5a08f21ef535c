"""Stop and resume a long score search: what it proved, kept in a file beside the databases.

A search of :mod:`gamedp.solvers.score_search` that runs long (``gamedp value`` on a hard line, ``gamedp analyze``
of a big board) keeps what it has proved in a *checkpoint*, every :data:`EVERY` seconds (``$GAMEDP_CHECKPOINT_SECONDS``;
0: never) and when it is stopped (Ctrl-C, SIGTERM): the proven bounds of the positions it was asked about (the
root, and for ``analyze`` each move's position, exact once valued), the positions explored and the seconds spent,
and its transposition table. A table entry holds only bounds proven for the same game, so a table read back is
sound to search on. Running the same command again reads the checkpoint, says so, and goes on from its bounds
and table; the file is removed once the answer is found. Quick searches never write one (the first is due after
:data:`EVERY` seconds).

One file per game (and variant), position and kind of search (``value``'s exact score or its outcome alone,
``analyze``): ``NAME-DIGEST.resume`` in the database directory (:func:`gamedp.database_location.db_dir`), in gamedp's
checksummed container (:func:`gamedp.database.write_container`: a temporary file renamed over the old one, mode
644 at most). It is read only when this user owns it and no one else may write it (:mod:`gamedp.trust`), and only
whole (every checksum; the game, its search, gamedp's version, the position and the kind of search): any other
file is refused in one line that names it and the command that starts afresh (``--fresh``), never trusted. A file
there that gamedp did not write is never written over.

A search split over Dask's workers (:mod:`gamedp.solvers.split_search`) keeps its driver's answers alone, with no
table (its workers' tables are theirs): ``slots`` 0 and no section.

Metadata: ``kind`` (:data:`KIND`), ``version``, ``game`` (:func:`identity`), ``root`` (the position as the
search's arguments), ``search``, ``proved`` (``[arguments, low, high, lower, upper]``: the bounds proved within the
window [low, high] a query asked), ``explored``, ``seconds``, ``slots``, ``byteorder``; section ``table``: the
table's ``slots`` 64-bit entries in this machine's byte order.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, Sequence

from gamedp.errors import GamedpError

#: Seconds between checkpoints of a long search, unless ``$GAMEDP_CHECKPOINT_SECONDS`` says otherwise.
EVERY = 60.0
EVERY_VARIABLE = "GAMEDP_CHECKPOINT_SECONDS"
SUFFIX = ".resume"
KIND = "gamedp-search-checkpoint"
#: 2: a table entry keeps its hashed key's top bits, its slot being the low ones (1 had them the other way)
VERSION = 2

#: A query's bounds in a checkpoint: (the position's arguments, the window's low and high) -> (lower, upper).
Window = tuple[tuple[int, ...], int, int]


def every_seconds() -> float | None:
    """Seconds between checkpoints: ``$GAMEDP_CHECKPOINT_SECONDS``, else :data:`EVERY`; None for 0 (never)."""
    text = os.environ.get(EVERY_VARIABLE, "").strip()
    if not text:
        return EVERY
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise GamedpError(f"{EVERY_VARIABLE}={text!r}: give the seconds between checkpoints of a long search, "
                          f"e.g. 60 (0: none)")
    return seconds or None


def command_afresh() -> str:
    """This run's command line with ``--fresh``, for messages: the command that starts its search afresh."""
    import shlex

    words = [shlex.quote(word) for word in sys.argv[1:] if word != "--fresh"]
    return " ".join(["gamedp", *words, "--fresh"])


def interrupt_on_sigterm() -> None:
    """Take SIGTERM as Ctrl-C, so that a search stopped by either keeps what it proved (main thread only)."""
    import signal

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, signal.default_int_handler)


def identity(rules: Any) -> dict[str, Any]:
    """What a checkpoint's table is sound for: the game's search (its rules' class, name and variant, whether its
    keys fold mirror images) and gamedp's version (whose kernels wrote the entries)."""
    from importlib.metadata import version  # the package's own would be a front end's import here

    kind = type(rules)
    return {"search": f"{kind.__module__}.{kind.__qualname__}", "name": rules.name,
            "variant": getattr(rules, "variant", None), "symmetric": bool(rules.symmetric), "gamedp": version("gamedp")}


class Keeping:
    """How a front end wants its long searches kept: a checkpoint every ``seconds`` (None: never, but one is still
    read and kept when stopped); ``fresh``: one a stopped run kept is neither read nor refused, and is replaced;
    ``command``: the command that starts afresh (for messages); ``directory``: where (default: beside the
    databases)."""

    def __init__(self, command: str, *, fresh: bool = False, seconds: float | None = -1.0,
                 directory: str | os.PathLike | None = None):
        self.command, self.fresh = command, fresh
        self.seconds = every_seconds() if seconds == -1.0 else seconds
        if directory is None:
            from gamedp.database_location import db_dir

            directory = db_dir()
        self.directory = Path(directory)

    def checkpoint(self, rules: Any, root: Sequence[int], search: str, *, table: bool = True) -> Checkpoint:
        """The checkpoint of the search ``search`` (e.g. ``value``, ``analyze``) of the position whose arguments are
        ``root``; ``table``: whether it keeps a table (a split search's does not)."""
        return Checkpoint(self, rules, root, search, table=table)


class Checkpoint:
    """One search's checkpoint file: what it proved so far (``proved``, filled by the search as it goes)."""

    def __init__(self, keeping: Keeping, rules: Any, root: Sequence[int], search: str, *, table: bool = True):
        import hashlib

        from gamedp.database_location import canonical

        self.keeping, self.table = keeping, table
        self.game = identity(rules)
        self.root, self.search = [int(a) for a in root], search
        digest = hashlib.sha256(canonical([self.game, self.root, search]).encode()).hexdigest()[:16]
        slug = "".join(c if c.isalnum() else "_" for c in rules.name)[:60]
        self.path = keeping.directory / f"{slug}-{digest}{SUFFIX}"
        self.proved: dict[Window, tuple[int, int]] = {}
        #: positions explored and seconds spent by the runs before this one, and by this run's finished queries
        self.explored_before, self.seconds_before, self.explored_done = 0, 0.0, 0
        #: positions explored so far by the queries running now, by thread
        self.exploring: dict[int, int] = {}
        self.began = time.monotonic()
        self.written = False

    # -- reading -------------------------------------------------------------------------------------------------
    def load(self) -> tuple[int, memoryview] | None:
        """The table kept here (its slots and entries, checked whole; 0 and none for a checkpoint without one), its
        bounds read into :attr:`proved`; None where there is none (or the run is ``fresh``). A file that cannot be
        trusted whole is refused."""
        if not self._ours():
            raise GamedpError(f"{self.path} is in the place of a search checkpoint, but gamedp did not write it, so "
                              "gamedp neither reads it nor writes over it; move it away, or point GAMEDP_DB_DIR "
                              "elsewhere")
        if self.keeping.fresh or not self.path.exists():
            return None
        from gamedp.database import Container, DatabaseError

        afresh = f"start afresh with: {self.keeping.command}"
        try:
            with Container(self.path, fix=afresh, elsewhere=afresh) as container:
                meta = container.meta
                self._check(meta, afresh)
                container.verify()
                slots = meta["slots"]
                if self.table:
                    table = container.section("table")
                    whole = isinstance(slots, int) and slots >= 1 << 16 and not slots & (slots - 1) and \
                        len(table) == 8 * slots
                else:
                    table, whole = memoryview(b""), slots == 0
                if not whole:
                    raise DatabaseError(f"the search checkpoint {self.path} is damaged (its table is not the "
                                        f"{slots} slots it says); {afresh}")
                for args, low, high, lower, upper in meta["proved"]:
                    self.proved[(tuple(int(a) for a in args), int(low), int(high))] = (int(lower), int(upper))
                self.explored_before, self.seconds_before = int(meta["explored"]), float(meta["seconds"])
        except (KeyError, TypeError, ValueError):
            raise GamedpError(f"the search checkpoint {self.path} has unreadable metadata: it is damaged; "
                              f"{afresh}") from None
        return slots, table

    def _check(self, meta: dict, afresh: str) -> None:
        if meta.get("kind") != KIND or meta.get("version") != VERSION:
            raise GamedpError(f"{self.path} is not a search checkpoint of this gamedp (kind {meta.get('kind')!r}, "
                              f"version {meta.get('version')!r}); {afresh}")
        def game(kept: Any) -> str:
            kept = kept if isinstance(kept, dict) else {}
            variant = "" if kept.get("variant") is None else f" {kept.get('variant')}"
            return f"{kept.get('name')}{variant} by {kept.get('search')} of gamedp {kept.get('gamedp')}"

        if meta.get("game") != self.game:
            raise GamedpError(f"{self.path} keeps another search ({game(meta.get('game'))}, not {game(self.game)}); "
                              f"it is not read: {afresh}")
        if [meta.get("root"), meta.get("search")] != [self.root, self.search] or meta.get("byteorder") != sys.byteorder:
            raise GamedpError(f"{self.path} keeps another search (the {meta.get('search')} of position "
                              f"{meta.get('root')} on a {meta.get('byteorder')}-endian machine, not the {self.search} "
                              f"of {self.root}); it is not read: {afresh}")

    def _ours(self) -> bool:
        """Whether the file at the path, if any, is one gamedp wrote (its header, or a part of it): only such a file
        is read, or replaced."""
        from gamedp.database import MAGIC

        try:
            with open(os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC), "rb") as f:
                import stat

                return stat.S_ISREG(os.fstat(f.fileno()).st_mode) and MAGIC.startswith(f.read(len(MAGIC)))
        except FileNotFoundError:
            return True
        except OSError:
            return False

    def bounds(self, window: Window) -> tuple[int, int] | None:
        return self.proved.get(window)

    # -- writing -------------------------------------------------------------------------------------------------
    @property
    def explored(self) -> int:
        return self.explored_before + self.explored_done + sum(list(self.exploring.values()))

    @property
    def seconds(self) -> float:
        return self.seconds_before + time.monotonic() - self.began

    def save(self, table: memoryview | None, slots: int) -> None:
        """Keep ``table`` (``slots`` entries; None and 0 for none) and what :attr:`proved` holds, atomically."""
        from gamedp.database import write_container

        meta = {"kind": KIND, "version": VERSION, "game": self.game, "root": self.root, "search": self.search,
                "byteorder": sys.byteorder, "slots": slots, "explored": self.explored,
                "seconds": round(self.seconds, 3),
                "proved": [[list(args), low, high, lower, upper]
                           for (args, low, high), (lower, upper) in list(self.proved.items())]}
        write_container(self.path, meta, [] if table is None else [("table", table)])
        self.written = True

    def remove(self) -> None:
        """The answer is found: the checkpoint has served (a file that gamedp did not write stays)."""
        if self._ours():
            try:
                self.path.unlink()
            except FileNotFoundError:
                pass

    # -- messages ------------------------------------------------------------------------------------------------
    def summary(self, window: Window) -> str:
        """Its root's bounds (``window``: the root's query), positions explored and seconds spent, in words."""
        from gamedp.progress import duration

        lower, upper = self.proved.get(window, (window[1], window[2]))
        shown = "not narrowed yet" if (lower, upper) == window[1:] else f"[{lower}, {upper}]"
        valued = sum(1 for key, (lo, hi) in self.proved.items() if key != window and lo == hi)
        moves = f", {valued} moves valued" if self.search.startswith("analyze") else ""
        return f"bounds {shown}{moves}, {self.explored:,} positions, {duration(self.seconds)}"
