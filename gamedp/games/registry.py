"""The built-in games: one entry per game, with its forms, its parameters, and the one name of each board.

A game's parameters are written after a colon (``connect4:5x4``) or given as ``-V`` options
(``connect4 -V width=5 -V height=4``); both name the same board, and :func:`gamedp.loader.board_name` gives the one name every
command prints, looks databases up by and answers in JSON and on the web board.
"""

from __future__ import annotations

import importlib
import re
from typing import Any, Mapping

from gamedp.errors import GamedpError
from gamedp.records import Record, init

#: How parameters are written after the colon: (pattern, parameters in order, their placeholders, examples,
#: whether a board with its default parameters is named without them).
_FORMS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...], str, bool]] = {
    "WxH[:K]": (r"(\d+)x(\d+)(?::(\d+))?", ("width", "height", "connect"), ("W", "H", "K"), "5x4, 6x5:3", True),
    "RxC": (r"(\d+)x(\d+)", ("rows", "cols"), ("R", "C"), "4x5", True),
    "SET": (r"(.*)", ("moves",), ("SET",), "1,3,4, allbut:1,2, squares", False),
    "CODE": (r"(.*)", ("code",), ("CODE",), "0.137, 4.07", False),
}


class Entry(Record):
    """One built-in game.

    ``python`` is the ``module:factory`` of its Python form, called with the board's parameters as keywords;
    ``parameters`` are those parameters with their defaults, written after the colon as ``form`` says;
    ``tiered`` is the ``module:factory`` of its tiered form (what ``gamedp solve`` solves whole; its own keyword
    parameters, see ``gamedp solve GAME --help``), and ``same_board`` says whether the tiered form holds the
    very positions of the Python form, so that a name with parameters (``connect4:5x4``) finds its database;
    ``compiled`` says where its compiled form comes from. ``family`` marks the heap families
    ``gamedp nimber`` knows (their factories take ``misere=``).
    """

    __slots__ = __match_args__ = ("name", "description", "python", "parameters", "form", "tiered", "same_board",
                                  "compiled", "family")
    name: str
    description: str
    python: str
    parameters: Mapping[str, Any]
    form: str | None
    tiered: str | None
    same_board: bool
    compiled: str | None
    family: bool

    def __init__(self, name: str, description: str, python: str, parameters: Mapping[str, Any] | None = None,
                 form: str | None = None, tiered: str | None = None, same_board: bool = False,
                 compiled: str | None = None, family: bool = False):
        init(self, name=name, description=description, python=python,
             parameters={} if parameters is None else parameters, form=form, tiered=tiered, same_board=same_board,
             compiled=compiled, family=family)

    def read(self, text: str) -> dict[str, Any]:
        """The parameters written after the colon (``5x4``), or a one-line error showing how to write them."""
        pattern, keys = _FORMS[self.form][:2] if self.form else ("", ())
        sizes = self.form in ("WxH[:K]", "RxC")  # spaces are allowed only between numbers
        match = re.fullmatch(pattern, "".join(text.split()) if sizes else text.strip()) if self.form else None
        if match is None:
            raise GamedpError(f"{self.name}:{text} is not a board of {self.name}: {self.how_to_name()}")
        return {k: (int(v) if isinstance(self.parameters[k], int) else v)
                for k, v in zip(keys, match.groups()) if v is not None}

    def how_to_name(self) -> str:
        """How a board of this game is named, for messages."""
        if not self.form:
            return f"{self.name} takes no parameters"
        _, keys, placeholders, example, _ = _FORMS[self.form]
        options = " ".join(f"-V {k}={p}" for k, p in zip(keys, placeholders))
        shown = self.form.replace("[:K]", f" or {self.name}:WxH:K")
        examples = ", ".join(f"{self.name}:{e}" for e in example.split(", "))
        return f"write {self.name}:{shown} (e.g. {examples}), or give {options}"

    def name_of(self, parameters: Mapping[str, Any]) -> str:
        """The one name of the board with ``parameters`` (defaults filled in)."""
        values = {**self.parameters, **parameters}
        if not self.form or (_FORMS[self.form][4] and values == dict(self.parameters)):
            return self.name
        if self.form == "WxH[:K]":
            return f"{self.name}:{values['width']}x{values['height']}" + \
                ("" if values["connect"] == 4 else f":{values['connect']}")
        if self.form == "RxC":
            return f"{self.name}:{values['rows']}x{values['cols']}"
        return f"{self.name}:{values[_FORMS[self.form][1][0]]}"

    def load(self, parameters: Mapping[str, Any] | None = None) -> Any:
        """The Python form of the board with ``parameters``."""
        return _attribute(self.python)(**(parameters or {}))

    def load_tiered(self) -> Any:
        """The factory of the tiered form, or None."""
        return _attribute(self.tiered) if self.tiered else None


def _attribute(target: str) -> Any:
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)


def _entry(name: str, description: str, python: str, **more: Any) -> Entry:
    return Entry(name, description, f"gamedp.games.{python}", **more)


