"""Domineering values by sums of regions, with a table of region values keyed up to the board's symmetries.

A board is (height, width, empty cells as bits, bit r * width + c). Its value is the sum of its regions' (the
4-connected groups of empty cells: a domino lies in one); a lone cell is 0. A region is looked up under the
8 symmetries of the square: a reflection or a half turn keeps its value, a quarter turn (or a transpose) swaps
Vertical's dominoes with Horizontal's and so negates it. Vertical is Left.

>>> str(value_of_text("2x2")), str(value_of_text("2x3")), str(value_of_text("1x5"))
('±1', '{2|-1/2}', '-2')
>>> value_of_text("3x2") == -value_of_text("2x3")
True
"""

from __future__ import annotations

from gamedp.cgt import budget
from gamedp.cgt import canonical as cf
from gamedp.cgt.values import GameValue
from gamedp.errors import InputError, ResourceError

Board = tuple[int, int, int]

#: any board (regions summed), keyed cells << 16 | height << 8 | width -> id
_memo: dict[int, int] = {}
#: a region in its symmetry class's least image (keyed the same way) -> id
table: dict[int, int] = {}
#: the most cells a board may have
MAX_CELLS = 64
#: the most cells of a board valued in Python while the compiled kernels are not built: Python values any board
#: of 20 cells in well under a second, less than the kernels take to build
BUILD_CELLS = 20
#: new regions valued between two looks at the memory held (a look reads two small /proc files)
CHECK_EVERY = 1024


def value(board: Board, compiled: bool | None = None) -> GameValue:
    """The value of a board: by the compiled kernels (:mod:`gamedp.cgt.domineering_compiled`) where they can
    value it, else here in Python. ``compiled``: None to use the kernels if they are built, and to build them
    (once per machine, a minute or less) for a board of more than :data:`BUILD_CELLS` cells; True to use them,
    built if need be; False for Python, which fills :data:`table` (the regions a region table file saves)."""
    if compiled is not False:
        from gamedp.cgt.domineering_compiled import form

        g = form(*board, memory_bound=budget.bound, build=compiled or board[0] * board[1] > BUILD_CELLS)
        if g is not None:
            return GameValue(g)
    return GameValue(board_id(*board))


def value_within(board: Board, most: int) -> GameValue:
    """The value of a board, or a :class:`ResourceError` once more than ``most`` regions not met before would be
    valued for it (regions valued until then are kept). ``analyze`` shows values of boards it can value in a
    moment, and leaves the others out; the compiled kernels value them if they are built (never built here).

    >>> str(value_within((4, 4, (1 << 16) - 1), 5_000))
    '±{0,{{2|0},2Tiny(2)|{2|0},Miny(2)}}'
    >>> value_within((6, 6, (1 << 36) - 1), 100)
    Traceback (most recent call last):
    ...
    gamedp.errors.ResourceError: valuing this board takes more than 100 new regions
    """
    from gamedp.cgt.domineering_compiled import form

    g = form(*board, most=most, memory_bound=budget.bound, build=False)  # no minute's wait for an answer
    if g is not None:
        return GameValue(g)
    global _region_limit
    _region_limit = len(table) + most
    try:
        return value(board, compiled=False)
    except _TooMany:
        raise ResourceError(f"valuing this board takes more than {most:,} new regions") from None
    finally:
        _region_limit = None


class _TooMany(Exception):
    pass


#: the table size at which :func:`value_within`'s valuation stops
_region_limit: int | None = None


def board_id(h: int, w: int, cells: int) -> int:
    memo, hw = _memo, h << 8 | w
    key = cells << 16 | hw
    g = memo.get(key)
    if g is not None:
        return g
    g = cf.ZERO
    for region in region_cells(h, w, cells):
        # a region is looked up where it lies first: most were met before in the same frame, and cutting
        # them to their bounding box again would cost more than the look-up
        found = memo.get(region << 16 | hw)
        if found is None:
            part = cut(h, w, region)
            part_key = part[2] << 16 | part[0] << 8 | part[1]
            found = memo.get(part_key)
            if found is None:
                found = memo[part_key] = _region_id(*part)
            memo[region << 16 | hw] = found
        g = cf.add(g, found)
    memo[key] = g
    return g


