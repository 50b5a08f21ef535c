"""Position databases: a strong solution on disk, answered from at once, never from a damaged file.

A database holds one value per index of a game's position space (the games that have one are in
:mod:`gamedp.games.indexed`; this module knows bytes, checksums and headers, and imports no game). It is
written once, atomically, by ``gamedp solve`` and read through a memory map by ``gamedp query``, the Python
API and the judge adapters. Reading needs neither numba nor numpy, so a lookup
costs little more than starting Python.

From Python (after ``gamedp solve tictactoe``)::

    from gamedp.database import open_for
    from gamedp.games.indexed import table_spec

    spec = table_spec("tictactoe")               # variant parameters as keywords, e.g. rows=4
    with open_for(spec) as db:                    # or find(spec.game_id, spec.variant): None if not solved
        db.value(spec.index(spec.parse_position("X........")))   # Value(TIE, 8)

File format, version 2 (all integers little-endian)::

    offset     size  field
    0          8     magic b"GAMEDPDB"
    8          4     format version (u32); this gamedp writes version 2 (see below for version 1)
    12         4     metadata length M (u32)
    16         M     metadata: a UTF-8 JSON object (below)
    16+M       4     CRC-32 of bytes 0 .. 16+M
    D                data area, D = 16+M+4 rounded up to a multiple of 64
    D+c        4*B   per section: the CRC-32 of each of its B blocks (``crc_offset`` c)
    D+o        L     per section: its L bytes (``offset`` o, a multiple of 64)

Bytes 0-16 and the CRC after the metadata keep this layout in every future version, so a newer file is
recognised as newer (and not as damaged). Metadata keys: ``game_id``, ``variant`` (the game's parameters),
``size`` (positions), ``encoding`` (``outcome_bits``: 1 when every position is a WIN or LOSE, else 2;
``remoteness``: ``"u8"`` or ``null``; ``unreachable``: 3 when the 2-bit code 3 marks an index that play from the
start never reaches, instead of a DRAW: a tiered game's database, see :mod:`gamedp.solvers.tier_solver`),
``block_size``, ``sections`` (``name``, ``offset``, ``length``,
``crc_offset``, ``blocks``), ``stats`` (what ``gamedp solve`` printed), ``checkpoint`` (set only in an unfinished
solve's checkpoint, which is never accepted as a database).

Sections: ``outcomes`` packs the value of index i at bit i%8 of byte i//8 (1 = WIN, 0 = LOSE) with one bit per
position, or at bits 2*(i%4) of byte i//4 with two (0 LOSE, 1 WIN, 2 TIE, 3 DRAW, or not reachable when the
encoding says so); ``remoteness`` has one byte per position.

Version 1 kept a tiered game's reachability apart, one bit per index in a ``reachable`` section, and left its
unreachable indices at code 0: 3 bits per index where version 2 needs 2. Such a file is refused with the command
that solves it again; a version-1 file without that section means what it would in version 2, and is read.

Checking: opening a file checks that this user owns it and no one else may write it (it is written mode 644 at
most), the magic, the metadata CRC, the version, the game and variant asked for, and the file's length (a
truncated file is refused at once). A data block's CRC is checked the first time the block is read, so a lookup
touches only the blocks it needs; :meth:`Reader.verify` checks them all.

Writing goes to a temporary file in the same directory, which is flushed to disk (fsync) and then renamed over
the destination: a reader sees the old file or the whole new one, and a solve killed part-way leaves no file
that reads as valid.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "take.gdb"
>>> write_database(path, "take", {"n": 9}, 10, outcomes=bytes([0b10101010, 0b10]), outcome_bits=1)
>>> db = open_database(path, "take", {"n": 9})
>>> [db.outcome(i).name for i in range(4)], str(db.value(9))
(['LOSE', 'WIN', 'LOSE', 'WIN'], 'WIN')
>>> db.close()
"""

from __future__ import annotations

import json
import mmap
import os
import stat
import struct
import zlib
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

