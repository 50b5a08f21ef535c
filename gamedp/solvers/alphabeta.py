"""One position's value, pruned: negamax with alpha-beta, a transposition table and move ordering.

The memo engine (:mod:`gamedp.solvers.memo`) values every position below the one asked; when only that
position's value (and a best move) is wanted, most of that work is wasted. This engine searches the outcome
order lose < tie < win (or, when remoteness is asked, a score that also prefers quick wins and slow losses) with
alpha-beta pruning, so a move that cannot change the answer is never searched to the end.

- The transposition table keeps a lower and an upper bound per position, so a position met again (by another
  order of moves, or by a later query: one :class:`PrunedSolution` serves many) is not searched again unless
  its bounds do not settle the question.
- Moves are ordered by what the table already knows (a child known to be lost is a win at once), then by a
  relative history (the share of a move's searches that caused a cut-off; the moves themselves when the game
  names them with ``moves`` + ``do_move``, else the child slots), then in the game's own order. A game may give
  that own order with an optional ``ordered_children(position)`` hook (best guesses first, e.g. Connect-4's
  centre columns); otherwise ``children``.
- The user's hooks are asked as little as the rules allow: a game that sets ``primitive_first`` has
  :meth:`~gamedp.game.Game.primitive` asked first and an ended position is not asked for its moves; any other
  game promises that an ended position has no moves, so its ``primitive`` is asked only where there are none
  (a game breaking that promise, which ``gamedp check`` reports, would have an ended position searched on).
- Loopy games: the search keeps the positions on its path; meeting one again means a cycle, where the outcome
  order alone is not enough (a DRAW needs the whole graph), so the question goes to the full engine.
- Scored games are valued by the full engine too (their margins are not an outcome order).

With ``remoteness=True`` a WIN's and LOSE's remoteness is exact (it is a zero-sum score, searched the same
way); a TIE's is found afterwards by following the quickest tie, as the full engine defines it.

>>> from gamedp.games.tictactoe import TicTacToe
>>> game = TicTacToe()
>>> value_of(game, game.start())
Value(outcome=Outcome.TIE, remoteness=None, score=None)
>>> value_of(game, game.start(), remoteness=True)
Value(outcome=Outcome.TIE, remoteness=9, score=None)
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Hashable

from gamedp.game import Game, Move, Position, overrides, terminal_value
from gamedp.solvers.search_status import score_value
from gamedp.values import LOSE, TIE, WIN, Analysis, Value, analysis_of

#: A WIN in r moves scores WIN_SCORE - r for the mover (LOSE: its negation, TIE: 0) when remoteness is asked.
WIN_SCORE = 1 << 40
_OUTCOME_SCORE = {WIN: 1, TIE: 0, LOSE: -1}


class _CycleFound(Exception):
    pass


def value_of(game: Any, position: Position | None = None, *, remoteness: bool = False) -> Value:
    """The value of ``position`` (default: the start) by a pruned search; a Python or compiled game."""
    return pruned_solution(game, remoteness=remoteness).value(game.start() if position is None else position)


def pruned_solution(game: Any, *, remoteness: bool = False) -> Any:
    """The pruned engine for ``game``: the game's exact-score search where it offers one (a table of bounded
    size, :mod:`gamedp.solvers.score_search`), else :class:`PrunedSolution`, or the compiled one for a
    CompiledGame."""
    from gamedp.compiled import CompiledGame

    from gamedp.solvers.score_search import ScoreSearch, score_rules

    rules = score_rules(game)
    if rules is not None:
        return ScoreSearch(rules, outcomes_only=not remoteness)

    if isinstance(game, CompiledGame):
        from gamedp.solvers.compiled_alphabeta import CompiledPrunedSolution

        return CompiledPrunedSolution(game, remoteness=remoteness)
    return PrunedSolution(game, remoteness=remoteness)


class PrunedSolution:
    """Values of positions by pruned searches that share one transposition table.

    :meth:`analyze` gives every move its exact value (one pruned search per child, all sharing the table),
    which is what ``gamedp analyze`` shows; :meth:`value` and :meth:`best_move` search only as far as needed.
    """

    def __init__(self, game: Game, *, remoteness: bool = False):
        self.game = game
        self.remoteness = remoteness
        #: key -> (lower bound, upper bound) of the mover's score
        self.table: dict[Hashable, tuple[int, int]] = {}
        self._full: Any = None  # the memo engine, once a cycle or a scored game needs it
        self._tie_remoteness: dict[Hashable, int] = {}
        #: move (or child slot, the i-th child) -> [cut-offs it caused + 1, times searched + 1]: the order after
        #: the table's
        self._history: dict[Any, list[int]] = {}
        canon = game.canonical if overrides(game, "canonical") else None
        key = game.key if overrides(game, "key") else None
        self.keyf: Callable | None = (lambda p: key(canon(p))) if canon and key else canon or key
        self._children = getattr(game, "ordered_children", None) or game.children
        # A game that orders its children itself is searched in its order (a history measured worse on
        # Connect-4); one that names its moves (moves + do_move, no children of its own) keeps a history per
        # move: a column is the same move wherever it is played, while the i-th child shifts as columns fill.
        self._ordered = getattr(game, "ordered_children", None) is not None
        self._by_move = not self._ordered and overrides(game, "moves") and not overrides(game, "children")
        self._primitive = game.primitive if overrides(game, "primitive") else None
        self._no_move = 1 if game.misere else -1
        self.top = WIN_SCORE if remoteness else 1
        if game.scored:
            self._fall_back()

    # -- queries -------------------------------------------------------------------------------------------
    def value(self, position: Position) -> Value:
        """The value of ``position`` for the player to move."""
        if self._full is not None:
            return self._value_from_full(position)
        try:
            return self._value(position, self._exact(position, self._key(position)))
        except _CycleFound:
            self._fall_back()
            return self._value_from_full(position)

    def analyze(self, position: Position) -> Analysis:
        """The position's value and every legal move's exact value, best first."""
        return analysis_of(position, self.value(position), self.game.move_list(position), self.value)

    def best_move(self, position: Position) -> Move | None:
        """A move that keeps the position's value (the quickest win or slowest loss with remoteness), or None."""
        target = self.value(position)
        best = None
        for m, c in self.game.move_list(position):
            v = self.value(c).for_parent()
            if v.outcome is target.outcome and (not self.remoteness or v.remoteness == target.remoteness):
                return m
            if best is None:
                best = m
        return best

    def __len__(self) -> int:
        return len(self.table) if self._full is None else len(self._full)

    # -- search --------------------------------------------------------------------------------------------
    def _key(self, position: Position) -> Hashable:
        return position if self.keyf is None else self.keyf(position)

    def _exact(self, position: Position, k: Hashable) -> int:
        """The exact score of ``position``: one full-window search (a known value costs a lookup)."""
        bounds = self.table.get(k)
        if bounds is not None and bounds[0] == bounds[1]:
            return bounds[0]
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 20000))
        try:
            while True:
                try:
                    return self._search(position, k, -self.top, self.top, set())
                except TypeError:
                    if not self._by_move:
                        raise
                    # moves that cannot be hashed: a history per child slot instead (the table stays valid)
                    self._by_move = False
                    self._history.clear()
        except RecursionError:  # a game too deep for Python's stack: the memo engine keeps its own
            raise _CycleFound from None
        finally:
            sys.setrecursionlimit(limit)

    def _search(self, position: Position, k: Hashable, alpha: int, beta: int, path: set) -> int:
        # Recursive on purpose: a Python frame per position is the cheapest stack there is. The closures below
        # keep every name local.
        table, keyf, children, prim = self.table, self.keyf, self._children, self._primitive
        no_move, remote, game = self._no_move, self.remoteness, self.game
        top = self.top
        outcome_score = _OUTCOME_SCORE
        # A game that does not ask primitive first promises that an ended position has no moves: its primitive
        # is then asked only where there are none, not at every position (its moves may test for the end too).
        first = prim if game.primitive_first else None
        last = None if first is not None else prim
        history = None if self._ordered else self._history
        do_move, moves = game.do_move, game.moves
        by_move = self._by_move

        # A move's rate is (cut-offs + 1) / (searches + 1): one never searched is presumed to cut off, so a
        # move is dropped only once it has failed, not for never having been tried.
        def rank(entry: tuple) -> float:
            h = history.get(entry[0])
            return 1.0 if h is None else h[0] / h[1]

        def search(p: Position, k: Hashable, alpha: int, beta: int) -> int:
            lo, hi = table.get(k, (-top, top))
            if lo >= beta:
                return lo
            if hi <= alpha or lo == hi:
                return hi
            if first is not None:
                t = first(p)
                if t is not None:
                    s = outcome_score[terminal_value(game, t, p).outcome] * top
                    table[k] = (s, s)
                    return s
            # Enhanced transposition cut-off: a child whose bounds already refute it settles this position
            # without a search; children the table says something good about go first, the rest by the share of
            # their move's (or slot's) searches that caused a cut-off (a relative history: a plain count would
            # favour whatever the game lists first, as that is searched most), ties in the game's order.
            best = -top - 1
            a0 = alpha = max(alpha, lo)
            beta = min(beta, hi)
            promising = []
            rest = []
            for i, c in (((m, do_move(p, m)) for m in moves(p)) if by_move else enumerate(children(p))):
                ck = c if keyf is None else keyf(c)
                if ck in path:
                    raise _CycleFound
                b = table.get(ck)
                if b is None or b[1] == top:
                    rest.append((i, c, ck))
                    continue
                s = -b[1]
                if remote and s != 0:
                    s -= 1 if s > 0 else -1
                if s >= beta:
                    table[k] = (max(s, lo), hi)
                    return s
                if s > best:
                    best = s
                    if s > alpha:
                        alpha = s
                promising.append((s, i, c, ck))
            if not rest and not promising:  # no moves at all (a child would be in one or have cut off)
                t = None if last is None else last(p)
                s = no_move * top if t is None else outcome_score[terminal_value(game, t, p).outcome] * top
                table[k] = (s, s)
                return s
            if history is not None and len(rest) > 1:
                rest.sort(key=rank, reverse=True)  # stable: equal rates keep the game's order
            if promising:
                promising.sort(key=_first, reverse=True)
                rest[:0] = [(i, c, ck) for _, i, c, ck in promising]
            path.add(k)
            h = None
            for i, c, ck in rest:
                if history is not None:
                    h = history.get(i)
                    if h is None:
                        h = history[i] = [1, 1]
                    h[1] += 1
                if remote:
                    cb = -(beta + (1 if beta > 0 else -1 if beta < 0 else 0))
                    ca = -(alpha + (1 if alpha > 0 else -1 if alpha < 0 else 0))
                    s = -search(c, ck, cb, ca)
                    if s != 0:
                        s -= 1 if s > 0 else -1
                else:
                    s = -search(c, ck, -beta, -alpha)
                if s > best:
                    best = s
                    if s > alpha:
                        alpha = s
                        if s >= beta:
                            if h is not None:
                                h[0] += 1
                            break
            path.discard(k)
            if best <= a0:
                table[k] = (lo, min(best, hi))
            elif best >= beta:
                table[k] = (max(best, lo), hi)
            else:
                table[k] = (best, best)
            return best

        return search(position, k, alpha, beta)

    def _value(self, position: Position, score: int) -> Value:
        if score == 0 and self.remoteness:
            return Value(TIE, self._tie_moves(position))
        return score_value(score, self.top)

    def _tie_moves(self, position: Position) -> int:
        """A TIE's remoteness: the quickest way to the end among the moves that keep the tie."""
        k = self._key(position)
        known = self._tie_remoteness.get(k)
        if known is None:
            # A tie without moves can only be an end by rule (no moves is a loss or, misère, a win), so only a
            # primitive_first game needs its primitive asked
            first = self.game.primitive_first and self._primitive is not None
            kids = [] if first and self._primitive(position) is not None else list(self.game.children(position))
            if not kids:
                known = 0
            else:
                self._tie_remoteness[k] = -1  # under way: meeting it again is a cycle
                known = 1 + min(self._tie_moves(c) for c in kids if self._exact(c, self._key(c)) == 0)
            self._tie_remoteness[k] = known
        elif known < 0:
            raise _CycleFound
        return known

    def _fall_back(self) -> None:
        from gamedp.solvers.memo import Solution

        self._full = Solution(self.game, outcomes_only=not self.remoteness)

    def _value_from_full(self, position: Position) -> Value:
        v = self._full.value(position)
        return v if self.remoteness or v.remoteness is None else Value(v.outcome, None, v.score)


def _first(entry: tuple) -> int:
    return entry[0]
