"""Games with an index space: the ones ``gamedp solve`` can solve whole and keep in a database.

:data:`INDEXED` maps a name to the factory of its table spec (see :mod:`gamedp.solvers.tables` for the
protocol); factories take the variant's parameters as keyword arguments. Two small index spaces live here:

- ``tictactoe``: 3^9 indices, cell i holding digit i in base 3 (0 empty, 1 the mover's mark, 2 the
  opponent's). Every index is a position once you forget which mark is X: the player with three in a row has
  won (the opponent, if both have one), a full board is a tie. Tiers count the marks on the board.
- ``subtraction``: n+1 indices, the stones left; a move takes one of ``moves`` stones (misère optional).
  Tiers count the stones taken.

Their kernels are plain functions here, compiled by the solver only when it runs: looking a position up in a
database imports neither numba nor numpy.

>>> spec = table_spec("tictactoe")
>>> spec.size, spec.index(spec.parse_position("X........")) == 2 * 3 ** 0
(19683, True)
>>> table_spec("chess")
Traceback (most recent call last):
...
gamedp.errors.GamedpError: unknown game 'chess' for solve/query: the indexed games are blockgame, connect4, subtraction, tictactoe
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from gamedp.compiled import CompiledGame
from gamedp.errors import GamedpError
from gamedp.solvers.tables import CompiledTable

#: name -> "module:factory" of its table spec.
INDEXED: dict[str, str] = {
    "blockgame": "gamedp.games.indexed:blockgame_table",
    "connect4": "gamedp.games.connect4_tiers:connect4_table",
    "subtraction": "gamedp.games.indexed:subtraction_table",
    "tictactoe": "gamedp.games.indexed:tictactoe_table",
}


def table_spec(name: str, **variant: Any) -> Any:
    """The table spec of the indexed game ``name`` with the given variant parameters."""
    target = INDEXED.get(name)
    if target is None:
        raise GamedpError(f"unknown game {name!r} for solve/query: the indexed games are {', '.join(sorted(INDEXED))}")
    module, attr = target.split(":")
    try:
        factory = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        raise GamedpError(f"the game {name!r} is not available for solve/query in this version of gamedp") from None
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

    >>> label("subtraction", subtraction_table(n=40, moves=[3, 2]))
    'subtraction (n=40, moves=2,3, misere=false)'
    """
    module, attr = INDEXED[name].split(":")
    params = inspect.signature(getattr(importlib.import_module(module), attr)).parameters
    shown = [f"{key}={_text(spec.variant.get(key, p.default))}" for key, p in params.items()]
    return f"{name} ({', '.join(shown)})" if shown else name


def command_for(game_id: str, variant: dict[str, Any]) -> str:
    """The ``gamedp solve`` command that builds the table of ``game_id`` with ``variant``.

    The registry name is the game id, or the variant's ``name``; options are the factory's parameters that
    differ from their defaults.

    >>> command_for("blockgame", {"rows": 4, "cols": 5})
    'gamedp solve blockgame -V rows=4'
    """
    name = game_id if game_id in INDEXED else variant.get("name", game_id)
    options = []
    if name in INDEXED:
        module, attr = INDEXED[name].split(":")
        params = inspect.signature(getattr(importlib.import_module(module), attr)).parameters
        for key, param in params.items():
            value = variant.get(key, param.default)
            default = list(param.default) if isinstance(param.default, tuple) else param.default
            if value != default:
                options.append(f" -V {key}={_text(value)}")
    else:
        options = [f" -V {key}={_text(value)}" for key, value in sorted(variant.items())]
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


# -- BLOCKGAME -----------------------------------------------------------------------------------------------------
def blockgame_table(rows: int = 5, cols: int = 5) -> Any:
    """BLOCKGAME's table (from :mod:`gamedp.games.placement`), its positions read as the game's boards."""
    try:
        from gamedp.games.placement import blockgame_table_spec
    except ImportError:
        raise GamedpError("the game 'blockgame' is not available for solve/query in this version of gamedp") from None
    spec = blockgame_table_spec(rows, cols)
    if not hasattr(spec, "parse_position"):
        spec.parse_position = spec.rules.parse_board
    return spec


