"""A position's analysis in the JSON shape GamesmanUni's web front end reads.

GamesmanUni (the GamesCrafters web app) asks a server for one position at a time and gets back its value,
its remoteness and every move with the value it has for the player making it. :func:`gamesman_json` turns a
gamedp :class:`~gamedp.values.Analysis` into that shape:

- ``position``, ``positionValue`` (``win``/``lose``/``tie``/``draw`` for the player to move), ``remoteness``;
- ``moves``, best first, each with ``move`` and ``moveName`` (the move's notation), ``moveValue`` (the move's
  value for the player making it), ``deltaRemoteness`` (how many moves slower this move is than the best move of
  the same value: 0 for the best win, the best tie and the longest loss), and the resulting ``position`` with
  its own ``positionValue`` and ``remoteness`` (for the player to move *there*);
- in scored games ``winby`` (the margin, never negative: ``positionValue`` says who wins it); where the game
  gives nimbers, ``mex`` as ``*n``.

A DRAW has no remoteness: it is sent as -200, and a remoteness that was not computed (outcomes-only solving)
as -100, the values GamesmanUni itself uses for "infinite" and "unknown".

>>> from gamedp.values import Analysis, MoveValue, Value, WIN, LOSE
>>> a = Analysis(3, Value(WIN, 1), (MoveValue(2, 1, Value(WIN, 1)), MoveValue(1, 2, Value(LOSE, 2))))
>>> doc = gamesman_json(a, move_name=lambda m: f"take {m}", position_name=str)
>>> doc["positionValue"], doc["remoteness"], [m["moveValue"] for m in doc["moves"]]
('win', 1, ['win', 'lose'])
>>> doc["moves"][1]
{'move': 'take 1', 'moveName': 'take 1', 'moveValue': 'lose', 'deltaRemoteness': 0, 'position': '2', 'positionValue': 'win', 'remoteness': 1}
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from gamedp.values import DRAW, LOSE, Analysis, Outcome, Value

#: GamesmanUni's remoteness for a DRAW (play never ends) and for a remoteness that is not known.
REMOTENESS_INFINITE = -200
REMOTENESS_UNKNOWN = -100


def gamesman_json(
    analysis: Analysis,
    move_name: Callable[[Any], str],
    position_name: Callable[[Any], str],
    *,
    nimber: int | None = None,
    child_values: Sequence[Value] | None = None,
    child_nimbers: Sequence[int | None] | None = None,
) -> dict:
    """The GamesmanUni record of ``analysis`` (moves already best first), naming moves and positions as given.

    ``child_values`` are the values of the positions the moves lead to; by default they are read back from the
    moves' values, which is exact unless moves themselves score points (then pass the children's own values).
    """
    doc = {"position": position_name(analysis.position), **value_fields(analysis.value, nimber)}
    moves = []
    nimbers = child_nimbers or [None] * len(analysis.moves)
    values = child_values or [child_value(mv.value) for mv in analysis.moves]
    deltas = delta_remoteness([mv.value for mv in analysis.moves])
    for mv, value, child_nimber, delta in zip(analysis.moves, values, nimbers, deltas):
        name = move_name(mv.move)
        moves.append({
            "move": name,
            "moveName": name,
            "moveValue": mv.value.outcome.value,
            "deltaRemoteness": delta,
            "position": position_name(mv.child),
            **value_fields(value, child_nimber),
        })
    doc["moves"] = moves
    return doc


def delta_remoteness(move_values: Sequence[Value | None]) -> list[int]:
    """Each move's ``deltaRemoteness``: how many moves slower it is than the best move of the same value (a
    win is best soonest, a loss latest); 0 where the remoteness is not known (or the value: ``None``).

    >>> from gamedp.values import WIN, LOSE
    >>> delta_remoteness([Value(WIN, 1), Value(WIN, 5), Value(LOSE, 8), Value(LOSE, 2), None])
    [0, 4, 0, 6, 0]
    """
    best: dict[Outcome, int] = {}
    for v in move_values:
        if v is not None and v.remoteness is not None:
            pick = max if v.outcome is LOSE else min
            best[v.outcome] = pick(best.get(v.outcome, v.remoteness), v.remoteness)
    return [0 if v is None or v.remoteness is None else abs(v.remoteness - best[v.outcome]) for v in move_values]


def child_value(move_value: Value) -> Value:
    """The value of the position a move leads to, for the player to move there (the inverse of ``for_parent``).

    >>> str(child_value(Value(Outcome.WIN, 3, 2)))
    'LOSE in 2 score -2'

    """
    return Value(
        move_value.outcome.flipped(),
        None if move_value.remoteness is None else move_value.remoteness - 1,
        None if move_value.score is None else -move_value.score,
    )


def value_fields(value: Value, nimber: int | None = None) -> dict:
    """A value as a record's ``positionValue`` and ``remoteness`` (and ``winby``, ``mex`` where there are)."""
    if value.outcome is DRAW:
        remoteness = REMOTENESS_INFINITE
    else:
        remoteness = REMOTENESS_UNKNOWN if value.remoteness is None else value.remoteness
    fields: dict[str, Any] = {"positionValue": value.outcome.value, "remoteness": remoteness}
    if value.score is not None:
        fields["winby"] = abs(value.score)
    if nimber is not None:
        fields["mex"] = f"*{nimber}"
    return fields
