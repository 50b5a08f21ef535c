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

import hashlib
import json
import math
import struct
import sys
import time
import zlib
from array import array
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Hashable, Iterable, Sequence

from gamedp.database import (CODES, Container, DatabaseError, check_regular, db_dir, write_container)
from gamedp.errors import GamedpError
from gamedp.values import DRAW, Analysis, Outcome, Value, analysis_of

KIND = "positions"
INT64 = (-(1 << 63), (1 << 63) - 1)
_CODE = {outcome: code for code, outcome in enumerate(CODES)}
#: remoteness widths, smallest first: (name, array typecode, bytes, largest value)
_WIDTHS = (("u8", "B", 1, 0xFF), ("u16", "H", 2, 0xFFFF), ("u32", "I", 4, 0xFFFFFFFF))
_PROGRESS_EVERY = (1 << 16) - 1
#: integers a block of the ``bitmap`` key encoding covers (64 bytes of it)
RANK_BLOCK = 512


# -- which game a save belongs to ------------------------------------------------------------------------------
def identity(game: Any) -> dict:
    """What a save records about its game, to refuse answering for any other game or version of it.

    >>> from gamedp.games.impartial.nim import Nim, MisereNim
    >>> a, b = identity(Nim()), identity(MisereNim())
    >>> a["name"], a["class"], a["source"] == b["source"], a["variant"] == b["variant"]
    ('nim', 'gamedp.games.impartial.nim.Nim', True, False)
    """
    files = _source_files(game)
    digest = hashlib.sha256()
    for content in sorted(hashlib.sha256(f.read_bytes()).hexdigest() for f in files):
        digest.update(content.encode())
    return {"name": getattr(game, "name", type(game).__name__), "class": _class_name(game),
            "variant": _describe(_variant(game)), "source": digest.hexdigest(),
            "files": sorted({f.name for f in files})}


def default_path(game: Any, db: str | Path | None = None) -> Path:
    """Where ``gamedp solve`` saves ``game`` (``db``, a file or an existing directory, overrides): one file per
    game and variant, named after the game, in the database directory of :func:`gamedp.database.db_dir`.

    >>> from gamedp.games.impartial.nim import Nim
    >>> default_path(Nim(), "/tmp/nim.gdb"), default_path(Nim()).name.startswith("saved-nim-")
    (PosixPath('/tmp/nim.gdb'), True)
    """
    name = getattr(game, "name", type(game).__name__)
    slug = "".join(c if c.isalnum() or c in "-." else "-" for c in name)[:60]
    files = _source_files(game)
    # The path of the game's own file is in the name: the same game edited keeps its file (and is refused as
    # stale), another file's game of the same name gets its own.
    where = str(files[0].resolve()) if files else ""
    crc = zlib.crc32(json.dumps([_class_name(game), _describe(_variant(game)), where]).encode())
    file = f"saved-{slug}-{crc:08x}.gdb"
    if db is not None:
        db = Path(db).expanduser()
        return db / file if db.is_dir() else db
    return db_dir() / file


def _class_name(game: Any) -> str:
    return f"{type(game).__module__}.{type(game).__qualname__}"


def _is_compiled(game: Any) -> bool:
    from gamedp.compiled import CompiledGame

    return isinstance(game, CompiledGame)


def _variant(game: Any) -> dict:
    if _is_compiled(game):
        return {"name": game.name, "max_children": game.max_children, "num_positions": game.num_positions,
                "misere": game.misere, "split": game.split_kernel is not None}
    return _state(game)


def _state(obj: Any) -> dict:
    """An object's public attributes, but for those a ``cached_property`` fills in: private ones (``_solved``,
    ``_cache``) and cached properties are what an object fills in as it is used, not what it is."""
    from functools import cached_property

    return {k: v for k, v in vars(obj).items()
            if not k.startswith("_") and not isinstance(getattr(type(obj), k, None), cached_property)}


def _own_text(value: Any) -> str | None:
    """What an object's class says it is, by its own ``__str__`` or ``__repr__`` (a board's cells, a dataclass's
    fields), unless that names a memory address."""
    for hook in ("__str__", "__repr__"):
        if getattr(type(value), hook) is not getattr(object, hook):
            text = getattr(value, hook)()
            if " at 0x" not in text:
                return text
    return None


