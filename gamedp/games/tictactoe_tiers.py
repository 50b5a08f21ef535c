"""Tic-tac-toe over all 3^9 boards, cut into tiers by the marks on the board.

A key is a board seen from the player to move: cell i holds digit i in base 3 (0 empty, 1 the mover's mark, 2
the opponent's). Every key is a position once you forget which mark is X: the player with three in a row has
won (the opponent, if both have one), a full board is a tie. Tier t holds the boards with t marks; within it a
board's index is the combinadic rank of its marked cells times 2^t plus which of them are the mover's, so tier t
has C(9, t) * 2^t indices and the tiers together exactly 3^9. All are solved; the statistics count the 5,478
boards play reaches from the empty one.

>>> game = tictactoe_table()
>>> game.sizes, game.index_space
([1, 18, 144, 672, 2016, 4032, 5376, 4608, 2304, 512], 19683)
>>> key = game.parse_position("X........")
>>> game.format_position(key), game.position(game.index(key)) == key
('X........ (O to move)', True)
>>> from gamedp.solvers.tier_solver import solve_in_memory
>>> solve_in_memory(game)[0][0]                       # the empty board: a TIE
2
"""

from __future__ import annotations

from gamedp.tiers import PRIM_LOSE, PRIM_TIE, PRIM_WIN, TieredGame, TierFunctions

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
POW3 = (1, 3, 9, 27, 81, 243, 729, 2187, 6561)


def _binomials() -> tuple[int, ...]:
    table = [0] * 100
    for n in range(10):
        table[n * 10] = 1
        for k in range(1, n + 1):
            table[n * 10 + k] = table[(n - 1) * 10 + k - 1] + table[(n - 1) * 10 + k]
    return tuple(table)


#: C(n, k) at n * 10 + k, for 0 <= n, k <= 9
BINOM = _binomials()


# -- the rules: plain functions that numba also compiles -------------------------------------------------------
def primitive(key):
    cells = [0] * 9
    for i in range(9):
        cells[i] = key % 3
        key //= 3
    mover_line = False
    for line in LINES:
        a = cells[line[0]]
        if a != 0 and a == cells[line[1]] and a == cells[line[2]]:
            if a == 2:
                return PRIM_LOSE  # the opponent has a line: the mover has lost
            mover_line = True
    if mover_line:
        return PRIM_WIN  # only the mover has one (not reachable by play): a win
    for i in range(9):
        if cells[i] == 0:
            return 0
    return PRIM_TIE


def children(key, out):
    swapped = 0  # the same board seen by the other player: marks 1 and 2 change places
    count = 0
    rest = key
    for i in range(9):
        d = rest % 3
        rest //= 3
        if d != 0:
            swapped += (3 - d) * POW3[i]
        else:
            out[count] = 2 * POW3[i]
            count += 1
    for j in range(count):
        out[j] += swapped
    return count


def tier_of(key):
    marks = 0
    for i in range(9):
        if (key // POW3[i]) % 3 != 0:
            marks += 1
    return marks


def rank(key):
    t = 0
    cells = 0
    mine = 0
    for i in range(9):
        d = (key // POW3[i]) % 3
        if d != 0:
            t += 1
            cells += BINOM[i * 10 + t]
            if d == 1:
                mine |= 1 << (t - 1)
    return (cells << t) | mine


def unrank(tier, index):
    cells = index >> tier
    mine = index & ((1 << tier) - 1)
    key = 0
    p = 8
    for j in range(tier, 0, -1):  # the j-th marked cell (from the lowest), largest combinadic term first
        while BINOM[p * 10 + j] > cells:
            p -= 1
        cells -= BINOM[p * 10 + j]
        key += (1 if (mine >> (j - 1)) & 1 else 2) * POW3[p]
        p -= 1
    return key


class TicTacToeTiers(TieredGame):
    """Tic-tac-toe as a tiered game (tier = marks on the board); every board is a position."""

    every_index = True

    def __init__(self) -> None:
        super().__init__("tictactoe", {}, num_tiers=10, max_children=9, start=0)

    def tier_size(self, tier: int) -> int:
        return BINOM[90 + tier] << tier

    def child_tiers(self, tier: int) -> tuple[int, ...]:
        return (tier + 1,) if tier < 9 else ()

    def functions(self) -> TierFunctions:
        return TierFunctions(rank, unrank, tier_of, children, primitive)

    def parse_position(self, text: str) -> int:
        from gamedp.games.tictactoe import TicTacToe

        board = TicTacToe().parse_position(text)
        mover = "X" if board.count("X") == board.count("O") else "O"
        return sum(POW3[i] * (0 if c == "." else 1 if c == mover else 2) for i, c in enumerate(board))

    def format_position(self, position: int) -> str:
        digits = [(position // p) % 3 for p in POW3]
        mover = "O" if digits.count(2) == digits.count(1) + 1 else "X"
        other = "O" if mover == "X" else "X"
        return "".join("." if d == 0 else mover if d == 1 else other for d in digits) + f" ({mover} to move)"


def tictactoe_table() -> TicTacToeTiers:
    """Tic-tac-toe over all 3^9 boards, seen from the player to move."""
    return TicTacToeTiers()
