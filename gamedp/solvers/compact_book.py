"""An opening book in compact form: its scores alone, a few bits each, in the order its positions are met; the
form gamedp ships its books in (:mod:`gamedp.books`).

A book's positions follow from its game, its ``depth`` and its ``lines`` (:mod:`gamedp.solvers.book_positions`):
every position up to ``depth`` moves (their keys sorted), then, for the first player and then the second, each
step of a perfect player's lines (the keys new at that step, sorted), where the way the lines go depends on the
scores read so far. So the file keeps no keys: its reader walks the positions again and reads one score per
position, ``bits`` bits each (the score less ``low``). A 7x6 Connect-Four score (-21..21) takes 6 bits.

File (integers little-endian)::

    0      8     magic b"GAMEDPBK"
    8      4     format version (u32), 1
    12     4     header length M (u32)
    16     M     header: a UTF-8 JSON object: game_id, variant, depth, lines, reach (no position held is deeper),
                 count (scores), depth_count (those of the positions up to depth), bits, low, keys (the first 16
                 hex digits of the SHA-256 of the keys met, u64 each in file order: the positions up to depth's,
                 then the lines')
    16+M   S     the scores, ``bits`` each, the first at the lowest bits of the first byte
    16+M+S 32    SHA-256 of every byte before it

Reading checks the whole file's SHA-256 (and a shipped file's against the digest gamedp lists for it), the game
and its variant, then that the positions walked are the ones written (their keys' digest, part by part) and
every score within what its position can have. The positions up to ``depth`` are read when the book is opened;
the lines when a position past ``depth`` is first asked for (walking them asks the moves of every position
along them: tens of thousands on 7x6).
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from gamedp.errors import GamedpError
from gamedp.solvers.book_positions import perfect_lines, positions_up_to

if TYPE_CHECKING:  # a book is written compact from one
    from gamedp.solvers.opening_book import OpeningBook

MAGIC = b"GAMEDPBK"
VERSION = 1
_DIGEST = 32
#: the header's numbers
_NUMBERS = ("depth", "lines", "reach", "count", "depth_count", "bits", "low")


class CompactBook:
    """A compact book read from ``path`` for ``rules``' game, checked whole when opened (``sha256``: the digest
    the whole file must have, for a shipped one). Answers as :class:`~gamedp.solvers.opening_book.OpeningBook`."""

    def __init__(self, path: str | os.PathLike, rules: Any, sha256: str | None = None):
        self.path = Path(path)
        self._remake = (f"write it again with: gamedp book {rules.book_game} --depth N --lines PLIES --compact "
                        f"{self.path}")
        try:
            data = self.path.read_bytes()
        except OSError as e:
            raise GamedpError(f"cannot read the book {self.path}: {e.strerror}") from None
        if sha256 is not None and (found := hashlib.sha256(data).hexdigest()) != sha256:
            raise GamedpError(f"the opening book {self.path} shipped with gamedp is not the file it was shipped as "
                              f"(its SHA-256 is {found[:16]}..., not {sha256[:16]}...): it is not used; install "
                              "gamedp again (pip install --force-reinstall gamedp)")
        header, scores = self._read(data)
        if header.get("game_id") != rules.book_id or header.get("variant") != dict(rules.variant):
            raise GamedpError(f"the book {self.path} is the book of {header.get('game_id')} {header.get('variant')}, "
                              f"not of {rules.book_id} {dict(rules.variant)}")
        self.rules = rules
        #: every position up to this many moves is in the book
        self.depth: int = header["depth"]
        #: the plies of a perfect player's lines held past it
        self.lines: int = header["lines"]
        #: and no position is deeper than this many moves
        self.reach: int = header["reach"]
        self._header = header
        self._count: int = header["count"]
        self._scores = _unpacked(scores, header["bits"], header["low"], self._count)
        self._read_so_far = 0
        self.kept: dict[int, int] = _positions_up_to(rules, self.depth, self._next)
        self._check(list(self.kept), header["depth_count"], 0, "the positions up to its depth")
        self._lines_read = False
        self._reading = threading.Lock()

    def _read(self, data: bytes) -> tuple[dict, bytes]:
        if len(data) < 16 + _DIGEST or data[:8] != MAGIC:
            raise self._damaged("is not a compact book (no GAMEDPBK at its start)")
        version, size = struct.unpack_from("<II", data, 8)
        if version != VERSION:
            raise GamedpError(f"the book {self.path} is of format {version}; this gamedp reads format {VERSION}: "
                              f"{self._remake}")
        if hashlib.sha256(data[:-_DIGEST]).digest() != data[-_DIGEST:]:
            raise self._damaged("is damaged (its SHA-256 does not match its bytes)")
        try:
            header = json.loads(data[16:16 + size])
            whole = all(isinstance(header[name], int) for name in _NUMBERS) and len(header["keys"]) == 2
        except (ValueError, KeyError, TypeError):
            whole = False
        if not whole:
            raise self._damaged("is damaged (its header is not what a compact book's is)")
        bits, count = header["bits"], header["count"]
        scores = data[16 + size:-_DIGEST]
        if len(scores) != (count * bits + 7) // 8:
            raise self._damaged(f"is damaged ({len(scores)} bytes of scores, not {(count * bits + 7) // 8})")
        return header, scores

    def _damaged(self, what: str) -> GamedpError:
        return GamedpError(f"the book {self.path} {what}; {self._remake}")

    def _next(self, key: int) -> int:
        if self._read_so_far == self._count:
            raise self._damaged(f"holds {self._count:,} scores, fewer than its positions")
        self._read_so_far += 1
        return next(self._scores)

    def _check(self, keys: list[int], count: int, part: int, what: str) -> None:
        if len(keys) != count or _keys_digest(keys) != self._header["keys"][part]:
            raise self._damaged(f"does not hold {what} this gamedp finds for it (the game's moves are not "
                                "those it was written with)")

    def __len__(self) -> int:
        return self._count

    def score(self, key: int, most: int) -> int | None:
        """The score kept for ``key``, or None if the book does not hold it (the lines are read the first time
        a position not up to the book's depth is asked for). A score past ``most`` either way is refused."""
        kept = self.kept.get(key)
        if kept is None and not self._lines_read:
            with self._reading:  # threads share a book (value --threads, serve): the lines are read once
                if not self._lines_read:
                    self._read_lines()
            kept = self.kept.get(key)
        if kept is not None and abs(kept) > most:
            raise self._damaged(f"gives a position the score {kept}, past the most ({most} either way) a position "
                                "of its moves can have")
        return kept

    def _read_lines(self) -> None:
        before = len(self.kept)
        _lines(self.rules, self.lines, self.kept, self._next)
        self._check(list(self.kept)[before:], self._count - before, 1, "the positions of its lines")
        self._lines_read = True


def _positions_up_to(rules: Any, depth: int, take: Callable[[int], int]) -> dict[int, int]:
    return {key: take(key) for key in sorted(positions_up_to(rules, depth))}


def _lines(rules: Any, lines: int, scores: dict[int, int], take: Callable[[int], int]) -> None:
    for player in (0, 1) if lines else ():
        for step in perfect_lines(rules, player, lines, scores):
            for key in sorted(step.new):
                scores[key] = take(key)


def _keys_digest(keys: list[int]) -> str:
    return hashlib.sha256(struct.pack(f"<{len(keys)}Q", *keys)).hexdigest()[:16]


def _unpacked(data: bytes, bits: int, low: int, count: int) -> Iterator[int]:
    mask, word, held = (1 << bits) - 1, 0, 0
    at = iter(data)
    for _ in range(count):
        while held < bits:
            word |= next(at) << held
            held += 8
        yield (word & mask) + low
        word >>= bits
        held -= bits


def _packed(values: list[int], bits: int) -> bytes:
    out, word, held = bytearray(), 0, 0
    for value in values:
        word |= value << held
        held += bits
        while held >= 8:
            out.append(word & 0xFF)
            word >>= 8
            held -= 8
    if held:
        out.append(word)
    return bytes(out)


def write_compact(path: str | os.PathLike, rules: Any, depth: int, lines: int, reach: int,
                  scores: dict[int, int]) -> dict:
    """Write the book of ``rules``' game holding every position up to ``depth`` moves and ``lines`` plies of a
    perfect player's lines, none deeper than ``reach`` moves, whose scores (key -> score) are ``scores``, in
    compact form, atomically; returns its header. ``scores`` must hold exactly the positions the walk meets (a book built with that depth and lines)."""
    missing: list[int] = []

    def take(key: int) -> int:
        if key not in scores:
            missing.append(key)
            return 0
        return scores[key]

    ordered = _positions_up_to(rules, depth, take)
    depth_keys = list(ordered)
    _lines(rules, lines, ordered, take)
    if missing or len(ordered) != len(scores):
        raise GamedpError(f"the book holds {len(scores):,} positions and lacks {len(missing):,} of the "
                          f"{len(ordered):,} that depth {depth} and lines {lines} have: it is not a book of that "
                          "depth and lines")
    values = list(ordered.values())
    low = min(values, default=0)
    bits = max(1, (max(values, default=0) - low).bit_length())
    header = {"game_id": rules.book_id, "variant": dict(rules.variant), "depth": depth, "lines": lines,
              "reach": reach, "count": len(values), "depth_count": len(depth_keys), "bits": bits, "low": low,
              "keys": [_keys_digest(depth_keys), _keys_digest(list(ordered)[len(depth_keys):])]}
    # nothing of how the build went (its times): the same book is the same file, byte for byte
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    body = MAGIC + struct.pack("<II", VERSION, len(text)) + text + _packed([v - low for v in values], bits)
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(body + hashlib.sha256(body).digest())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return header



def compact_from(book: OpeningBook, rules: Any, path: str | os.PathLike) -> dict:
    """Write ``book`` (of ``rules``' game) in compact form to ``path``; returns the compact file's header."""
    scores = dict(zip(book.keys.tolist(), book.scores.tolist()))
    return write_compact(path, rules, book.depth, book.lines, book.reach, scores)
