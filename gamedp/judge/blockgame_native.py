"""algospot BLOCKGAME's judge solve as C-callable kernels, built by :mod:`gamedp.native`: a judge run then loads
neither numpy nor numba. It lives with the judge rather than in :mod:`gamedp.kernels`, which know no game: its
constants are the ruleset's tables, and the loops it calls are :mod:`gamedp.kernels.blockgame`'s.

The 5 x 5 game's arrays (orientations, symmetry tables, the table's pieces and index tables) are made here when
the library is built, by the same code that makes them for the numpy path, and numba compiles them into the
library as constants: a run passes only the boards and the scratch (a change to the placement modules builds the library
again, as a change to any kernel does). The caller (:mod:`gamedp.judge.blockgame`)
reads the input and decides as :func:`gamedp.games.placement_search.wins` does: :func:`search` first when
:func:`~gamedp.games.placement_search.search_first` allows, :func:`table` when it does not or the search gives up.
"""

import numpy as np
from numba import carray

from gamedp.games.placement import blockgame_table_spec
from gamedp.games.placement_search import SEARCH_BUDGET
from gamedp.kernels import blockgame

NATIVE = {
    "sizes": "i8(CPointer(i8))",
    "search": "i8(CPointer(u8), i8, CPointer(u8), CPointer(i8), CPointer(u1), CPointer(u1))",
    "table": "i8(CPointer(u8), i8, CPointer(u8), CPointer(u1))",
}

_SPEC = blockgame_table_spec()
ORIENT = _SPEC.rules.orient_array()
SYM = _SPEC.rules.sym_table
FULL = np.uint64(_SPEC.rules.full)
HI, LO, MASK, LANES, COMPAT = _SPEC.outcome_arrays()
#: the board-to-index byte tables, shaped as one more symmetry for :func:`blockgame.image`
TO_INDEX = np.array([_SPEC.to_index], np.uint64)
#: the table's words: 64 boards each (6 lanes, which 5 x 5 has room for)
WORDS = _SPEC.size >> len(_SPEC.lanes)
assert len(_SPEC.lanes) == 6
#: the search's uint64 scratch: the memo's keys, then its board and children stacks
SEARCH_WORDS = SEARCH_BUDGET + blockgame.DEPTH * (1 + 64 * len(ORIENT))

SIX = np.uint64(6)
LANE = np.uint64(63)


def sizes(sizes_ptr):
    """The scratch the kernels take, into ``sizes``: :func:`search`'s uint64 words, int64 numbers and bytes,
    then :func:`table`'s uint64 words. Returns 4."""
    out = carray(sizes_ptr, 4)
    out[0] = SEARCH_WORDS
    out[1] = 2 * blockgame.DEPTH
    out[2] = SEARCH_BUDGET
    out[3] = WORDS
    return 4


def search(boards_ptr, count, words_ptr, numbers_ptr, bytes_ptr, out_ptr):
    """Win/lose of the ``count`` boards (bit r * 5 + c = filled) into ``out`` (2 = WIN, 1 = LOSE) by the memo
    search within :data:`~gamedp.games.placement_search.SEARCH_BUDGET` slots; returns the states stored, or -1 when
    the search gave up (then ``out`` is incomplete)."""
    words = carray(words_ptr, SEARCH_WORDS)
    keys = words[:SEARCH_BUDGET]
    for s in range(SEARCH_BUDGET):
        keys[s] = blockgame.ALL  # the empty slot
    stack = words[SEARCH_BUDGET:]
    numbers = carray(numbers_ptr, 2 * blockgame.DEPTH)
    return blockgame.dfs_outcomes_into(carray(boards_ptr, count), ORIENT, FULL, SYM, keys,
                                       carray(bytes_ptr, SEARCH_BUDGET), carray(out_ptr, count),
                                       stack[:blockgame.DEPTH], stack[blockgame.DEPTH:],
                                       numbers[:blockgame.DEPTH], numbers[blockgame.DEPTH:])


def table(boards_ptr, count, words_ptr, out_ptr):
    """Win/lose of the ``count`` boards into ``out`` as :func:`search` gives them, by solving every board
    (``words`` holds the win bits, ``WORDS`` of them). Returns 0."""
    win = carray(words_ptr, WORDS)
    blockgame.table_outcomes(HI, LO, MASK, LANES, COMPAT, win)
    boards = carray(boards_ptr, count)
    out = carray(out_ptr, count)
    for k in range(count):
        i = blockgame.image(boards[k], TO_INDEX, 0)
        won = (win[i >> SIX] >> (i & LANE)) & blockgame.ONE
        out[k] = blockgame.WIN_CODE if won != blockgame.ZERO else blockgame.LOSE_CODE
    return 0
