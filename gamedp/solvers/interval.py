"""Interval score games: two players take cards from the ends of a row of integers; each wants the larger total.

A :class:`Rule` says what a move may do: take 1..``take`` cards from one end and score them, or (when
``discard`` > 0) throw exactly ``discard`` cards away from one end, unscored. The engine computes the mover's
best guaranteed *margin* (own score minus the opponent's) by dynamic programming over interval lengths:
O(N^2 take) time and O(N max(take, discard)) memory for a value, so O(N^2) and O(N) for a fixed rule. The
whole optimal line stores one move per interval (N(N+1) bytes), only when asked.

>>> solver = IntervalSolver([1, 2, 5, 2])
>>> solver.value(), solver.total()            # Baekjoon 11062's first sample: the first player gets 6
(2, 6)
>>> [(str(move), scored) for move, scored in solver.line()]   # first player: 1 + 5
[('L', 1), ('L', 2), ('L', 5), ('L', 2)]
>>> [(str(move), margin) for move, margin in IntervalSolver([3, -9, 4], parse_rule("discard2")).moves()]
[('xR2', -3), ('xL2', -4), ('R', -8), ('L', -10)]

Arithmetic is int64 inside, which is exact whenever ``N * max|value| <= 2**61``: then every margin, prefix sum
and sum of a run of cards is within 2**61 in absolute value, so a move's value (a run's sum minus a margin) is
within 2**62 < 2**63. Larger rows are refused with a :class:`GamedpError`.
Small rows run the kernels as plain Python, so a quick question never waits for numba.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from gamedp.errors import GamedpError, ResourceError
from gamedp.kernels.interval import ILLEGAL, SAFE_BOUND

#: Below this much work (intervals times moves) the kernels run as plain Python: no compiled code needed.
PLAIN_WORK = 20_000
#: The longest row whose whole optimal line is stored (one 2-byte move per interval: N(N+1) bytes).
MAX_LINE = 20_000


@dataclass(frozen=True)
class Rule:
    """Take 1..``take`` cards from either end (scored), or discard exactly ``discard`` (> 0) from either end.

    >>> Rule(3).name, Rule(1, 2).name, Rule(2, 3).name
    ('upto-3', 'discard2', 'upto-2+discard3')
    """

    take: int = 1
    discard: int = 0

    def __post_init__(self) -> None:
        if not (isinstance(self.take, int) and self.take >= 1):
            raise GamedpError(f"a rule must let a player take at least 1 card (take = {self.take!r})")
        if not (isinstance(self.discard, int) and self.discard >= 0):
            raise GamedpError(f"the discard count must be 0 (no discards) or positive, not {self.discard!r}")

    @property
    def name(self) -> str:
        if self.take == 1:
            return f"discard{self.discard}" if self.discard else "ends"
        return f"upto-{self.take}" + (f"+discard{self.discard}" if self.discard else "")

    @property
    def scores_every_card(self) -> bool:
        """Whether all cards end up scored, so that totals follow from the margin."""
        return self.discard == 0

    def describe(self) -> str:
        take = "one card" if self.take == 1 else f"1 to {self.take} cards"
        text = f"take {take} from either end"
        if self.discard:
            text += f", or discard {self.discard} from one end unscored"
        return text


ENDS = Rule()


def parse_rule(text: str) -> Rule:
    """The rule named ``text``: ``ends``, ``discardD``, ``upto-K``, or ``upto-K+discardD``.

    >>> parse_rule("upto-3+discard2")
    Rule(take=3, discard=2)
    >>> parse_rule("sideways")
    Traceback (most recent call last):
    ...
    gamedp.errors.GamedpError: unknown rule 'sideways': use ends, discard2 (or discardD), upto-K, or upto-K+discardD
    """
    take, discard = 1, 0
    for part in text.strip().lower().split("+"):
        if part == "ends":
            continue
        if m := re.fullmatch(r"upto-?(\d{1,9})", part):
            take = int(m[1])
        elif m := re.fullmatch(r"discard(\d{1,9})", part):
            discard = int(m[1])
        else:
            raise GamedpError(f"unknown rule {text!r}: use ends, discard2 (or discardD), upto-K, or upto-K+discardD")
    return Rule(take, discard)


@dataclass(frozen=True)
class Move:
    """Take (``scored``) or discard ``count`` cards from the left (``"L"``) or right (``"R"``) end.

    >>> str(Move("L", 1)), str(Move("R", 3)), str(Move("L", 2, scored=False))
    ('L', 'R3', 'xL2')
    """

    side: str
    count: int
    scored: bool = True

    def __str__(self) -> str:
        return ("" if self.scored else "x") + self.side + ("" if self.count == 1 else str(self.count))


def legal_moves(rule: Rule, length: int) -> list[Move]:
    """Every move on ``length`` cards, in the order ties are broken (fewer cards first, left first).

    >>> [str(m) for m in legal_moves(Rule(2, 2), 3)]
    ['L', 'R', 'L2', 'R2', 'xL2', 'xR2']
    """
    return [m for m in _by_code(min(rule.take, length), rule.discard) if m.count <= length]


def _by_code(take: int, discard: int) -> list[Move]:
    """The moves in the kernels' numbering (see :mod:`gamedp.kernels.interval`)."""
    moves = [Move(side, t) for t in range(1, take + 1) for side in "LR"]
    return moves + [Move("L", discard, False), Move("R", discard, False)] if discard else moves


def apply_move(row: Sequence[int], lo: int, hi: int, move: Move) -> tuple[int, int, int]:
    """The cards left (``lo, hi``) after ``move`` on ``row[lo:hi]``, and what the mover scored."""
    if move.side == "L":
        gained, lo = row[lo:lo + move.count], lo + move.count
    else:
        gained, hi = row[hi - move.count:hi], hi - move.count
    return lo, hi, int(sum(gained)) if move.scored else 0


