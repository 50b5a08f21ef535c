"""A placement board's rows as written: ``.`` empty, ``#`` filled, one row a line.

Apart from :mod:`gamedp.games.placement` so that the BLOCKGAME judge reads its boards without importing the
rulesets (dataclasses, the game API: about 20 ms of a judge run that is timed whole-process).

>>> bin(parse_row("#..#", 4, 1))
'0b1001'
"""

from __future__ import annotations

from gamedp.errors import InputError


def parse_row(line: str, cols: int, line_no: int, source: str = "input") -> int:
    """One board row of ``.``/``#`` as bits (bit c = column c filled), with a located error otherwise."""
    bits = 0
    for c, ch in enumerate(line):
        if ch == "#":
            bits |= 1 << c
        elif ch != ".":
            raise InputError(f"unexpected character {ch!r}: a board row has only '.' (empty) and '#' (filled)",
                             line_no, c + 1, source)
    if len(line) != cols:
        raise InputError(f"a board row has {cols} characters, this one has {len(line)}", line_no, None, source)
    return bits
