"""Placement games: players take turns placing pieces on the empty cells of an R x C board (at most 64 cells).

A ruleset is a board size and, for each player, a set of polyomino pieces with the orientations allowed. With one
piece set for both players the game is impartial (BLOCKGAME, Cram); with one per player it is partizan
(Domineering: one side places vertical dominoes, the other horizontal ones). The player with no move loses.

Positions are bitboards: bit ``r * cols + c`` is set when the cell in row r, column c is filled. Partizan positions
carry the player to move in bit ``rows * cols``. Cells are named like a chessboard seen as written: columns ``a``,
``b``, ... from the left, rows ``1``, ``2``, ... from the top, so a placement reads ``a1-b1-a2``.

The board's symmetries (8 on a square, 4 on a rectangle) are used when they map every player's placements to
themselves; each is applied with one table look-up per byte of the board.

>>> game = Blockgame()
>>> board = game.parse_position("#####\\n#####\\n##.##\\n#...#\\n##.##")
>>> sorted(game.format_move(board, m) for m in game.moves(board))[:4]
['b4-c4', 'b4-c4-c5', 'c3-b4-c4', 'c3-c4']
>>> len(game.rules.symmetries), len(game.rules.placements[0])
(8, 104)
>>> Cram(3, 4).rules.variant()["pieces"]
[[{'shape': '##', 'orientations': 'rotations'}]]
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Sequence

from gamedp.errors import GameDefinitionError, GamedpError, InputError
from gamedp.game import Game
from gamedp.square import MAPS
from gamedp.values import LOSE, WIN, Analysis, Value, analysis_of

MAX_CELLS = 64
#: the largest board the strong solve tables take (2**cells boards; 2**28 is 32 MiB of win/lose bits)
MAX_TABLE_CELLS = 28
#: up to this many cells, analysing one position solves the whole table with remoteness (5 x 5: ~0.3 s, 64 MiB)
ANALYSIS_TABLE_CELLS = 25
COLUMNS = string.ascii_lowercase

ORIENTATIONS = {
    "fixed": ("identity",),
    "rotations": ("identity", "rot90", "rot180", "rot270"),
    "all": tuple(MAPS),
}


def cell_name(r: int, c: int) -> str:
    return f"{COLUMNS[c]}{r + 1}"


@dataclass(frozen=True)
class Piece:
    """A polyomino given as rows of ``#`` (cell) and ``.`` separated by ``/``, and the orientations allowed:
    ``"fixed"``, ``"rotations"``, ``"all"`` (with reflections) or a tuple of map names (see :data:`gamedp.square.MAPS`).

    >>> Piece("##/#.", "rotations").orientation_cells()[1]
    ((0, 0), (0, 1), (1, 1))
    """

    shape: str
    orientations: str | tuple[str, ...] = "rotations"

    def cells(self) -> tuple[tuple[int, int], ...]:
        rows = self.shape.split("/")
        cells = tuple((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#")
        if not cells or any(ch not in "#." for row in rows for ch in row):
            raise GameDefinitionError(f"piece {self.shape!r}: write a piece as rows of '#' and '.' joined by '/'")
        return cells

    def maps(self) -> tuple[str, ...]:
        names = ORIENTATIONS.get(self.orientations, self.orientations) if isinstance(self.orientations, str) \
            else self.orientations
        unknown = [m for m in names if m not in MAPS]
        if unknown or isinstance(names, str):
            raise GameDefinitionError(f"piece {self.shape!r}: unknown orientations {self.orientations!r}; use "
                                      f"{', '.join(ORIENTATIONS)} or a tuple of {', '.join(MAPS)}")
        return tuple(names)

    def orientation_cells(self) -> list[tuple[tuple[int, int], ...]]:
        """Each distinct orientation as its cells, moved to touch row 0 and column 0, sorted."""
        cells = self.cells()
        h = max(r for r, _ in cells) + 1
        w = max(c for _, c in cells) + 1
        out: list[tuple[tuple[int, int], ...]] = []
        for m in self.maps():
            image = [MAPS[m](r, c, max(h, w), max(h, w)) for r, c in cells]
            r0, c0 = min(r for r, _ in image), min(c for _, c in image)
            shape = tuple(sorted((r - r0, c - c0) for r, c in image))
            if shape not in out:
                out.append(shape)
        return out

    def to_json(self) -> dict:
        o = self.orientations
        return {"shape": self.shape, "orientations": o if isinstance(o, str) else list(o)}


class Rules:
    """Board geometry, placements and symmetries of one placement game."""

    def __init__(self, name: str, rows: int, cols: int, pieces: Sequence[Sequence[Piece]]):
        if rows < 1 or cols < 1 or rows * cols > MAX_CELLS or cols > len(COLUMNS):
            raise GamedpError(f"{name}: a board is 1-{len(COLUMNS)} columns and at most {MAX_CELLS} cells, "
                              f"not {rows} x {cols}")
        if len(pieces) not in (1, 2) or not all(pieces):
            raise GameDefinitionError(f"{name}: give one piece set (impartial) or two (one per player)")
        self.name, self.rows, self.cols = name, rows, cols
        self.pieces = tuple(tuple(p) for p in pieces)
        self.n = rows * cols
        self.full = (1 << self.n) - 1
        self.impartial = len(self.pieces) == 1
        #: per player: each orientation as cell offsets (row, col) from its anchor
        self.orientations = [[o for p in ps for o in p.orientation_cells()] for ps in self.pieces]
        for per_player in self.orientations:
            dup = {o for o in per_player if per_player.count(o) > 1}
            if dup:
                raise GameDefinitionError(f"{name}: two pieces share the orientation {sorted(dup)[0]}")
        #: per player: every placement as a board mask, in increasing order
        self.placements = [sorted(m for o in per_player for m in self._masks(o)) for per_player in self.orientations]
        self.symmetries = self._symmetries()

    def _masks(self, orientation: tuple[tuple[int, int], ...]) -> list[int]:
        h = max(r for r, _ in orientation) + 1
        w = max(c for _, c in orientation) + 1
        return [sum(1 << ((r0 + r) * self.cols + c0 + c) for r, c in orientation)
                for r0 in range(self.rows - h + 1) for c0 in range(self.cols - w + 1)]

    def cell_map(self, name: str) -> list[int] | None:
        """The board map ``name`` as a list: cell i goes to cell result[i]; None if it does not fit the board."""
        if name in ("rot90", "rot270", "transpose", "antitranspose") and self.rows != self.cols:
            return None
        out = []
        for i in range(self.n):
            r, c = MAPS[name](i // self.cols, i % self.cols, self.rows, self.cols)
            out.append(r * self.cols + c)
        return out

    def map_board(self, board: int, cells: list[int]) -> int:
        return sum(1 << cells[i] for i in range(self.n) if board >> i & 1)

    def _symmetries(self) -> list[list[int]]:
        """The board maps that send every player's placements onto themselves (identity first)."""
        out = []
        for name in MAPS:
            cells = self.cell_map(name)
            if cells is None:
                continue
            if all(sorted(self.map_board(p, cells) for p in ps) == ps for ps in self.placements):
                out.append(cells)
        return out

    @cached_property
    def sym_table(self):
        """uint64 (symmetries, bytes of the board, 256): :attr:`sym_tables_py` as the kernels take it."""
        import numpy as np

        return np.array(self.sym_tables_py, np.uint64)

    @cached_property
    def sym_tables_py(self) -> list[list[list[int]]]:
        """``[symmetry][byte of the board][byte value]``: the image of each byte value under each symmetry."""
        return byte_table_lists(self.symmetries, self.n)

    def image(self, board: int, s: int) -> int:
        """``board`` under symmetry ``s``: a few table look-ups.

        >>> rules = Blockgame().rules
        >>> rules.image(0b111, 1) == rules.map_board(0b111, rules.symmetries[1])
        True
        """
        return _lookup(self.sym_tables_py[s], board)

    def live(self, board: int) -> int:
        """The empty cells some player could still cover; the others are as good as filled."""
        live = 0
        for ps in self.placements:
            for p in ps:
                if p & board == 0:
                    live |= p
        return live

    def canonical_board(self, board: int) -> int:
        b = board | (self.full & ~self.live(board))
        return min(self.image(b, s) for s in range(len(self.symmetries)))

    def orient_array(self, player: int = 0):
        """The orientations as the kernels take them: rows of (shape, anchor mask, cell count, offsets...)."""
        import numpy as np

        per = self.orientations[player]
        width = 3 + max(len(o) for o in per)
        a = np.zeros((len(per), width), np.uint64)
        for k, o in enumerate(per):
            h = max(r for r, _ in o) + 1
            w = max(c for _, c in o) + 1
            offsets = [r * self.cols + c for r, c in o]
            anchors = sum(1 << (r * self.cols + c) for r in range(self.rows - h + 1) for c in range(self.cols - w + 1))
            a[k, 0] = sum(1 << x for x in offsets)
            a[k, 1] = anchors
            a[k, 2] = len(offsets)
            a[k, 3:3 + len(offsets)] = offsets
        return a

    def variant(self) -> dict:
        return {"rows": self.rows, "cols": self.cols, "pieces": [[p.to_json() for p in ps] for ps in self.pieces]}

    # -- text ----------------------------------------------------------------------------------------------
    def cells_of(self, mask: int) -> list[int]:
        return [i for i in range(self.n) if mask >> i & 1]

    def move_name(self, mask: int) -> str:
        return "-".join(cell_name(i // self.cols, i % self.cols) for i in self.cells_of(mask))

    def draw(self, board: int, mark: int = 0) -> str:
        """The board with coordinates; cells of ``mark`` are drawn as ``o``."""
        lines = ["   " + " ".join(COLUMNS[:self.cols])]
        for r in range(self.rows):
            row = []
            for c in range(self.cols):
                i = r * self.cols + c
                row.append("o" if mark >> i & 1 else "#" if board >> i & 1 else ".")
            lines.append(f"{r + 1:>2} " + " ".join(row))
        return "\n".join(lines)

    def parse_board(self, text: str, source: str = "position") -> int:
        """A board from ``rows`` lines of ``cols`` characters ``.``/``#`` (spaces ignored), or all the cells on
        one line; the coordinates :meth:`draw` puts around the board may stay."""
        lines = [(no, line.split()) for no, line in enumerate(text.splitlines(), 1) if line.strip()]
        if lines and lines[0][1] == list(COLUMNS[:self.cols]):
            lines = lines[1:]  # the column letters
        lines = [(no, "".join(words[1:] if words[0].isdigit() else words)) for no, words in lines]
        if len(lines) == 1 and len(lines[0][1]) == self.n:
            no, cells = lines[0]
            lines = [(no, cells[r * self.cols:(r + 1) * self.cols]) for r in range(self.rows)]
        if len(lines) != self.rows:
            raise InputError(f"a {self.name} board is {self.rows} lines of {self.cols} characters '.' or '#' (or "
                             f"{self.n} characters on one line); got {len(lines)} lines", None, None, source)
        board = 0
        for r, (no, line) in enumerate(lines):
            board |= parse_row(line, self.cols, no, source) << (r * self.cols)
        return board


def parse_row(line: str, cols: int, line_no: int, source: str = "input") -> int:
    """One board row of ``.``/``#`` as bits (bit c = column c filled), with a located error otherwise."""
    bits = 0
    for c, ch in enumerate(line):
        if ch == "#":
            bits |= 1 << c
        elif ch != ".":
            raise InputError(f"unexpected character {ch!r}: a board row has only '.' (empty) and '#' (filled)",
                             line_no, c + 1, source)
    if len(line) != cols:
        raise InputError(f"a board row has {cols} characters, this one has {len(line)}", line_no, None, source)
    return bits


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


# -- the games ---------------------------------------------------------------------------------------------
DOMINO = Piece("##", "rotations")
L_TROMINO = Piece("##/#.", "rotations")


class PlacementGame(Game):
    """A placement game as a :class:`~gamedp.game.Game`: positions are bitboards (plus the turn, if partizan)."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.name = rules.name
        self._turn_bit = 1 << rules.n

    # -- rules -----------------------------------------------------------------------------------------
    def start(self) -> int:
        return 0

    def player(self, position: int) -> int:
        return 0 if self.rules.impartial else position >> self.rules.n & 1

    def moves(self, position: int) -> list[int]:
        board = position & self.rules.full
        return [p for p in self.rules.placements[self.player(position)] if p & board == 0]

    def do_move(self, position: int, move: int) -> int:
        return (position | move) ^ (0 if self.rules.impartial else self._turn_bit)

    def children(self, position: int) -> list[int]:
        flip = 0 if self.rules.impartial else self._turn_bit
        return [(position | p) ^ flip for p in self.moves(position)]

    @property
    def impartial(self) -> bool:
        return self.rules.impartial

    def options(self, position: int) -> tuple[list[int], list[int]]:
        """Partizan values: the boards after each player's placements (the first piece set is Left's), with the
        other player to move."""
        if self.rules.impartial:
            kids = self.children(position)
            return kids, kids
        board = position & self.rules.full
        left = [board | p | self._turn_bit for p in self.rules.placements[0] if p & board == 0]
        right = [board | p for p in self.rules.placements[1] if p & board == 0]
        return left, right

    def canonical(self, position: int) -> int:
        return self.rules.canonical_board(position & self.rules.full) | (position & ~self.rules.full)

    def split(self, position: int) -> list[int]:
        """Impartial games: the board's regions, each as a board with every other cell filled (empty cells that no
        placement spans between them; cells no placement covers are dropped).

        >>> Cram(2, 5).split(0b0010000100)   # column c filled: a 2 x 2 region on each side
        [924, 231]
        """
        if not self.rules.impartial:
            raise GamedpError(f"{self.name}: a partizan game's regions do not add up by nimbers; regions are for "
                              "impartial games")
        full = self.rules.full
        fits = [p for p in self.rules.placements[0] if p & position == 0]
        parts = []
        while fits:
            region, grown = fits[0], True
            while grown:
                grown = False
                for p in fits:
                    if p & region and p & ~region:
                        region |= p
                        grown = True
            fits = [p for p in fits if not p & region]
            parts.append(full & ~region)
        return parts

    # -- text ------------------------------------------------------------------------------------------
    def format_position(self, position: int) -> str:
        text = self.rules.draw(position & self.rules.full)
        if not self.rules.impartial:
            text += f"\n{self.player_names[self.player(position)]} to move"
        return text

    def parse_position(self, text: str) -> int:
        return self.rules.parse_board(text)

    def format_move(self, position: int, move: int) -> str:
        return self.rules.move_name(move)

    def format_move_on_board(self, position: int, move: int) -> str:
        """The board with the placement drawn as ``o``."""
        return self.rules.draw(position & self.rules.full, move)

    def parse_move(self, position: int, text: str) -> int:
        """A placement named by its cells, in any order and separated by ``-``, ``,`` or spaces (``a1-b1-a2``)."""
        names = [t for t in text.replace(",", " ").replace("-", " ").lower().split() if t]
        mask = 0
        for name in names:
            col, row = name[:1], name[1:]
            if col not in COLUMNS[:self.rules.cols] or not row.isdigit() or not 1 <= int(row) <= self.rules.rows:
                raise GamedpError(f"{name!r} is not a cell of this board (columns a-{COLUMNS[self.rules.cols - 1]}, "
                                  f"rows 1-{self.rules.rows})")
            mask |= 1 << ((int(row) - 1) * self.rules.cols + COLUMNS.index(col))
        legal = self.moves(position)
        if mask not in legal:
            shown = ", ".join(self.format_move(position, m) for m in legal) or "none"
            raise GamedpError(f"{text.strip()!r} is not a legal placement here; legal: {shown}")
        return mask

    # -- fast analysis -------------------------------------------------------------------------------------
    def analyze(self, position: int) -> Analysis:
        """Value, remoteness and every placement's value, best first: from the strong-solve table where the
        board is small enough (impartial games up to 25 cells), else by the memoised search."""
        if not (self.rules.impartial and self.rules.n <= ANALYSIS_TABLE_CELLS):
            from gamedp.solvers.memo import Solution

            return Solution(self).analyze(position)
        table = self._table()
        return analysis_of(position, table.value(position), self.move_list(position), table.value)

    def _table(self) -> SolvedTable:
        if getattr(self, "_solved", None) is None:
            spec = TableSpec(self.rules)
            win, rem = spec.solve_bits(remoteness=True)
            self._solved = SolvedTable(spec, win, rem)
        return self._solved


class Blockgame(PlacementGame):
    """algospot BLOCKGAME: place an L-tromino (4 orientations) or a domino (2) on empty cells; no move loses.

    A position is 5 lines of 5 characters (``#`` filled, ``.`` empty) or the 25 characters on one line.
    """

    def __init__(self, rows: int = 5, cols: int = 5):
        super().__init__(blockgame_rules(rows, cols))

    def tiered(self):
        """Every board as a tiered game (see :mod:`gamedp.games.placement_tiers`), for ``gamedp solve``; found
        through the registry of indexed games, since the tiered form is built on this one."""
        from gamedp.games.indexed import table_spec

        return table_spec("blockgame", rows=self.rules.rows, cols=self.rules.cols)


class Cram(PlacementGame):
    """Cram: players place dominoes in either direction; no move loses (impartial)."""

    def __init__(self, rows: int = 4, cols: int = 4):
        super().__init__(Rules("cram", rows, cols, [[DOMINO]]))


class Domineering(PlacementGame):
    """Domineering: Vertical places vertical dominoes, Horizontal horizontal ones; Vertical starts; no move loses.
    Vertical is Left, as in Winning Ways and CGSuite (values: :mod:`gamedp.cgt.domineering`).

    A position is the board, then optionally a line ``V`` or ``H`` naming the player to move (default V).
    """

    player_names = ("Vertical", "Horizontal")

    def __init__(self, rows: int = 4, cols: int = 4):
        super().__init__(Rules("domineering", rows, cols, [[Piece("#/#", "fixed")], [Piece("##", "fixed")]]))

    def score_search(self) -> Any:
        """Boards of more than :data:`SEARCHED_CELLS` cells (up to 8 x 8), where valuing every position below
        takes long: who wins, by the exact search of :mod:`gamedp.games.domineering_scores`."""
        if self.rules.n <= SEARCHED_CELLS or max(self.rules.rows, self.rules.cols) > 8:
            return None
        from gamedp.games.domineering_scores import DomineeringScores

        return DomineeringScores(self)

    def parse_position(self, text: str) -> int:
        lines = text.strip().splitlines()
        turn = 0
        if lines and lines[-1].strip().lower() in ("v", "h", "vertical", "horizontal",
                                                   "vertical to move", "horizontal to move"):
            turn = int(lines.pop().strip().lower().startswith("h"))
        return self.rules.parse_board("\n".join(lines)) | turn << self.rules.n


#: Domineering boards with more cells than this are answered by the exact search (outcomes only): on 5 x 5, the
#: memoised search takes half a minute for the remoteness.
SEARCHED_CELLS = 20


def domineering_from_spec(parameters: str) -> Domineering:
    """The board named after ``domineering:``, ``RxC`` (rows by columns).

    >>> game = domineering_from_spec("8x8")
    >>> game.rules.rows, game.rules.cols
    (8, 8)
    """
    match = re.fullmatch(r"\s*(\d+)\s*x\s*(\d+)\s*", parameters)
    if not match or not all(1 <= int(n) <= 8 for n in match.groups()):
        raise GamedpError(f"domineering:{parameters} is not a board: write domineering:RxC, rows and columns "
                          "from 1 to 8 (e.g. domineering:8x8)")
    return Domineering(int(match[1]), int(match[2]))


def blockgame_rules(rows: int = 5, cols: int = 5) -> Rules:
    return Rules("blockgame", rows, cols, [[L_TROMINO, DOMINO]])


# -- memo search (the judge) ---------------------------------------------------------------------------------
class MemoSearch:
    """Win/lose of many boards of one impartial ruleset, by the compiled memo search, sharing one memo."""

    def __init__(self, rules: Rules, capacity: int = 1 << 16):
        import numpy as np

        from gamedp.aot import load_kernels

        if not rules.impartial:
            raise GamedpError(f"{rules.name}: the compiled memo search takes impartial games")
        self.rules = rules
        self.kernels = load_kernels("gamedp.kernels.blockgame")
        self.orient = rules.orient_array()
        self.capacity = capacity
        self.states = 0
        self._np = np

    def wins(self, boards: Sequence[int], max_capacity: int | None = None):
        """A numpy bool array: does the player to move win on each board? None if the memo would need more
        than ``max_capacity`` slots (the search gave up)."""
        np = self._np
        b = np.array(boards, np.uint64)
        out = np.zeros(len(b), np.uint8)
        while max_capacity is None or self.capacity <= max_capacity:
            keys = np.full(self.capacity, np.uint64(0xFFFFFFFFFFFFFFFF))
            vals = np.zeros(self.capacity, np.uint8)
            used = self.kernels.dfs_outcomes(b, self.orient, np.uint64(self.rules.full), self.rules.sym_table, keys,
                                             vals, out)
            if used >= 0:
                self.states = used
                return out == 2
            self.capacity *= 2
        return None


#: memo slots the judge's search may fill (3/4 of them) before a whole-table solve is the faster way: on 5 x 5,
#: ~15k states cost about as much as solving all 2**25 boards 64 at a time
SEARCH_BUDGET = 1 << 14
#: boards with at most this many cells filled take 10k-40k states each on 5 x 5: straight to the table
FEW_FILLED = 3


def search_first(boards: Sequence[int]) -> bool:
    """Whether the memo search (within :data:`SEARCH_BUDGET`) may answer ``boards`` before a whole-table solve.

    >>> search_first([0b1111, 0b11110000]), search_first([0b1111, 0b111])
    (True, False)
    """
    return all(b.bit_count() > FEW_FILLED for b in boards)


def wins(rules: Rules, boards: Sequence[int]):
    """Win/lose of each board (numpy bool array): a memo search for easy inputs, else the whole table."""
    import numpy as np

    if rules.n > MAX_TABLE_CELLS:
        return MemoSearch(rules).wins(boards)
    if search_first(boards):
        found = MemoSearch(rules, SEARCH_BUDGET).wins(boards, max_capacity=SEARCH_BUDGET)
        if found is not None:
            return found
    spec = TableSpec(rules)
    bits, _ = spec.solve_bits()
    idx = np.array([spec.index(b) for b in boards], np.int64)
    return (bits[idx >> 3] >> (idx & 7).astype(np.uint8) & 1).astype(bool)


# -- strong solve --------------------------------------------------------------------------------------------
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
        #: [chunk][byte value]: the table bits of each byte of a board, and the reverse (see :func:`_lookup`)
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
        return _lookup(self.to_index, board_bits)

    def format_position(self, board: int) -> str:
        return self.rules.draw(board)

    def parse_position(self, text: str) -> int:
        return self.rules.parse_board(text)

    def position(self, index: int) -> int:
        return _lookup(self.to_board, index)

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
        mask = np.array([sum(1 << j for j in range(1 << nl) if j & int(l) == 0) for l in lo], np.uint64)
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


def _lookup(table, x: int) -> int:
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


def blockgame_table_spec(rows: int = 5, cols: int = 5) -> TableSpec:
    """BLOCKGAME's word-parallel table on a rows x cols board (the judge's, and the tier solver's shards)."""
    return TableSpec(blockgame_rules(rows, cols))


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


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m gamedp.games.placement [--remoteness] [ROWS COLS]``: strong-solve BLOCKGAME, print the counts."""
    import argparse
    import sys
    import time

    p = argparse.ArgumentParser(prog="python -m gamedp.games.placement", description=main.__doc__)
    p.add_argument("rows", nargs="?", type=int, default=5)
    p.add_argument("cols", nargs="?", type=int, default=5)
    p.add_argument("--remoteness", "-r", action="store_true")
    args = p.parse_args(argv)
    from gamedp.aot import load_kernels

    try:
        spec = blockgame_table_spec(args.rows, args.cols)
    except GamedpError as e:
        p.exit(2, f"gamedp: error: {e}\n")
    load_kernels("gamedp.kernels.blockgame")  # the time printed is the solve's alone
    t0 = time.perf_counter()
    bits, rem = spec.solve_bits(args.remoteness)
    seconds = time.perf_counter() - t0
    print(f"blockgame {args.rows} x {args.cols}: {spec.size:,} boards solved in {seconds:.3f} s", file=sys.stderr)
    print(format_counts(counts(bits, spec.by_remoteness if args.remoteness else None)))


if __name__ == "__main__":
    main()
