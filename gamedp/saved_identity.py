"""Which game a saved solve (:mod:`gamedp.saved_solution`) belongs to, and where ``gamedp solve`` keeps it.

A save records its game's name, class, public attributes (the variant) and a SHA-256 of its source files
(:func:`identity`); its file is named after the game, its class, variant and file (:func:`default_path`), so a
save is found again as long as the game's class stays in its module.
"""

from __future__ import annotations

import hashlib
import json
import sys
import zlib
from pathlib import Path
from types import ModuleType
from typing import Any

from gamedp.database import db_dir


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


def is_compiled(game: Any) -> bool:
    from gamedp.compiled import CompiledGame

    return isinstance(game, CompiledGame)


def _variant(game: Any) -> dict:
    if is_compiled(game):
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
    if is_compiled(game):
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