# -- tic-tac-toe ---------------------------------------------------------------------------------------------
_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_POW3 = (1, 3, 9, 27, 81, 243, 729, 2187, 6561)


def _ttt_primitive(position):
    cells = [0] * 9
    for i in range(9):
        cells[i] = (position // _POW3[i]) % 3
    mover_line = False
    for line in _LINES:
        a = cells[line[0]]
        if a != 0 and a == cells[line[1]] and a == cells[line[2]]:
            if a == 2:
                return 1  # the opponent has a line: the mover has lost
            mover_line = True
    if mover_line:
        return 2  # only the mover has one (not reachable by play): a win
    for i in range(9):
        if cells[i] == 0:
            return 0
    return 3


def _ttt_children(position, out):
    if _ttt_primitive(position) != 0:
        return 0
    swapped = 0  # the same board seen by the other player: marks 1 and 2 change places
    for i in range(9):
        d = (position // _POW3[i]) % 3
        if d != 0:
            swapped += (3 - d) * _POW3[i]
    count = 0
    for i in range(9):
        if (position // _POW3[i]) % 3 == 0:
            out[count] = swapped + 2 * _POW3[i]
            count += 1
    return count


def _ttt_tier(position):
    marks = 0
    for i in range(9):
        if (position // _POW3[i]) % 3 != 0:
            marks += 1
    return marks


def _ttt_parse(text: str) -> int:
    from gamedp.games.tictactoe import TicTacToe

    board = TicTacToe().parse_position(text)
    mover = "X" if board.count("X") == board.count("O") else "O"
    return sum(_POW3[i] * (0 if c == "." else 1 if c == mover else 2) for i, c in enumerate(board))


def _ttt_format(position: int) -> str:
    digits = [(position // p) % 3 for p in _POW3]
    mover = "O" if digits.count(2) == digits.count(1) + 1 else "X"
    other = "O" if mover == "X" else "X"
    return "".join("." if d == 0 else mover if d == 1 else other for d in digits) + f" ({mover} to move)"


def tictactoe_table() -> CompiledTable:
    """Tic-tac-toe over all 3^9 boards, seen from the player to move."""
    game = CompiledGame("tictactoe", 0, _ttt_children, 9, primitive=_ttt_primitive, num_positions=3 ** 9,
                        format_position=_ttt_format, parse_position=_ttt_parse)
    return CompiledTable(game, _ttt_tier, 10, game_id="tictactoe", variant={})


# -- subtraction games -------------------------------------------------------------------------------------------
def subtraction_table(n: int = 1000, moves: tuple[int, ...] | list[int] = (1, 3, 4), misere: bool = False) -> CompiledTable:
    """A subtraction game on 0..n stones: take any number in ``moves``; no move loses (wins if ``misere``)."""
    moves = (moves,) if isinstance(moves, int) else tuple(moves)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise GamedpError(f"subtraction: n is the most stones, a whole number >= 0, not {n!r}")
    if not moves or any(isinstance(k, bool) or not isinstance(k, int) or k < 1 for k in moves):
        raise GamedpError(f"subtraction: moves are numbers of stones >= 1 (e.g. moves=1,3,4), not {moves!r}")
    moves = tuple(sorted(set(moves)))
    top = n

    def children(position, out):
        count = 0
        for k in moves:
            if k <= position:
                out[count] = position - k
                count += 1
        return count

    def tier(position):
        return top - position

    def parse(text: str) -> int:
        try:
            stones = int(text.strip())
        except ValueError:
            raise GamedpError(f"a subtraction position is a number of stones, not {text.strip()!r}") from None
        if not 0 <= stones <= top:
            raise GamedpError(f"{stones} stones is outside this game's 0..{top}")
        return stones

    game = CompiledGame("subtraction", n, children, len(moves), num_positions=n + 1, misere=bool(misere),
                        parse_position=parse)
    return CompiledTable(game, tier, n + 1, game_id="subtraction",
                         variant={"n": n, "moves": list(moves), "misere": bool(misere)})