def _describe(value: Any, depth: int = 0) -> str:
    """A text that is the same in every run for equal values (no memory addresses).

    Objects inside the game are described by their own text where their class gives one, else by their attributes:
    a grid's board by its cells, not by the tables it fills in as it is used.
    """
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return f"{type(value).__name__}[{','.join(_describe(v, depth + 1) for v in value)}]"
    if isinstance(value, (set, frozenset)):
        return f"{type(value).__name__}{{{','.join(sorted(_describe(v, depth + 1) for v in value))}}}"
    if isinstance(value, dict):
        items = sorted(f"{_describe(k, depth + 1)}:{_describe(v, depth + 1)}" for k, v in value.items())
        return "{" + ",".join(items) + "}"
    if hasattr(value, "dtype") and hasattr(value, "tobytes"):  # a numpy array or scalar
        return f"array({value.dtype},{getattr(value, 'shape', ())},{zlib.crc32(value.tobytes()):08x})"
    func = getattr(value, "py_func", value)  # a numba kernel names its Python function
    if callable(func) and hasattr(func, "__qualname__"):
        return f"{getattr(func, '__module__', '?')}.{func.__qualname__}"
    own = _own_text(value)
    if own is not None:
        return f"{type(value).__qualname__}({own})"
    if hasattr(value, "__dict__") and depth < 4:
        return f"{type(value).__qualname__}({_describe(_state(value), depth + 1)})"
    return type(value).__qualname__


def _source_files(game: Any) -> list[Path]:
    """The files the game is written in: its own first, then the modules of its folder it uses."""
    if _is_compiled(game):
        hooks = (game.children_kernel, game.primitive_kernel, game.split_kernel, game._format, game._parse,
                 game.format_move_hook, game.parse_move_hook)
        names = [getattr(getattr(h, "py_func", h), "__module__", None) for h in hooks if h is not None]
    else:
        from gamedp.game import Game

        names = [c.__module__ for c in type(game).__mro__ if c not in (Game, object)]
    modules = [m for m in (sys.modules.get(n) for n in dict.fromkeys(names) if n) if _file_of(m)]
    seen = {id(m) for m in modules}
    for module in modules:  # grows as modules of the same folder are found
        folder = _file_of(module).parent
        for value in list(vars(module).values()):
            used = value if isinstance(value, ModuleType) else sys.modules.get(getattr(value, "__module__", "") or "")
            if used is not None and id(used) not in seen and _file_of(used) and _file_of(used).parent == folder:
                seen.add(id(used))
                modules.append(used)
    return list(dict.fromkeys(_file_of(m) for m in modules))


def _file_of(module: Any) -> Path | None:
    file = getattr(module, "__file__", None)
    if not isinstance(file, str):
        return None
    path = Path(file).resolve()
    return path if path.is_file() else None


# -- key encodings ---------------------------------------------------------------------------------------------
def _is_literal(p: Any) -> bool:
    """Whether ``repr(p)`` is read back exactly by :func:`ast.literal_eval` (exact types only: no subclasses)."""
    kind = type(p)
    if kind is tuple:
        return all(map(_is_literal, p))
    if kind is float:
        return math.isfinite(p)
    return kind in (int, str, bytes, bool) or p is None


class _Keys:
    """How one save writes positions as keys (see the module's documentation)."""

    def __init__(self, encoding: str, game: Any):
        self.encoding, self.game = encoding, game

    def key(self, position: Any) -> int | bytes | None:
        """The key of a canonical position; ``None`` when this encoding cannot hold it (so it is not saved)."""
        if self.encoding == "int64":
            return position if type(position) is int and INT64[0] <= position <= INT64[1] else None
        if self.encoding == "literal":
            return repr(position).encode() if _is_literal(position) else None
        return self.game.format_position(position).encode()

    @classmethod
    def choose(cls, game: Any, positions: Sequence[Any]) -> _Keys:
        if all(type(p) is int and INT64[0] <= p <= INT64[1] for p in positions):
            return cls("int64", game)
        if all(map(_is_literal, positions)):
            return cls("literal", game)
        from gamedp.game import Game, overrides

        if isinstance(game, Game) and not overrides(game, "parse_position"):
            raise GamedpError(f"cannot save {game.name}: its positions (like {_short(positions[0])}) are neither "
                              "numbers, strings nor tuples of them, and it has no parse_position to read its "
                              "format_position back; give it both (see gamedp/saved_solution.py)")
        keys, seen = cls("notation", game), {}
        for p in positions:
            text = keys.key(p)
            try:
                back = game.parse_position(text.decode())
            except Exception as e:  # the game's own parser: whatever it raises, the text does not read back
                back = e
            if back != p:
                raise GamedpError(f"cannot save {game.name}: format_position({_short(p)}) gives {text.decode()!r}, "
                                  f"which parse_position reads as {_short(back)}; make them read each other back")
            if seen.setdefault(text, p) is not p:
                raise GamedpError(f"cannot save {game.name}: positions {_short(seen[text])} and {_short(p)} are "
                                  f"both written {text.decode()!r}")
        return keys


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:45] + "..." + text[-10:]


