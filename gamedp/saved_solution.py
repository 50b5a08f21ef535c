"""Saved solves: the values of any game's positions, kept in a position-keyed database and answered from it.

The indexed databases (:mod:`gamedp.database`) number every position of a game that has an index space. Any
other game, built-in or your own (a Python ``Game`` or a ``CompiledGame``), is saved by its positions: a save
holds **every position reachable from a start** (the game's start unless another is given), each once up to
the game's ``canonical`` symmetry, with its value as the memo or compiled engine found it (outcome; remoteness
unless the solve was for outcomes only; the score in scored games). Loading runs nothing from the file: no
pickle; positions are stored in one of three documented key encodings, chosen when saving:

- ``int64``: every position is an integer (compiled games, bitboards): a sorted array of signed 64-bit integers;
  or, when the integers are dense enough for that to be smaller, ``bitmap``: a bit per integer from 0 to the
  largest (set where the position is saved), and per block of 512 integers the count of positions before it;
- ``literal``: every position is made of ``int``, ``str``, ``bytes``, ``bool``, ``None``, finite ``float`` and
  tuples of them: each is stored as its ``repr``, which :func:`ast.literal_eval` reads back (and never runs code);
- ``notation``: otherwise, the game's own ``format_position`` text, which its ``parse_position`` must read back
  as the same position (checked for every position when saving; a game whose positions cannot be written
  either way is refused with the position that fails).

Text keys are sorted by their UTF-8 bytes, integer keys by value, so a lookup is a binary search that touches
a few blocks (each checked against its CRC the first time it is read); in a bitmap, one block and a popcount.

The file is the database container of :mod:`gamedp.database` (header, metadata CRC, a CRC-32 per 64 KiB block,
atomic writes, damaged, truncated, newer and foreign files refused) with ``"kind": "positions"`` in its metadata
and these sections: ``positions`` (``int64``; little-endian), or ``present`` (bit p % 8 of byte p // 8, 64 bytes a
block) and ``ranks`` (a little-endian u64 a block) for ``bitmap``, or ``key_offsets`` (size + 1 little-endian u64
offsets into ``keys``) and ``keys``; ``outcomes`` (packed as in :mod:`gamedp.database`: 1 bit a position when
every value is a WIN or LOSE, else 2); ``remoteness`` (``u8``, ``u16`` or ``u32``, as small as the longest
needs; absent for outcomes only; 0 for a DRAW); ``scores`` (``i64`` or ``f64``; scored games only).

A save names the game it was made from, and opening it for a game checks that it is that game: its name, its
class, its public attributes (the variant: ``Nim`` vs ``MisereNim``, a board size, Toads and Frogs' strip; keep a
game's parameters in public attributes: private ones and ``cached_property`` values are taken to be caches) and
a SHA-256 of its source (the files of its class and base classes, or of its kernels and text hooks, and of the
modules in the same folder that they take functions, classes or modules from). Editing the game's file makes
its saves refuse to answer until it is solved again.

>>> import tempfile, pathlib
>>> from gamedp.game import Game
>>> from gamedp.solvers.memo import solve
>>> class Take12(Game):                   # take 1 or 2; who cannot move loses
...     name = "take-1-2"
...     def start(self): return 7
...     def moves(self, n): return [k for k in (1, 2) if k <= n]
...     def do_move(self, n, k): return n - k
>>> path = pathlib.Path(tempfile.mkdtemp()) / "take.gdb"
>>> stats = solve(Take12()).save(path)
>>> stats["positions"], stats["encoding"]
(8, 'int64')
>>> with open_saved(path, Take12()) as saved:
...     str(saved.value(7)), [str(mv.value) for mv in saved.analyze(7).moves]
('WIN in 5', ['WIN in 5', 'LOSE in 4'])
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any, Hashable, Iterable

from gamedp.database import CODES, Container, DatabaseError
from gamedp.errors import GamedpError
from gamedp.saved_identity import identity, is_compiled
from gamedp.saved_keys import KIND, RANK_BLOCK, WIDTHS, Keys, position_text, short
from gamedp.values import DRAW, Analysis, Outcome, Value, analysis_of


def open_saved(path: str | Path, game: Any = None, fix: str = "save the solve again") -> SavedSolution:
    """The save at ``path``, checked whole and (when ``game`` is given) checked to be that game's."""
    return SavedSolution(path, game, fix)


