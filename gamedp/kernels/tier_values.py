"""A tiered position's value from its children's: the step the tier solver's loops share, its generic ones
(:mod:`gamedp.solvers.tier_solver.loops`, over any game's expansion) and a game's own
(:mod:`gamedp.kernels.connect4_tiers`).

A child's worth to its parent is one number, so that the best option is the largest: a child that loses (a WIN
for the parent) is 3B - r, one that ties 2B - r (the nearest first, both), one that wins r (the farthest first),
where r is the child's remoteness and B is above any remoteness.

>>> settle(max(option(1, 4), option(2, 6)))   # a won child or a tied one: tie, one move further
(2, 7)
"""

BASE = 1 << 20


def option(code, remoteness):
    """A child's worth to its parent, from its code (0 LOSE, 1 WIN, 2 TIE) and remoteness."""
    return 3 * BASE - remoteness if code == 0 else 2 * BASE - remoteness if code == 2 else remoteness


def settle(best):
    """The parent's code and remoteness from its best option."""
    if best > 2 * BASE:
        return 1, 3 * BASE - best + 1
    if best > BASE:
        return 2, 2 * BASE - best + 1
    return 0, best + 1


def record(k, code, codes, stats):
    """Write code ``code`` at ``k`` of a shard's ``codes`` (which start at 3, unreachable, for every index) and
    count it in ``stats`` (positions, WIN, LOSE, TIE)."""
    codes[k >> 2] ^= (3 ^ code) << ((k & 3) << 1)
    stats[0] += 1
    stats[1 + (0 if code == 1 else 1 if code == 0 else 2)] += 1
