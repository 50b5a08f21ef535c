"""The eight maps of the square (rotations and reflections) on a cell's row and column: the symmetries of
placement boards (:mod:`gamedp.games.placement`) and of the pieces whose regions the region solver
(:mod:`gamedp.solvers.regions`) takes as one.

>>> MAPS["rot90"](0, 1, 3, 3), MAPS["mirror"](0, 1, 3, 3)
((1, 2), (0, 1))
"""

from __future__ import annotations

from typing import Callable

#: The 8 maps of the square on (row, col) in an h x w box, by name; on a rectangle (h != w) the first four keep
#: the box.
MAPS: dict[str, Callable[[int, int, int, int], tuple[int, int]]] = {
    "identity": lambda r, c, h, w: (r, c),
    "rot180": lambda r, c, h, w: (h - 1 - r, w - 1 - c),
    "mirror": lambda r, c, h, w: (r, w - 1 - c),
    "flip": lambda r, c, h, w: (h - 1 - r, c),
    "rot90": lambda r, c, h, w: (c, h - 1 - r),
    "rot270": lambda r, c, h, w: (w - 1 - c, r),
    "transpose": lambda r, c, h, w: (c, r),
    "antitranspose": lambda r, c, h, w: (w - 1 - c, h - 1 - r),
}