class SavedSolution(Container):
    """A saved solve, answering like the engine that made it: :meth:`value`, :meth:`analyze`, :meth:`best_move`.

    Built on the database container: blocks are checked against their CRC the first time they are read.
    """

    def __init__(self, path: str | Path, game: Any = None, fix: str = "save the solve again"):
        super().__init__(path, fix, watched=True)
        try:
            self._load_meta(game)
        except BaseException:
            self.close()
            raise

    def _load_meta(self, game: Any) -> None:
        meta = self.meta
        if meta.get("kind", "index") != KIND:
            what = meta.get("game_id", "an indexed game")
            raise DatabaseError(f"{self.path} is the database of {what}, not a saved solve: answer from it with "
                                f"gamedp query {what}")
        try:
            self.size: int = int(meta["size"])
            self.saved_game: dict = dict(meta["game"])
            self.start_text: str = str(meta["start"])
            self.stats: dict = dict(meta.get("stats") or {})
            encoding = meta["encoding"]
            self.encoding: str = encoding["positions"]
            self.outcome_bits: int = int(encoding["outcome_bits"])
            width = encoding["remoteness"]
            score = encoding["score"]
        except (KeyError, TypeError, ValueError):
            self._damaged("has unreadable metadata")
        sizes = {"outcomes": -(-self.size * self.outcome_bits // 8)}
        if self.encoding == "int64":
            sizes["positions"] = 8 * self.size
        elif self.encoding == "bitmap":
            self._blocks = self._sections["ranks"]["length"] // 8 if self.has("ranks") else 0
            sizes["present"] = 64 * self._blocks
        elif self.encoding in ("literal", "notation"):
            sizes["key_offsets"] = 8 * (self.size + 1)
        else:
            self._damaged(f"has an unknown key encoding {self.encoding!r}")
        self._width = next((w for w in WIDTHS if w[0] == width), None)
        if width is not None:
            if self._width is None:
                self._damaged(f"has an unknown remoteness width {width!r}")
            sizes["remoteness"] = self._width[2] * self.size
        self._score = {None: None, "i64": "<q", "f64": "<d"}.get(score, "bad")
        if self._score == "bad" or self.outcome_bits not in (1, 2):
            self._damaged("has an unknown value encoding")
        if self._score is not None:
            sizes["scores"] = 8 * self.size
        for name, length in sizes.items():
            if not self.has(name) or self._sections[name]["length"] != length:
                self._damaged(f"has a {name} section of the wrong size")
        self.has_remoteness = width is not None
        self.game = game
        self._keys = None
        if game is not None:
            self._check_game(game)
            self._keys = Keys("int64" if self.encoding == "bitmap" else self.encoding, game)
            from gamedp.game import overrides

            self._canon = game.canonical if not is_compiled(game) and overrides(game, "canonical") else None
            self.rules = game.as_python_game() if is_compiled(game) else game

    def _check_game(self, game: Any) -> None:
        mine, theirs = self.saved_game, identity(game)
        if (mine.get("name"), mine.get("class"), mine.get("variant")) != \
                (theirs["name"], theirs["class"], theirs["variant"]):
            raise DatabaseError(f"{self.path} is the saved solve of {mine.get('name')} ({mine.get('class')}), not "
                                f"of this {theirs['name']} ({theirs['class']}, or another variant of it); {self.fix}")
        if mine.get("source") != theirs["source"]:
            files = ", ".join(theirs["files"])
            raise DatabaseError(f"{self.path} was saved from another version of {theirs['name']}: its source "
                                f"({files}) changed since; {self.fix}", damaged=True)  # solving again is the fix

    # -- lookups ---------------------------------------------------------------------------------------------
    def find(self, position: Any) -> int | None:
        """The index of ``position``'s record (up to symmetry), or ``None`` if this save does not hold it."""
        if self._keys is None:
            raise ValueError("open the save with its game to look positions up")
        key = self._keys.key(position if self._canon is None else self._canon(position))
        if key is None:
            return None
        if self.encoding == "bitmap":
            return self._bitmap_find(key)
        at, lo, hi = self._key_at, 0, self.size
        while lo < hi:
            mid = (lo + hi) // 2
            if at(mid) < key:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < self.size and at(lo) == key else None

    def _bitmap_find(self, p: int) -> int | None:
        block, bit = divmod(p, RANK_BLOCK)
        if not 0 <= block < self._blocks:
            return None
        bits = int.from_bytes(self.span("present", 64 * block, 64 * block + 64), "little")
        if not bits >> bit & 1:
            return None
        i = self._rank(block) + (bits & ((1 << bit) - 1)).bit_count()
        if i >= self.size:
            self._damaged("has more positions marked present than it holds")
        return i

    def _rank(self, block: int) -> int:
        return struct.unpack("<Q", self.span("ranks", 8 * block, 8 * block + 8))[0]

    def _bitmap_at(self, i: int) -> int:
        """The ``i``-th position of a ``bitmap`` save: its block by the counts, then its bit."""
        lo, hi = 0, self._blocks - 1
        while lo < hi:  # the last block with at most i positions before it
            mid = (lo + hi + 1) // 2
            if self._rank(mid) <= i:
                lo = mid
            else:
                hi = mid - 1
        bits, left = int.from_bytes(self.span("present", 64 * lo, 64 * lo + 64), "little"), i - self._rank(lo)
        for bit in range(RANK_BLOCK):
            if bits >> bit & 1:
                if not left:
                    return lo * RANK_BLOCK + bit
                left -= 1
        self._damaged("has counts that do not match its bits")

    def _key_at(self, i: int) -> int | bytes:
        if self.encoding == "int64":
            return struct.unpack("<q", self.span("positions", 8 * i, 8 * i + 8))[0]
        start, stop = struct.unpack("<QQ", self.span("key_offsets", 8 * i, 8 * i + 16))
        if not start <= stop <= self._sections["keys"]["length"]:
            self._damaged("has key offsets out of order")
        return bytes(self.span("keys", start, stop))

    def __contains__(self, position: Any) -> bool:
        return self.find(position) is not None

    def value_at(self, i: int) -> Value:
        """The value stored at index ``i``."""
        if self.outcome_bits == 1:
            code = (self.span("outcomes", i >> 3, (i >> 3) + 1)[0] >> (i & 7)) & 1
        else:
            code = (self.span("outcomes", i >> 2, (i >> 2) + 1)[0] >> ((i & 3) << 1)) & 3
        outcome: Outcome = CODES[code]
        remoteness = score = None
        if self._width is not None and outcome is not DRAW:
            width = self._width[2]
            remoteness = int.from_bytes(self.span("remoteness", width * i, width * (i + 1)), "little")
        if self._score is not None and outcome is not DRAW:
            score = struct.unpack(self._score, self.span("scores", 8 * i, 8 * i + 8))[0]
        return Value(outcome, remoteness, score)

    def known(self, position: Any) -> Value | None:
        """The value of ``position`` for the player to move, or ``None`` if this save lacks it (as
        :meth:`gamedp.solvers.database_answers.SavedSolution.known`: a depth-limited search's exact ends)."""
        i = self.find(position)
        return None if i is None else self.value_at(i)

    def value(self, position: Any) -> Value:
        """The value of ``position`` for the player to move; a :class:`GamedpError` if this save lacks it."""
        value = self.known(position)
        if value is None:
            raise GamedpError(f"{_short_text(self, position)} is not in the saved solve {self.path}, which holds the "
                              f"{self.size:,} positions reachable from {self.start_text}; solve from that position "
                              "to save it (gamedp solve GAME POSITION)")
        return value

    def analyze(self, position: Any) -> Analysis:
        """The position's value and every legal move's value, best first (as the engine that saved it gives)."""
        return analysis_of(position, self.value(position), self.rules.move_list(position), self.value)

    def best_move(self, position: Any) -> Any:
        best = self.analyze(position).best
        return None if best is None else best.move

    def position_at(self, i: int) -> Any:
        """The position (its canonical form) stored at index ``i``: a ``literal`` key is read back without running
        code, a ``notation`` key by the game's ``parse_position``."""
        if self.encoding == "bitmap":
            return self._bitmap_at(i)
        key = self._key_at(i)
        if self.encoding == "int64":
            return key
        if self.encoding == "literal":
            import ast

            return ast.literal_eval(key.decode())  # a literal: reading it never runs code
        return self.game.parse_position(key.decode())

    def positions(self) -> Iterable[Any]:
        """Every saved position, in key order."""
        return map(self.position_at, range(self.size))

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"<gamedp saved solve of {self.saved_game.get('name')} at {self.path}>"


def _short_text(saved: SavedSolution, position: Hashable) -> str:
    try:
        return repr(position_text(saved.game, position))
    except Exception:  # only for the message: the game's drawing failing must not hide what was asked
        return short(position)
