"""Connect-N's estimate of a position at a depth-limited search's horizon (:meth:`Connect4.heuristic`).

Open lines alone leave the opening to chance: from the 7x6 start a search 8 moves deep ranked column 3 above
column 4, the only winning move. So the estimate counts what decides the game, for each side:

* threats, the empty cells that would complete a line of the side's stones (a line with no stone of the other
  side); a threat on a row of the side's parity counts twice: with an even number of rows, the first player's
  threats on odd rows (1, 3, 5 from the bottom) and the second player's on even rows are the ones that zugzwang at
  the end lets them complete;
* the lines still open with fewer stones, a point for each stone in them;
* the centre: each stone counts half the lines through its cell, so central cells, in more lines, count more;
* a threat on a cell one can play now settles it: the mover wins at once with its own, and loses to two of the
  opponent's (or one with another just above it), whichever is blocked.

Everything is bitwise on the key's bitboards, one pass over the lines: a search 8 moves deep scores thousands of
horizons in well under a second.

>>> from gamedp.games.connect4 import Connect4
>>> from gamedp.games.connect4_board import split_key
>>> game = Connect4()
>>> estimate = Evaluation(7, 6, 4)
>>> def of(moves: str) -> float:
...     return estimate(*split_key(game.parse_position(moves), 7, 6))
>>> of(""), of("4") < of("1") < 0                # a centre stone counts more than an edge one
(0.0, True)
>>> of("445566"), of("44556")      # X to move completes 3-6 or 4-7; O to move can block only one of them
(0.9, -0.9)
"""

from __future__ import annotations

from gamedp.games.connect4_board import bottom_mask, full_mask

#: the estimate where the next move settles the game (short of a proven end)
SETTLED = 0.9
#: the most the other terms add up to, either way: below a settled position
MOST = 0.8
#: a threat's worth, in points of open lines (it doubles on its side's rows)
THREAT = 8


class Evaluation:
    """The estimate for a ``width`` x ``height`` board, ``connect`` in a row (see the module's docstring)."""

    def __init__(self, width: int, height: int, connect: int):
        stride = height + 1
        self.connect = connect
        self.windows = [sum(1 << ((c + k * dc) * stride + r + k * dr) for k in range(connect))
                        for c in range(width) for r in range(height) for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
                        if 0 <= c + (connect - 1) * dc < width and 0 <= r + (connect - 1) * dr < height]
        self.bottom = bottom = bottom_mask(width, height)
        self.full = full_mask(width, height)
        # the cells by the number of lines through them, one mask per number: the centre's worth in a few popcounts
        through: dict[int, int] = {}
        for c in range(width):
            for r in range(height):
                cell = 1 << (c * stride + r)
                n = sum(1 for w in self.windows if w & cell)
                through[n] = through.get(n, 0) | cell
        self.centre = sorted(through.items())
        # the first player's rows (1, 3, ... from the bottom, bit r = 0, 2, ...) and the second's; only an even
        # number of rows lets the second player answer each stone with one above it to the end
        odd = sum(bottom << r for r in range(0, height, 2))
        self.parity = (odd, self.full ^ odd) if height % 2 == 0 else (0, 0)
        # about two threats a column: more than positions short of settled hold (their scores then spread over
        # -0.5..0.5, to show in hundredths)
        self.scale = 4 * THREAT * width

    def __call__(self, mover: int, occupied: int) -> float:
        """The estimate, in -1..1, for the player to move: ``mover`` their stones, ``occupied`` every stone."""
        theirs = mover ^ occupied
        empty = self.full & ~occupied
        near = self.connect - 1
        score = 0
        my_threats = their_threats = 0
        for w in self.windows:
            if not theirs & w:
                m = (mover & w).bit_count()
                if m == near:
                    my_threats |= w & empty
                else:
                    score += m
            elif not mover & w:
                t = (theirs & w).bit_count()
                if t == near:
                    their_threats |= w & empty
                else:
                    score -= t
        playable = (occupied + self.bottom) & self.full  # the lowest empty cell of each column
        if my_threats & playable:
            return SETTLED
        forced = their_threats & playable
        if forced & (forced - 1) or (forced << 1) & their_threats:
            return -SETTLED
        mine_first = occupied.bit_count() % 2 == 0
        my_rows, their_rows = self.parity if mine_first else self.parity[::-1]
        score += THREAT * (my_threats.bit_count() + (my_threats & my_rows).bit_count()
                           - their_threats.bit_count() - (their_threats & their_rows).bit_count())
        score = 2 * score + sum(n * ((mover & cells).bit_count() - (theirs & cells).bit_count())
                                for n, cells in self.centre)  # the centre's half points: all doubled
        return max(-MOST, min(MOST, score / self.scale))
