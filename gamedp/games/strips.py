"""Partizan games on one line of letters (Toads-and-Frogs, Hackenbush strings): how their positions are written.

A position is the line, then ``:`` and the letter of the side to move (Left's may be left out); a move is named
by the number of its square or edge, from 1.
"""

from __future__ import annotations

from gamedp.errors import InputError
from gamedp.game import Game


class LetterLine(Game):
    """Base of the one-line games: subclasses give :attr:`letters`, :attr:`sides` and the rules."""

    #: each letter a square may hold, and what it is (for messages)
    letters: dict[str, str] = {}
    #: the letter that names each side when it is to move, Left's first
    sides: tuple[str, str] = ("L", "R")

    def __init__(self, line: str):
        self.line = self.parse_line(line)

    def start(self) -> str:
        return f"{self.line}:{self.sides[0]}"

    def format_position(self, position: str) -> str:
        return position

    def parse_position(self, text: str) -> str:
        line, colon, side = text.strip().upper().partition(":")
        if colon and side not in self.sides:
            raise InputError(f"after ':' comes {self.sides[0]} or {self.sides[1]}, the side to move, not {side!r}",
                             source=f"position, column {len(line) + 2}")
        return f"{self.parse_line(line)}:{side or self.sides[0]}"

    def format_move(self, position: str, move: int) -> str:
        return str(move + 1)

    def parse_line(self, text: str, source: str = "position") -> str:
        """The line, with an error naming the column of a letter that does not belong."""
        for column, ch in enumerate(text, 1):
            if ch not in self.letters:
                shown = ", ".join(f"{k!r} ({v})" for k, v in self.letters.items())
                raise InputError(f"unexpected {ch!r}: a {self.name} position is made of {shown}",
                                 source=f"{source}, column {column}")
        return text
