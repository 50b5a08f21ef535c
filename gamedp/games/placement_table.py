"""The strong-solve table of an impartial placement game (:mod:`gamedp.games.placement`): every board at 1 bit
(and a byte of remoteness), solved 64 boards per machine word by :mod:`gamedp.kernels.blockgame`; the solved
table's values; its counts by outcome and remoteness.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from gamedp.errors import GamedpError
from gamedp.values import LOSE, WIN, Value

if TYPE_CHECKING:  # the game's ruleset, which the table is made from: imported for its type only
    from gamedp.games.placement import Rules

#: the largest board the strong solve tables take (2**cells boards; 2**28 is 32 MiB of win/lose bits)
MAX_TABLE_CELLS = 28


def byte_table_lists(maps: Sequence[Sequence[int]], n: int) -> list[list[list[int]]]:
    """``[map][chunk][byte value]``: the image of every byte value of the board under each cell map, in plain
    lists (a database look-up translates boards with these without importing numpy)."""
    tables = []
    for cells in maps:
        per_chunk = []
        for k in range((n + 7) // 8):
            bits = [1 << cells[i] if i < n else 0 for i in range(8 * k, 8 * k + 8)]
            per_chunk.append([sum(b for j, b in enumerate(bits) if v >> j & 1) for v in range(256)])
        tables.append(per_chunk)
    return tables


class TableSpec:
    """Every board of an impartial placement game, solved at 1 bit per board (and a byte of remoteness).

    The table index numbers the cells so that its lowest bits (the lanes) never hold a whole piece: then the
    kernels solve 64 boards per machine word. :meth:`index` and :meth:`position` translate with byte look-ups.
    """

    game_id = "placement"

    def __init__(self, rules: Rules):
        if not rules.impartial:
            raise GamedpError(f"{rules.name}: the strong-solve table takes impartial games")
        if rules.n > MAX_TABLE_CELLS:
            raise GamedpError(f"{rules.name}: {rules.n} cells is 2**{rules.n} boards, more than the table takes "
                              f"(at most {MAX_TABLE_CELLS} cells)")
        self.rules = rules
        self.size = 1 << rules.n
        self.variant = {"name": rules.name, **rules.variant()}
        self.lanes = self._lanes()
        rest = [i for i in range(rules.n) if i not in self.lanes]
        #: table bit k holds board cell order[k]
        self.order = self.lanes + rest
        inverse = [0] * rules.n
        for k, cell in enumerate(self.order):
            inverse[cell] = k
        #: [chunk][byte value]: the table bits of each byte of a board, and the reverse (see :func:`lookup`)
        self.to_index, self.to_board = byte_table_lists([inverse, self.order], rules.n)

    def _lanes(self) -> list[int]:
        """Up to 6 cells that hold no whole piece between them, spread over the board (even rows and columns
        first, so that most pieces touch at most one)."""
        pieces = self.rules.placements[0]
        chosen = 0
        cells = []
        order = sorted(range(self.rules.n), key=lambda i: ((i // self.rules.cols) % 2, (i % self.rules.cols) % 2, i))
        for i in order:
            if len(cells) == 6 or len(cells) == self.rules.n - 1:
                break
            trial = chosen | 1 << i
            if all(p & ~trial for p in pieces):
                chosen = trial
                cells.append(i)
        return cells

    def index(self, board_bits: int) -> int:
        return lookup(self.to_index, board_bits)

    def format_position(self, board: int) -> str:
        return self.rules.draw(board)

    def parse_position(self, text: str) -> int:
        return self.rules.parse_board(text)

    def position(self, index: int) -> int:
        return lookup(self.to_board, index)

    def outcome_arrays(self):
        """(hi, lo, mask, lanes, compat): the pieces as :func:`~gamedp.kernels.blockgame.table_outcomes` takes
        them."""
        hi, lo, mask, lanes = self._pieces()
        return hi, lo, mask, lanes, _compat(hi, (self.size >> len(self.lanes)).bit_length() - 1)

    def _pieces(self):
        import numpy as np

        nl = len(self.lanes)
        lane_mask = (1 << nl) - 1
        idx = [self.index(p) for p in self.rules.placements[0]]
        hi = np.array([p >> nl for p in idx], np.uint64)
        lo = np.array([p & lane_mask for p in idx], np.uint64)
        lanes = np.uint64((1 << (1 << nl)) - 1)
        mask = np.array([sum(1 << j for j in range(1 << nl) if j & int(low) == 0) for low in lo], np.uint64)
        return hi, lo, mask, lanes

    def max_remoteness(self) -> int:
        return self.rules.n // min(len(o) for o in self.rules.orientations[0])

    def solve_bits(self, remoteness: bool = False, progress=None):
        """(win, rem): win is bool per board index as packed bits (numpy uint8, little-endian bit order);
        rem a uint8 per index, or None. With remoteness, :attr:`by_remoteness` then holds the count of each."""
        import numpy as np

        from gamedp.aot import load_kernels

        k = load_kernels("gamedp.kernels.blockgame")
        nl = len(self.lanes)
        nwords = self.size >> nl
        win = np.empty(nwords, np.uint64)
        rem = None
        if remoteness:
            nm = max(1, self.max_remoteness() // 2)  # planes "remoteness <= 2k + 1" that are not all ones
            stride = -(-(nm + 1) // 8) * 8  # a word's planes fill whole cache lines
            planes = _aligned(nwords * stride)
            rem = np.empty(self.size, np.uint8)
            within = np.zeros(2 * nm + 2, np.uint64)
            k.table_remoteness(*self._pieces(), nm, stride, planes, rem, win, within)
            del planes
            counts = [int(c) for c in within]
            self.by_remoteness = {r: counts[r] - (counts[r - 2] if r >= 2 else 0) for r in range(len(counts))}
        else:
            k.table_outcomes(*self.outcome_arrays(), win)
        if progress:
            progress(self.size, self.size)
        return lane_bits(win, nl), rem

    def reach_words(self):
        """The boards play reaches from the empty board: a uint64 per word, bit j for lane j (as ``win``)."""
        import numpy as np

        from gamedp.aot import load_kernels

        reach = np.empty(self.size >> len(self.lanes), np.uint64)
        hi, lo, mask, _ = self._pieces()
        load_kernels("gamedp.kernels.blockgame").table_reach(hi, lo, mask, reach)
        return reach

    def solve_table(self, remoteness: bool, progress=None):
        """(outcomes, remoteness or None): 2-bit codes packed 4 per byte (0 LOSE, 1 WIN), remoteness bytes."""
        bits, rem = self.solve_bits(remoteness, progress)
        return expand_codes(bits), rem


def _compat(hi, bits: int):
    """uint64 (chunks, 128, groups): the pieces (bit k % 64 of group k // 64) whose ``hi`` misses each 7-bit
    pattern of a word index, chunk c holding bits 7c..7c+6 (see ``table_outcomes``)."""
    import numpy as np

    chunks = max(1, -(-bits // 7))
    groups = -(-len(hi) // 64)
    compat = np.zeros((chunks, 128, groups), np.uint64)
    patterns = np.arange(128, dtype=np.uint64)
    for k, h in enumerate(hi):
        for c in range(chunks):
            part = (h >> np.uint64(7 * c)) & np.uint64(127)
            compat[c, (patterns & part) == 0, k // 64] |= np.uint64(1 << (k % 64))
    return compat


def _aligned(n: int):
    """An uint64 array of ``n`` starting on a cache line (64 bytes)."""
    import numpy as np

    buf = np.empty(n + 8, np.uint64)
    skip = (-buf.ctypes.data % 64) // 8
    return buf[skip:skip + n]


def lane_bits(words, nl: int):
    """The bits of words holding 2**nl boards each (a board's bit at its lane), as packed bits, board after board.

    >>> import numpy as np
    >>> lane_bits(np.array([0b0110, 0b1001], np.uint64), 2).tolist()   # 4 boards a word: 0110 then 1001
    [150]
    """
    import numpy as np

    if nl == 6:
        return words.view(np.uint8)
    lanes = np.arange(1 << nl, dtype=np.uint64)
    bits = ((words[:, None] >> lanes[None, :]) & np.uint64(1)).astype(np.uint8).ravel()
    return np.packbits(bits, bitorder="little")


def expand_codes(bits):
    """Packed win bits (1 per board) as 2-bit outcome codes packed 4 per byte (code = the win bit).

    >>> import numpy as np
    >>> expand_codes(np.array([0b10000001], np.uint8)).tolist()
    [1, 64]
    """
    import numpy as np

    v = np.arange(256, dtype=np.uint16)
    spread = np.zeros(256, np.uint16)
    for j in range(8):
        spread |= ((v >> j) & 1) << (2 * j)
    return spread[bits].view(np.uint8)


def lookup(table, x: int) -> int:
    """``x`` translated by byte tables (one of :func:`byte_table_lists`'s maps): each byte looked up, ORed."""
    t, k = 0, 0
    while x:
        t |= table[k][x & 255]
        x >>= 8
        k += 1
    return t


class SolvedTable:
    """Queries on a solved table: the value of a board (impartial: the board alone is the position)."""

    def __init__(self, spec: TableSpec, win, rem):
        self.spec, self.win, self.rem = spec, win, rem

    def value(self, board: int) -> Value:
        i = self.spec.index(board & self.spec.rules.full)
        won = self.win[i >> 3] >> (i & 7) & 1
        return Value(WIN if won else LOSE, None if self.rem is None else int(self.rem[i]))


def counts(bits, by_remoteness: dict[int, int] | None = None) -> dict:
    """Positions by outcome (and by remoteness) of a solved table: {"outcomes": {...}, "remoteness": {...}}."""
    import numpy as np

    ones = np.array([bin(v).count("1") for v in range(256)], np.uint8)
    won = int(ones[bits].sum(dtype=np.int64))
    out: dict = {"outcomes": {"WIN": won, "LOSE": len(bits) * 8 - won}}
    if by_remoteness is not None:
        out["remoteness"] = {"WIN": {str(r): c for r, c in by_remoteness.items() if c and r % 2},
                             "LOSE": {str(r): c for r, c in by_remoteness.items() if c and r % 2 == 0}}
    return out


def format_counts(stats: dict) -> str:
    """The counts of :func:`counts` as a table."""
    lines = [f"{'outcome':<10}{'positions':>14}"]
    lines += [f"{name:<10}{count:>14,}" for name, count in stats["outcomes"].items()]
    by = stats.get("remoteness")
    if by:
        lines += ["", f"{'remoteness':<12}{'WIN':>12}{'LOSE':>12}"]
        top = max(int(r) for c in by.values() for r in c)
        for r in range(top + 1):
            lines.append(f"{r:<12}{by['WIN'].get(str(r), 0):>12,}{by['LOSE'].get(str(r), 0):>12,}")
    return "\n".join(lines)
