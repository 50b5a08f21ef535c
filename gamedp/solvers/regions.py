"""Nimbers of placement boards as sums of independent regions, with a persistent table of canonical regions.

A placement board (Cram, BLOCKGAME, any impartial :class:`~gamedp.games.placement.PlacementGame`) falls apart into
regions of empty cells that no placement spans; its nimber is the XOR of theirs. :class:`RegionSolver` finds region
nimbers by a compiled mex search (:mod:`gamedp.kernels.regions`) in which every move's sub-regions are looked up
in a hash table keyed by the canonical region (translated to the corner, least over the symmetries the pieces
allow), so a region met anywhere, on any board, in any run, is solved once. The table is kept on disk in the
database family (checksummed sections, atomic writes): later runs start from it.

Outcome-only questions go by the Lemoine-Viennot method: the nimbers of all parts but one, then a search of the
last part plus a Nim heap; compiled for placement boards (:meth:`RegionSolver.wins`, which also finds nimbers as
the least heap that loses: :meth:`RegionSolver.nimber_by_search`), in Python for any impartial game with a
``split`` hook (:class:`PartsOutcome`).

>>> from gamedp.games.placement import Cram
>>> solver = RegionSolver(Cram(3, 4).rules, table=None)
>>> solver.nimber(0), solver.nimber(0b011000000110)   # the empty 3 x 4 board; then b1, c1, b3, c3 filled
(1, 3)
>>> solver.solved > 0
True
"""

from __future__ import annotations

import copy
import functools
import os
from pathlib import Path
from typing import Any, Callable, Hashable

from gamedp.errors import GamedpError, ResourceError
from gamedp.game import Game, Position, overrides
from gamedp.square import MAPS

#: the 8 maps of the square in the order the region kernel takes them (see :data:`gamedp.square.MAPS`)
MAP_ORDER = ("identity", "rot180", "mirror", "flip", "rot90", "rot270", "transpose", "antitranspose")
#: bytes a table slot takes: two key words and an int16 nimber, a slot of the cache in front (up to CACHE_SLOTS of
#: them) and FILTER_BITS of the filter
SLOT_BYTES = 30
#: bytes a slot of the outcome search's memo takes: two key words and the outcome, and its cache slot in front
OUTCOME_SLOT_BYTES = 34
#: most slots of the outcome search's caches of canonical keys and splits of regions as they lie on the board
#: (48 bytes a slot): the search asks again for what it met a few nodes before
NEAR_SLOTS = 1 << 16
#: most slots of the cache of regions as they lie on the board, in front of the table (10 bytes a slot)
CACHE_SLOTS = 1 << 22
#: bits of the filter in front of the table a table slot: up to 8 ways a region lies (its allowed images), 3/4 of
#: the slots used at most, so at most 6 bits set in 16
FILTER_BITS = 16
#: nodes the kernel finishes between two progress reports
STEP = 1 << 15
TABLE_ID = "regions"


def region_symmetries(rules: Any) -> list[str]:
    """The maps of the square that send the pieces' orientations onto themselves: a region and its image under
    any of them have the same nimber.

    >>> from gamedp.games.placement import Cram, Domineering, Rules, Piece
    >>> len(region_symmetries(Cram(3, 4).rules))
    8
    >>> region_symmetries(Rules("t", 3, 3, [[Piece("##/#.", "fixed"), Piece("#./##", "fixed")]]))
    ['identity', 'flip']
    """
    shapes = set(rules.orientations[0])
    out = []
    for name in MAP_ORDER:
        ok = True
        for o in shapes:
            size = max(max(r, c) for r, c in o) + 1
            image = [MAPS[name](r, c, size, size) for r, c in o]
            r0, c0 = min(r for r, _ in image), min(c for _, c in image)
            ok = ok and tuple(sorted((r - r0, c - c0) for r, c in image)) in shapes
        if ok:
            out.append(name)
    return out


