"""The game contract in one table: the optional hooks of :class:`~gamedp.game.Game`, grouped by capability, and
what is turned off when a game gives none of a capability's hooks.

Every optional hook is declared on :class:`~gamedp.game.Game` with a default that means "not offered" (``None``,
or the base class's own method); ``gamedp check`` reports which capabilities a game offers
(:func:`capabilities`) and tests the hooks it gives (:mod:`gamedp.selfcheck`).

>>> from gamedp.games.connect4 import Connect4
>>> offered = capabilities(Connect4(4, 4))
>>> offered["search hints"], offered["databases and tiers"]
(['ordered_children', 'heuristic', 'memory_estimate'], ['tiered', 'saved_solution', 'compiled'])
>>> offered["impartial"]
[]
"""

from __future__ import annotations

from typing import Any, NamedTuple

from gamedp.game import Game


class Capability(NamedTuple):
    """A group of optional hooks: its name, the hooks, and what is turned off when a game gives none of them."""

    name: str
    hooks: tuple[str, ...]
    without: str


#: Every capability, in the order ``gamedp check`` reports them (docs/contract.md says the same at length).
CAPABILITIES: tuple[Capability, ...] = (
    Capability("rules", ("primitive", "canonical", "key", "misere", "scored", "primitive_first"),
               "positions without moves end the game (lost by the mover), no symmetry, positions are their own keys"),
    Capability("notation", ("format_position", "parse_position", "format_move", "parse_move", "notation", "example",
                            "format_position_line"),
               "positions are shown with str() and only the start can be named on the command line"),
    Capability("drawing", ("draw_position", "move_cells"),
               "the web board and Jupyter draw a built-in game's board (others as text), and moves are made from the "
               "move list"),
    Capability("search hints", ("ordered_children", "heuristic", "memory_estimate", "work_estimate"),
               "searches take children in the game's order, --depth scores its horizon 0, and a search too big to "
               "finish is not refused up front"),
    Capability("own engines", ("analyze", "solution"), "the general engines answer"),
    Capability("databases and tiers", ("tiered", "saved_solution", "compiled"),
               "gamedp solve saves what a search reaches instead of solving every position in tiers"),
    Capability("impartial", ("impartial", "split", "nimber", "heap_nimber"),
               "no nimbers are shown, and sums are not split into parts"),
    Capability("partizan values", ("options", "player_names"),
               "analyze shows no partizan (CGT) value"),
    Capability("score search", ("score_search",),
               "positions too big to search whole are refused (or need --depth), and gamedp book makes no book"),
    Capability("checking", ("is_legal",), "gamedp check does not test that every position reached is legal"),
)


def offers(game: Any, hook: str) -> bool:
    """Whether ``game`` gives ``hook``: a value other than the base class's "not offered" default (a method of
    the base class counts when the game's class overrides it)."""
    own = getattr(game, hook, None)
    if own is None or own is False:
        return False
    base = getattr(Game, hook, None)
    return getattr(type(game), hook, None) is not base if callable(base) else True


def capabilities(game: Any) -> dict[str, list[str]]:
    """Each capability's name -> the hooks ``game`` gives of it (an empty list: not offered)."""
    return {c.name: [h for h in c.hooks if offers(game, h)] for c in CAPABILITIES}
