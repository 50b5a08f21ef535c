"""The value of a position of any game that gives Left's and Right's options (:meth:`gamedp.game.Game.options`).

Positions are memoised by the game's :meth:`~gamedp.game.Game.key`; its symmetries (:meth:`~gamedp.game.Game.canonical`)
are not used, since one that swaps the players (a mirror of Toads-and-Frogs) negates a value. An impartial game
with a :meth:`~gamedp.game.Game.split` hook is valued as the sum of its parts. The search is iterative, so deep games
need no recursion limit; a position met again on its own line is a loop, and a loopy game has no value here.

>>> from gamedp.games.placement import Cram, Domineering
>>> str(value(Domineering(2, 2), 0)), str(value(Cram(1, 4), 0))
('±1', '*2')
"""

from __future__ import annotations

from typing import Any

from gamedp.cgt import budget
from gamedp.cgt import canonical as cf
from gamedp.cgt.values import GameValue
from gamedp.errors import GamedpError, ResourceError
from gamedp.game import Game, overrides


class Values:
    """Values of one game's positions, sharing one memo; with ``most`` set, a search that would keep more
    positions than that stops with a :class:`~gamedp.errors.ResourceError`."""

    def __init__(self, game: Game, most: int | None = None):
        self.game = game
        self.most = most
        self.memo: dict[Any, int] = {}
        self.split = game.split if getattr(game, "impartial", False) and overrides(game, "split") else None

    def value(self, position) -> GameValue:
        return GameValue(self.id_of(position))

    def id_of(self, position) -> int:
        if self.split is not None:
            g = cf.ZERO
            for part in self.split(position):
                g = cf.add(g, self._whole(part))
            return g
        return self._whole(position)

    def _whole(self, position) -> int:
        game, memo = self.game, self.memo

        key_of = game.key
        root = key_of(position)
        if root in memo:
            return memo[root]
        # each frame: key, position, its options as [left keys], [right keys] with positions, next to visit
        on_line: set = {root}
        stack = [self._frame(root, position)]
        while stack:
            key, todo, lefts, rights = stack[-1]
            if todo:
                side, child = todo.pop()
                ck = key_of(child)
                (lefts if side == 0 else rights).append(ck)
                if ck not in memo:
                    if ck in on_line:
                        raise GamedpError(f"{game.name}: the position {game.format_position(child)!r} can recur "
                                          "(a loop), so the game is not short and has no canonical form here")
                    on_line.add(ck)
                    stack.append(self._frame(ck, child))
                    if budget.due():  # a frame holds every option of its position: a long line takes much
                        budget.check(f"valuing {game.name} stopped after {len(memo):,} positions, {len(stack):,} "
                                     "deep", "position")
                continue
            stack.pop()
            on_line.discard(key)
            memo[key] = cf.make([memo[k] for k in lefts], [memo[k] for k in rights])
            if self.most is not None and len(memo) > self.most:
                raise ResourceError(f"{game.name}: valuing this position takes more than {self.most:,} positions")
        return memo[root]

    def _frame(self, key, position) -> tuple:
        left, right = self.game.options(position)
        # popped from the end: the options in the game's order, Left's first. A game lists its smaller options
        # first as a rule, and these are valued first: then the larger ones find their own options known, and the
        # line stays short (Hackenbush's longest option first, the top edge cut, made a line as long as the string,
        # each position on it holding all of its options: n^3 / 6 characters)
        todo = [(1, c) for c in reversed(right)] + [(0, c) for c in reversed(left)]
        return key, todo, [], []


def value(game: Game, position) -> GameValue:
    """The canonical form of ``position`` in ``game``."""
    return Values(game).value(position)
