"""A subtraction game on one heap of at most n stones, cut into tiers for the tier solver.

A key is the stones left; a move takes one of ``moves`` stones; no move loses (wins, misère). Tiers are runs
of w = min(moves) stone counts, counted from the top: every move goes down at least w stones, so into a higher
tier. A key's index in its tier is how far below the tier's top it is.

>>> game = subtraction_table(n=10, moves=[2, 3])
>>> game.sizes, game.child_tiers(0)
([2, 2, 2, 2, 2, 1], (1, 2))
>>> from gamedp.solvers.tier_solver import solve_in_memory
>>> values = solve_in_memory(game)
>>> [values[(10 - s) // 2][(10 - s) % 2] for s in range(6)]   # 0 LOSE, 1 WIN: take 2 or 3, period 5
[0, 0, 1, 1, 1, 0]
"""

from __future__ import annotations

from gamedp.errors import GamedpError
from gamedp.tiers import PRIM_WIN, TieredGame, TierFunctions

#: The most tiers a position's moves may land in (the tier solver's kernels take that many child tiers).
MAX_SPREAD = 4
#: The most stones: a tier per min(moves) stones, and a tier costs the solver a few files.
MAX_STONES = 1 << 24


class SubtractionTiers(TieredGame):
    """Take one of ``moves`` stones from a heap of at most ``n``; every stone count is a position."""

    every_index = True

    def __init__(self, n: int, moves: tuple[int, ...], misere: bool):
        self.n, self.moves, self.misere, self.width = n, moves, misere, moves[0]
        super().__init__("subtraction", {"n": n, "moves": list(moves), "misere": misere},
                         num_tiers=n // self.width + 1, max_children=len(moves), start=n)

    def tier_size(self, tier: int) -> int:
        return min(self.width, self.n + 1 - tier * self.width)

    def child_tiers(self, tier: int) -> tuple[int, ...]:
        # From index i of tier t (i < w) a move of k lands in tier t + (i + k) // w.
        w = self.width
        return tuple(sorted({tier + (i + k) // w for k in self.moves for i in range(self.tier_size(tier))
                             if tier * w + i + k <= self.n}))

    def functions(self) -> TierFunctions:
        n, w, moves, misere = self.n, self.width, self.moves, self.misere

        def tier_of(key):
            return (n - key) // w

        def rank(key):
            return (n - key) % w

        def unrank(tier, index):
            return n - tier * w - index

        def children(key, out):
            count = 0
            for k in moves:
                if k <= key:
                    out[count] = key - k
                    count += 1
            return count

        def primitive(key):
            return PRIM_WIN if misere and key < w else 0

        return TierFunctions(rank, unrank, tier_of, children, primitive)

    def parse_position(self, text: str) -> int:
        try:
            stones = int(text.strip())
        except ValueError:
            raise GamedpError(f"a subtraction position is a number of stones, not {text.strip()!r}") from None
        if not 0 <= stones <= self.n:
            raise GamedpError(f"{stones} stones is outside this game's 0..{self.n}")
        return stones


def subtraction_table(n: int = 1000, moves: tuple[int, ...] | list[int] = (1, 3, 4),
                      misere: bool = False) -> SubtractionTiers:
    """A subtraction game on 0..n stones: take any number in ``moves``; no move loses (wins if ``misere``)."""
    moves = (moves,) if isinstance(moves, int) else tuple(moves)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise GamedpError(f"subtraction: n is the most stones, a whole number >= 0, not {n!r}")
    if not moves or any(isinstance(k, bool) or not isinstance(k, int) or k < 1 for k in moves):
        raise GamedpError(f"subtraction: moves are numbers of stones >= 1 (e.g. moves=1,3,4), not {moves!r}")
    if n > MAX_STONES:
        raise GamedpError(f"subtraction: n={n} stones is more than the tier solver takes (at most {MAX_STONES:,}: a "
                          "tier per least move of stones)")
    game = SubtractionTiers(n, tuple(sorted(set(moves))), bool(misere))
    spread = len(game.child_tiers(0))  # the first tier is whole: no tier's moves land in more
    if spread > MAX_SPREAD:
        raise GamedpError(f"subtraction: moves={','.join(map(str, game.moves))} land in {spread} tiers of "
                          f"{game.width} stones (the least move); the tier solver takes at most {MAX_SPREAD}: "
                          "give moves closer together (e.g. 1,3,4)")
    return game