def position_text(game: Any, position: Any) -> str:
    """The position on one line, for messages: the game's one-line notation, ``str`` if it reads back, else its
    drawing's lines joined."""
    own = getattr(game, "format_position_line", None)
    if callable(own):
        return own(position)
    try:
        if game.parse_position(str(position)) == position:
            return str(position)
    except Exception:  # only probing whether str() is a notation the game reads
        pass
    return " / ".join(" ".join(line.split()) for line in str(game.format_position(position)).splitlines()
                      if line.strip())


# -- saving ----------------------------------------------------------------------------------------------------
def save(solution: Any, path: str | Path, start: Any = None, *, outcomes_only: bool | None = None,
         progress: Callable[[int, int | None], None] | None = None) -> dict:
    """Save every position reachable from ``start`` (default: the game's start) with its value in ``solution``
    (a :class:`gamedp.solvers.memo.Solution` or :class:`gamedp.solvers.compiled.CompiledSolution`), atomically.

    Positions the solution has not valued yet are searched first. ``outcomes_only`` drops remoteness (default:
    the solution's own mode). Returns the statistics also stored in the file (counts by outcome and remoteness,
    the longest win and loss, and the seconds taken).
    """
    began = time.perf_counter()
    game = solution.game
    path = Path(path)
    check_regular(path)
    start = game.start() if start is None else start
    outcomes_only = solution.outcomes_only if outcomes_only is None else outcomes_only
    if hasattr(solution, "full_search"):  # a compiled solve: its table is read off with numpy
        table, cyclic = _compiled_table(solution, start)
        if cyclic is not None:  # the game has cycles: the Python engine has its values
            return _save_walk(cyclic, game, path, start, outcomes_only, progress, began)
        positions, codes, remoteness = table
        keys = _Keys("int64", game)
        return _write(path, game, keys, start, positions, codes, None if outcomes_only else remoteness, None,
                      began)
    return _save_walk(solution, game, path, start, outcomes_only, progress, began)


def _save_walk(solution: Any, game: Any, path: Path, start: Any, outcomes_only: bool, progress: Any,
               began: float) -> dict:
    from gamedp.game import overrides

    solution.value(start)
    if not solution.outcomes_only and solution.roots == {solution._key(start)} \
            and not overrides(solution.game, "key"):
        # A full search from the start alone has valued exactly the positions reachable from it, keyed by their
        # canonical forms: the table is the save, with no second walk over the game.
        positions, values = list(solution.table), list(solution.table.values())
    else:
        positions = reachable(solution.game, start, progress)
        values = [solution.value(p) for p in positions]
    keys = _Keys.choose(game, positions)
    keyed = sorted(zip((keys.key(p) for p in positions), range(len(positions))))
    ordered = [values[i] for _, i in keyed]
    codes = [_CODE[v.outcome] for v in ordered]
    remoteness = None
    if not outcomes_only and all(v.remoteness is not None or v.outcome is DRAW for v in ordered):
        remoteness = [v.remoteness or 0 for v in ordered]
    scores = [v.score for v in ordered] if getattr(game, "scored", False) else None
    return _write(path, game, keys, start, [k for k, _ in keyed], codes, remoteness, scores, began)


