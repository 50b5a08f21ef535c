"""The text notation a game gets without writing one: for positions that are ints, strings or tuples of them.

A game's start position is the template: what is typed is read as a position of the same kind. An int is written
as itself, a string as itself, a tuple of ints as its numbers separated by spaces (so ``3 4 5`` on a command line
needs no quotes), any other tuple as Python writes it. Tuples are also read in Python's form (``(3, 4, 5)``),
never by running code.

>>> format_plain((3, 4, 5)), format_plain(21), format_plain(("left", 4))
('3 4 5', '21', "('left', 4)")
>>> parse_like((0, 0), "3 4 5"), parse_like((0, 0), "(3, 4, 5)"), parse_like((0, 0), "3, 4"), parse_like(21, " 7\\n")
((3, 4, 5), (3, 4, 5), (3, 4), 7)
>>> parse_like(("left", 4), "right 3"), parse_like("ooo", "oo")
(('right', 3), 'oo')
>>> parse_like(21, "x")
Traceback (most recent call last):
...
gamedp.errors.GamedpError: cannot read 'x' as a position: positions of this game are whole numbers, like 21
"""

from __future__ import annotations

import ast
from typing import Any

from gamedp.errors import GamedpError


def is_plain(position: Any) -> bool:
    """Whether ``position`` is an int, a string or a tuple of them (nested or not); bools are not numbers here."""
    kind = type(position)
    if kind is tuple:
        return all(map(is_plain, position))
    return kind in (int, str)


def format_plain(position: Any) -> str:
    """``position`` in the default notation (``str`` for anything that is not plain)."""
    if type(position) is tuple and position and all(type(x) is int for x in position):
        return " ".join(map(str, position))
    return str(position)


def parse_like(template: Any, text: str) -> Any:
    """``text`` read as a position of the same kind as ``template`` (the game's start); a
    :class:`GamedpError` saying what was expected otherwise, or when ``template`` is not plain."""
    if not is_plain(template):
        raise GamedpError("this game has no text notation for positions (only ints, strings and tuples of them "
                          "get one by default): give it parse_position and format_position, or use its start")
    stripped = text.strip()
    kind = type(template)
    if kind is str:
        return stripped
    if kind is int:
        try:
            return int(stripped)
        except ValueError:
            raise _unread(text, f"whole numbers, like {template}") from None
    example = repr(format_plain(template))
    if stripped.startswith("("):
        try:
            position = ast.literal_eval(stripped)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            raise _unread(text, f"tuples like {example}") from None
        position = position if type(position) is tuple else (position,)
    else:
        words = stripped.replace(",", " ").split()
        position = tuple(_word(w, _leaf_kind(template, i)) for i, w in enumerate(words))
    if not _fits(position, template):
        raise _unread(text, f"tuples like {example}")
    return position


def _leaf_kinds(position: Any) -> set[type]:
    if type(position) is tuple:
        return set().union(*map(_leaf_kinds, position)) if position else {int}
    return {type(position)}


def _leaf_kind(template: tuple, i: int) -> set[type]:
    """What the ``i``-th word may be: the template's own element there when the lengths may match, else any of
    its elements' kinds."""
    if i < len(template) and type(template[i]) is not tuple:
        return {type(template[i])}
    return _leaf_kinds(template)


def _word(word: str, kinds: set[type]) -> int | str:
    if int in kinds:
        try:
            return int(word)
        except ValueError:
            if str not in kinds:
                return word  # refused by _fits, with the whole text in the message
    return word


def _fits(position: Any, template: Any) -> bool:
    """Slot by slot where the shapes agree (a tuple as long as the template's), else leaf by leaf."""
    if type(template) is not tuple:
        return type(position) is type(template)
    if type(position) is not tuple:
        return False
    if len(position) == len(template):
        return all(map(_fits, position, template))
    kinds = _leaf_kinds(template)
    return all(type(leaf) in kinds for leaf in _leaves(position))


def _leaves(position: Any) -> list[Any]:
    return [leaf for x in position for leaf in _leaves(x)] if type(position) is tuple else [position]


def _unread(text: str, expected: str) -> GamedpError:
    return GamedpError(f"cannot read {text.strip()!r} as a position: positions of this game are {expected}")
