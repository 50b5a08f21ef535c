"""BLOCKGAME as a compiled game: the rules of blockgame_as_game.py as a numba kernel over the same integers.

The kernel is a module-level ``njit(cache=True)`` function, so it is compiled once per machine; the search
engine it plugs into is compiled and cached once for every game.

    python -c "from blockgame_compiled import game; from gamedp.solvers.compiled import solve_compiled; \\
               print(solve_compiled(game, outcomes_only=True).value(0))"
"""

from __future__ import annotations

import numpy as np
from numba import njit

from blockgame_as_game import PLACEMENTS, format_board, format_placement, parse_board
from gamedp import CompiledGame

MASKS = np.array(PLACEMENTS, dtype=np.int64)


@njit(cache=True, nogil=True)
def children(board, out):
    n = 0
    for m in MASKS:
        if board & m == 0:
            out[n] = board | m
            n += 1
    return n


game = CompiledGame("blockgame-compiled", 0, children, max_children=len(PLACEMENTS), num_positions=1 << 25,
                    format_position=format_board, parse_position=parse_board, format_move=format_placement)