def _region_id(h: int, w: int, cells: int) -> int:
    (h, w, cells), negated = least_image((h, w, cells))
    key = cells << 16 | h << 8 | w
    g = table.get(key)
    if g is None:
        memo, hw = _memo, h << 8 | w
        below = cells & (cells >> w)  # top cells of vertical dominoes
        beside = cells & (cells >> 1) & _shape(h, w)[2]  # left cells of horizontal ones
        lefts, rights = [], []
        for found, moves, step in ((lefts, below, w), (rights, beside, 1)):
            while moves:
                b = moves & -moves
                moves ^= b
                child = cells & ~(b | b << step)
                known = memo.get(child << 16 | hw)
                found.append(board_id(h, w, child) if known is None else known)
        g = table[key] = cf.make(lefts, rights)
        if not len(table) % CHECK_EVERY:
            check_memory()
        if _region_limit is not None and len(table) > _region_limit:
            raise _TooMany
    return cf.negate(g) if negated else g


def check_memory() -> None:
    """Stop with a :class:`ResourceError` past ``--memory`` (:data:`gamedp.cgt.budget.bound`), or before the machine
    runs out."""
    budget.check(f"valuing the board's regions stopped after {len(table):,} regions", "board")


#: (h, w) -> (column masks, all but the first column, all but the last, the first row's mask)
_shapes: dict[int, tuple[tuple[int, ...], int, int, int]] = {}


def _shape(h: int, w: int) -> tuple[tuple[int, ...], int, int, int]:
    found = _shapes.get(h << 8 | w)
    if found is None:
        full = (1 << h * w) - 1
        columns = tuple(sum(1 << (r * w + c) for r in range(h)) for c in range(w))
        found = _shapes[h << 8 | w] = (columns, full & ~columns[0], full & ~columns[-1], (1 << w) - 1)
    return found


def regions(h: int, w: int, cells: int) -> list[Board]:
    """The regions of a board, each cut to its bounding box; lone cells left out."""
    return [cut(h, w, region) for region in region_cells(h, w, cells)]


def region_cells(h: int, w: int, cells: int) -> list[int]:
    """The regions of a board, each as its cells on the board; lone cells left out.

    >>> [format_board((3, 3, r)) for r in region_cells(3, 3, 0b110000011)]
    ['..#/###/###', '###/###/#..']
    """
    columns, not_first, not_last, _ = _shape(h, w)
    out = []
    while cells:
        region = cells & -cells
        while True:
            grown = (region | (region << 1 & not_first) | (region >> 1 & not_last) | region << w | region >> w) & cells
            if grown == region:
                break
            region = grown
        cells ^= region
        if region & (region - 1):
            out.append(region)
    return out


def cut(h: int, w: int, cells: int) -> Board:
    """A region's board cut to its bounding box."""
    columns, _, _, top_row = _shape(h, w)
    if cells & columns[0] and cells & columns[-1] and cells & top_row and cells >> (h - 1) * w:
        return h, w, cells  # it spans the board: nothing to cut
    top = ((cells & -cells).bit_length() - 1) // w
    rows = (cells.bit_length() - 1) // w + 1 - top
    low, high = 0, w - 1
    while not cells & columns[low]:
        low += 1
    while not cells & columns[high]:
        high -= 1
    cells >>= top * w
    if low == 0 and high == w - 1:
        return rows, w, cells
    width = high - low + 1
    row_mask = (1 << width) - 1
    out = 0
    for i in range(rows):
        out |= ((cells >> (i * w + low)) & row_mask) << (i * width)
    return rows, width, out


#: (h, w) -> the images' height and width, their lanes' shifts, how many keep the value, the piece tables
_images: dict[int, tuple[int, int, tuple[int, ...], int, tuple[list[int], ...]]] = {}
#: a board's images are packed side by side in one int, each in a lane of this many bits (at most 64 cells)
_LANE = 64
#: a board is read in pieces of this many cells, each looked up in a table of its 2**_PIECE fillings
_PIECE = 6


