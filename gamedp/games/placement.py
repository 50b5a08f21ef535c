"""Placement games: players take turns placing pieces on the empty cells of an R x C board (at most 64 cells;
Domineering's, up to 256).

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

import string
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Sequence

from gamedp.errors import GameDefinitionError, GamedpError, InputError
from gamedp.game import Game
from gamedp.games.placement_rows import parse_row
from gamedp.games.placement_table import SolvedTable, TableSpec, byte_table_lists, counts, format_counts, lookup
from gamedp.games.registry import GAMES
from gamedp.square import MAPS
from gamedp.values import Analysis, analysis_of

MAX_CELLS = 64
#: up to this many cells, analysing one position solves the whole table with remoteness (a fraction of a second
#: on 5 x 5: docs/performance.md)
ANALYSIS_TABLE_CELLS = 25
#: Column names: a to z, then aa to ad (Domineering's boards have up to 30 columns).
COLUMNS = tuple(string.ascii_lowercase) + ("aa", "ab", "ac", "ad")

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

    def __init__(self, name: str, rows: int, cols: int, pieces: Sequence[Sequence[Piece]],
                 max_cells: int = MAX_CELLS):
        if rows < 1 or cols < 1 or rows * cols > max_cells or cols > len(COLUMNS):
            raise GamedpError(f"{name}: a board is 1-{len(COLUMNS)} columns and at most {max_cells} cells, "
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
        return lookup(self.sym_tables_py[s], board)

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
        wide = max(len(name) for name in COLUMNS[:self.cols])  # a board past z takes two characters a column
        lines = ["   " + " ".join(f"{name:>{wide}}" for name in COLUMNS[:self.cols])]
        for r in range(self.rows):
            row = []
            for c in range(self.cols):
                i = r * self.cols + c
                row.append(f"{'o' if mark >> i & 1 else '#' if board >> i & 1 else '.':>{wide}}")
            lines.append(f"{r + 1:>2} " + " ".join(row))
        return "\n".join(lines)

    def parse_board(self, text: str, source: str = "position", then: str = "") -> int:
        """A board from ``rows`` lines of ``cols`` characters ``.``/``#`` (spaces ignored), or all the cells on
        one line; the coordinates :meth:`draw` puts around the board may stay. ``then`` says what a position may
        hold after the board (for the message of a board that is not one)."""
        lines = [(no, line.split()) for no, line in enumerate(text.splitlines(), 1) if line.strip()]
        if lines and lines[0][1] == list(COLUMNS[:self.cols]):
            lines = lines[1:]  # the column letters
        lines = [(no, "".join(words[1:] if words[0].isdigit() else words)) for no, words in lines]
        if len(lines) == 1 and len(lines[0][1]) == self.n:
            no, cells = lines[0]
            lines = [(no, cells[r * self.cols:(r + 1) * self.cols]) for r in range(self.rows)]
        if len(lines) != self.rows:
            raise InputError(f"a {self.name} board is {self.rows} lines of {self.cols} characters '.' or '#' (or "
                             f"{self.n} characters on one line){then}; got {len(lines)} lines", None, None, source)
        board = 0
        for r, (no, line) in enumerate(lines):
            board |= parse_row(line, self.cols, no, source) << (r * self.cols)
        return board


# -- the games ---------------------------------------------------------------------------------------------
DOMINO = Piece("##", "rotations")
L_TROMINO = Piece("##/#.", "rotations")


class PlacementGame(Game):
    """A placement game as a :class:`~gamedp.game.Game`: positions are bitboards (plus the turn, if partizan)."""

    def __init__(self, rules: Rules):
        self.rules = rules
        # A built-in game's board is named as the registry names it (domineering:8x8); the rules keep the
        # game's plain name, which region tables record.
        entry = GAMES.get(rules.name) if type(self).__module__ == __name__ else None
        self.name = entry.name_of({"rows": rules.rows, "cols": rules.cols}) if entry else rules.name
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
            col, row = name.rstrip(string.digits), name.lstrip(string.ascii_lowercase)
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

    A position is the board, then optionally ``V`` or ``H`` naming the player to move (default V): on a line of
    its own, or after a board written on one line.
    """

    player_names = ("Vertical", "Horizontal")

    def __init__(self, rows: int = 4, cols: int = 4):
        super().__init__(Rules("domineering", rows, cols, [[Piece("#/#", "fixed")], [Piece("##", "fixed")]],
                               max_cells=DOMINEERING_CELLS))
        #: the cells of the last column, where no horizontal domino starts
        self._last_column = sum(1 << r * cols + cols - 1 for r in range(rows))

    def heuristic(self, position: int) -> float:
        """An estimate for the player to move, in -1..1, for depth-limited play (``--depth``): its moves less the
        other's, over both counts (mobility: the player who runs out of moves first loses).

        >>> game = Domineering(4, 4)
        >>> game.heuristic(game.start()), game.heuristic(game.parse_position("....####........")) < 0
        (0.0, True)
        """
        rules = self.rules
        empty = ~position & rules.full
        vertical = (empty & empty >> rules.cols).bit_count()
        horizontal = (empty & ~self._last_column & empty >> 1).bit_count()
        mine, theirs = (horizontal, vertical) if self.player(position) else (vertical, horizontal)
        return (mine - theirs) / (mine + theirs) if mine + theirs else 0.0

    def score_search(self) -> Any:
        """Boards of more than :data:`SEARCHED_CELLS` cells, where valuing every position below takes long: who
        wins, by the exact search of :mod:`gamedp.games.domineering_scores` (boards past 8 x 8: its wide one)."""
        if self.rules.n <= SEARCHED_CELLS:
            return None
        from gamedp.games.domineering_scores import (FRAME, WIDE_CELLS, BigDomineeringScores, DomineeringScores,
                                                     WideDomineeringScores)

        if self.rules.n > WIDE_CELLS:
            return BigDomineeringScores(self)
        if max(self.rules.rows, self.rules.cols) > FRAME:
            return WideDomineeringScores(self)
        return DomineeringScores(self)

    def parse_position(self, text: str) -> int:
        """The board, then who moves: a last line ``V`` or ``H`` (or ``Vertical``, ``Horizontal to move``, ...),
        or, for a board written on one line, the same word after it; Vertical when none is given.

        >>> game = Domineering(2, 2)
        >>> [game.player(game.parse_position(text)) for text in ("..\\n..\\nH", ".... H", "....  horizontal to move",
        ...                                                        "#... v", "##..")]
        [1, 1, 1, 0, 0]
        """
        lines = text.strip().splitlines()
        turn = 0
        if lines:
            words = lines[-1].split()
            said = [w.lower() for w in words]
            named = len(said) - (3 if said[-2:] == ["to", "move"] else 1)
            if named >= 0 and said[named] in _TURNS and (named == 0 or len(lines) == 1):
                turn = _TURNS[said[named]]
                if named:
                    lines[-1] = " ".join(words[:named])
                else:
                    lines.pop()
        return self.rules.parse_board("\n".join(lines), then=", then V or H for the player to move (on a line of its "
                                      "own, or after a board written on one line)") | turn << self.rules.n


