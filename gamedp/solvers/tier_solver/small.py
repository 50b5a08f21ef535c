"""The tier solver in memory, by a tiered game's plain functions: no numba, no files (tiny index spaces).

:func:`solve_in_memory` gives every index's value, for tests and examples; :func:`solve_small` is the whole
solve of an index space of at most :data:`SMALL` indices, giving the very database the sharded solve gives
(``gamedp solve tictactoe``), without importing numpy.
"""

from __future__ import annotations

from typing import Any

from gamedp.solvers.statistics import pack_codes
from gamedp.solvers.tier_solver.loops import fail_key
from gamedp.tiers import TieredGame

#: Index spaces up to this size are solved in memory by the plain functions (see TierSolve.small).
SMALL = 1 << 15


def solve_in_memory(game: TieredGame) -> list[list[int]]:
    """Every index's value code (0 LOSE, 1 WIN, 2 TIE), tier by tier, by the plain functions: small games only."""
    f = game.functions()
    out = [0] * (game.max_children + 64)
    values: list[list[int]] = [[] for _ in range(game.num_tiers)]
    for t in range(game.num_tiers - 1, -1, -1):
        row = values[t] = [0] * game.sizes[t]
        for i in range(game.sizes[t]):
            key = f.unrank(t, i)
            prim = f.primitive(key)
            if prim:
                row[i] = (0, 0, 1, 2)[prim]
                continue
            seen = {values[f.tier_of(c)][f.rank(c)] for c in out[:f.children(key, out)]}
            row[i] = 1 if 0 in seen else 2 if 2 in seen else 0
    return values


def solve_small(game: TieredGame, remoteness: bool) -> tuple[Any, Any, list[dict], Any]:
    """The whole solve of a tiny index space in memory by the plain functions (no numba): the 2-bit outcomes
    (3: unreachable) and remoteness (or an empty array) of the whole index space, each tier's statistics and the
    outcomes counted in them (the outcomes again, with 3 at every index play does not reach: not the same for a
    game whose every index is solved), exactly as the sharded solve makes them, as ``bytes``: nothing here imports
    numpy. A child is looked up by its key among the positions already solved, so only each position's own rank
    is computed, and the rules are asked once about each position play reaches."""
    f = game.functions()
    sizes, out = game.sizes, [0] * (game.max_children + 64)
    declared = [set(game.child_tiers(t)) for t in range(game.num_tiers)]
    moves: dict[int, tuple[int, list[int]]] = {}  # the positions play reaches: key -> primitive code, children

    def expand(key: int) -> list[int]:
        prim = f.primitive(key)
        kids = out[:0 if prim else f.children(key, out)]
        moves[key] = prim, kids
        return kids

    if game.every_index:  # every index is solved, in index order: here only which ones play reaches
        keys = [list(enumerate(f.unrank(t, i) for i in range(sizes[t]))) for t in range(game.num_tiers)]
        todo = [game.start]
        while todo:
            key = todo.pop()
            if key not in moves:
                todo += expand(key)
    else:  # the positions play reaches, tier by tier (key -> its index), then in index order
        reached: list[dict] = [{} for _ in sizes]
        reached[game.start_tier][game.start] = f.rank(game.start)
        for t in range(game.num_tiers):
            for key in reached[t]:
                for c in expand(key):
                    ct = f.tier_of(c)
                    if ct not in declared[t]:
                        fail_key(game, (1, key, c), t)
                    if c not in reached[ct]:
                        ci = reached[ct][c] = f.rank(c)
                        if not 0 <= ci < sizes[ct]:
                            fail_key(game, (2, key, c), t)
        keys = [sorted((i, key) for key, i in tier.items()) for tier in reached]
    codes = [bytearray(b"\3" * s) for s in sizes]
    counted = [bytearray(b"\3" * s) for s in sizes]
    rems = [bytearray(s) for s in sizes]
    # key -> (its option for the parent, its tier): a LOSE is a WIN for the parent (3B - r) and beats a TIE
    # (2B - r), which beats a WIN (r): the kernels' order, so the best option is the largest number.
    base = 1 << 20
    known: dict[int, tuple[int, int]] = {}
    tier_stats: list[dict] = [{}] * game.num_tiers
    primitive, children = f.primitive, f.children
    for t in range(game.num_tiers - 1, -1, -1):
        counts = [0] * 5  # positions, WIN, LOSE, TIE, terminal
        mine, tier_codes, tier_counted, tier_rems = declared[t], codes[t], counted[t], rems[t]
        for i, key in keys[t]:
            found = moves.get(key)
            if found is None:  # not reached by play: solved all the same
                prim = primitive(key)
                kids = out[:0 if prim else children(key, out)]
            else:
                prim, kids = found
            terminal = prim != 0 or not kids
            if terminal:
                if prim not in (0, 1, 2, 3):
                    fail_key(game, (4, key, prim), t)
                code, r = (0, 0, 1, 2)[prim], 0
            else:
                best = -1
                for child in kids:
                    option, ct = known.get(child, (-1, -1))
                    if ct not in mine:
                        _child(game, f, t, key, child)  # names what is wrong
                        fail_key(game, (3, key, child), t)
                    if option > best:
                        best = option
                code, r = (1, 3 * base - best + 1) if best > 2 * base else \
                    (2, 2 * base - best + 1) if best > base else (0, best + 1)
                if not remoteness:
                    r = 0
                elif r > 255:
                    fail_key(game, (5, key, r), t)
            known[key] = (3 * base - r if code == 0 else 2 * base - r if code == 2 else r, t)
            tier_codes[i], tier_rems[i] = code, r
            if found is not None:
                tier_counted[i] = code
                counts[1 + (0 if code == 1 else 1 if code == 0 else 2)] += 1
                counts[4] += terminal
        counts[0] = sum(counts[1:4])
        tier_stats[t] = dict(zip(("positions", "WIN", "LOSE", "TIE", "terminal"), counts))
    packed = pack_codes(b"".join(codes))
    return (packed, b"".join(rems) if remoteness else b"", tier_stats,
            pack_codes(b"".join(counted)) if game.every_index else packed)


def _child(game: TieredGame, f: Any, tier: int, key: int, child: int) -> tuple[int, int]:
    """The tier and index of ``child`` of ``key`` (in ``tier``), checked as the kernels check them."""
    ct = f.tier_of(child)
    if ct not in game.child_tiers(tier):
        fail_key(game, (1, key, child), tier)
    ci = f.rank(child)
    if not 0 <= ci < game.sizes[ct]:
        fail_key(game, (2, key, child), tier)
    return ct, ci
