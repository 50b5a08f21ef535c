"""Impartial games: Nim, subtraction games, octal take-and-break games, Grundy's game, Lasker's Nim, Wythoff.

One module per family; :mod:`gamedp.games.impartial.heaps` holds what the heap families share. A family is
named on the command line as ``NAME`` or ``NAME:PARAMETERS``:

========================  ==========================================================================
``nim``, ``misere-nim``   Nim (take any number from one heap); misère: who takes the last stone loses
``kayles``, ``dawson``    Kayles (octal 0.77), Dawson's Kayles (0.07)
``octal:CODE``            any octal code, e.g. ``octal:0.137``, ``octal:4.07``
``subtraction:SET``       ``subtraction:1,3,4``, ``subtraction:allbut:1,2``, ``subtraction:squares``,
                          ``subtraction:powers:2``, ``subtraction:fibonacci``
``grundy-game``           split a heap into two unequal heaps
``lasker``                Lasker's Nim: take from a heap, or split it in two
``wythoff``               Wythoff's game: take from one heap, or the same from both
========================  ==========================================================================

>>> family("subtraction:1,2,3").family
'subtraction:1,2,3'
>>> family("octal:0.77", misere=True).name
'misere-octal:0.77'
>>> family("chess")
Traceback (most recent call last):
...
gamedp.errors.GamedpError: unknown impartial family 'chess': give one of dawson, grundy-game, kayles, lasker, misere-nim, nim, octal:CODE, subtraction:SET, wythoff
"""

from __future__ import annotations

from typing import Any

from gamedp.errors import GamedpError

def family(spec: str, misere: bool = False) -> Any:
    """The game of the family named by ``spec`` (``NAME`` or ``NAME:PARAMETERS``), under normal or misère play."""
    from gamedp.games.registry import GAMES, split_name

    entry, text = split_name(spec.strip())
    if entry is None or not entry.family:
        shown = ", ".join(sorted(f"{n}:{e.form}" if e.form else n for n, e in GAMES.items() if e.family))
        raise GamedpError(f"unknown impartial family {spec.strip()!r}: give one of {shown}")
    if entry.name == "misere-nim":
        return entry.load()
    return entry.load({**(entry.read(text) if text is not None else {}), "misere": misere})