#: The words that name the player to move after a Domineering board.
_TURNS = {"v": 0, "vertical": 0, "h": 1, "horizontal": 1}

#: Domineering's boards: the exact search's (its wide search's up to 127 cells, its big one's up to 256), at most 30
#: rows and 30 columns.
DOMINEERING_CELLS = 256
DOMINEERING_SIDE = 30

#: Domineering boards with more cells than this are answered by the exact search (outcomes only): on 5 x 5, the
#: memoised search takes half a minute for the remoteness.
SEARCHED_CELLS = 20


def domineering(rows: int = 4, cols: int = 4) -> Domineering:
    """Domineering on ``rows`` x ``cols``: the exact search's boards, up to 256 cells, 30 rows and 30 columns
    (named a to z, then aa to ad).

    >>> game = domineering(16, 16)
    >>> game.name, game.rules.rows, game.rules.cols
    ('domineering:16x16', 16, 16)
    >>> domineering(4, 30).rules.move_name(1 << 29 | 1 << 59)
    'ad1-ad2'
    """
    if not (1 <= rows <= DOMINEERING_SIDE and 1 <= cols <= DOMINEERING_SIDE and rows * cols <= DOMINEERING_CELLS):
        raise GamedpError(f"domineering:{rows}x{cols} is not a board: write domineering:RxC, at most "
                          f"{DOMINEERING_SIDE} rows, {DOMINEERING_SIDE} columns and {DOMINEERING_CELLS} cells (e.g. "
                          f"domineering:9x9, domineering:16x16 or domineering:8x30)")
    return Domineering(rows, cols)


def misere_play(rules: Rules, board: int) -> tuple[bool, list[int], int]:
    """Misère play (the player who cannot move wins) on ``board`` of an impartial ruleset: whether the player to
    move wins, the placements that win, and the positions searched. Misère outcomes do not add over regions as
    nimbers do, so the whole board is searched, by the memoised search (symmetries and dead cells still fold
    positions together: they keep the moves, which is all misère play looks at).

    >>> misere_play(Cram(1, 2).rules, 0)    # the only domino leaves the other player without a move: they win
    (False, [], 2)
    """
    from gamedp.solvers.memo import Solution
    from gamedp.values import LOSE, WIN

    game = PlacementGame(rules)
    game.misere = True
    solution = Solution(game, outcomes_only=True)
    wins = solution.value(board).outcome is WIN
    return wins, [m for m in game.moves(board) if solution.value(board | m).outcome is LOSE], len(solution)


def blockgame_rules(rows: int = 5, cols: int = 5) -> Rules:
    return Rules("blockgame", rows, cols, [[L_TROMINO, DOMINO]])


def blockgame_table_spec(rows: int = 5, cols: int = 5) -> TableSpec:
    """BLOCKGAME's word-parallel table on a rows x cols board (the judge's, and the tier solver's shards)."""
    return TableSpec(blockgame_rules(rows, cols))


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
