"""What a compiled search returns besides its answer: a status code, and how often it reports progress.

Numba-free, so that a search built ahead of time (:mod:`gamedp.solvers.prebuilt_search`) is read without it.
"""

OK, CYCLE, OUT_OF_RANGE, PRIMITIVE_WITH_MOVES, TOO_MANY_CHILDREN, BAD_PRIMITIVE, NEED_ROOM, STOPPED = range(8)
#: Every this many positions (a mask) the search writes its count to ``watch[0]`` and stops if ``watch[1]`` is set:
#: a Python thread polls them for the progress line and the memory guard while the search runs without the GIL.
REPORT_EVERY = (1 << 16) - 1
