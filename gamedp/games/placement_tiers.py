"""BLOCKGAME (any rows x cols up to 28 cells) as a tiered game, solved 64 boards per machine word.

A key is a board in the table order of :class:`~gamedp.games.placement_table.TableSpec`: its lowest L bits (the
lanes, at most 6) are cells no piece covers together, the other m bits the rest. Every piece covers at least
one of those m cells, so a move adds to the count of them: that count is the tier. Within tier t a key's index
is the colex rank of its m-bit part among those with t bits set, times 2^L, plus its lanes; tier t has
C(m, t) * 2^L indices, all of them boards (every board is a position to answer, reachable or not).

The rules below (plain Python that numba also compiles) let the generic tier kernels and ``gamedp check`` work
on it, while :meth:`BlockgameTiers.shard_values` solves a shard with the word-parallel table kernel: the whole
table once per process (2^25 boards at 1 bit is 4 MiB), then the shard's boards read out of it; the statistics
count the boards play reaches from the empty one (6,134,619 of 5x5's 2^25), found by a word-parallel pass too.

>>> game = blockgame_table(2, 3)
>>> game.sizes, game.index_space
([8, 24, 24, 8], 64)
>>> key = game.parse_position("#..\\n...")
>>> game.position(game.index(key)) == key, game.format_position(key).splitlines()[1]
(True, ' 1 # . .')
>>> from gamedp.solvers.tier_solver import solve_in_memory
>>> solve_in_memory(game)[0][0]                       # the empty 2x3 board: the first player wins
1
"""

from __future__ import annotations

import functools
from typing import Any

from gamedp.games.connect4_tiers import ROW, binomials  # the same flat table of C(n, k): binom[n * ROW + k]
from gamedp.games.placement import blockgame_rules
from gamedp.games.placement_table import TableSpec, lane_bits
from gamedp.tiers import TieredGame, TierFunctions