# where databases live: imported from here by many callers
from gamedp.database_location import canonical, db_dir, default_path, file_name  # noqa: F401
from gamedp.errors import GamedpError
from gamedp.trust import refusal, untrusted
from gamedp.values import Outcome, Value

MAGIC = b"GAMEDPDB"
FORMAT_VERSION = 2
#: The first version whose code 3 may mean "not reachable" (and that has no ``reachable`` section).
UNREACHABLE_CODE_SINCE = 2
BLOCK_SIZE = 1 << 16
ALIGN = 64
#: 2-bit outcome codes, as the table solvers pack them.
CODES = (Outcome.LOSE, Outcome.WIN, Outcome.TIE, Outcome.DRAW)
_FIXED = struct.Struct("<8sII")


#: A section of more blocks than this has them checksummed by threads, one share each (zlib lets go of the GIL):
#: a 6x5 Connect-Four solve writes 2.5 GB at its end, and seals 2.5 GB of tier files on the way, while a core
#: waits.
PARALLEL_BLOCKS, CRC_THREADS = 1 << 10, 2


def block_crcs(view: memoryview) -> list[int]:
    """The CRC-32 of each :data:`BLOCK_SIZE` block of ``view`` (the last one may be short), in order.

    >>> block_crcs(memoryview(bytes(BLOCK_SIZE + 1))) == [zlib.crc32(bytes(BLOCK_SIZE)), zlib.crc32(b"\\0")]
    True
    """
    blocks = -(-len(view) // BLOCK_SIZE)

    def share(part: range) -> list[int]:
        return [zlib.crc32(view[b * BLOCK_SIZE:(b + 1) * BLOCK_SIZE]) for b in part]

    if blocks <= PARALLEL_BLOCKS:
        return share(range(blocks))
    from concurrent.futures import ThreadPoolExecutor

    cuts = [blocks * i // CRC_THREADS for i in range(CRC_THREADS + 1)]
    with ThreadPoolExecutor(CRC_THREADS) as pool:
        return [c for part in pool.map(share, [range(a, b) for a, b in zip(cuts, cuts[1:])]) for c in part]


class DatabaseError(GamedpError):
    """A database file that cannot be used: damaged, truncated, of another game, or of a newer gamedp."""

    def __init__(self, message: str, damaged: bool = False, why: str = "damaged"):
        super().__init__(message)
        #: True when solving again is the fix (the file is damaged or of an older format, not foreign or newer).
        self.damaged = damaged
        #: What is wrong with it, in a few words, when solving again is the fix.
        self.why = why


def describe(game_id: str, variant: Mapping[str, Any]) -> str:
    """A game and its parameters, for messages.

    >>> describe("blockgame", {"rows": 5, "cols": 5})
    'blockgame (cols=5, rows=5)'
    """
    if not variant:
        return game_id
    return f"{game_id} ({', '.join(f'{k}={canonical(v)}' for k, v in sorted(variant.items()))})"


def solve_command(game_id: str, variant: Mapping[str, Any], path: Path | None = None,
                  command: str | None = None) -> str:
    """The command that (re)builds this database, for the fix in error messages: the game's own ``command``
    (which whoever knows the games' registry passes down), else every parameter as an option.

    >>> solve_command("subtraction", {"n": 40, "moves": [2, 3], "misere": False})
    'gamedp solve subtraction -V misere=false -V moves=2,3 -V n=40'
    >>> solve_command("subtraction", {"n": 40}, Path("/x/s.gdb"), command="gamedp solve subtraction -V n=40")
    'gamedp solve subtraction -V n=40 --db /x/s.gdb'
    """
    def text(value: Any) -> str:
        if isinstance(value, (list, tuple)):
            return ",".join(map(text, value))
        return str(value).lower() if isinstance(value, bool) else str(value)

    if command is None:
        command = f"gamedp solve {game_id}" + "".join(f" -V {k}={text(v)}" for k, v in sorted(variant.items()))
    where = "" if path is None or path == default_path(game_id, variant) else f" --db {path}"
    return command + where


# -- writing ---------------------------------------------------------------------------------------------------
def write_container(path: str | os.PathLike, meta: dict, sections: Iterable[tuple[str, Any]],
                    durable: bool = True) -> None:
    """Write a checksummed file of named byte sections atomically (temporary file, fsync, rename).

    ``sections`` are (name, bytes-like) pairs; ``meta`` gains the section table and ``block_size``. A working
    file that is cheap to redo may skip the fsyncs (``durable=False``): after a crash it is whole or fails its
    checksums, and is then redone.
    """
    path = Path(path)
    views = [(name, memoryview(data).cast("B")) for name, data in sections]
    crc_tables: list[bytes] = []
    table: list[dict[str, Any]] = []
    at = 0
    for name, view in views:
        blocks = -(-len(view) // BLOCK_SIZE)
        crcs = struct.pack(f"<{blocks}I", *block_crcs(view))
        crc_tables.append(crcs)
        table.append({"name": name, "crc_offset": at, "blocks": blocks, "length": len(view)})
        at += len(crcs)
    for entry in table:
        at = _align(at)
        entry["offset"] = at
        at += entry["length"]
    meta = {**meta, "block_size": BLOCK_SIZE, "sections": table}
    text = json.dumps(meta, sort_keys=True).encode()
    head = _FIXED.pack(MAGIC, FORMAT_VERSION, len(text)) + text
    head += struct.pack("<I", zlib.crc32(head))
    head += bytes(_align(len(head)) - len(head))
    import tempfile  # only writers pay for it

    check_regular(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    except OSError as e:
        raise GamedpError(f"cannot write {path}: {e.strerror or e}") from None
    try:
        # mkstemp makes the file private; a database is read by others like any file, but written by this user
        # alone, whatever the umask: a reader trusts no other's (see Container)
        os.fchmod(fd, 0o644 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            f.write(head)
            for crcs in crc_tables:
                f.write(crcs)
            for entry, (_, view) in zip(table, views):
                f.write(bytes(len(head) + entry["offset"] - f.tell()))
                f.write(view)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
        if durable:
            _fsync_directory(path.parent)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise GamedpError(f"cannot write {path}: {e.strerror or e}") from None
        raise


def write_database(path: str | os.PathLike, game_id: str, variant: Mapping[str, Any], size: int, *,
                   outcomes: Any, outcome_bits: int, remoteness: Any = None, stats: dict | None = None) -> None:
    """Write a finished database (``outcomes`` already packed at ``outcome_bits`` per position)."""
    if outcome_bits not in (1, 2):
        raise ValueError(f"outcome_bits must be 1 or 2, not {outcome_bits}")
    if len(memoryview(outcomes).cast("B")) != -(-size * outcome_bits // 8):
        raise ValueError("outcomes do not hold exactly size positions")
    if remoteness is not None and len(memoryview(remoteness).cast("B")) != size:
        raise ValueError("remoteness must hold one byte per position")
    meta = {"game_id": game_id, "variant": dict(variant), "size": int(size), "stats": stats or {},
            "encoding": {"outcome_bits": outcome_bits, "remoteness": None if remoteness is None else "u8"}}
    sections = [("outcomes", outcomes)] + ([] if remoteness is None else [("remoteness", remoteness)])
    write_container(path, meta, sections)


def check_writable(path: str | os.PathLike) -> None:
    """Fail now, not after a long solve, if ``path`` cannot be written."""
    import tempfile

    path = Path(path)
    check_regular(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        raise GamedpError(f"cannot write the database {path}: {e.strerror or e}") from None


def check_regular(path: str | os.PathLike) -> None:
    """Refuse, with a clear error, a ``path`` that is there but is not a regular file (links are followed): a
    database is only ever read from, or written over, a regular file, never a device, FIFO, socket or directory.

    >>> check_regular("/dev/null")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gamedp.errors.GamedpError: /dev/null is a character device, not a regular file: ...
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # missing (or unreachable: opening it says why)
    if not stat.S_ISREG(mode):
        raise GamedpError(f"{path} is {kind_of(mode)}, not a regular file: a database is a regular file; "
                          "choose another --db")


def kind_of(mode: int) -> str:
    """What a file of mode ``mode`` (from os.stat or os.lstat) that is not a regular file is, in words.

    >>> kind_of(os.lstat("/dev/null").st_mode)
    'a character device'
    """
    kinds = [(stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
             (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")]
    return next((name for test, name in kinds if test(mode)), "a special file")


def _umask() -> int:
    mask = os.umask(0o22)
    os.umask(mask)
    return mask


def _align(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


def _fsync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # some systems cannot open directories; the rename itself is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def named_game(path: str | os.PathLike) -> str | None:
    """The game and variant a database's header names, as :func:`describe` puts them, read even when its
    checksums fail (a damaged file is replaced by solving again only when it is known to be that game's); None
    when the header names none.

    >>> named_game("/dev/null") is None
    True
    """
    try:
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC), "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return None
            head = f.read(_FIXED.size)
            if len(head) < _FIXED.size or head[:8] != MAGIC:
                return None
            meta = json.loads(f.read(min(_FIXED.unpack(head)[2], 1 << 24)).decode())
        return describe(str(meta["game_id"]), dict(meta["variant"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def remove_stale_temporaries(path: str | os.PathLike) -> None:
    """Delete the temporary files that killed writers of ``path`` left: named as :func:`write_container` names
    them, regular files of this user, and of a process that is gone. Anything else is left alone."""
    from glob import escape

    path = Path(path)
    for tmp in path.parent.glob(f".{escape(path.name)}.*.tmp"):
        pid = tmp.name[len(path.name) + 2:].split(".", 1)[0]
        try:
            st = tmp.lstat()
            if pid.isdigit() and stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid() and not _alive(int(pid)):
                tmp.unlink()
        except OSError:
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


# -- reading ---------------------------------------------------------------------------------------------------
class Container:
    """A checksummed file opened through a memory map; blocks are verified the first time they are read.

    Only a file this user owns and no one else may write is read (:func:`gamedp.trust.untrusted`): its checksums
    say it is whole, not that its answers are true, and in a shared directory (a ``GAMEDP_DB_DIR`` of mode 777)
    another user could have written one with valid checksums and wrong values. ``elsewhere`` says how to do
    without such a file.

    A map of a file cut short under it (``cp`` over it, say) kills the process with SIGBUS at the first byte read
    past the new end. ``mapped=False`` reads the whole file at once instead of mapping it: for a small file kept
    open long (an opening book). ``watched=True`` checks the file's length before each read (one ``fstat``): for a
    large one looked up in for long (a database a server answers from), refused as damaged once it is cut short."""

    def __init__(self, path: str | os.PathLike, fix: str | Callable[[], str] = "solve again",
                 elsewhere: str = "remove it, or keep your databases in a directory of your own (GAMEDP_DB_DIR)",
                 mapped: bool = True, watched: bool = False):
        self.path = Path(path)
        self._fix = fix
        try:  # without blocking, so that a FIFO is refused rather than waited on
            with open(os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC), "rb") as f:
                st = os.fstat(f.fileno())  # the file opened is the one checked, and then mapped
                if not stat.S_ISREG(st.st_mode):
                    raise DatabaseError(self._not_regular(st.st_mode))
                why = untrusted(st)
                if why is not None:
                    raise DatabaseError(refusal(self.path, why, elsewhere))
                self._map: mmap.mmap | bytes = \
                    mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if mapped and st.st_size else f.read()
                #: the file, kept open to check its length before reading the map (None: not watched)
                self._fd = os.dup(f.fileno()) if watched and isinstance(self._map, mmap.mmap) else None
        except FileNotFoundError:
            raise DatabaseError(f"no database at {self.path}; {self.fix}") from None
        except OSError as e:  # a socket cannot even be opened
            try:
                mode = os.stat(self.path).st_mode
            except OSError:
                mode = stat.S_IFREG
            raise DatabaseError(self._not_regular(mode) if not stat.S_ISREG(mode)
                                else f"cannot read {self.path}: {e.strerror or e}") from None
        try:
            self.meta = self._read_header()
            self._sections = {s["name"]: s for s in self.meta["sections"]}
            self._verified = {name: bytearray(s["blocks"]) for name, s in self._sections.items()}
            end = max((self._data + s["offset"] + s["length"] for s in self._sections.values()), default=self._data)
            if len(self._map) != end:
                self._damaged(f"is truncated ({len(self._map)} bytes, {end} expected)" if len(self._map) < end
                              else f"has {len(self._map) - end} bytes too many")
            self._check_padding()
        except BaseException:
            self.close()
            raise

    def _not_regular(self, mode: int) -> str:
        return f"cannot read {self.path}: it is {kind_of(mode)}, not a regular file (a database is a regular file)"

    @property
    def fix(self) -> str:
        """What to do about a bad file (worked out only when one is found)."""
        return self._fix() if callable(self._fix) else self._fix

    def _damaged(self, what: str) -> None:
        raise DatabaseError(f"the database {self.path} {what}: it is damaged; {self.fix}", damaged=True)

    def _read_header(self) -> dict:
        m = self._map
        if len(m) < _FIXED.size or m[:8] != MAGIC:
            self._damaged("is not a gamedp database (no GAMEDPDB header)" if len(m) >= 8 and m[:8] != MAGIC
                          else "is truncated (shorter than its header)")
        _, version, length = _FIXED.unpack_from(m, 0)
        end = _FIXED.size + length
        if end + 4 > len(m):
            self._damaged("is truncated, or its header length is damaged")
        if zlib.crc32(m[:end]) != struct.unpack_from("<I", m, end)[0]:
            self._damaged("has a damaged header (checksum mismatch)")
        if version > FORMAT_VERSION:
            raise DatabaseError(f"the database {self.path} has format version {version}, written by a newer gamedp; "
                                f"this gamedp reads version {FORMAT_VERSION}: upgrade gamedp, or {self.fix}")
        self.version: int = version
        self._header_text = m[_FIXED.size:end]
        try:
            meta = json.loads(self._header_text.decode())
            self._data = _align(end + 4)
            for s in meta["sections"]:
                s["offset"], s["length"], s["crc_offset"], s["blocks"] = (
                    int(s["offset"]), int(s["length"]), int(s["crc_offset"]), int(s["blocks"]))
            meta["block_size"] = int(meta["block_size"])
            if meta["block_size"] < 1 or any(s["blocks"] != -(-s["length"] // meta["block_size"])
                                             for s in meta["sections"]):
                raise ValueError("block table does not match the sections")
        except (ValueError, KeyError, TypeError):
            self._damaged("has unreadable metadata")
        return meta

    def _check_padding(self) -> None:
        """The few bytes no checksum covers (alignment gaps) must be zero, so that no byte of the file goes unchecked."""
        used = [(0, _FIXED.size + len(self._header_text) + 4)]
        for s in self._sections.values():
            used.append((self._data + s["crc_offset"], self._data + s["crc_offset"] + 4 * s["blocks"]))
            used.append((self._data + s["offset"], self._data + s["offset"] + s["length"]))
        used.sort()
        for (_, stop), (start, _) in zip(used, used[1:]):
            if start > stop and any(self._map[stop:start]):
                self._damaged(f"has damaged padding (bytes {stop}..{start - 1})")

    def has(self, name: str) -> bool:
        return name in self._sections

    def _still_whole(self) -> None:
        """Refuse a watched file cut short since it was opened, before its map is read past the new end."""
        if self._fd is not None and os.fstat(self._fd).st_size < len(self._map):
            self._damaged("was cut short while it was read from")

    def byte(self, name: str, at: int) -> int:
        """Byte ``at`` of section ``name``, after checking its block."""
        self._still_whole()
        s = self._sections[name]
        block = at // self.meta["block_size"]
        if not self._verified[name][block]:
            self._verify_block(s, block)
        return self._map[self._data + s["offset"] + at]

    def section(self, name: str) -> memoryview:
        """A whole section, every block checked."""
        self._still_whole()
        s = self._sections[name]
        for block in range(s["blocks"]):
            if not self._verified[name][block]:
                self._verify_block(s, block)
        start = self._data + s["offset"]
        return memoryview(self._map)[start:start + s["length"]]

    def span(self, name: str, start: int, stop: int) -> memoryview:
        """Bytes ``start:stop`` of section ``name``, after checking the blocks they lie in."""
        self._still_whole()
        s = self._sections[name]
        size = self.meta["block_size"]
        for block in range(start // size, -(-stop // size)):
            if not self._verified[name][block]:
                self._verify_block(s, block)
        at = self._data + s["offset"]
        return memoryview(self._map)[at + start:at + stop]

    def _verify_block(self, s: dict, block: int) -> None:
        size = self.meta["block_size"]
        start = self._data + s["offset"] + block * size
        stop = min(start + size, self._data + s["offset"] + s["length"])
        expected = struct.unpack_from("<I", self._map, self._data + s["crc_offset"] + 4 * block)[0]
        if zlib.crc32(memoryview(self._map)[start:stop]) != expected:
            self._damaged(f"has a damaged block ({s['name']} block {block}: checksum mismatch)")
        self._verified[s["name"]][block] = 1

    def verify(self) -> None:
        """Check every block of every section."""
        for name in self._sections:
            self.section(name).release()

    def take_as_verified(self) -> None:
        """Count every block as checked: for a caller that has verified this very file (same inode, size and
        modification time) through another handle."""
        for name, s in self._sections.items():
            self._verified[name] = bytearray(b"\1" * s["blocks"])

    def close(self) -> None:
        fd, self._fd = getattr(self, "_fd", None), None
        if fd is not None:
            os.close(fd)
        if isinstance(self._map, mmap.mmap):
            try:
                self._map.close()
            except BufferError:
                # A view of it still lives (seen in Dask workers: an array handed to a compiled kernel freed only
                # by a later garbage collection). The map is read-only, and unmapped when the last view goes.
                pass

    def __enter__(self) -> Container:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Reader(Container):
    """A finished database: the value of any index, looked up in constant time."""

    def __init__(self, path: str | os.PathLike, game_id: str | None = None, variant: Mapping[str, Any] | None = None,
                 size: int | None = None, fix: str | None = None, command: str | None = None):
        if fix is None and game_id is not None:
            super().__init__(path, lambda: f"solve again: {solve_command(game_id, variant or {}, Path(path), command)}",
                             watched=True)
        else:
            super().__init__(path, fix or "solve again", watched=True)
        meta = self.meta
        if meta.get("kind", "index") != "index":  # a saved solve (gamedp.saved_solution) is keyed by position
            raise DatabaseError(f"{self.path} is a saved solve of {meta.get('game', {}).get('name', 'a game')}, "
                                "not a database of an indexed game: query it with the game it was saved from")
        if meta.get("checkpoint") is not None:
            raise DatabaseError(f"{self.path} is the checkpoint of an unfinished solve, not a database; "
                                f"{self.fix.replace('solve again', 'finish the solve')}")
        try:
            self.game_id: str = meta["game_id"]
            self.variant: dict = meta["variant"]
            self.size: int = int(meta["size"])
            self.outcome_bits: int = int(meta["encoding"]["outcome_bits"])
            self.stats: dict = meta.get("stats") or {}
        except (KeyError, TypeError, ValueError):
            self._damaged("has unreadable metadata")
        if game_id is not None and (self.game_id != game_id or canonical(self.variant) != canonical(variant or {})):
            raise DatabaseError(f"{self.path} is the database of {describe(self.game_id, self.variant)}, not of "
                                f"{describe(game_id, variant or {})}; {self.fix}")
        if size is not None and self.size != size:  # same game and variant, yet another size: not to be trusted
            self._damaged(f"holds {self.size} positions where the game has {size}")
        if self.version < UNREACHABLE_CODE_SINCE and self.has("reachable"):
            raise DatabaseError(f"the database {self.path} has format version {self.version}, written by an older "
                                f"gamedp (3 bits per index: reachability apart); this gamedp reads version "
                                f"{FORMAT_VERSION} (2 bits): {self.fix}", damaged=True, why="of an older format")
        if self.outcome_bits not in (1, 2) or not self.has("outcomes") or \
                self._sections["outcomes"]["length"] != -(-self.size * self.outcome_bits // 8):
            self._damaged("has an outcome section of the wrong size")
        unreachable = meta["encoding"].get("unreachable")
        if unreachable not in (None, 3) or (unreachable is not None and self.outcome_bits != 2):
            self._damaged("has unreadable metadata (encoding.unreachable)")
        #: The code of an index play never reaches, or None when every index is a position (code 3 is a DRAW).
        self.unreachable_code: int | None = unreachable
        self.has_remoteness = self.has("remoteness")
        self._shift = 3 if self.outcome_bits == 1 else 2

    def code(self, index: int) -> int:
        """The 2-bit outcome code of ``index`` (0 LOSE, 1 WIN, 2 TIE, 3 DRAW or, see :attr:`unreachable_code`,
        not reachable)."""
        if not 0 <= index < self.size:
            raise IndexError(f"index {index} is outside this database's 0..{self.size - 1}")
        byte = self.byte("outcomes", index >> self._shift)
        if self.outcome_bits == 1:
            return (byte >> (index & 7)) & 1
        return (byte >> ((index & 3) << 1)) & 3

    def reachable(self, index: int) -> bool:
        """Whether play from the start reaches ``index`` (always, in a database whose every index is a position)."""
        return self.unreachable_code is None or self.code(index) != self.unreachable_code

    def outcome(self, index: int) -> Outcome:
        """The value's outcome; an index play never reaches reads LOSE, as version 1 stored it (ask
        :meth:`reachable` first where that matters)."""
        code = self.code(index)
        return Outcome.LOSE if code == self.unreachable_code else CODES[code]

    def remoteness(self, index: int) -> int | None:
        """Moves to the end under perfect play (None if this database has no remoteness, or for a DRAW)."""
        if not self.has_remoteness or self.outcome(index) is Outcome.DRAW:
            return None
        return self.byte("remoteness", index)

    def value(self, index: int) -> Value:
        return Value(self.outcome(index), self.remoteness(index))

    def __repr__(self) -> str:
        return f"<gamedp database {describe(self.game_id, self.variant)} at {self.path}>"


def open_database(path: str | os.PathLike, game_id: str | None = None, variant: Mapping[str, Any] | None = None,
                  size: int | None = None) -> Reader:
    """Open a database, refusing it unless it is whole and (when given) of ``game_id`` with ``variant``."""
    return Reader(path, game_id, variant, size)


def find(game_id: str, variant: Mapping[str, Any], db: str | os.PathLike | None = None,
         command: str | None = None) -> Reader | None:
    """The database of ``game_id``/``variant`` in the default place (or ``db``), or None if there is none.

    A file that is there but damaged, of a newer format, or of another game raises :class:`DatabaseError`:
    it must be fixed (solved again, by ``command``: see :func:`solve_command`), never trusted and never
    silently ignored.
    """
    path = default_path(game_id, variant, db)
    if not path.exists():
        return None
    return Reader(path, game_id, variant, command=command)


def open_for(spec: Any, db: str | os.PathLike | None = None, what: str | None = None,
             command: str | None = None) -> Reader:
    """The database of a tiered game (see :mod:`gamedp.tiers`), checked against it.

    Raises a :class:`DatabaseError` that names the command to run when there is none yet (``what`` names the
    game in that message, ``command`` is the game's solve command: see :func:`solve_command`).
    """
    path = default_path(spec.game_id, spec.variant, db)
    if not path.exists():
        raise DatabaseError(f"no database of {what or describe(spec.game_id, spec.variant)} at {path}; create it with: "
                            f"{solve_command(spec.game_id, spec.variant, path, command)}")
    return Reader(path, spec.game_id, spec.variant, spec.size, command=command)
