"""A plain game-tree search that knows no theory: games as explicit trees, sums searched move by move.

A tree is (Left's options, Right's options), each a tuple of trees. Who wins a sum is found by trying every
move in every component; G = H exactly when G - H is lost by whoever moves first, G <= H when Left moving first
in G - H loses.
"""

from __future__ import annotations

from functools import lru_cache

Tree = tuple


def neg(t: Tree) -> Tree:
    return (tuple(neg(r) for r in t[1]), tuple(neg(o) for o in t[0]))


@lru_cache(maxsize=None)
def first_wins(parts: tuple, left_moves: bool) -> bool:
    """Whether the player to move (Left if ``left_moves``) wins the sum of ``parts`` (a sorted tuple)."""
    side = 0 if left_moves else 1
    for i, part in enumerate(parts):
        for option in part[side]:
            rest = tuple(sorted(parts[:i] + (option,) + parts[i + 1:]))
            if not first_wins(rest, not left_moves):
                return True
    return False


def leq(g: Tree, h: Tree) -> bool:
    return not first_wins(tuple(sorted((g, neg(h)))), True)


def equal(g: Tree, h: Tree) -> bool:
    return leq(g, h) and leq(h, g)


def outcome(parts: tuple) -> str:
    """L, R, P or N of a sum, from who wins moving first."""
    parts = tuple(sorted(parts))
    left, right = first_wins(parts, True), first_wins(parts, False)
    return {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}[left, right]


def tree_of(value) -> Tree:
    """A GameValue's canonical form as a tree."""
    return (tuple(tree_of(o) for o in value.left), tuple(tree_of(o) for o in value.right))


def add(g: Tree, h: Tree) -> Tree:
    return (tuple(add(o, h) for o in g[0]) + tuple(add(g, o) for o in h[0]),
            tuple(add(o, h) for o in g[1]) + tuple(add(g, o) for o in h[1]))
