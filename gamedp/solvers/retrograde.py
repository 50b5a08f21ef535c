"""Retrograde analysis over a discovered game graph: the solver for games with cycles.

It first discovers every position reachable from the root (iteratively), then works backwards from the
positions whose values are known, with a counter of undecided children per position:

1. A position with a LOSE child is a WIN; one whose children are all WINs is a LOSE. Positions are taken
   in order of remoteness, so the first LOSE child found is the quickest win and the last WIN child the
   slowest loss.
2. Of the rest, a position with a TIE child is a TIE (neither side can win, and a finished game is
   preferred to an endless one).
3. Whatever is left can never be forced to an end: DRAW.

>>> from gamedp.game import Game
>>> class Chase(Game):  # 0 -> 1 -> 0 forever, or 1 -> 2, where the mover has no move
...     def start(self): return 0
...     def children(self, p): return {0: [1], 1: [0, 2], 2: []}[p]
>>> values = retrograde(Chase(), 0, {}, None)
>>> values[1], values[0]
(Value(outcome=Outcome.WIN, remoteness=1, score=None), Value(outcome=Outcome.LOSE, remoteness=2, score=None))
"""

from __future__ import annotations

from typing import Any, Callable, Hashable

from gamedp.errors import GameDefinitionError
from gamedp.game import Game, Position, no_move_value, overrides, terminal_value
from gamedp.values import DRAW, LOSE, TIE, WIN, Outcome, Value


def retrograde(
    game: Game,
    root: Position,
    known: dict[Hashable, Any],
    keyf: Callable[[Position], Hashable] | None,
    *,
    outcomes_only: bool = False,
) -> dict[Hashable, Value | Outcome]:
    """Values of every position reachable from ``root`` that is not already in ``known``.

    ``known`` maps keys to final values (Values, or Outcomes when ``outcomes_only``); the search stops there.
    """
    if game.scored:
        raise GameDefinitionError(f"{game.name}: play from {root!r} can cycle; a scored game must always end")
    keys, kids, decided = _discover(game, root, known, keyf)
    n = len(keys)
    parents: list[list[int]] = [[] for _ in range(n)]
    for i, ks in enumerate(kids):
        for j in ks:
            parents[j].append(i)
    undecided_children = [len(ks) for ks in kids]

    def propagate(step: Callable[[int, Value, list], None], wanted: tuple[Outcome, ...]) -> None:
        # Buckets by remoteness make the first decision for each parent its best one.
        buckets: dict[int, list[int]] = {}
        for i, v in enumerate(decided):
            if v is not None and v.outcome in wanted:
                buckets.setdefault(v.remoteness, []).append(i)
        r = 0
        while buckets:
            for i in buckets.pop(r, ()):
                for p in parents[i]:
                    if decided[p] is None:
                        step(p, decided[i], buckets.setdefault(r + 1, []))
            r += 1

    def win_lose(p: int, child: Value, bucket: list) -> None:
        if child.outcome is LOSE:
            decided[p] = Value(WIN, child.remoteness + 1)
            bucket.append(p)
        else:
            undecided_children[p] -= 1
            if undecided_children[p] == 0:
                decided[p] = Value(LOSE, child.remoteness + 1)
                bucket.append(p)

    def tie(p: int, child: Value, bucket: list) -> None:
        decided[p] = Value(TIE, child.remoteness + 1)
        bucket.append(p)

    propagate(win_lose, (WIN, LOSE))
    propagate(tie, (TIE,))
    result = {}
    for k, v in zip(keys, decided):
        if k not in known:
            v = v or Value(DRAW)
            result[k] = v.outcome if outcomes_only else v
    return result


def _discover(game: Game, root: Position, known: dict, keyf) -> tuple[list, list[list[int]], list[Value | None]]:
    """Number every reachable position; record children and the values known without search."""
    prim = game.primitive if overrides(game, "primitive") else None
    index: dict[Hashable, int] = {}
    keys: list[Hashable] = []
    kids: list[list[int]] = []
    decided: list[Value | None] = []

    def number(position: Position) -> tuple[int, bool]:
        k = position if keyf is None else keyf(position)
        i = index.get(k)
        if i is not None:
            return i, False
        i = index[k] = len(keys)
        keys.append(k)
        kids.append([])
        v = known.get(k)
        if isinstance(v, Outcome):  # from an outcomes-only search: remoteness unknown, rank it first
            v = Value(v, 0)
        decided.append(v)
        return i, v is None

    todo = [root] if number(root)[1] else []
    while todo:
        position = todo.pop()
        i = index[position if keyf is None else keyf(position)]
        p = prim(position) if prim is not None else None
        children = [] if p is not None and getattr(game, "primitive_first", False) else list(game.children(position))
        if p is not None:
            if children:
                raise GameDefinitionError(f"{game.name}: position {position!r} is primitive ({p!r}) but has moves; "
                                          "a position that ends the game must have none")
            decided[i] = terminal_value(game, p, position)
            continue
        if not children:
            decided[i] = no_move_value(game, position)
            continue
        for c in children:
            j, new = number(c)
            kids[i].append(j)
            if new:
                todo.append(c)
    return keys, kids, decided