_CARDS = "kernels: gamedp.kernels.cardgame_judge (the judge's O(N^2) table)"
#: Every built-in game, in the order ``gamedp games`` lists them.
GAMES: dict[str, Entry] = {e.name: e for e in (
    _entry("tictactoe", "Tic-tac-toe: three in a row on 3x3; a full board is a tie", "tictactoe:TicTacToe",
           tiered="gamedp.games.tictactoe_tiers:tictactoe_table", same_board=True),
    _entry("connect4", "Connect-Four: drop stones in columns; K in a row wins (4 on the 7x6 board)",
           "connect4:Connect4", parameters={"width": 7, "height": 6, "connect": 4}, form="WxH[:K]",
           tiered="gamedp.games.connect4_tiers:connect4_table", same_board=True,
           compiled="Connect4.compiled() (kernels: gamedp.kernels.connect4_search, connect4_tiers)"),
    _entry("cards", "Take a card from either end of a row; the larger total wins (judge problem cardgame)",
           "cards:Cards", compiled=_CARDS),
    _entry("cards-discard2", "Cards: take an end card, or throw two away from one end", "cards:CardsDiscard"),
    _entry("cards-upto3", "Cards: take one, two or three cards from either end", "cards:CardsUpTo3"),
    _entry("grid", "A token moves down, right, or diagonally up to K cells (judge problem gridgame)",
           "grid:GridGame", compiled="kernels: gamedp.kernels.grid, gridgame_judge"),
    _entry("blockgame", "Place L-trominoes and dominoes on a board; no move loses (judge problem blockgame)",
           "placement:Blockgame", parameters={"rows": 5, "cols": 5}, form="RxC",
           tiered="gamedp.games.placement_tiers:blockgame_table", same_board=True,
           compiled="kernels: gamedp.kernels.blockgame, blockgame_judge"),
    _entry("cram", "Cram: place dominoes either way; no move loses", "placement:Cram",
           parameters={"rows": 4, "cols": 4}, form="RxC", compiled="kernels: gamedp.kernels.regions"),
    _entry("domineering", "Domineering: Vertical places vertical dominoes, Horizontal horizontal ones",
           "placement:domineering", parameters={"rows": 4, "cols": 4}, form="RxC",
           compiled="kernels: gamedp.kernels.domineering_search"),
    _entry("toads-and-frogs", "Toads and Frogs on a strip (partizan)", "toads_frogs:ToadsAndFrogs"),
    _entry("hackenbush", "Blue-Red Hackenbush on a stalk (partizan)", "hackenbush:Hackenbush"),
    _entry("nim", "Nim: take any number from one heap", "impartial.nim:Nim", family=True),
    _entry("misere-nim", "Misère Nim: who takes the last stone loses", "impartial.nim:MisereNim", family=True),
    _entry("kayles", "Kayles (octal 0.77)", "impartial.octal:Kayles", family=True),
    _entry("dawson", "Dawson's Kayles (octal 0.07)", "impartial.octal:Dawson", family=True),
    _entry("octal", "Any octal take-and-break game", "impartial.octal:Octal", parameters={"code": "0.137"},
           form="CODE", family=True, compiled="kernels: gamedp.kernels.octal (nimber sequences)"),
    _entry("subtraction", "A subtraction game: take a number in the set from one heap",
           "impartial.subtraction:Subtraction", parameters={"moves": "1,3,4"}, form="SET", family=True,
           tiered="gamedp.games.impartial.subtraction_tiers:subtraction_table"),
    _entry("grundy-game", "Grundy's game: split a heap into two unequal heaps", "impartial.grundy_game:GrundyGame",
           family=True),
    _entry("lasker", "Lasker's Nim: take from a heap, or split it in two", "impartial.lasker:Lasker", family=True),
    _entry("wythoff", "Wythoff's game: take from one heap, or the same from both", "impartial.wythoff:Wythoff",
           family=True),
)}


def split_name(spec: str) -> tuple[Entry | None, str | None]:
    """The built-in entry ``spec`` names and the text after its colon (None without one); (None, None) when
    ``spec`` is not a built-in name."""
    name, colon, text = spec.partition(":")
    entry = GAMES.get(name)
    if entry is None or (colon and not entry.form):
        return None, None
    return entry, text if colon else None


def board_parameters(spec: str, variant: Mapping[str, Any] | None = None) -> tuple[Entry, dict[str, Any]]:
    """The built-in game ``spec`` names and its board's parameters, from the colon and from ``variant`` (-V)."""
    entry, text = split_name(spec)
    if entry is None:
        raise GamedpError(f"{spec} is not a built-in game; -V gives a built-in game's parameters "
                          f"({', '.join(n for n, e in GAMES.items() if e.parameters)})")
    parameters = entry.read(text) if text is not None else {}
    for key, value in (variant or {}).items():
        if not entry.parameters:
            shown = ", ".join(n for n, e in GAMES.items() if e.parameters)
            raise GamedpError(f"{entry.name} takes no parameters; -V gives those of {shown}")
        if key not in entry.parameters:
            accepted = ", ".join(f"{k}={v}" for k, v in entry.parameters.items()) or "none"
            raise GamedpError(f"{entry.name} has no parameter {key}; its parameters: {accepted}")
        value = _as_kind(entry, key, value)
        if parameters.setdefault(key, value) != value:
            raise GamedpError(f"{spec} and -V {key}={value} name two boards; give the board once")
    return entry, parameters


def _as_kind(entry: Entry, key: str, value: Any) -> Any:
    """A -V value as the parameter's kind: text as written after the colon (``moves=1,2`` is ``"1,2"``), or a
    whole number."""
    if isinstance(entry.parameters[key], str):
        return ",".join(map(str, value)) if isinstance(value, list) else str(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise GamedpError(f"{entry.name}: {key} must be a whole number, not {value!r}")
    return value
