"""Which positions an opening book holds, and in which order: every position up to a number of moves
(:func:`positions_up_to`), then those a perfect player meets along its lines (:func:`perfect_lines`), a ply at a
time.

Both the builder (:mod:`gamedp.solvers.book_builder`, which searches the positions) and the compact book
(:mod:`gamedp.solvers.compact_book`, which keeps their scores alone, in the order found here) walk the lines
through this one definition: the compact file holds no keys, so its reader must meet the positions exactly as
the builder met them.
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
    """Positions of a perfect player's lines not valued yet: their scores must be in the walk's ``scores``
    before it goes on."""

    #: key -> position, each key not in the scores yet
    new: dict[int, Any]
    #: None: the replies to the player's positions (a builder searches them); else the player's positions
    #: themselves, with their moves (each is the best of its moves, all valued by then)
    moves: dict[Any, list] | None
    #: the ply (0: the start's) of the player's positions
    ply: int


def perfect_lines(rules: Any, player: int, plies: int, scores: dict[int, int]) -> Iterator[Step]:
    """The positions to value along the first ``plies`` plies of games where ``player`` (0: the first) plays the
    best move (the first of the best, in the game's order of moves, as ``play`` does) and the other player
    anything: every move of the player's positions, then those positions, a ply at a time (where the player
    goes depends on the values). The caller puts each step's scores in ``scores`` (key -> score, holding what
    is valued already) before asking for the next step.

    A position and its mirror image are kept apart here: where two moves are as good, the first of one is not
    the image of the first of the other."""
    start = rules.game.start()
    layer = {start: rules.children(start)}  # the positions of this ply (in the order found) and their moves
    for ply in range(plies):
        replies = {child: rules.children(child) for kids in layer.values() for _, child in kids}
        if ply % 2 == player:
            yield Step(_new({c: its for c, its in replies.items() if its}, rules, scores), None, ply)
            yield Step(_new(layer, rules, scores), layer, ply)
            following = {}
            for kids in layer.values():
                if all(replies[child] for _, child in kids):  # else it wins at once, or fills the board
                    best = max(kids, key=lambda kid: -scores[rules.book_key(kid[1])])[1]
                    following[best] = replies[best]
        else:
            following = {child: its for child, its in replies.items() if its}
        layer = following


def _new(positions: dict[Any, Any], rules: Any, scores: dict[int, int]) -> dict[int, Any]:
    """The keys of ``positions`` not valued yet, with the first position of each."""
    new: dict[int, Any] = {}
    for position in positions:
        key = rules.book_key(position)
        if key not in scores and key not in new:
            new[key] = position
    return new
