"""Find a game from what a person typed: a built-in name, ``module:attribute``, or ``path/to/file.py[:attribute]``.

>>> load_game("tictactoe").name
'tictactoe'
>>> load_game("no-such-game")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gamedp.errors.GamedpError: unknown game 'no-such-game': give a built-in name (...), module:attribute, or a .py file
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import zlib
from pathlib import Path
from typing import Any, Mapping

from gamedp.errors import GamedpError


def load_game(spec: str, variant: Mapping[str, Any] | None = None) -> Any:
    """The game named by ``spec``: a built-in name (with its board's parameters after a colon, or as ``variant``,
    the ``-V`` options: :mod:`gamedp.games.registry`), ``module:attribute`` or ``file.py[:attribute]``.

    An attribute that is a class is instantiated without arguments. A file without an attribute must hold
    exactly one game (a ``Game`` or ``CompiledGame`` instance, or a ``Game`` subclass).

    >>> load_game("connect4", {"width": 5, "height": 4}).name == load_game("connect4:5x4").name == "connect4:5x4"
    True
    """
    from gamedp.games.registry import GAMES, board_parameters, split_name

    entry, text = split_name(spec)
    if entry is not None:
        if text is None and not variant:
            return _instantiate(entry.load(), spec)
        _, parameters = board_parameters(spec, variant)
        try:
            return _instantiate(entry.load(parameters), spec)
        except (TypeError, ValueError) as e:
            raise GamedpError(f"{spec}: {e}; {entry.how_to_name()}") from None
    if variant:
        shown = ", ".join(n for n, e in GAMES.items() if e.parameters)
        raise GamedpError(f"-V gives a built-in game's parameters ({shown}); {spec} takes none (a game of your "
                          "own takes its parameters in its file)")
    path, _, attr = spec.partition(":") if not _is_windows_drive(spec) else (spec, "", "")
    if path.endswith(".py") or Path(path).is_file():
        module = _import_file(Path(path))
    elif attr:
        try:
            module = importlib.import_module(path)
        except ImportError as e:
            raise GamedpError(f"cannot import module {path!r} for game {spec!r}: {e}") from None
        except Exception as e:  # the user's module itself failed
            raise GamedpError(f"importing {path!r} failed: {type(e).__name__}: {e}") from None
    else:
        _refuse_judge_problem(spec)
        names = ", ".join(sorted(GAMES))
        raise GamedpError(f"unknown game {spec!r}: give a built-in name ({names}), module:attribute, or a .py file")
    if attr:
        if not hasattr(module, attr):
            raise GamedpError(f"{path!r} has no attribute {attr!r}")
        return _instantiate(getattr(module, attr), spec)
    return _instantiate(_only_game_in(module, spec), spec)


def _refuse_judge_problem(spec: str) -> None:
    """A judge problem's name given as a game: say which game to name."""
    from gamedp.judge import JUDGES

    problem = JUDGES.get(spec)
    if problem is not None:
        raise GamedpError(f"{spec!r} is a judge problem ({problem.title}: gamedp judge {spec}); its game is named "
                          f"{problem.game}: give {problem.game} here")


def _is_windows_drive(spec: str) -> bool:
    return len(spec) > 2 and spec[1] == ":" and spec[2] in "\\/"


def _import_attribute(module: str, attr: str) -> Any:
    return getattr(importlib.import_module(module), attr)


def _import_file(path: Path) -> Any:
    if not path.is_file():
        raise GamedpError(f"no such file: {path}")
    folder = str(path.resolve().parent)
    if folder not in sys.path:  # as `python file.py` does: the file may import the modules beside it
        sys.path.insert(0, folder)
    name = _module_name(path)
    loaded = sys.modules.get(name)
    if loaded is not None and _same_file(getattr(loaded, "__file__", None), path):
        return loaded
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise GamedpError(f"{path} is not a Python file that can be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        raise GamedpError(f"{path}, line {e.lineno}, column {e.offset}: syntax error: {e.msg}") from None
    except Exception as e:
        raise GamedpError(f"running {path} failed: {type(e).__name__}: {e}") from None
    except SystemExit as e:  # else gamedp would end there, with the file's status (0 for a failure)
        raise GamedpError(f"running {path} failed: it called sys.exit({e.code!r}) while being loaded (code "
                          "meant to run as a script goes under `if __name__ == \"__main__\":`)") from None
    return module


def _module_name(path: Path) -> str:
    """The file's own module name where ``import`` would find this very file, else one made from its path.

    The name is the same in every run, and the same as a plain ``import`` gives where it can be: numba's on-disk
    cache (``cache=True``) imports a cached kernel's module by the name it was compiled under.
    """
    stem = path.stem
    if stem.isidentifier():
        try:
            found = importlib.util.find_spec(stem)
        except (ImportError, ValueError):
            found = None
        if found is not None and _same_file(found.origin, path):
            return stem
    return f"gamedp_user_{zlib.crc32(str(path.resolve()).encode()):08x}"


def _same_file(origin: str | None, path: Path) -> bool:
    return origin is not None and Path(origin).resolve() == path.resolve()


def _is_game(obj: Any) -> bool:
    from gamedp.compiled import CompiledGame
    from gamedp.game import Game

    if isinstance(obj, type):
        return issubclass(obj, Game) and obj is not Game and obj.__module__ not in ("gamedp.game",)
    return isinstance(obj, (Game, CompiledGame))


def _only_game_in(module: Any, spec: str) -> Any:
    # Classes count where they are defined, not where they are imported; an instance's __module__ is its class's.
    found = {name: obj for name, obj in vars(module).items()
             if _is_game(obj) and (not isinstance(obj, type) or obj.__module__ == module.__name__)}
    instances = {n: o for n, o in found.items() if not isinstance(o, type)}
    candidates = instances or found
    if len(candidates) != 1:
        listed = ", ".join(sorted(candidates)) or "none"
        raise GamedpError(f"{spec!r} defines {len(candidates)} games ({listed}); name one as {spec}:NAME")
    return next(iter(candidates.values()))


def _instantiate(obj: Any, spec: str) -> Any:
    if isinstance(obj, type):
        try:
            obj = obj()
        except TypeError as e:
            raise GamedpError(f"cannot create the game {spec!r} without arguments: {e}") from None
    if not _is_game(obj):
        raise GamedpError(f"{spec!r} is a {type(obj).__name__}, not a gamedp Game or CompiledGame")
    return obj


def board_name(spec: str, variant: Mapping[str, Any] | None = None) -> str:
    """The one name of the built-in board ``spec`` with ``variant`` (-V parameters): its game's ``name``, however
    the board was written; any other game's ``spec`` (``module:attribute``, ``file.py``) is its own name.

    >>> board_name("connect4", {"width": 5, "height": 4})
    'connect4:5x4'
    >>> board_name("connect4:6x5", {"connect": 3}), board_name("connect4:7x6"), board_name("domineering:4x4")
    ('connect4:6x5:3', 'connect4', 'domineering')
    >>> board_name("subtraction"), board_name("subtraction", {"moves": [1, 2]}), board_name("octal:0.7")
    ('subtraction:1,3,4', 'subtraction:1,2', 'octal:0.7')
    >>> board_name("path/to/chomp.py")
    'path/to/chomp.py'
    >>> board_name("connect4:5x4x3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gamedp.errors.GamedpError: connect4:5x4x3 is not a board of connect4: write connect4:WxH or connect4:WxH:K ...
    """
    from gamedp.games.registry import split_name

    if split_name(spec)[0] is None and not variant:
        return spec
    return load_game(spec, variant).name