def reachable(game: Any, start: Any, progress: Callable[[int, int | None], None] | None = None) -> list:
    """Every position reachable from ``start`` in a Python ``game``, each once, as its canonical form.

    >>> from gamedp.games.tictactoe import TicTacToe
    >>> len(reachable(TicTacToe(), TicTacToe().start()))    # up to the board's 8 symmetries
    765
    """
    from gamedp.game import overrides

    canon = game.canonical if overrides(game, "canonical") else None
    ended = game.primitive if game.primitive_first and overrides(game, "primitive") else None
    children = game.children
    root = start if canon is None else canon(start)
    seen, order = {root}, [root]
    for p in order:  # the list grows as positions are found
        if ended is not None and ended(p) is not None:
            continue  # the game's end test comes first: an ended position's moves are never asked
        for c in children(p):
            if canon is not None:
                c = canon(c)
            if c not in seen:
                seen.add(c)
                order.append(c)
                if progress is not None and not len(order) & _PROGRESS_EVERY:
                    progress(len(order), None)
    return order


def _compiled_table(solution: Any, start: int) -> tuple[tuple | None, Any]:
    """A compiled solve's positions (sorted, as reached from ``start``), outcome codes and remoteness, read off its
    table with numpy; or, when the game has cycles, the Python engine's solution that found its DRAWs."""
    import numpy as np

    solution = solution.full_search(start)
    if solution.cyclic is not None:
        return None, solution.cyclic
    positions, found = solution.table()
    # the table's outcome codes (1 LOSE, 2 WIN, 3 TIE) as the database's (0 LOSE, 1 WIN, 2 TIE)
    codes = (found & 3).astype(np.uint8) - np.uint8(1)
    return (positions, codes, (found >> 2).astype(np.int64)), None


def _write(path: Path, game: Any, keys: _Keys, start: Any, positions: Sequence, codes: Sequence,
           remoteness: Sequence | None, scores: Sequence | None, began: float) -> dict:
    size = len(positions)
    sections: list[tuple[str, Any]] = []
    bitmap = _bitmap(positions) if keys.encoding == "int64" else None
    if bitmap is not None:
        keys = _Keys("bitmap", game)
        sections += [("present", bitmap[0]), ("ranks", bitmap[1])]
    elif keys.encoding == "int64":
        sections.append(("positions", _little(array("q", positions) if isinstance(positions, list)
                                              else positions.astype("<i8"))))
    else:
        offsets, at = array("Q", [0]), 0
        for k in positions:
            at += len(k)
            offsets.append(at)
        sections += [("key_offsets", _little(offsets)), ("keys", b"".join(positions))]
    counts = _counts(codes)
    bits = 1 if counts[2] == counts[3] == 0 else 2
    sections.append(("outcomes", _pack(codes, bits)))
    encoding = {"positions": keys.encoding, "outcome_bits": bits, "remoteness": None, "score": None}
    stats: dict[str, Any] = {"positions": size, "encoding": keys.encoding,
                             "outcomes": {CODES[c].name: n for c, n in enumerate(counts) if n}}
    if remoteness is not None:
        top = int(max(remoteness, default=0))
        name, code, _, _ = next(w for w in _WIDTHS if top <= w[3])
        encoding["remoteness"] = name
        sections.append(("remoteness", _little(array(code, remoteness) if isinstance(remoteness, list)
                                               else remoteness.astype("<" + code))))
        stats.update(_remoteness_stats(codes, remoteness))
    if scores is not None:
        if all(type(s) is int and INT64[0] <= s <= INT64[1] for s in scores if s is not None):
            encoding["score"], code = "i64", "q"
        elif all(type(s) in (int, float) for s in scores if s is not None):
            encoding["score"], code = "f64", "d"
        else:
            odd = next(s for s in scores if type(s) not in (int, float))
            raise GamedpError(f"cannot save {game.name}: a score is {_short(odd)}, but scores are saved as whole "
                              "numbers or floats")
        sections.append(("scores", _little(array(code, [0 if s is None else s for s in scores]))))
    stats["seconds"] = round(time.perf_counter() - began, 3)
    meta = {"kind": KIND, "game": identity(game), "size": size, "start": position_text(game, start),
            "encoding": encoding, "stats": stats}
    write_container(path, meta, sections)
    return stats