class BlockgameTiers(TieredGame):
    """Every board of BLOCKGAME on ``rows`` x ``cols`` (at most 28 cells), tiered by the cells outside the lanes."""

    every_index = True

    def __init__(self, rows: int = 5, cols: int = 5):
        self.table = TableSpec(blockgame_rules(rows, cols))
        self.lanes = len(self.table.lanes)
        self.m = self.table.rules.n - self.lanes
        self.pieces = tuple(self.table.index(p) for p in self.table.rules.placements[0])
        self.binom = binomials()
        super().__init__("blockgame", {"rows": rows, "cols": cols}, num_tiers=self.m + 1,
                         max_children=len(self.pieces), start=0)

    def tier_size(self, tier: int) -> int:
        return self.binom[self.m * ROW + tier] << self.lanes

    def child_tiers(self, tier: int) -> tuple[int, ...]:
        spans = sorted({(p >> self.lanes).bit_count() for p in self.pieces})
        return tuple(tier + s for s in spans if tier + s <= self.m)

    def functions(self) -> TierFunctions:
        return self._plain

    @functools.cached_property
    def _plain(self) -> TierFunctions:
        return self._closures(self.pieces, self.binom)

    def compiled_functions(self) -> TierFunctions:
        import numpy as np

        return self._closures(np.array(self.pieces, dtype=np.int64), np.array(self.binom, dtype=np.int64))

    def _closures(self, pieces: Any, binom: Any) -> TierFunctions:
        lanes, m = self.lanes, self.m
        lane_mask = (1 << lanes) - 1

        def tier_of(key):
            high = key >> lanes
            t = 0
            while high:
                high &= high - 1
                t += 1
            return t

        def rank(key):
            high = key >> lanes
            colex = 0
            j = 0
            for p in range(m):
                if (high >> p) & 1:
                    j += 1
                    colex += binom[p * ROW + j]
            return (colex << lanes) | (key & lane_mask)

        def unrank(tier, index):
            colex = index >> lanes
            high = 0
            p = m - 1
            for j in range(tier, 0, -1):
                while binom[p * ROW + j] > colex:
                    p -= 1
                colex -= binom[p * ROW + j]
                high |= 1 << p
                p -= 1
            return (high << lanes) | (index & lane_mask)

        def children(key, out):
            count = 0
            for p in pieces:
                if key & p == 0:
                    out[count] = key | p
                    count += 1
            return count

        def primitive(key):
            return 0

        return TierFunctions(rank, unrank, tier_of, children, primitive)

    # -- a shard by the word-parallel table kernel ------------------------------------------------------------
    def shard_values(self, tier: int, lo: int, hi: int, remoteness: bool) -> tuple[Any, Any, dict]:
        """Codes (0 LOSE, 1 WIN) and remoteness (or an empty array) of indices ``lo..hi-1`` of ``tier``, read out
        of the whole table (solved once per process), and the statistics of the boards among them that play
        reaches from the empty board (see :meth:`tier_reach`)."""
        import numpy as np

        win, rem = self._solved(remoteness)
        first = self._tier_words[tier] + (lo >> self.lanes)
        words = self._words[first:first + ((hi - lo) >> self.lanes)]  # shards and tiers hold whole words
        reach = self._reach[words]
        positions = int(np.bitwise_count(reach).sum())
        if self.lanes == 6:  # a word's 64 boards are one uint64 of the table: gather words, not boards
            won_words = win.view(np.uint64)[words]
            codes = np.unpackbits(won_words.view(np.uint8), bitorder="little")
            won = int(np.bitwise_count(won_words & reach).sum())
            boards = None
        else:
            lane = np.arange(hi - lo, dtype=np.int64) & ((1 << self.lanes) - 1)
            boards = (np.repeat(words, 1 << self.lanes) << self.lanes) | lane
            codes = ((win[boards >> 3] >> (boards & 7).astype(np.uint8)) & 1).astype(np.uint8)
            won = int(np.count_nonzero(codes & (np.repeat(reach, 1 << self.lanes) >> lane.astype(np.uint64)) & 1))
        stats = {"positions": positions, "WIN": won, "LOSE": positions - won, "TIE": 0,
                 "terminal": self._terminal(words, reach)}
        if not remoteness:
            return codes, np.zeros(0, dtype=np.uint8), stats
        return codes, (rem.reshape(-1, 64)[words].ravel() if boards is None else rem[boards]), stats

    def tier_reach(self, tier: int) -> Any:
        """The reach bits of ``tier`` (bit i % 8 of byte i // 8 for index i): the boards play reaches from the
        empty board, found 64 boards a word (see :meth:`~gamedp.games.placement_table.TableSpec.reach_words`). Every
        board is solved, these are the ones counted."""
        first = self._tier_words[tier]
        return lane_bits(self._reach[self._words[first:first + (self.sizes[tier] >> self.lanes)]], self.lanes)

    @functools.cached_property
    def _reach(self) -> Any:
        return self.table.reach_words()

    def _terminal(self, words: Any, lanes: Any) -> int:
        """How many boards of these words (the lanes set in ``lanes``, one uint64 a word) have no move."""
        import numpy as np

        high, masks = self._movers
        movable = np.zeros(len(words), dtype=np.uint64)
        w = words.astype(np.uint64)
        for at in range(0, len(w), 1 << 14):  # a block of words against every piece at once
            block = w[at:at + (1 << 14), None]
            movable[at:at + len(block)] = np.bitwise_or.reduce(np.where((block & high) == 0, masks, 0), axis=1)
        return int(np.bitwise_count(~movable & lanes).sum())

    @functools.cached_property
    def _movers(self) -> tuple[Any, Any]:
        """The dominoes' word parts, each once, with the lanes where some domino of that word part fits: every
        L-tromino covers a domino, so a board has a move exactly when a domino fits."""
        import numpy as np

        high, _, mask, _ = self.table._pieces()
        dominoes = np.array([p.bit_count() == 2 for p in self.pieces])
        high, mask = high[dominoes], mask[dominoes]
        distinct = np.unique(high)
        masks = np.array([np.bitwise_or.reduce(mask[high == h]) for h in distinct], dtype=np.uint64)
        return distinct, masks

    def _solved(self, remoteness: bool) -> tuple[Any, Any]:
        if remoteness not in self._tables:
            self._tables[remoteness] = self.table.solve_bits(remoteness)
        return self._tables[remoteness]

    @functools.cached_property
    def _tables(self) -> dict:
        return {}

    @functools.cached_property
    def _words(self) -> Any:
        """Every word (m-bit part) by tier, in colex order within a tier: that is numeric order."""
        import numpy as np

        all_words = np.arange(1 << self.m, dtype=np.int64)
        return all_words[np.argsort(np.bitwise_count(all_words), kind="stable")]

    @functools.cached_property
    def _tier_words(self) -> list[int]:
        return [offset >> self.lanes for offset in self.offsets]

    # -- the text of boards --------------------------------------------------------------------------------------
    def parse_position(self, text: str) -> int:
        return self.table.index(self.table.rules.parse_board(text))

    def format_position(self, position: int) -> str:
        return self.table.rules.draw(self.table.position(position))

    def board(self, key: int) -> int:
        """The board (bit r * cols + c for a filled cell) of ``key``."""
        return self.table.position(key)

    def key(self, board: int) -> int:
        """The key of ``board``: the inverse of :meth:`board`."""
        return self.table.index(board)


def blockgame_table(rows: int = 5, cols: int = 5) -> BlockgameTiers:
    """BLOCKGAME's boards as a tiered game, for ``gamedp solve blockgame -V rows=R -V cols=C``."""
    return BlockgameTiers(rows, cols)
