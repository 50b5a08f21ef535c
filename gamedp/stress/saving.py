"""Where a stress run saves its failing input, so that a rerun in the same folder always can.

By default each failure gets a new file of its own, ``gamedp-stress-PROBLEM-N.in`` in the current folder, N one
more than the highest there (the newest is the highest); nothing is ever replaced. A file the person names
(``--save PATH``) is replaced by a later run only if gamedp wrote it and it is unchanged since: gamedp keeps, in
a record in that folder (``.gamedp-stress.json``), each saved file's device, inode, size, time of writing and
SHA-256, and a file is gamedp's while all five match. A file the person made, edited or put back is theirs,
and is refused.

Only regular files are ever written or replaced (never what a link points to, a FIFO or a device), each
atomically: a temporary file, synced, then linked where no file is (which fails if one has appeared) or renamed
over gamedp's own.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from gamedp.database import kind_of
from gamedp.errors import GamedpError

#: the record of the files gamedp saved, one in each folder it saved to by name
RECORD = ".gamedp-stress.json"
#: what marks the record as gamedp's (a file of that name without it is left alone)
RECORD_FORMAT = "gamedp stress saved files, 1"
#: names a numbered save tries past the highest number it saw (other runs may be saving at the same time)
NUMBER_TRIES = 1000


class Numbered:
    """Each failing input in a new file ``FOLDER/gamedp-stress-NAME-N.in``, never replacing any file."""

    def __init__(self, name: str, folder: str = "."):
        self.folder = Path(folder)
        self.prefix = "gamedp-stress-" + re.sub(r"[^A-Za-z0-9_.-]", "_", name)

    def check(self) -> None:
        """Refuse, before the first trial, a folder no file can be made in."""
        _probe(self.folder, f"{self.folder}/{self.prefix}-N.in", "give --save PATH in another folder")

    def save(self, text: str) -> Path:
        with _staged(self.folder, text, str(self.folder)) as staged:
            first = self._highest() + 1
            for number in range(first, first + NUMBER_TRIES):
                target = self.folder / f"{self.prefix}-{number}.in"
                try:
                    os.link(staged.name, target)
                except FileExistsError:  # another run saved it just now: the next number
                    continue
                except OSError as e:
                    raise GamedpError(f"cannot save the failing input to {target}: {e.strerror or e}") from None
                return target
        raise GamedpError(f"cannot save the failing input in {self.folder}: {NUMBER_TRIES} names "
                          f"{self.prefix}-N.in were taken while saving; give --save PATH")

    def _highest(self) -> int:
        """The highest N of the names ``PREFIX-N.in`` in the folder (of any kind of file), or 0."""
        pattern = re.compile(re.escape(self.prefix) + r"-([0-9]{1,9})\.in")
        try:
            names = os.listdir(self.folder)
        except OSError:
            return 0
        return max((int(m[1]) for m in map(pattern.fullmatch, names) if m), default=0)


class Named:
    """The failing input in the file ``path`` the person named: a new file, or one gamedp saved and nobody changed."""

    def __init__(self, path: str):
        self.path = Path(path)
        self.record = self.path.parent / RECORD

    def check(self) -> None:
        """Refuse, before the first trial, a ``path`` the input could not be saved to."""
        if self.path.name == RECORD:
            raise GamedpError(f"--save {self.path}: that name is gamedp's record of the files it saved; choose "
                              "another --save")
        self._refuse_unless_ours()
        _probe(self.path.parent, str(self.path), "choose another --save")

    def save(self, text: str) -> Path:
        with _staged(self.path.parent, text, str(self.path)) as staged:
            try:
                try:
                    os.link(staged.name, self.path)
                except FileExistsError:
                    self._refuse_unless_ours()
                    os.replace(staged.name, self.path)
            except OSError as e:
                raise GamedpError(f"cannot save the failing input to {self.path}: {e.strerror or e}") from None
            self._remember(staged.identity)
        return self.path

    def _refuse_unless_ours(self) -> None:
        try:
            mode = os.lstat(self.path).st_mode
        except FileNotFoundError:
            return
        except OSError as e:
            raise GamedpError(f"cannot save the failing input to {self.path}: {e.strerror or e}") from None
        if not stat.S_ISREG(mode):
            raise GamedpError(f"--save {self.path} is {kind_of(mode)}, not a regular file: the failing input is "
                              "saved to a regular file only; choose another --save")
        if not _is(self.path, (self._recorded() or {}).get(self.path.name)):
            raise GamedpError(f"--save {self.path}: a file is there that gamedp did not save (or that was changed "
                              "since); gamedp replaces only its own: choose another --save, or move the file away")

    def _recorded(self) -> dict[str, list] | None:
        """The record's files (name -> identity): none if there is no record, None if a file of its name is
        not gamedp's record (a link, another user's file, other contents)."""
        try:
            fd = os.open(self.record, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except FileNotFoundError:
            return {}
        except OSError:
            return None
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_size > 1 << 20:
                return None
            try:
                doc = json.loads(f.read())
            except ValueError:
                return None
        files = doc.get("files") if isinstance(doc, dict) and doc.get("format") == RECORD_FORMAT else None
        return files if isinstance(files, dict) else None

    def _remember(self, identity: list) -> None:
        """Add the file just saved to the record, forgetting files that are gone. Where the record cannot be
        written (or a file of its name is not gamedp's), the next run refuses to replace the file, and says so."""
        recorded = self._recorded()
        if recorded is None:
            return
        files = {name: ident for name, ident in recorded.items() if os.path.lexists(self.path.parent / name)}
        files[self.path.name] = identity
        body = json.dumps({"format": RECORD_FORMAT, "files": files}, indent=1) + "\n"
        try:
            with _staged(self.path.parent, body, str(self.record)) as staged:
                os.replace(staged.name, self.record)
        except (OSError, GamedpError):
            pass


class _Staged:
    def __init__(self, name: str, identity: list):
        self.name = name
        #: device, inode, size, time of writing and SHA-256 of the staged file (and so of the file it becomes)
        self.identity = identity


@contextmanager
def _staged(folder: Path, text: str, target: str) -> Iterator[_Staged]:
    """``text`` in a new temporary file in ``folder``, written and synced; removed at the end (by then linked or
    renamed to where it belongs)."""
    data = text.encode()
    try:
        fd, name = tempfile.mkstemp(prefix=".gamedp-stress.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise GamedpError(f"cannot save the failing input to {target}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            os.fchmod(f.fileno(), 0o644)
            info = os.fstat(f.fileno())
        digest = hashlib.sha256(data).hexdigest()
        yield _Staged(name, [info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, digest])
    finally:
        try:
            os.unlink(name)
        except FileNotFoundError:
            pass


def _is(path: Path, identity: list | None) -> bool:
    """Whether ``path`` is the regular file of ``identity`` (device, inode, size, time of writing, SHA-256),
    never through a link. The time tells apart a file written in the place of one that was removed, which may be
    given the same inode."""
    if not isinstance(identity, list) or len(identity) != 5:
        return False
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        found = [info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns]
        if not stat.S_ISREG(info.st_mode) or found != identity[:4]:
            return False
        return hashlib.file_digest(f, "sha256").hexdigest() == identity[4]


def _probe(folder: Path, target: str, fix: str) -> None:
    """Refuse a ``folder`` where no file can be made."""
    try:
        fd, name = tempfile.mkstemp(prefix=".gamedp-stress.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise GamedpError(f"cannot save the failing input to {target}: {e.strerror or e} ({fix})") from None
    os.close(fd)
    os.unlink(name)
