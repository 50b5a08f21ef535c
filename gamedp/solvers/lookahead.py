"""Depth-limited play for games too big to solve: negamax with alpha-beta to a horizon, and a heuristic there.

A game may give ``heuristic(position)``, the position's estimated value for the player to move in -1..1 (1: sure
to win); without one, every unfinished position at the horizon counts as level. Scores are integers: an end
reached by the search scores ``END - plies`` for the winner (so quicker wins and slower losses are preferred)
and 0 for a tie; the heuristic scores at most ``SCALE`` either way, far below any end. So a score above
``SCALE`` is a proven win and below ``-SCALE`` a proven loss: wherever the search reaches the end, the choice
is the perfect one. The transposition table keeps bounds with the depth they were searched to (proven ends for
any depth), shared by the iterations of deepening and by later moves.

>>> from gamedp.games.tictactoe import TicTacToe
>>> game = TicTacToe()
>>> player = Lookahead(game, depth=9)                          # deep enough to reach every end
>>> board = game.parse_position("XX. OO. ...")
>>> game.format_move(board, player.best_move(board)), player.proven
('3', True)
"""

from __future__ import annotations

from typing import Callable, Hashable

from gamedp.errors import GamedpError
from gamedp.game import Game, Move, Position, overrides, terminal_value
from gamedp.values import LOSE, WIN

SCALE = 1_000_000
END = 1 << 40
_PROVEN = 1 << 30  # the depth recorded for a bound that needs no horizon


class Lookahead:
    """A player that searches ``depth`` moves ahead (see the module's docstring)."""

    def __init__(self, game: Game, depth: int, heuristic: Callable[[Position], float] | None = None):
        if depth < 1:
            raise GamedpError(f"the search depth must be at least 1, not {depth}")
        if game.scored:
            raise GamedpError(f"{game.name}: depth-limited play is for win/lose/tie games, not scored ones")
        self.game, self.depth = game, depth
        self.heuristic = heuristic or getattr(game, "heuristic", None)
        #: key -> (depth searched, lower bound, upper bound)
        self.table: dict[Hashable, tuple[int, int, int]] = {}
        canon = game.canonical if overrides(game, "canonical") else None
        key = game.key if overrides(game, "key") else None
        self.keyf: Callable | None = (lambda p: key(canon(p))) if canon and key else canon or key
        self._children = game.ordered_children if hasattr(game, "ordered_children") else game.children
        self._last: dict[Hashable, int] = {}
        #: the last best move's score: above SCALE a proven win, below -SCALE a proven loss, else an estimate
        self.score = 0

    def best_move(self, position: Position) -> Move | None:
        """The move the deepest search prefers (a perfect one where the search proves the result), or None."""
        moves = list(self.game.move_list(position))
        if not moves:
            return None
        best = moves[0][0]
        for d in range(1, self.depth + 1):  # iterative deepening: each iteration orders the next
            scored = []
            alpha = -END - 1
            for m, c in sorted(moves, key=lambda mc: -self._last.get(self._key(mc[1]), 0)):
                s = _up(self._search(c, d - 1, -END - 1, _down(alpha)))
                scored.append((s, m, c))
                if s > alpha:
                    alpha, best = s, m
            for s, _, c in scored:
                self._last[self._key(c)] = s
            self.score = alpha
            if abs(alpha) > SCALE:  # proven: deeper would say the same
                break
        return best

    @property
    def proven(self) -> bool:
        """Whether the last :meth:`best_move` proved a win or a loss (its move is then a perfect one)."""
        return abs(self.score) > SCALE

    def _key(self, position: Position) -> Hashable:
        return position if self.keyf is None else self.keyf(position)

    def _search(self, p: Position, depth: int, alpha: int, beta: int) -> int:
        k = self._key(p)
        entry = self.table.get(k)
        if entry is not None and entry[0] >= depth:
            _, lo, hi = entry
            if lo >= beta:
                return lo
            if hi <= alpha or lo == hi:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        t = self.game.primitive(p)
        if t is not None:
            outcome = terminal_value(self.game, t, p).outcome
            s = END if outcome is WIN else -END if outcome is LOSE else 0
            self.table[k] = (_PROVEN, s, s)
            return s
        kids = list(self._children(p))
        if not kids:
            s = END if self.game.misere else -END
            self.table[k] = (_PROVEN, s, s)
            return s
        if depth == 0:
            h = self.heuristic(p) if self.heuristic else 0.0
            return int(max(-1.0, min(1.0, h)) * SCALE)
        a0, best = alpha, -END - 1
        for c in kids:
            s = _up(self._search(c, depth - 1, _down(beta), _down(alpha)))
            if s > best:
                best = s
                alpha = max(alpha, s)
                if s >= beta:
                    break
        # A proven win found is one at any depth (a quicker one would lie within this horizon), and so is a
        # proven loss when every move loses; other bounds hold for this depth only.
        if best <= a0:
            lo, hi, forever = -END - 1, best, best < -SCALE
        elif best >= beta:
            lo, hi, forever = best, END + 1, best > SCALE
        else:
            lo, hi, forever = best, best, abs(best) > SCALE
        self.table[k] = (_PROVEN if forever else depth, lo, hi)
        return best


def _up(s: int) -> int:
    """A child's score seen by the parent: negated, and one move further from an end."""
    return -s - 1 if s < -SCALE else -s + 1 if s > SCALE else -s


def _down(bound: int) -> int:
    """The child's bound that means the parent's ``bound`` (the inverse of :func:`_up`)."""
    if bound > SCALE:
        return -(bound + 1)
    if bound < -SCALE:
        return -(bound - 1)
    return -bound
