"""Games with an index space: the ones ``gamedp solve`` can solve whole and keep in a database.

They are the entries of :mod:`gamedp.games.registry` with a tiered form (see :mod:`gamedp.tiers`: every one is
solved by the tier solver, :mod:`gamedp.solvers.tier_solver`), whose factory takes the variant's parameters as
keyword arguments. Their rules are plain functions, compiled by the solver only when it runs: looking a position up in
a database imports neither numba nor numpy.

>>> spec = table_spec("tictactoe")
>>> spec.size, spec.position(spec.index(spec.parse_position("X........"))) == 2
(19683, True)
>>> table_of("connect4:5x4", ()) == table_of("connect4", ("width=5", "height=4"))
True
>>> table_of("connect4:5x4", ()), table_of("subtraction:1,2", ()), table_of("nim", ())
(('connect4', {'width': 5, 'height': 4}), (None, None), (None, None))
>>> table_spec("chess")
Traceback (most recent call last):
...
gamedp.errors.GamedpError: unknown game 'chess' for solve/query: the indexed games are blockgame, connect4, subtraction, tictactoe
"""

from __future__ import annotations

import inspect
from typing import Any

from gamedp.errors import GamedpError
from gamedp.games.registry import GAMES, board_parameters, split_name


def indexed_names() -> list[str]:
    """The games ``gamedp solve`` solves whole, sorted."""
    return sorted(name for name, entry in GAMES.items() if entry.tiered)


def table_of(game: str, options: tuple[str, ...] | list[str]) -> tuple[str | None, dict[str, Any] | None]:
    """The indexed game and variant that ``game`` (as typed, with its ``-V`` ``options``) names, or (None, None)
    for a game solved from a position instead. A board named with its parameters (``connect4:5x4``) is the same
    table as with ``-V`` (``connect4 -V width=5 -V height=4``), where the tiered form holds the same positions."""
    entry, text = split_name(game)
    if entry is None or entry.tiered is None or (text is not None and not entry.same_board):
        return None, None
    variant = parse_variant(options)
    if text is None:
        return entry.name, variant
    board = {k: v for k, v in variant.items() if k in entry.parameters}
    _, parameters = board_parameters(game, board)
    return entry.name, {**parameters, **variant}


def table_name(name: str, variant: dict[str, Any]) -> str:
    """The one name of the board an indexed game's ``variant`` holds (``connect4:5x4``); a table of another game's
    positions (subtraction's one heap) or a saved solve keeps its own name.

    >>> table_name("connect4", {"width": 5, "height": 4, "connect": 4}), table_name("subtraction", {"n": 9})
    ('connect4:5x4', 'subtraction')
    """
    entry = GAMES.get(name)
    if entry is None or not entry.same_board:
        return name
    return entry.name_of({k: v for k, v in variant.items() if k in entry.parameters})


def table_spec(name: str, **variant: Any) -> Any:
    """The tiered game ``name`` with the given variant parameters."""
    entry = GAMES.get(name)
    if entry is None or entry.tiered is None:
        raise GamedpError(f"unknown game {name!r} for solve/query: the indexed games are {', '.join(indexed_names())}")
    factory = entry.load_tiered()
    params = inspect.signature(factory).parameters
    unknown = sorted(set(variant) - set(params))
    if unknown:
        accepted = ", ".join(f"{p}={_text(v.default)}" if v.default is not inspect.Parameter.empty else p
                             for p, v in params.items()) or "none"
        raise GamedpError(f"{name} has no variant parameter {', '.join(unknown)}; its parameters: {accepted}")
    for key, value in variant.items():
        _check_type(name, key, value, params[key].default)
    try:
        return factory(**variant)
    except GamedpError:
        raise
    except (TypeError, ValueError) as e:
        raise GamedpError(f"bad variant of {name}: {e}") from None


def _check_type(name: str, key: str, value: Any, default: Any) -> None:
    """A variant value must be of its default's kind: a whole number, true/false, or a list of whole numbers."""
    def whole(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    if isinstance(default, bool):
        ok, kind = isinstance(value, bool), "true or false"
    elif whole(default):
        ok, kind = whole(value), "a whole number"
    elif isinstance(default, (tuple, list)):
        ok = whole(value) or (isinstance(value, list) and all(map(whole, value)))
        kind = "whole numbers separated by commas"
    else:
        return
    if not ok:
        raise GamedpError(f"{name}: {key} must be {kind}, not {_text(value)!r}")


def label(name: str, spec: Any) -> str:
    """How the command line names a table: the registry name and the factory's parameters.

    >>> label("subtraction", table_spec("subtraction", n=40, moves=[3, 2]))
    'subtraction (n=40, moves=2,3, misere=false)'
    """
    params = inspect.signature(GAMES[name].load_tiered()).parameters
    shown = [f"{key}={_text(spec.variant.get(key, p.default))}" for key, p in params.items()]
    return f"{name} ({', '.join(shown)})" if shown else name


def command_for(name: str, variant: dict[str, Any]) -> str:
    """The ``gamedp solve`` command that builds the table of the indexed game ``name`` with ``variant``: the
    factory's parameters that differ from their defaults (what :mod:`gamedp.database` is told for its messages).

    >>> command_for("blockgame", {"rows": 4, "cols": 5})
    'gamedp solve blockgame -V rows=4'
    """
    params = inspect.signature(GAMES[name].load_tiered()).parameters
    options = []
    for key, param in params.items():
        value = variant.get(key, param.default)
        default = list(param.default) if isinstance(param.default, tuple) else param.default
        if value != default:
            options.append(f" -V {key}={_text(value)}")
    return f"gamedp solve {name}{''.join(sorted(options))}"


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(map(_text, value))
    return str(value).lower() if isinstance(value, bool) else str(value)


def parse_variant(options: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` options as a variant: integers, comma-separated integer lists, true/false, or text.

    >>> parse_variant(["rows=4", "moves=1,3,4", "misere=true"])
    {'rows': 4, 'moves': [1, 3, 4], 'misere': True}
    """
    variant: dict[str, Any] = {}
    for option in options:
        key, eq, text = option.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            raise GamedpError(f"a variant option is KEY=VALUE (e.g. rows=4), not {option!r}")
        variant[key] = _value(text.strip())
    return variant


def _value(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    parts = text.split(",")
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        return text
    return numbers if "," in text else numbers[0]
