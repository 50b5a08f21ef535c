"""Depth-limited play for games too big to solve: negamax with alpha-beta to a horizon, and a heuristic there.

A game may give ``heuristic(position)``, the position's estimated value for the player to move in -1..1 (1: sure
to win); without one, every unfinished position at the horizon counts as level. Scores are integers: an end
reached by the search scores ``END - plies`` for the winner (so quicker wins and slower losses are preferred)
and 0 for a tie; the heuristic scores at most ``SCALE`` either way, far below any end. So a score above
``SCALE`` is a proven win and below ``-SCALE`` a proven loss: wherever the search reaches the end, the choice
is the perfect one. The transposition table keeps bounds with the depth they were searched to (proven ends for
any depth), shared by the iterations of deepening and by later moves.

A ``known(position)`` hook (e.g. a solved database's lookup) may give exact values: a position it answers is an
end for the search, scored by its value, so play is perfect wherever it answers.

:meth:`Lookahead.judge` scores every move (what ``gamedp analyze --depth`` and ``play``'s hints show), exactly
where no horizon went into its score:

>>> from gamedp.games.tictactoe import TicTacToe
>>> game = TicTacToe()
>>> player = Lookahead(game, depth=9)                          # deep enough to reach every end
>>> board = game.parse_position("XX. OO. ...")
>>> game.format_move(board, player.best_move(board)), player.proven
('3', True)
>>> [(game.format_move(board, j.move), str(j)) for j in player.judge(board).moves][:3]
[('3', 'WIN in 1'), ('6', 'TIE'), ('7', 'LOSE in 2')]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable

from gamedp.errors import GamedpError
from gamedp.game import Game, Move, Position, overrides, terminal_value
from gamedp.values import LOSE, TIE, WIN, Value

SCALE = 1_000_000
END = 1 << 40
_PROVEN = 1 << 30  # the depth recorded for a bound that needs no horizon
_UNTOLD = 1 << 20  # the plies a known WIN or LOSE without remoteness is taken to need


@dataclass(frozen=True)
class Judged:
    """A move, the position it leads to, and its score for the mover (None: not searched on its own); ``proven``
    when no horizon went into the score (the search reached every end it depends on, or the game's database)."""

    move: Move
    child: Position
    score: int | None
    proven: bool = False

    @property
    def value(self) -> Value | None:
        """The move's exact value where the search proved it, else None (a TIE's remoteness is not searched)."""
        if self.score is None:
            return None
        return score_value(self.score) or (Value(TIE) if self.proven else None)

    def __str__(self) -> str:
        value = self.value
        return "not searched" if self.score is None else str(value) if value else score_text(self.score)


@dataclass(frozen=True)
class Judgement:
    """A position's moves, best first, as a search ``depth`` moves deep scored them."""

    position: Position
    moves: tuple[Judged, ...]
    depth: int
    #: the position's exact value where known (it is over, or the search proved a WIN or a LOSE)
    value: Value | None

    @property
    def best(self) -> Judged | None:
        return self.moves[0] if self.moves else None


def score_value(score: int) -> Value | None:
    """The exact value a score proves (a WIN or LOSE the search reached), else None.

    >>> score_value(END - 3), score_value(SCALE // 2)
    (Value(outcome=Outcome.WIN, remoteness=3, score=None), None)
    """
    if abs(score) <= SCALE:
        return None
    plies = END - abs(score)
    return Value(WIN if score > 0 else LOSE, None if plies >= _UNTOLD else plies)


def score_text(score: int) -> str:
    """``WIN in 3``, ``LOSE in 4`` where proven, else the estimate: ``estimate +0.25`` (-1..1; 0 for level).

    >>> score_text(-(END - 4)), score_text(SCALE // 4), score_text(-SCALE // 1000)
    ('LOSE in 4', 'estimate +0.25', 'estimate 0.00')
    """
    value = score_value(score)
    if value is not None:
        return str(value)
    shown = round(score / SCALE, 2)
    return f"estimate {shown:+.2f}" if shown else "estimate 0.00"  # never "-0.00"


class Lookahead:
    """A player that searches ``depth`` moves ahead (see the module's docstring)."""

    def __init__(self, game: Game, depth: int, heuristic: Callable[[Position], float] | None = None,
                 known: Callable[[Position], Value | None] | None = None):
        if depth < 1:
            raise GamedpError(f"the search depth must be at least 1, not {depth}")
        if game.scored:
            raise GamedpError(f"{game.name}: depth-limited play is for win/lose/tie games, not scored ones")
        self.game, self.depth = game, depth
        self.heuristic = heuristic or getattr(game, "heuristic", None)
        self.known = known
        #: key -> (depth searched, lower bound, upper bound)
        self.table: dict[Hashable, tuple[int, int, int]] = {}
        canon = game.canonical if overrides(game, "canonical") else None
        key = game.key if overrides(game, "key") else None
        self.keyf: Callable | None = (lambda p: key(canon(p))) if canon and key else canon or key
        self._children = getattr(game, "ordered_children", None) or game.children
        self._last: dict[Hashable, int] = {}
        #: the last best move's score: above SCALE a proven win, below -SCALE a proven loss, else an estimate
        self.score = 0
        #: the depth the last best move was found at (less than ``depth`` when its value was proven sooner)
        self.reached = 0
        #: whether the last best move's score is exact (no horizon went into it: a WIN, LOSE or TIE proven)
        self.exact = False
        self._free = False  # whether the last search's score is exact at any depth (no horizon went into it)

    def best_move(self, position: Position) -> Move | None:
        """The move the deepest search prefers (a perfect one where the search proves the result), or None."""
        moves = list(self.game.move_list(position))
        if not moves:
            return None
        best, free = moves[0][0], False
        for d in range(1, self.depth + 1):  # iterative deepening: each iteration orders the next
            scored = []
            alpha = -END - 1
            settled = True  # whether no horizon went into any move's score (or bound): deeper says the same
            for m, c in sorted(moves, key=lambda mc: -self._last.get(self._key(mc[1]), 0)):
                s = _up(self._search(c, d - 1, -END - 1, _down(alpha)))
                scored.append((s, m, c))
                settled = settled and self._free
                if s > alpha:  # exact (the window has no top)
                    alpha, best, free = s, m, self._free
            for s, _, c in scored:
                self._last[self._key(c)] = s
            self.score, self.reached, self.exact = alpha, d, free
            if abs(alpha) > SCALE or settled:  # a win or loss proven, or every move: deeper would say the same
                break
        return best

    def judge(self, position: Position, every: bool = True) -> Judgement:
        """Every move of ``position`` with its score, best first (``every=False``: only the best move is
        searched, the others follow unscored in the game's order)."""
        moves = list(self.game.move_list(position))
        if not moves:
            return Judgement(position, (), 0, self._end_value(position))
        best = self.best_move(position)
        depth = self.reached
        if every:  # to the full depth, though the best move was proven sooner: the others are worth seeing too
            depth = self.depth
            judged = []
            for m, c in moves:
                s = _up(self._search(c, depth - 1, -END - 1, END + 1))
                judged.append(Judged(m, c, s, self._free))
            judged.sort(key=lambda j: j.score, reverse=True)  # stable: the game's order among equals
            # a WIN needs one move proven; anything less, every move
            exact = judged[0].value if judged[0].score > SCALE or all(j.proven for j in judged) else None
        else:
            first = next(i for i, (m, _) in enumerate(moves) if m == best)
            judged = [Judged(best, moves[first][1], self.score, self.exact)] + \
                     [Judged(m, c, None) for i, (m, c) in enumerate(moves) if i != first]
            exact = judged[0].value if self.score > SCALE else None
        return Judgement(position, tuple(judged), depth, exact)

    @property
    def proven(self) -> bool:
        """Whether the last :meth:`best_move` proved a win or a loss (its move is then a perfect one)."""
        return abs(self.score) > SCALE

    def _key(self, position: Position) -> Hashable:
        return position if self.keyf is None else self.keyf(position)

    def _end_value(self, p: Position) -> Value:
        """The value of ``p``, where the game is over."""
        t = self.game.primitive(p)
        return terminal_value(self.game, t, p) if t is not None else Value(WIN if self.game.misere else LOSE, 0)

    def _search(self, p: Position, depth: int, alpha: int, beta: int) -> int:
        k = self._key(p)
        entry = self.table.get(k)
        if entry is not None and entry[0] >= depth:
            searched, lo, hi = entry
            self._free = searched == _PROVEN
            if lo >= beta:
                return lo
            if hi <= alpha or lo == hi:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        value = self.known(p) if self.known else None
        kids: list = []
        if value is None:
            t = self.game.primitive(p)
            if t is not None:
                value = terminal_value(self.game, t, p)
            else:
                kids = list(self._children(p))
                if not kids:
                    value = Value(WIN if self.game.misere else LOSE, 0)
        if value is not None:
            s = _value_score(value)
            self.table[k] = (_PROVEN, s, s)
            self._free = True
            return s
        if depth == 0:
            h = self.heuristic(p) if self.heuristic else 0.0
            self._free = False
            return int(max(-1.0, min(1.0, h)) * SCALE)
        a0, best = alpha, -END - 1
        free = True
        for c in kids:
            s = _up(self._search(c, depth - 1, _down(beta), _down(alpha)))
            free = free and self._free
            if s > best:
                best = s
                alpha = max(alpha, s)
                if s >= beta:
                    break
        # A proven win found is one at any depth (a quicker one would lie within this horizon), and so is a
        # proven loss when every move loses, and any bound that no horizon went into; other bounds hold for
        # this depth only.
        if best <= a0:
            lo, hi, forever = -END - 1, best, best < -SCALE
        elif best >= beta:
            lo, hi, forever = best, END + 1, best > SCALE
        else:
            lo, hi, forever = best, best, abs(best) > SCALE
        self._free = forever = forever or free
        self.table[k] = (_PROVEN if forever else depth, lo, hi)
        return best


def _value_score(value: Value) -> int:
    """A known value's score: an end ``remoteness`` plies away (unknown: far, but still proven)."""
    if value.outcome not in (WIN, LOSE):
        return 0  # a TIE, or a DRAW: level
    s = END - (_UNTOLD if value.remoteness is None else value.remoteness)
    return s if value.outcome is WIN else -s


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