def _image_tables(h: int, w: int) -> tuple[int, int, tuple[int, ...], int, tuple[list[int], ...]]:
    """The images of an h x w board in the orientation whose height is at most its width (a square has both):
    first those that keep the value, then the transposed ones, which negate it. Where every cell goes in each
    image is worked out once here, so that imaging a board is a few table look-ups rather than a loop over its
    cells: piece j's table maps the filling of cells j * _PIECE ... to those cells' images in all images at
    once, one image per lane."""
    maps = []
    if h <= w:
        maps += [lambda r, c: (r, c), lambda r, c: (r, w - 1 - c), lambda r, c: (h - 1 - r, c),
                 lambda r, c: (h - 1 - r, w - 1 - c)]
    kept = len(maps)
    if h >= w:
        maps += [lambda r, c: (c, r), lambda r, c: (c, h - 1 - r), lambda r, c: (w - 1 - c, r),
                 lambda r, c: (w - 1 - c, h - 1 - r)]
    width = max(h, w)
    lanes = []
    for bit in range(h * w):
        lanes.append(sum(1 << (k * _LANE + r * width + c) for k, image in enumerate(maps)
                         for r, c in (image(*divmod(bit, w)),)))
    tables = []
    for first in range(0, h * w, _PIECE):
        table = [0]
        for images in lanes[first:first + _PIECE]:
            table += [t | images for t in table]
        tables.append(table)
    return min(h, w), width, tuple(k * _LANE for k in range(len(maps))), kept, tuple(tables)


def least_image(board: Board) -> tuple[Board, bool]:
    """The least of a board's 8 images, and whether that image negates the value (a quarter turn or a
    transpose swaps the players). Images are compared as (height, width, cells); an image reached both ways
    keeps the value.

    >>> least_image((2, 3, 0b111110))
    ((2, 3, 31), False)
    >>> least_image((3, 1, 0b110))
    ((1, 3, 3), True)
    """
    h, w, cells = board
    found = _images.get(h << 8 | w)
    if found is None:
        found = _images[h << 8 | w] = _image_tables(h, w)
    height, width, shifts, kept, tables = found
    packed = 0
    for table in tables:
        packed |= table[cells & _PIECE_MASK]
        cells >>= _PIECE
    lanes = [packed >> s & _LANE_MASK for s in shifts]
    least = min(lanes)
    return (height, width, least), lanes.index(least) >= kept


_PIECE_MASK = (1 << _PIECE) - 1
_LANE_MASK = (1 << _LANE) - 1


def parse_board(text: str, source: str = "position") -> Board:
    """``RxC`` (an empty board) or rows of ``.`` (empty) and ``#`` (filled) joined by ``/``, top row first."""
    text = text.strip()
    head, x, tail = text.replace("X", "x").partition("x")
    sizes = head.strip(), tail.strip()
    if x and all(n.isascii() and n.isdigit() and len(n) <= 3 for n in sizes):
        h, w = int(sizes[0]), int(sizes[1])
        if not h or not w or h * w > MAX_CELLS:
            raise InputError(f"a board of {h} x {w} cells: give 1 to {MAX_CELLS} cells", source=source)
        return h, w, (1 << h * w) - 1
    rows = text.split("/")
    w = len(rows[0])
    cells, column = 0, 1
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == ".":
                cells |= 1 << (r * w + c)
            elif ch != "#":
                raise InputError(f"unexpected {ch!r} in row {r + 1}: a cell is '.' (empty) or '#' (filled); rows "
                                 "are joined by '/'", source=f"{source}, column {column + c}")
        if len(row) != w or not row:
            raise InputError(f"row {r + 1} has {len(row)} cells, the first row {w}: every row of a board has the "
                             "same length", source=f"{source}, column {column}")
        column += len(row) + 1
    if len(rows) * w > MAX_CELLS:
        raise InputError(f"a board of {len(rows)} x {w} cells: at most {MAX_CELLS} cells", source=source)
    return len(rows), w, cells


def format_board(board: Board) -> str:
    h, w, cells = board
    return "/".join("".join("." if cells >> (r * w + c) & 1 else "#" for c in range(w)) for r in range(h))


def value_of_text(text: str) -> GameValue:
    return value(parse_board(text))
