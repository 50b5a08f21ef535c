"""An opening book in compact form: its scores and best moves alone, a few bits each, in the order its positions
are met; the form gamedp ships its books in (:mod:`gamedp.books`).

A book's positions follow from its game, its ``depth`` and its ``lines`` (:mod:`gamedp.solvers.book_positions`):
every position up to ``depth`` moves (their keys sorted), then, for the first player and then the second, each
step of a perfect player's lines (the keys new at that step, sorted), where the way the lines go depends on the
scores and best moves read so far. So the file keeps no keys: its reader walks the positions again and reads one
score per position searched, ``bits`` bits each (the score less ``low``; a 7x6 Connect-Four score, -21..21,
takes 6 bits), and one best move per position of the player along the lines, ``move_bits`` bits each (the
index of the move in the position's moves: 3 bits on 7x6). The positions the best moves lead to take the
negated scores of the positions they are played from (the walk puts them in), so they take no bits.

File (integers little-endian)::

    0      8     magic b"GAMEDPBK"
    8      4     format version (u32), 2 (1 kept no best moves: it is refused with the command that writes it
                 again)
    12     4     header length M (u32)
    16     M     header: a UTF-8 JSON object: game_id, variant, depth, lines, reach (no position held is deeper),
                 count (scores kept), positions (held, with those whose scores the walk puts in), depth_count
                 (those up to depth), bits, low, moves (best moves kept), move_bits, keys (the first 16 hex
                 digits of the SHA-256 of the keys met, u64 each in the walk's order: the positions up to
                 depth's, then the lines')
    16+M   S     the scores, ``bits`` each, the first at the lowest bits of the first byte
    16+M+S B     the best moves, ``move_bits`` each, packed alike
    ...    32    SHA-256 of every byte before it

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
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from gamedp.errors import GamedpError
from gamedp.solvers.book_positions import perfect_lines, positions_up_to

if TYPE_CHECKING:  # a book is written compact from one
    from gamedp.solvers.opening_book import OpeningBook

MAGIC = b"GAMEDPBK"
VERSION = 2
_DIGEST = 32
#: the header's numbers
_NUMBERS = ("depth", "lines", "reach", "count", "positions", "depth_count", "bits", "low", "moves", "move_bits")


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
        header, scores, moves = self._read(data)
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
        self._scores = _Stream(_unpacked(scores, header["bits"], header["low"], header["count"]), header["count"],
                               lambda: self._damaged(f"holds {header['count']:,} scores, fewer than its positions"))
        self._moves = _Stream(_unpacked(moves, header["move_bits"], 0, header["moves"]), header["moves"],
                              lambda: self._damaged(f"holds {header['moves']:,} best moves, fewer than its "
                                                    "positions"))
        self.kept: dict[int, int] = _positions_up_to(rules, self.depth, self._scores.next)
        #: line key -> the index of its best move in the position's moves (read with the lines)
        self.best: dict[int, int] = {}
        self._check(list(self.kept), header["depth_count"], 0, "the positions up to its depth")
        self._lines_read = False
        self._reading = threading.Lock()

    def _read(self, data: bytes) -> tuple[dict, bytes, bytes]:
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
        length = (header["count"] * header["bits"] + 7) // 8
        moves = (header["moves"] * header["move_bits"] + 7) // 8
        if len(data) - 16 - size - _DIGEST != length + moves:
            raise self._damaged(f"is damaged ({len(data) - 16 - size - _DIGEST} bytes of scores and best moves, "
                                f"not {length + moves})")
        return header, data[16 + size:16 + size + length], data[16 + size + length:-_DIGEST]

    def _damaged(self, what: str) -> GamedpError:
        return GamedpError(f"the book {self.path} {what}; {self._remake}")

    def _check(self, keys: list[int], count: int, part: int, what: str) -> None:
        if len(keys) != count or _keys_digest(keys) != self._header["keys"][part]:
            raise self._damaged(f"does not hold {what} this gamedp finds for it (the game's moves are not "
                                "those it was written with)")

    def __len__(self) -> int:
        return self._header["positions"]

    def score(self, key: int, most: int) -> int | None:
        """The score kept for ``key``, or None if the book does not hold it (the lines are read the first time
        a position not up to the book's depth is asked for). A score past ``most`` either way is refused."""
        kept = self.kept.get(key)
        if kept is None and not self._lines_read:
            self._read_lines_once()
            kept = self.kept.get(key)
        if kept is not None and abs(kept) > most:
            raise self._damaged(f"gives a position the score {kept}, past the most ({most} either way) a position "
                                "of its moves can have")
        return kept

    def best_move(self, line_key: int) -> int | None:
        """The index of the best move (the first of the best) in the moves of the position of ``line_key``, or
        None where the book does not keep it (the lines are read the first time)."""
        self._read_lines_once()
        return self.best.get(line_key)

    def _read_lines_once(self) -> None:
        if not self._lines_read:
            with self._reading:  # threads share a book (value --threads, serve): the lines are read once
                if not self._lines_read:
                    self._read_lines()

    def _best_move(self, key: int, count: int) -> int:
        index = self._moves.next(key)
        if index >= count:
            raise self._damaged(f"gives a position of {count} moves the best move {index + 1}")
        return index

    def _read_lines(self) -> None:
        before = len(self.kept)
        _lines(self.rules, self.lines, self.kept, self.best, self._scores.next, self._best_move)
        self._check(list(self.kept)[before:], len(self) - before, 1, "the positions of its lines")
        if not (self._scores.left == self._moves.left == 0):
            raise self._damaged("holds more scores or best moves than its positions")
        self._lines_read = True


class _Stream:
    """The numbers of a packed section, one at a time; ``too_few`` is the error when they run out first."""

    def __init__(self, numbers: Iterator[int], count: int, too_few: Callable[[], GamedpError]):
        self._numbers, self.left, self._too_few = numbers, count, too_few

    def next(self, key: int) -> int:
        if self.left == 0:
            raise self._too_few()
        self.left -= 1
        return next(self._numbers)


def _positions_up_to(rules: Any, depth: int, take: Callable[[int], int]) -> dict[int, int]:
    return {key: take(key) for key in sorted(positions_up_to(rules, depth))}


def _lines(rules: Any, lines: int, scores: dict[int, int], best: dict[int, int], take: Callable[[int], int],
           take_move: Callable[[int, int], int]) -> None:
    for player in (0, 1) if lines else ():
        for step in perfect_lines(rules, player, lines, scores, best):
            for key in sorted(step.new):
                scores[key] = take(key)
            for key in sorted(step.best):
                best[key] = take_move(key, len(step.best[key][1]))


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
                  scores: dict[int, int], best: dict[int, int]) -> dict:
    """Write the book of ``rules``' game holding every position up to ``depth`` moves and ``lines`` plies of a
    perfect player's lines, none deeper than ``reach`` moves, whose scores (key -> score) are ``scores`` and best
    moves (line key -> index) ``best``, in compact form, atomically; returns its header. ``scores`` and ``best``
    must hold exactly the positions the walk meets (a book built with that depth and lines)."""
    missing: list[int] = []
    values: list[int] = []
    moves: list[int] = []

    def take(key: int) -> int:
        if key not in scores:
            missing.append(key)
        values.append(scores.get(key, 0))
        return values[-1]

    def take_move(key: int, count: int) -> int:
        if key not in best:
            missing.append(key)
        moves.append(best.get(key, 0))
        return moves[-1]

    ordered = _positions_up_to(rules, depth, take)
    depth_keys = list(ordered)
    walked: dict[int, int] = {}
    _lines(rules, lines, ordered, walked, take, take_move)
    if missing or ordered != scores or walked != best:
        raise GamedpError(f"the book holds {len(scores):,} positions and {len(best):,} best moves, not the "
                          f"{len(ordered):,} and {len(walked):,} that depth {depth} and lines {lines} have: it is not "
                          "a book of that depth and lines")
    low = min(values, default=0)
    bits = max(1, (max(values, default=0) - low).bit_length())
    move_bits = max(1, max(moves, default=0).bit_length())
    header = {"game_id": rules.book_id, "variant": dict(rules.variant), "depth": depth, "lines": lines,
              "reach": reach, "count": len(values), "positions": len(ordered), "depth_count": len(depth_keys),
              "bits": bits, "low": low, "moves": len(moves), "move_bits": move_bits,
              "keys": [_keys_digest(depth_keys), _keys_digest(list(ordered)[len(depth_keys):])]}
    # nothing of how the build went (its times): the same book is the same file, byte for byte
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    body = MAGIC + struct.pack("<II", VERSION, len(text)) + text + _packed([v - low for v in values], bits) + \
        _packed(moves, move_bits)
    path = Path(path)
    import tempfile  # only a writer needs it: the readers' start-up is that of every `gamedp value`

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
    """Write ``book`` (of ``rules``' game) in compact form to ``path``; returns the compact file's header. A book
    with lines but no best moves (made before books kept them) is refused, with the command that makes it again."""
    if book.lines and not book.best:
        raise GamedpError(f"the book {book.path} keeps no best moves along its lines (it was made before books "
                          f"kept them); make it again with: gamedp book {rules.book_game} --depth {book.depth} "
                          f"--lines {book.lines} --force")
    scores = dict(zip(book.keys.tolist(), book.scores.tolist()))
    return write_compact(path, rules, book.depth, book.lines, book.reach, scores, book.best)
