"""Which positions an opening book holds, and in which order: every position up to a number of moves
(:func:`positions_up_to`), then those a perfect player meets along its lines (:func:`perfect_lines`), a ply at a
time.

Both the builder (:mod:`gamedp.solvers.book_builder`, which searches the positions) and the compact book
(:mod:`gamedp.solvers.compact_book`, which keeps their scores and best moves alone, in the order found here) walk
the lines through this one definition: the compact file holds no keys, so its reader must meet the positions
exactly as the builder met them.
"""

from __future__ import annotations

from typing import Any, Iterator, NamedTuple


def positions_up_to(rules: Any, depth: int) -> dict[int, Any]:
    """Every position within ``depth`` moves of the start that the game goes on from, one per key."""
    start = rules.game.start()
    found = {rules.book_key(start): start}
    layer = [rules.children(start)]  # the moves of each position found last, asked once
    for _ in range(depth):
        following = []
        for moves in layer:
            for _, child in moves:
                key = rules.book_key(child)
                if key not in found and (below := rules.children(child)):
                    found[key] = child
                    following.append(below)
        layer = following
    return found


class Step(NamedTuple):
    """What a perfect player's lines need before the walk goes on: the scores of ``new`` in the walk's
    ``scores``, then the best moves of ``best`` in its ``best``."""

    #: key -> position: the player's positions whose scores are not known yet (a builder searches them)
    new: dict[int, Any]
    #: line key -> (position, its moves): the player's positions whose best moves are not known yet, each the
    #: index in its moves of the first of the best (their scores are known by then)
    best: dict[int, tuple[Any, list]]
    #: the ply (0: the start's) of the player's positions
    ply: int


def perfect_lines(rules: Any, player: int, plies: int, scores: dict[int, int],
                  best: dict[int, int]) -> Iterator[Step]:
    """The positions met along the first ``plies`` plies of games where ``player`` (0: the first) plays the best
    move (the first of the best, in the game's order of moves, as ``play`` does) and the other player anything:
    at each of the player's plies, its positions' scores, then their best moves, yielded as :class:`Step`\\ s.
    The caller puts each step's scores in ``scores`` (by ``rules.book_key``, which folds mirror images) and best
    moves in ``best`` (by ``rules.line_key``, which keeps a position and its mirror image apart: where two moves
    are as good, the first of one is not the image of the first of the other) before asking for the next step.

    The position a best move leads to has its mover's score negated: the walk puts it in ``scores`` itself (no
    search), and every reply to it is a position of the player's next ply."""
    start = rules.game.start()
    layer = {start: rules.children(start)}  # the positions of this ply (in the order found) and their moves
    for ply in range(plies):
        if ply % 2 == player:
            yield Step(_new(layer, rules, scores), {}, ply)
            todo = {}
            for position, moves in layer.items():
                if (key := rules.line_key(position)) not in best:
                    todo[key] = (position, moves)
            yield Step({}, todo, ply)
            following = {}
            for position, moves in layer.items():
                reply = moves[best[rules.line_key(position)]][1]
                if below := rules.children(reply):  # else the best move ends the game
                    scores.setdefault(rules.book_key(reply), -scores[rules.book_key(position)])
                    following[reply] = below
        else:
            following = {child: its for moves in layer.values() for _, child in moves
                         if (its := rules.children(child))}
        layer = following


def _new(positions: dict[Any, Any], rules: Any, scores: dict[int, int]) -> dict[int, Any]:
    """The keys of ``positions`` not valued yet, with the first position of each."""
    new: dict[int, Any] = {}
    for position in positions:
        key = rules.book_key(position)
        if key not in scores and key not in new:
            new[key] = position
    return new
