"""Wythoff's game: two heaps; take any number from one heap, or the same number from both.

The losing positions are (floor(k phi), floor(k phi^2)) and their mirror images (phi the golden ratio);
nimbers come from a table filled by mex, one bit mask per row, column and diagonal.

>>> game = Wythoff()
>>> [game.nimber((0, n)) for n in range(5)], game.nimber((1, 2)), game.nimber((3, 5))
([0, 1, 2, 3, 4], 0, 0)
>>> [game.format_move((4, 9), m) for m in game.winning_moves((4, 9))]
['4 7']
>>> p_positions(4)
[(0, 0), (1, 2), (3, 5), (4, 7)]
"""

from __future__ import annotations

from math import isqrt

from gamedp.errors import GamedpError, InputError, ResourceError
from gamedp.game import Game
from gamedp.games.impartial.heaps import BYTES_PER_PYTHON_TERM, POSITION_STEPS, check_terms, parse_heaps
from gamedp.games.impartial.octal import PYTHON_STEP, refuse_long
from gamedp.solvers.memo import BYTES_PER_POSITION
from gamedp.values import LOSE, Outcome

Pair = tuple[int, int]
#: Misère play is a direct search: about (a+1)(b+1) positions of a+b+1 moves each, at most this many steps.
MISERE_SEARCH_WORK = 5 * 10**7


def p_positions(count: int) -> list[Pair]:
    """The first ``count`` losing positions (a <= b): a_k = floor(k phi), b_k = a_k + k, exactly in integers."""
    return [((k + isqrt(5 * k * k)) // 2, (k + isqrt(5 * k * k)) // 2 + k) for k in range(count)]


def _pairs_below(position: Pair) -> int:
    a, b = sorted(position)
    return (a + 1) * (b + 1) - a * (a + 1) // 2


def nimber_table(size: int) -> list[list[int]]:
    """G(a, b) for 0 <= a, b < size."""
    check_terms(size * size, "a Wythoff table", BYTES_PER_PYTHON_TERM)
    # A cell costs a few Python steps, more as the row, column and diagonal masks grow (docs/performance.md).
    refuse_long(0, size, lambda n: n * n * PYTHON_STEP * (1 + n // 1000), f"G(a, b) for a, b < {size}")
    cols = [0] * size  # bit v of cols[b]: some G(i, b) = v for i < a
    diag: dict[int, int] = {}
    table = [[0] * size for _ in range(size)]
    for a in range(size):
        row = table[a]
        rmask = 0
        for b in range(size):
            seen = rmask | cols[b] | diag.get(b - a, 0)
            v = (~seen & (seen + 1)).bit_length() - 1
            row[b] = v
            bit = 1 << v
            rmask |= bit
            cols[b] |= bit
            diag[b - a] = diag.get(b - a, 0) | bit
    return table


class Wythoff(Game):
    """Wythoff's game; a position is two heap sizes, ``"3 5"``; a move is written as the position it leaves."""

    name = family = "wythoff"

    def __init__(self, misere: bool = False, heaps: tuple[int, int] = (4, 7)):
        self.misere = misere
        self.name = ("misere-" if misere else "") + self.family
        self._start = tuple(sorted(heaps))
        self._table: list[list[int]] = []

    @property
    def impartial(self) -> bool:
        """Front ends show nimbers of impartial games; under misère play a nimber does not decide the game."""
        return not self.misere

    def start(self) -> Pair:
        return self._start

    def children(self, position: Pair) -> list[Pair]:
        a, b = position
        return ([(a - k, b) for k in range(1, a + 1)] + [(a, b - k) for k in range(1, b + 1)]
                + [(a - k, b - k) for k in range(1, min(a, b) + 1)])

    def canonical(self, position: Pair) -> Pair:
        return tuple(sorted(position))

    def memory_estimate(self, position: Pair) -> int:
        """Bytes the memo engine (analyze, play) needs to search ``position``: each pair (x, y), x <= y, below it.

        >>> Wythoff().memory_estimate((1, 2)) == 5 * BYTES_PER_POSITION   # 0 0, 0 1, 0 2, 1 1, 1 2
        True
        """
        return _pairs_below(position) * BYTES_PER_POSITION

    def work_estimate(self, position: Pair) -> int:
        """A bound on the steps the memo engine takes from ``position`` (see ``HeapGame.work_estimate``)."""
        a, b = sorted(position)
        return _pairs_below(position) * (a + b + a + POSITION_STEPS)

    def nimber(self, position: Pair) -> int:
        a, b = position
        if max(a, b) >= len(self._table):
            self._table = nimber_table(max(a, b, 2 * len(self._table)) + 1)
        return self._table[a][b]

    def winning_moves(self, position: Pair) -> list[Pair]:
        return [c for c in self.children(position) if self.nimber(c) == 0]

    def misere_outcome(self, position: Pair) -> Outcome:
        from gamedp.solvers.memo import Solution

        if not self.misere:
            return Wythoff(True).misere_outcome(position)
        a, b = position
        if (a + 1) * (b + 1) * (a + b + 1) > MISERE_SEARCH_WORK:
            raise ResourceError(f"misère Wythoff from {a} {b} is found by a direct search, and that one would take "
                                f"too long (keep (a+1)(b+1)(a+b+1) under {MISERE_SEARCH_WORK:,})")
        if not hasattr(self, "_memo"):
            self._memo = Solution(self, outcomes_only=True)
        return self._memo.value(position).outcome

    def misere_winning_moves(self, position: Pair) -> list[Pair]:
        return [c for c in self.children(position) if self.misere_outcome(c) is LOSE]

    def format_position(self, position: Pair) -> str:
        return f"{position[0]} {position[1]}"

    def parse_position(self, text: str) -> Pair:
        heaps = parse_heaps(text)
        if len(heaps) != 2:
            raise InputError(f"a Wythoff position is two heap sizes, like '3 5'; got {len(heaps)}", 1, 1, "position")
        return heaps[0], heaps[1]

    def format_move(self, position: Pair, move: Pair) -> str:
        return self.format_position(move)

    def parse_move(self, position: Pair, text: str) -> Pair:
        try:
            child = self.parse_position(text)
        except InputError as e:
            raise GamedpError(f"{text.strip()!r} is not a move: write the position it leaves, like '1 3'") from e
        if child not in self.children(position):
            raise GamedpError(f"{self.format_position(position)} cannot move to {self.format_position(child)}: take "
                              "from one heap, or the same number from both")
        return child
