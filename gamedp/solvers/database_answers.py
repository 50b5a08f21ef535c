"""Values read from a saved database: the engine for a game that ``gamedp solve`` has already solved.

A tiered game's database (see :mod:`gamedp.tiers` and :mod:`gamedp.database`) holds every position's value;
the game's rules give the moves. :func:`saved_solution` opens it when there is one for that very game and
variant, so that ``analyze`` and ``play`` answer by look-ups instead of searching (no numba either way).

>>> import tempfile, os
>>> from gamedp.games.tictactoe import TicTacToe
>>> from gamedp.solvers.tier_solver import solve_tiered
>>> game = TicTacToe()
>>> folder = tempfile.mkdtemp()
>>> _ = solve_tiered(game.tiered(), "tictactoe", os.path.join(folder, "tictactoe.gdb"), remoteness=True)
>>> saved = saved_solution(game, game.tiered(), game.tiered().parse_position, db=folder)
>>> str(saved.value("XX.OO....")), [str(m.value) for m in saved.analyze("XX.OO....").moves][:2]
('WIN in 1', ['WIN in 1', 'TIE in 5'])
"""

from __future__ import annotations

import os
from typing import Any, Callable

from gamedp.errors import GamedpError
from gamedp.values import Analysis, Value, analysis_of


class SavedSolution:
    """A game's values from its database (``reader``), its moves from its rules (``game``); ``key`` maps a
    position of ``game`` to a key of the tiered game ``tiered``."""

    def __init__(self, game: Any, tiered: Any, reader: Any, key: Callable[[Any], int]):
        self.game, self.tiered, self.reader, self.key = game, tiered, reader, key

    def known(self, position: Any) -> Value | None:
        """The position's stored value, or None when play from the start never reaches it (no value stored)."""
        index = self.tiered.index(self.key(position))
        if not self.reader.reachable(index):
            return None
        return self.reader.value(index)

    def value(self, position: Any) -> Value:
        value = self.known(position)
        if value is None:
            raise GamedpError(f"{self.game.format_position(position)!r} is not a position play reaches from the "
                              "start, so the database has no value for it")
        return value

    def analyze(self, position: Any) -> Analysis:
        """The position's value and every legal move with its value, best first."""
        return analysis_of(position, self.value(position), self.game.move_list(position), self.value)


def saved_solution(game: Any, tiered: Any, key: Callable[[Any], int], *, outcomes_only: bool = False,
                   db: str | os.PathLike | None = None) -> SavedSolution | None:
    """The saved database of ``tiered`` as an engine for ``game``, or None when there is none (or it lacks the
    remoteness that a full analysis shows). A damaged one raises with the command that fixes it."""
    from gamedp.database import find

    reader = find(tiered.game_id, tiered.variant, db)
    if reader is None:
        return None
    if reader.size != tiered.size or not (reader.has_remoteness or outcomes_only):
        reader.close()
        return None
    return SavedSolution(game, tiered, reader, key)