def check_row(row: Sequence[int]) -> np.ndarray:
    """``row`` as int64 cards, refusing non-integers and rows where int64 sums could overflow."""
    values = list(row)
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise GamedpError(f"card values must be integers, not {v!r}")
    biggest = max((abs(int(v)) for v in values), default=0)
    if len(values) * biggest > SAFE_BOUND:
        raise GamedpError(f"{len(values)} cards of up to {biggest} in absolute value could overflow 64-bit sums "
                          f"(N x max|value| must be at most 2**61 = {SAFE_BOUND})")
    return np.array(values, dtype=np.int64)


def _kernels(work: int):
    """The interval kernels: plain Python for small work, else compiled ahead of time."""
    if work <= PLAIN_WORK:
        from gamedp.kernels import interval

        return interval
    from gamedp.aot import load_kernels

    return load_kernels("gamedp.kernels.interval")


def _work(n: int, rule: Rule) -> int:
    return n * (n + 1) // 2 * (min(rule.take, max(n, 1)) + (1 if rule.discard else 0))


def batch_margins(values: np.ndarray, bounds: np.ndarray, rule: Rule = ENDS) -> np.ndarray:
    """The first player's margin on each row ``values[bounds[c]:bounds[c+1]]`` (int64, checked by the caller
    against :data:`SAFE_BOUND`)."""
    lengths = np.diff(bounds)
    longest = int(lengths.max(initial=0))
    take = min(rule.take, max(longest, 1))
    out = np.zeros(len(bounds) - 1, dtype=np.int64)
    work = int((lengths * (lengths + 1) // 2).sum()) * (take + (1 if rule.discard else 0))
    _kernels(work).margins(values, bounds, take, rule.discard, out)
    return out


class IntervalSolver:
    """Values, best moves and optimal lines of one row under one rule. Intervals are ``row[lo:hi]``."""

    def __init__(self, row: Sequence[int], rule: Rule = ENDS):
        self.row = check_row(row)
        self.rule = rule
        #: (lo, hi) -> (value, moves) of the intervals solved so far: value, total and moves of one interval
        #: cost one pass
        self._solved: dict[tuple[int, int], tuple[int, list[tuple[Move, int]]]] = {}

    def _solve(self, lo: int, hi: int | None, line: bool = False) -> tuple[int, list[tuple[Move, int]], np.ndarray]:
        hi = len(self.row) if hi is None else hi
        if not 0 <= lo <= hi <= len(self.row):
            raise GamedpError(f"cards {lo}:{hi} are not a part of a row of {len(self.row)}")
        if not line and (lo, hi) in self._solved:
            return (*self._solved[lo, hi], np.zeros(0, dtype=np.uint16))
        n = hi - lo
        take = min(self.rule.take, max(n, 1))  # taking more than n is never legal: keep the move codes small
        if line and n > MAX_LINE:
            raise ResourceError(f"an optimal line over {n} cards would store {n * (n + 1)} bytes of moves; "
                                f"lines are kept for rows of up to {MAX_LINE} cards")
        move_values = np.empty(2 * take + 2, dtype=np.int64)
        codes = np.zeros(n * (n + 1) // 2 if line else 0, dtype=np.uint16)
        row = np.ascontiguousarray(self.row[lo:hi])
        value = int(_kernels(_work(n, self.rule)).solve_row(row, take, self.rule.discard, move_values, codes))
        moves = [(m, int(v)) for m, v in zip(_by_code(take, self.rule.discard), move_values) if v != ILLEGAL]
        self._solved[lo, hi] = value, moves
        return value, moves, codes

    def value(self, lo: int = 0, hi: int | None = None) -> int:
        """The mover's best guaranteed margin (own score minus the opponent's) on ``row[lo:hi]``."""
        return self._solve(lo, hi)[0]

    def total(self, lo: int = 0, hi: int | None = None) -> int:
        """The mover's total under optimal play; only rules that score every card define it."""
        if not self.rule.scores_every_card:
            raise GamedpError(f"under the rule {self.rule.name} discarded cards score nothing, so the first "
                              "player's total depends on how equal choices are broken; ask for the margin")
        hi = len(self.row) if hi is None else hi
        return (int(self.row[lo:hi].sum()) + self.value(lo, hi)) // 2

    def moves(self, lo: int = 0, hi: int | None = None) -> list[tuple[Move, int]]:
        """Every legal move with the margin it guarantees the mover, best first (ties: the rule's order)."""
        moves = self._solve(lo, hi)[1]
        return sorted(moves, key=lambda mv: -mv[1])

    def best_move(self, lo: int = 0, hi: int | None = None) -> Move | None:
        """A best move on ``row[lo:hi]`` (the first in the rule's order among equals), or None if it is empty."""
        moves = self.moves(lo, hi)
        return moves[0][0] if moves else None

    def line(self, lo: int = 0, hi: int | None = None) -> list[tuple[Move, int]]:
        """An optimal line of play to the end: each move with what its player scored."""
        hi = len(self.row) if hi is None else hi
        _, _, codes = self._solve(lo, hi, line=True)
        n = hi - lo
        by_code = _by_code(min(self.rule.take, max(n, 1)), self.rule.discard)
        steps: list[tuple[Move, int]] = []
        a, b = 0, n  # the interval within row[lo:hi]
        while a < b:
            length = b - a
            move = by_code[codes[(length - 1) * (n + 1) - length * (length - 1) // 2 + a]]
            a2, b2, gained = apply_move(self.row, lo + a, lo + b, move)
            steps.append((move, gained))
            a, b = a2 - lo, b2 - lo
        return steps
