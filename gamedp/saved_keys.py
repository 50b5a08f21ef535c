"""How a saved solve (:mod:`gamedp.saved_solution`) writes positions as keys (``int64``, ``bitmap``,
``literal``, ``notation``: see there), and the layout its writer (:mod:`gamedp.saved_writer`) and reader share.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from gamedp.database import CODES
from gamedp.errors import GamedpError

KIND = "positions"
INT64 = (-(1 << 63), (1 << 63) - 1)
#: the database's outcome code of each outcome
CODE_OF = {outcome: code for code, outcome in enumerate(CODES)}
#: remoteness widths, smallest first: (name, array typecode, bytes, largest value)
WIDTHS = (("u8", "B", 1, 0xFF), ("u16", "H", 2, 0xFFFF), ("u32", "I", 4, 0xFFFFFFFF))
#: integers a block of the ``bitmap`` key encoding covers (64 bytes of it)
RANK_BLOCK = 512

def _is_literal(p: Any) -> bool:
    """Whether ``repr(p)`` is read back exactly by :func:`ast.literal_eval` (exact types only: no subclasses)."""
    kind = type(p)
    if kind is tuple:
        return all(map(_is_literal, p))
    if kind is float:
        return math.isfinite(p)
    return kind in (int, str, bytes, bool) or p is None


class Keys:
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
    def choose(cls, game: Any, positions: Sequence[Any]) -> Keys:
        if all(type(p) is int and INT64[0] <= p <= INT64[1] for p in positions):
            return cls("int64", game)
        if all(map(_is_literal, positions)):
            return cls("literal", game)
        from gamedp.game import Game, overrides

        if isinstance(game, Game) and not overrides(game, "parse_position"):
            raise GamedpError(f"cannot save {game.name}: its positions (like {short(positions[0])}) are neither "
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
                raise GamedpError(f"cannot save {game.name}: format_position({short(p)}) gives {text.decode()!r}, "
                                  f"which parse_position reads as {short(back)}; make them read each other back")
            if seen.setdefault(text, p) is not p:
                raise GamedpError(f"cannot save {game.name}: positions {short(seen[text])} and {short(p)} are "
                                  f"both written {text.decode()!r}")
        return keys


def short(value: Any) -> str:
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