def _bitmap(positions: Sequence) -> tuple[Any, Any] | None:
    """Sorted integer positions as the ``bitmap`` encoding's two sections, when they are non-negative and that is
    smaller than 8 bytes a position; else ``None``."""
    size = len(positions)
    if not size or positions[0] < 0:
        return None
    blocks = int(positions[-1]) // RANK_BLOCK + 1
    if 72 * blocks >= 8 * size:  # 64 bytes of bits and an 8-byte count a block
        return None
    if hasattr(positions, "dtype"):
        import numpy as np

        present = np.zeros(blocks * RANK_BLOCK, np.bool_)
        present[positions] = True
        counts = present.reshape(blocks, RANK_BLOCK).sum(axis=1, dtype=np.uint64)
        ranks = np.concatenate(([0], np.cumsum(counts)[:-1])).astype("<u8")
        return np.packbits(present, bitorder="little").tobytes(), ranks
    bits, ranks, before = bytearray(64 * blocks), array("Q", bytes(8 * blocks)), 0
    for p in positions:
        bits[p >> 3] |= 1 << (p & 7)
    for b in range(blocks):
        ranks[b] = before
        before += int.from_bytes(bits[64 * b:64 * b + 64], "little").bit_count()
    return bytes(bits), _little(ranks)


def _counts(codes: Sequence) -> list[int]:
    if hasattr(codes, "dtype"):
        import numpy as np

        return [int(n) for n in np.bincount(codes, minlength=4)]
    counts = [0, 0, 0, 0]
    for c in codes:
        counts[c] += 1
    return counts


def _pack(codes: Sequence, bits: int) -> bytes:
    """``codes`` packed at ``bits`` a position, as :mod:`gamedp.database` documents."""
    per = 8 // bits
    if hasattr(codes, "dtype"):
        import numpy as np

        padded = np.zeros(-(-len(codes) // per) * per, np.uint8)
        padded[:len(codes)] = codes
        shifts = (np.arange(per, dtype=np.uint8) * bits).astype(np.uint8)
        return np.bitwise_or.reduce(padded.reshape(-1, per) << shifts, axis=1).astype(np.uint8).tobytes()
    out = bytearray(-(-len(codes) // per))
    for i, c in enumerate(codes):
        out[i // per] |= c << (i % per * bits)
    return bytes(out)


def _little(data: Any) -> Any:
    """An array's bytes in little-endian order (the file's), whatever this machine's order."""
    if isinstance(data, array) and sys.byteorder == "big":
        data = array(data.typecode, data)
        data.byteswap()
    return data


def _remoteness_stats(codes: Sequence, remoteness: Sequence) -> dict:
    """Counts by remoteness per outcome, and a longest win and loss (as ``gamedp solve -r`` prints them)."""
    by: dict[str, dict[str, int]] = {}
    longest: dict[str, tuple[int, int]] = {}
    if hasattr(codes, "dtype"):
        import numpy as np

        for c in range(3):
            mask = codes == c
            if mask.any():
                r = remoteness[mask]
                values, counts = np.unique(r, return_counts=True)
                by[CODES[c].name] = {str(int(v)): int(n) for v, n in zip(values, counts)}
                longest[CODES[c].name] = (int(r.max()), int(np.flatnonzero(mask)[int(r.argmax())]))
    else:
        for i, (c, r) in enumerate(zip(codes, remoteness)):
            if c == 3:
                continue
            name = CODES[c].name
            counts = by.setdefault(name, {})
            counts[str(r)] = counts.get(str(r), 0) + 1
            if r > longest.get(name, (-1, 0))[0]:
                longest[name] = (r, i)
    return {"remoteness": by, "longest": {name: {"remoteness": r, "index": i} for name, (r, i) in longest.items()
                                          if name in ("WIN", "LOSE")}}


# -- answering -------------------------------------------------------------------------------------------------
def open_saved(path: str | Path, game: Any = None, fix: str = "save the solve again") -> SavedSolution:
    """The save at ``path``, checked whole and (when ``game`` is given) checked to be that game's."""
    return SavedSolution(path, game, fix)


class SavedSolution(Container):
    """A saved solve, answering like the engine that made it: :meth:`value`, :meth:`analyze`, :meth:`best_move`.

    Built on the database container: blocks are checked against their CRC the first time they are read.
    """

    def __init__(self, path: str | Path, game: Any = None, fix: str = "save the solve again"):
        super().__init__(path, fix)
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
        self._width = next((w for w in _WIDTHS if w[0] == width), None)
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
            self._keys = _Keys("int64" if self.encoding == "bitmap" else self.encoding, game)
            from gamedp.game import overrides

            self._canon = game.canonical if not _is_compiled(game) and overrides(game, "canonical") else None
            self.rules = game.as_python_game() if _is_compiled(game) else game

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
        return _short(position)