def neighbour_masks(rules: Any) -> list[int]:
    """The cells with a neighbour to the right, left, below, above, and the row stride: what the kernel needs to
    split a board into 4-connected regions."""
    cells = [(i // rules.cols, i % rules.cols) for i in range(rules.n)]
    has = [lambda r, c: c + 1 < rules.cols, lambda r, c: c > 0, lambda r, c: r + 1 < rules.rows, lambda r, c: r > 0]
    return [sum(1 << i for i, (r, c) in enumerate(cells) if ok(r, c)) for ok in has] + [rules.cols]


def _connected(cells: tuple[tuple[int, int], ...]) -> bool:
    """Whether a piece's cells are 4-connected (then 4-connected regions are independent).

    >>> _connected(((0, 0), (0, 1), (1, 1))), _connected(((0, 0), (0, 2)))
    (True, False)
    """
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


@functools.lru_cache(maxsize=64)
def kernel_frame(rules: Any) -> tuple:
    """(orientations, edges, symmetry flags): the arrays the region kernels take for a board, which only read
    them; made once per ruleset object, as the whole-board search's symmetry tables are (``Rules.sym_table``)."""
    import numpy as np

    shapes = rules.orientations[0]
    connected = all(_connected(o) for o in shapes)
    # then a cell is live iff it has an empty neighbour: a domino fits there, and any piece on it has one
    simple = all(len(o) > 1 for o in shapes) and {((0, 0), (0, 1)), ((0, 0), (1, 0))} <= set(shapes)
    edges = np.array(neighbour_masks(rules) + [int(simple)] if connected else [0] * 6, np.uint64)
    names = region_symmetries(rules)
    return rules.orient_array(), edges, np.array([name in names for name in MAP_ORDER], np.uint8)


def table_variant(rules: Any) -> dict:
    """What the region table of ``rules`` depends on: the pieces (region keys carry no board size)."""
    return {"game": rules.name, "pieces": rules.variant()["pieces"]}


def default_table_path(rules: Any) -> Path:
    from gamedp.database import default_path

    return default_path(f"{TABLE_ID}-{rules.name}", {"pieces": rules.variant()["pieces"]})


class RegionSolver:
    """Nimbers of the boards of one impartial placement ruleset, by sums of canonical regions.

    ``table`` is the region table file (default: in the database directory, see :func:`default_table_path`),
    read at start if it exists and written back by :meth:`save`; None keeps the table in memory only.
    ``progress(solved, table_size)`` is called every few thousand regions; ``memory`` caps the bytes the table
    may take (default: 3/4 of the memory available when it has to grow).
    """

    def __init__(self, rules: Any, table: str | os.PathLike | None | bool = True,
                 progress: Callable[[int, int], None] | None = None, memory: int | None = None):
        import numpy as np

        from gamedp.aot import load_kernels

        if not rules.impartial:
            raise GamedpError(f"{rules.name}: a partizan game (each player has their own pieces) has no nimbers; "
                              "regions are solved for impartial games only")
        self.k = load_kernels("gamedp.kernels.regions")
        self.np = np
        self._frame(rules)
        self.progress = progress
        self.memory = memory
        self.path = default_table_path(rules) if table is True else (Path(table) if table else None)
        self.solved = 0  # regions solved by this solver (not read from the table)
        self.outcomes = None  # the memo of the outcome search: (region key, heap) -> win/lose
        self.memo_used = 0
        self.nodes = 0  # positions the outcome search expanded
        self.loaded = 0
        self._alloc(1 << 12)
        self._new_outcome_cache(1 << 12)
        self.stack = np.empty(1 << 12, np.uint64)
        self.state = np.zeros(5, np.int64)
        if self.path is not None and self.path.exists():
            self._load()

    def _frame(self, rules: Any) -> None:
        """What the kernels need of the board: its pieces' placements, cells, neighbours and symmetries."""
        self.rules = rules
        self.orient, self.edges, self.syms = kernel_frame(rules)
        self.full = self.np.uint64(rules.full)
        self.cols = self.np.uint64(rules.cols)

    def for_board(self, rules: Any) -> RegionSolver:
        """A solver for another board size of the same pieces that takes over this one's table (use it instead of
        this one from now on).

        >>> from gamedp.games.placement import Cram
        >>> small = RegionSolver(Cram(2, 3).rules, table=None)
        >>> small.nimber(0)
        1
        >>> tall = small.for_board(Cram(3, 2).rules)   # the same region turned: nothing new to solve
        >>> tall.nimber(0), tall.solved - small.solved
        (1, 0)
        """
        if table_variant(rules) != table_variant(self.rules):
            raise GamedpError(f"{rules.name}: other pieces than {self.rules.name}'s; a region table holds one set")
        other = copy.copy(self)
        other._frame(rules)
        other._new_cache(len(self.ck))  # the caches hold regions as they lie on this board
        other.bloom = self.np.zeros_like(self.bloom)
        other.filter_stale = True
        other._new_outcome_cache(len(self.ocr))
        return other

    # -- the table -------------------------------------------------------------------------------------------
    def _alloc(self, capacity: int) -> None:
        np = self.np
        self.k0 = np.zeros(capacity, np.uint64)
        self.k1 = np.zeros(capacity, np.uint64)
        self.vals = np.zeros(capacity, np.int16)
        self._new_cache(min(capacity, CACHE_SLOTS))
        # the filter in front of the table, for the outcome search (``gamedp.kernels.regions.may_hold``): a bit for
        # each way a region of the table can lie on this board; the outcome search sets the bits of what it adds
        # to the table, and fills the filter again from the table if it was filled otherwise (grown, read, by the
        # mex search) or the solver moved to another board
        self.bloom = np.zeros(capacity * FILTER_BITS // 64, np.uint64)
        self.filter_stale = False

    def _fill_filter(self) -> None:
        self.bloom[:] = 0
        self.k.fill_filter(self.k0, self.k1, self.cols, self.syms, self.bloom)
        self.filter_stale = False

    def _new_cache(self, slots: int) -> None:
        self.ck, self.cv = self.np.zeros(slots, self.np.uint64), self.np.zeros(slots, self.np.int16)

    def _new_outcome_cache(self, slots: int) -> None:
        """The caches in front of the outcome memo, of regions as they lie on this board: their outcomes with a
        heap (``ocr``/``ocv``), their canonical keys (``kr``/``kd``/``kc``) and how children split (``sc``)."""
        self.ocr, self.ocv = self.np.zeros(slots, self.np.uint64), self.np.zeros(slots, self.np.int64)
        near = min(slots, NEAR_SLOTS)
        self.kr, self.kd, self.kc = (self.np.zeros(near, self.np.uint64) for _ in range(3))
        self.sc = self.np.zeros(3 * near, self.np.uint64)

    def __len__(self) -> int:
        """The number of regions in the table."""
        return int(self.state[1])

    def _afford(self, size: int, what: str, detail: str) -> None:
        """Raise ResourceError (after saving the table) if ``size`` bytes more are past the memory allowed."""
        from gamedp.memory import available_memory

        budget = self.memory if self.memory is not None else available_memory() * 3 // 4
        if size > budget:
            where = f"; the {len(self):,} regions solved so far are kept in {self.path}" if self.path else ""
            if self.path is not None:
                self.save()
            raise ResourceError(f"{self.rules.name}: {what} {size / 2**30:.1f} GiB ({detail}), more than the "
                                f"{budget / 2**30:.1f} GiB of memory left{where}; try a smaller board")

    def _grow(self, need: int | None = None) -> None:
        """Double the hash table (or more, to hold ``need`` entries at 3/4 load), if memory allows."""
        capacity = 2 * len(self.k0)
        while need is not None and need * 4 > capacity * 3:
            capacity *= 2
        self._afford(capacity * SLOT_BYTES, "the region table would need", f"{len(self):,} regions now")
        old = (self.k0, self.k1, self.vals)
        self._alloc(capacity)
        self.k.insert_all(*old, self.k0, self.k1, self.vals)
        self.filter_stale = True

    def entries(self):
        """(dims, cells, nimbers): every region in the table, as numpy arrays."""
        used = self.k0 != 0
        return self.k0[used], self.k1[used], self.vals[used]

    def _load(self) -> None:
        from gamedp.database import Container, DatabaseError

        fix = f"delete {self.path} (the regions will be solved again) or pass another --table"
        with Container(self.path, fix=fix) as c:
            meta = c.meta
            if meta.get("game_id") != TABLE_ID or meta.get("variant") != table_variant(self.rules):
                raise DatabaseError(f"{self.path} is not a region table of {self.rules.name} with these pieces; {fix}")
            widths = {"dims": 2, "cells": 8, "nimbers": 2}
            count = len(c.section("dims")) // 2 if c.has("dims") else 0
            if any(not c.has(name) or len(c.section(name)) != width * count for name, width in widths.items()):
                raise DatabaseError(f"the region table {self.path} lacks a section, or has sections of different "
                                    f"lengths: it is damaged; {fix}", damaged=True)
            np = self.np
            d = np.frombuffer(c.section("dims"), np.uint16).astype(np.uint64)
            cells = np.frombuffer(c.section("cells"), np.uint64).copy()
            vals = np.frombuffer(c.section("nimbers"), np.int16).copy()
        if (vals < 0).any():
            raise DatabaseError(f"the region table {self.path} holds a negative nimber: it is damaged; {fix}",
                                damaged=True)
        self._reserve(len(d))
        self.state[1] += self.k.insert_all(d, cells, vals, self.k0, self.k1, self.vals)
        self.filter_stale = True
        self.state[4] = 64  # the largest region in the table: any, as far as the outcome search knows
        self.loaded = int(self.state[1])

    def _reserve(self, n: int) -> None:
        if (int(self.state[1]) + n) * 4 > len(self.k0) * 3:
            self._grow(int(self.state[1]) + n)

    def save(self) -> Path | None:
        """Write the table (every region known) to its file, atomically; returns the path (None if in memory)."""
        if self.path is None:
            return None
        from gamedp.database import write_container

        d, cells, vals = self.entries()
        meta = {"game_id": TABLE_ID, "variant": table_variant(self.rules), "size": int(len(d)),
                "key": "dims = h << 8 | w of the bounding box; cells row by row at stride w; least symmetric image"}
        write_container(self.path, meta, [("dims", d.astype(self.np.uint16)), ("cells", cells), ("nimbers", vals)])
        return self.path

    # -- solving ---------------------------------------------------------------------------------------------
    def parts(self, board: int) -> list[int]:
        """The regions of ``board`` (1 = filled cell), as masks of empty cells."""
        out = self.np.empty(64, self.np.uint64)
        n = self.k.board_parts(self.np.uint64(board), self.full, self.orient, self.edges, out)
        return [int(x) for x in out[:n]]

    def keys(self, regions: list[int]) -> list[tuple[int, int]]:
        """The canonical keys (dims, cells) of regions given as masks of empty cells."""
        np = self.np
        out = np.empty((len(regions), 2), np.uint64)
        self.k.region_keys(np.array(regions, np.uint64), self.cols, self.syms, out)
        return [(int(a), int(b)) for a, b in out]

    def nimber(self, board: int) -> int:
        """The nimber of ``board`` (1 = filled cell): the XOR of its regions' nimbers, solving those not known."""
        for region in self.parts(board):
            self._solve(region)
        return self._board_nimber(board)

    def _board_nimber(self, board: int) -> int:
        v = int(self.k.board_nimber(self.np.uint64(board), self.full, self.orient, self.edges, self.cols, self.syms,
                                    self.k0, self.k1, self.vals, self.ck, self.cv))
        if v < 0:
            raise AssertionError("a region of a solved board is missing from the table")
        return v

    def _solve(self, region: int) -> None:
        k, np, state = self.k, self.np, self.state
        self.stack[0] = region
        state[0] = 1
        state[3] = STEP
        before = int(state[2])
        try:
            while True:
                status = k.solve_regions(self.orient, self.edges, self.cols, self.syms, self.k0, self.k1, self.vals,
                                         self.ck, self.cv, self.stack, state)
                if status == 0:
                    break
                if status == 1:
                    self._grow()
                elif status == 2:
                    bigger = np.empty(2 * len(self.stack), np.uint64)
                    bigger[:len(self.stack)] = self.stack
                    self.stack = bigger
                elif self.progress is not None:
                    self.progress(int(state[2]), int(state[1]))
        finally:
            self.solved += int(state[2]) - before
            self.filter_stale = True  # the mex search sets no filter bits: the outcome search fills it again

    def wins(self, board: int, heap: int = 0) -> bool:
        """Whether the player to move wins ``board`` (1 = filled cell) plus a Nim heap of ``heap``, by the
        Lemoine-Viennot search (:func:`gamedp.kernels.regions.outcome_search`): nimbers of the smaller regions of
        each position met, a search of the largest one plus a Nim heap. Faster than :meth:`nimber` when only the
        outcome is asked.

        >>> from gamedp.games.placement import Cram
        >>> solver = RegionSolver(Cram(4, 5).rules, table=None)
        >>> solver.wins(0), solver.wins(0b00100_00100_00100_00100)   # empty 4 x 5; then the middle column filled
        (True, False)
        """
        np, k = self.np, self.k
        if self.outcomes is None:
            self.outcomes = (np.zeros(1 << 12, np.uint64), np.zeros(1 << 12, np.uint64), np.zeros(1 << 12, np.int16))
        frames = 2 * self.rules.n + 2
        per_frame = len(self.rules.placements[0])  # a node's placements are some of the board's
        ostate = np.array([self.memo_used, 0, STEP], np.int64)
        while True:
            if self.filter_stale:
                self._fill_filter()
            fc = np.empty(frames * per_frame, np.uint64)
            fs, fx = np.empty(frames * per_frame, np.int64), np.empty(frames * per_frame, np.int64)
            fr, fh = np.empty(frames, np.uint64), np.empty(frames, np.int64)
            fn, fi = np.empty(frames, np.int64), np.empty(frames, np.int64)
            before = int(self.state[2])
            try:
                code = k.outcome_search(self.full & np.uint64(~board & (2**64 - 1)), heap,
                                        (self.orient, self.edges, self.cols, self.syms),
                                        (self.k0, self.k1, self.vals, self.bloom, self.ck, self.cv, self.stack,
                                         self.state),
                                        (*self.outcomes, self.ocr, self.ocv), (self.kr, self.kd, self.kc, self.sc),
                                        (fr, fh, fc, fx, fs, fn, fi), ostate)
            finally:
                self.solved += int(self.state[2]) - before
                self.memo_used = int(ostate[0])
            if code > 0:
                self.nodes += int(ostate[1])
                return code == 2
            if code == -1:
                self._grow()
            elif code == -2:
                self.stack = np.concatenate([self.stack, self.stack])
            elif code == -3:
                self._afford(2 * len(self.outcomes[0]) * OUTCOME_SLOT_BYTES, "the outcome search's memo would need",
                             f"{self.memo_used:,} positions now")
                old = self.outcomes
                self.outcomes = tuple(np.zeros(2 * len(a), a.dtype) for a in old)
                k.insert_all(*old, *self.outcomes)
                self._new_outcome_cache(min(len(self.outcomes[0]), CACHE_SLOTS))
            elif code == -4:
                frames *= 2
            else:
                ostate[2] += STEP
                if self.progress is not None:
                    self.progress(self.solved, len(self))

    def nimber_by_search(self, board: int) -> int:
        """The nimber of ``board`` as the least heap h for which board + *h is lost, each by :meth:`wins`: no
        nimber of the whole board's regions is needed, only of the smaller parts met (Lemoine and Viennot).

        >>> from gamedp.games.placement import Cram
        >>> RegionSolver(Cram(3, 4).rules, table=None).nimber_by_search(0)
        1
        """
        h = 0
        while self.wins(board, h):
            h += 1
        return h

    def winning_moves(self, board: int) -> list[int]:
        """The placements (as masks) after which the board's nimber is 0."""
        self.nimber(board)
        wins = []
        for p in self.rules.placements[0]:
            if p & board == 0:
                child = board | p
                for region in self.parts(child):
                    self._solve(region)
                if self._board_nimber(child) == 0:
                    wins.append(p)
        return wins


# -- any impartial game with a split hook -------------------------------------------------------------------------
class PartsOutcome:
    """Win/lose of positions of an impartial game that splits into parts, by the Lemoine-Viennot method: the
    nimbers of all parts but one (the one with the most moves), then a search of that part plus a Nim heap of
    their XOR. A part whose nimber becomes known along the way answers at once.

    >>> from gamedp.games.placement import Cram
    >>> game = Cram(2, 5)
    >>> PartsOutcome(game).wins(0), PartsOutcome(game).wins(0b0000100001)
    (True, False)
    """

    def __init__(self, game: Game):
        from gamedp.solvers.grundy import Nimbers

        if not overrides(game, "split"):
            raise GamedpError(f"{game.name}: this game has no split hook, so it cannot be solved by parts; "
                              "define split(position) or use the whole-position solvers")
        self.game = game
        self.nimbers = Nimbers(game)
        self.memo: dict[tuple[Hashable, int], bool] = {}

    def wins(self, position: Position) -> bool:
        """Whether the player to move wins ``position`` under normal play."""
        parts = list(self.game.split(position))
        if not parts:
            return False
        last, heap = self._reduce(parts)
        return heap != 0 if last is None else self._wins_plus(last, heap)

    def _reduce(self, parts: list[Position]) -> tuple[Position | None, int]:
        """(the part left to search, or None; the XOR of the other parts' nimbers)."""
        unknown = [i for i, p in enumerate(parts) if self.nimbers.known(p) is None]
        last = max(unknown, key=lambda i: len(list(self.game.children(parts[i])))) if unknown else None
        heap = 0
        for i, p in enumerate(parts):
            if i != last:
                heap ^= self.nimbers(p)
        return (None if last is None else parts[last]), heap

    def _wins_plus(self, part: Position, heap: int) -> bool:
        g = self.nimbers.known(part)
        if g is not None:
            return g != heap
        key = (self.nimbers.key(part), heap)
        found = self.memo.get(key)
        if found is not None:
            return found
        won = any(not self._wins_plus(part, h) for h in range(heap))
        if not won:
            for child in self.game.children(part):
                parts = list(self.game.split(child))
                last, x = self._reduce(parts) if parts else (None, 0)
                if (x == heap) if last is None else not self._wins_plus(last, x ^ heap):
                    won = True
                    break
        self.memo[key] = won
        return won

