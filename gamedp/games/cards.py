"""Take-from-the-ends card games as Python-defined games, for analyze/play and the generic engines.

A position is a row of integers, which part of it is still on the table (``row[lo:hi]``), and ``lead``: the
player to move's score minus the opponent's so far. The memo engine scores only positions where play ends, so
the running margin rides along in the position and the empty table scores ``lead``; the value of a position is
then the mover's final margin. (For rows beyond a dozen cards use :class:`IntervalSolver`, which needs no lead:
it is what :meth:`Cards.solver` returns.)

Text notation: the row with the cards still in play in brackets, then the lead when it is not 0:
``1 [2 5] 2 lead -1``. A plain row (``3 1 4 1 5``) is a fresh game. Moves: ``L``/``R`` take one card from the
left/right end, ``L3`` takes three, ``xL2`` throws two away unscored.

>>> from gamedp.solvers.memo import solve
>>> game = Cards()                                  # Baekjoon 11062's first sample
>>> game.format_position(game.start())
'[1 2 5 2]'
>>> solve(game).value(game.start()).score           # the first player ends 2 ahead (6 against 4)
2
>>> p = game.do_move(game.start(), game.parse_move(game.start(), "R"))
>>> game.format_position(p)
'[1 2 5] 2 lead -2'
>>> solve(game).value(p).score == game.solver(p).value(p.lo, p.hi) + p.lead
True
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from gamedp.errors import GamedpError
from gamedp.game import Game
from gamedp.solvers.interval import ENDS, IntervalSolver, Move, Rule, apply_move, check_row, legal_moves, parse_rule
from gamedp.values import Analysis, MoveValue, Value, outcome_of_score


class CardsPosition(NamedTuple):
    row: tuple[int, ...]
    lo: int
    hi: int
    lead: int = 0  # the player to move's score minus the opponent's so far


class Cards(Game):
    """Take one card from either end; the larger total wins (Baekjoon 11062, AtCoder DP L "Deque")."""

    name = "cards"
    scored = True
    rule: Rule = ENDS
    default_row: tuple[int, ...] = (1, 2, 5, 2)

    def __init__(self, row: tuple[int, ...] | list[int] | None = None, rule: Rule | str | None = None):
        if rule is not None:
            self.rule = parse_rule(rule) if isinstance(rule, str) else rule
            self.name = "cards" if self.rule == ENDS else f"cards-{self.rule.name}"
        self.row = tuple(int(v) for v in check_row(self.default_row if row is None else row))

    def start(self) -> CardsPosition:
        return CardsPosition(self.row, 0, len(self.row))

    def moves(self, p: CardsPosition) -> list[Move]:
        return legal_moves(self.rule, p.hi - p.lo)

    def do_move(self, p: CardsPosition, move: Move) -> CardsPosition:
        lo, hi, gained = apply_move(p.row, p.lo, p.hi, move)
        return CardsPosition(p.row, lo, hi, -(p.lead + gained))

    def primitive(self, p: CardsPosition) -> int | None:
        return p.lead if p.lo == p.hi else None

    def solver(self, p: CardsPosition | None = None) -> IntervalSolver:
        """The O(N^2) engine for this rule on ``p``'s row: values without the lead, moves, lines."""
        return IntervalSolver(self.row if p is None else p.row, self.rule)

    def solution(self) -> Any:
        """What the front ends (analyze, play) ask for values. Under the ends rule every line of play lasts as
        many moves as there are cards, so the O(N^2) engine gives the whole value (remoteness included) and
        long rows are quick; other rules need the memo engine's search for their remoteness."""
        if self.rule == ENDS:
            return EndsSolution(self)
        from gamedp.solvers.memo import Solution

        return Solution(self)

    # -- text ------------------------------------------------------------------------------------------------
    def format_position(self, p: CardsPosition) -> str:
        words = [str(v) for v in p.row]
        if p.lo == p.hi:
            words.insert(p.lo, "[]")
        else:
            words[p.lo] = "[" + words[p.lo]
            words[p.hi - 1] += "]"
        return " ".join(words) + (f" lead {p.lead}" if p.lead else "")

    def parse_position(self, text: str) -> CardsPosition:
        body, lead = text, 0
        m = re.fullmatch(r"(.*?)\s*\blead\s*([+-]?\d+)\s*", text, re.IGNORECASE | re.DOTALL)
        if m:
            body, lead = m[1], int(m[2])
        if body.count("[") > 1 or body.count("]") > 1 or body.count("[") != body.count("]"):
            raise GamedpError(f"{text.strip()!r}: mark the cards still in play with one pair of brackets, "
                              "e.g. '1 [2 5] 2 lead -1'")
        spaced = body.replace(",", " ").replace("[", " [ ").replace("]", " ] ").split()
        row: list[int] = []
        lo = hi = None
        for word in spaced:
            if word == "[":
                lo = len(row)
            elif word == "]":
                hi = len(row)
            elif re.fullmatch(r"[+-]?\d+", word):
                row.append(int(word))
            else:
                raise GamedpError(f"{word!r} is not an integer card value (a position looks like "
                                  "'1 [2 5] 2 lead -1', or just a row '3 1 4 1 5')")
        if lo is None:
            lo, hi = 0, len(row)
        if hi < lo:
            raise GamedpError(f"{text.strip()!r}: '[' must come before ']'")
        return CardsPosition(tuple(int(v) for v in check_row(row)), lo, hi, lead)

    def format_move(self, p: CardsPosition, move: Move) -> str:
        return str(move)


class CardsDiscard(Cards):
    """Take one card from either end, or throw two away from one end unscored; the larger total wins."""

    name = "cards-discard2"
    rule = Rule(1, 2)


class CardsUpTo3(Cards):
    """Take one, two or three cards from either end; the larger total wins."""

    name = "cards-upto3"
    rule = Rule(3)
    default_row = (3, -1, 4, -1, 5, -9, 2, 6)


class EndsSolution:
    """Values and analyses of :class:`Cards` positions under the ends rule, from :class:`IntervalSolver`.

    >>> game = Cards([3, 1, 4, 1, 5, 9, 2, 6] * 5)        # 40 cards: already far beyond the memo engine
    >>> str(EndsSolution(game).value(game.start()))
    'WIN in 40 score 15'
    """

    def __init__(self, game: Cards):
        self.game = game
        self._solvers: dict[tuple[int, ...], IntervalSolver] = {}

    def _solver(self, p: CardsPosition) -> IntervalSolver:
        if p.row not in self._solvers:
            self._solvers[p.row] = IntervalSolver(p.row, self.game.rule)
        return self._solvers[p.row]

    def value(self, p: CardsPosition) -> Value:
        score = p.lead + self._solver(p).value(p.lo, p.hi)
        return Value(outcome_of_score(score), p.hi - p.lo, score)

    def analyze(self, p: CardsPosition) -> Analysis:
        moves = [MoveValue(move, self.game.do_move(p, move),
                           Value(outcome_of_score(p.lead + margin), p.hi - p.lo, p.lead + margin))
                 for move, margin in self._solver(p).moves(p.lo, p.hi)]
        return Analysis(p, self.value(p), tuple(moves))
