"""The vocabulary of solved games: outcomes, values, and a position's analysis.

Every value is seen from the side of the player *to move*.

>>> Value(Outcome.LOSE, 0).for_parent()
Value(outcome=Outcome.WIN, remoteness=1, score=None)
>>> best_first([Value(Outcome.WIN, 5), Value(Outcome.WIN, 1), Value(Outcome.LOSE, 2)])[0]
Value(outcome=Outcome.WIN, remoteness=1, score=None)
>>> import pickle
>>> pickle.loads(pickle.dumps(Value(Outcome.WIN, 5))) == Value(Outcome.WIN, 5)
True
"""

from __future__ import annotations

import enum
from typing import Any, Callable, Hashable, Iterable, Sequence

from gamedp.records import Record, init


class Outcome(enum.Enum):
    """Result of perfect play for the player to move."""

    WIN = "win"
    LOSE = "lose"
    TIE = "tie"  # the game ends level
    DRAW = "draw"  # play never ends

    def flipped(self) -> Outcome:
        """The same result seen by the other player.

        >>> Outcome.WIN.flipped(), Outcome.TIE.flipped()
        (Outcome.LOSE, Outcome.TIE)
        """
        return _FLIPPED[self]

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Outcome.{self.name}"


WIN, LOSE, TIE, DRAW = Outcome.WIN, Outcome.LOSE, Outcome.TIE, Outcome.DRAW
_FLIPPED = {WIN: LOSE, LOSE: WIN, TIE: TIE, DRAW: DRAW}
# How much the mover likes each outcome; within one outcome, remoteness breaks ties.
_PREFERENCE = {WIN: 3, TIE: 2, DRAW: 1, LOSE: 0}


class Value(Record):
    """A position's game-theoretic value for the player to move.

    ``remoteness`` counts moves to the end under perfect play: the winner hurries, the loser stalls; a tie
    is reached as soon as possible. It is ``None`` for a DRAW and when only outcomes were asked for.
    ``score`` is the mover's best guaranteed margin in scored games, else ``None``.
    """

    __slots__ = __match_args__ = ("outcome", "remoteness", "score")
    outcome: Outcome
    remoteness: int | None
    score: Any

    def __init__(self, outcome: Outcome, remoteness: int | None = None, score: Any = None):
        init(self, outcome=outcome, remoteness=remoteness, score=score)

    def for_parent(self) -> Value:
        """The value of the move that leads here, seen by the player who makes it."""
        return Value(
            _FLIPPED[self.outcome],
            None if self.remoteness is None else self.remoteness + 1,
            None if self.score is None else -self.score,
        )

    def rank(self) -> tuple:
        """A sort key: larger is better for the player to move."""
        r = self.remoteness or 0
        by_outcome = (_PREFERENCE[self.outcome], r if self.outcome is LOSE else -r)
        return by_outcome if self.score is None else (self.score, *by_outcome)

    def __str__(self) -> str:
        parts = [self.outcome.name]
        if self.remoteness is not None:
            parts.append(f"in {self.remoteness}")
        if self.score is not None:
            parts.append(f"score {self.score}")
        return " ".join(parts)

    def to_json(self) -> dict:
        return {"outcome": self.outcome.value, "remoteness": self.remoteness, "score": self.score}


def outcome_of_score(score: Any) -> Outcome:
    """The outcome a mover's final margin means.

    >>> outcome_of_score(3), outcome_of_score(0), outcome_of_score(-1)
    (Outcome.WIN, Outcome.TIE, Outcome.LOSE)
    """
    return WIN if score > 0 else LOSE if score < 0 else TIE


def best_first(values: Iterable[Value]) -> list[Value]:
    """Sort values from the mover's favourite down."""
    return sorted(values, key=Value.rank, reverse=True)


class MoveValue(Record):
    """One legal move, the position it leads to, and its value for the player making it."""

    __slots__ = __match_args__ = ("move", "child", "value")
    move: Any
    child: Hashable
    value: Value

    def __init__(self, move: Any, child: Hashable, value: Value):
        init(self, move=move, child=child, value=value)


class Analysis(Record):
    """A position, its value, and every legal move with its value, best first."""

    __slots__ = __match_args__ = ("position", "value", "moves")
    position: Hashable
    value: Value
    moves: Sequence[MoveValue]

    def __init__(self, position: Hashable, value: Value, moves: Sequence[MoveValue] = ()):
        init(self, position=position, value=value, moves=moves)

    @property
    def best(self) -> MoveValue | None:
        return self.moves[0] if self.moves else None


def analysis_of(position: Hashable, value: Value, moves: Iterable[tuple[Any, Hashable]],
                value_of: Callable[[Hashable], Value]) -> Analysis:
    """A position's :class:`Analysis` from an engine's values: each ``(move, child)`` valued as the child's value
    seen from the parent, best first (stable on ties).

    >>> values = {"a": Value(WIN, 1), "b": Value(LOSE, 0), "c": Value(WIN, 2)}
    >>> a = analysis_of("a", values["a"], [("to c", "c"), ("to b", "b")], values.__getitem__)
    >>> [(m.move, str(m.value)) for m in a.moves]
    [('to b', 'WIN in 1'), ('to c', 'LOSE in 3')]
    """
    ranked = [MoveValue(m, c, value_of(c).for_parent()) for m, c in moves]
    ranked.sort(key=lambda mv: mv.value.rank(), reverse=True)
    return Analysis(position, value, tuple(ranked))


def nim_sum(nimbers: Iterable[int]) -> int:
    """The nimber of a sum of impartial games (normal play): the XOR of the parts.

    >>> nim_sum([1, 2, 3])
    0
    """
    total = 0
    for g in nimbers:
        total ^= g
    return total
