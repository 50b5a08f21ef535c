"""The region solver: nimbers of placement boards as sums of canonical regions, its table, its commands.

The brute force here is written from the rules alone: the placements are listed cell by cell from the shapes, and a
board's nimber is the mex of its children's by plain recursion over whole boards (no regions, no symmetry, no dead
cells, nothing shared with gamedp).
"""

from __future__ import annotations

import json
import random

import pytest
from command import gamedp

from gamedp.compiled import CompiledGame
from gamedp.database import DatabaseError
from gamedp.errors import GamedpError
from gamedp.games.placement import Blockgame, Cram, Piece, PlacementGame, Rules
from gamedp.solvers.grundy import Nimbers
from gamedp.solvers.regions import PartsOutcome, RegionSolver, region_symmetries

L_SHAPES = [((0, 0), (0, 1), (1, 0)), ((0, 0), (0, 1), (1, 1)), ((0, 0), (1, 0), (1, 1)), ((0, 1), (1, 0), (1, 1))]
DOMINOES = [((0, 0), (0, 1)), ((0, 0), (1, 0))]
GAPPED = [((0, 0), (0, 2)), ((0, 0), (2, 0))]  # two cells with a gap: regions are not 4-connected sets
FIXED_L = [((0, 0), (0, 1), (1, 0))]


class Brute:
    """Nimbers of whole boards (bit r * cols + c set = filled) for a list of shapes (each a tuple of cells)."""

    def __init__(self, shapes, rows, cols):
        self.placements = []
        for shape in shapes:
            h = max(r for r, _ in shape) + 1
            w = max(c for _, c in shape) + 1
            for r0 in range(rows - h + 1):
                for c0 in range(cols - w + 1):
                    self.placements.append(sum(1 << ((r0 + r) * cols + c0 + c) for r, c in shape))
        self.memo: dict[int, int] = {}

    def nimber(self, board: int) -> int:
        if board not in self.memo:
            options = {self.nimber(board | p) for p in self.placements if not board & p}
            v = 0
            while v in options:
                v += 1
            self.memo[board] = v
        return self.memo[board]


def custom(shapes, rows, cols) -> PlacementGame:
    """The same shapes as a gamedp ruleset, each orientation its own fixed piece."""
    pieces = [Piece("/".join("".join("#" if (r, c) in s else "." for c in range(max(c for _, c in s) + 1))
                             for r in range(max(r for r, _ in s) + 1)), "fixed") for s in shapes]
    return PlacementGame(Rules("custom", rows, cols, [pieces]))


RULESETS = [("cram", DOMINOES, lambda r, c: Cram(r, c)), ("blockgame", L_SHAPES + DOMINOES, lambda r, c: Blockgame(r, c)),
            ("gapped", GAPPED + DOMINOES, lambda r, c: custom(GAPPED + DOMINOES, r, c)),
            ("fixed L", FIXED_L, lambda r, c: custom(FIXED_L, r, c))]
SIZES = [(r, c) for r in range(1, 6) for c in range(1, 6)]


@pytest.mark.slow
def test_region_nimbers_equal_the_brute_force_on_four_thousand_random_boards():
    rng = random.Random(13)
    checked = 0
    for name, shapes, make in RULESETS:
        for rows, cols in SIZES:
            game = make(rows, cols)
            solver = RegionSolver(game.rules, table=None)
            brute = Brute(shapes, rows, cols)
            for _ in range(40):  # 4 rulesets x 25 sizes x 40
                # boards of up to ~14 empty cells keep the brute force to a second or two
                density = rng.uniform(0.45, 0.7) if rows * cols >= 20 else rng.uniform(0.0, 0.6)
                board = sum(1 << i for i in range(rows * cols) if rng.random() < density)
                g = brute.nimber(board)
                assert solver.nimber(board) == g, (name, rows, cols, bin(board))
                # the outcome search, sharing the table and its memo, or alone (it solves what it needs itself)
                alone = RegionSolver(game.rules, table=None) if rng.random() < 0.2 else solver
                assert alone.wins(board) == (g != 0), (name, rows, cols, bin(board))
                checked += 1
    assert checked >= 4_000


@pytest.mark.parametrize("size", [(3, 4), (4, 4), (2, 6), (3, 5)])
def test_empty_cram_and_blockgame_boards_match_the_brute_force(size):
    for shapes, game in ((DOMINOES, Cram(*size)), (L_SHAPES + DOMINOES, Blockgame(*size))):
        g = Brute(shapes, *size).nimber(0)
        assert RegionSolver(game.rules, table=None).nimber(0) == g
        assert RegionSolver(game.rules, table=None).wins(0) == (g != 0)
        assert RegionSolver(game.rules, table=None).nimber_by_search(0) == g


def test_outcomes_of_boards_with_a_heap_left_agree_with_the_nimbers():
    """Boards whose regions leave the searched one a non-zero heap: the search must make the heap's moves too."""
    rng = random.Random(3)
    rules = Blockgame(4, 5).rules
    solver = RegionSolver(rules, table=None)
    shared = RegionSolver(rules, table=None)  # its memo and caches carry over from board to board
    heaped = 0
    for _ in range(300):
        board = sum(1 << i for i in range(20) if rng.random() < 0.3)
        parts = solver.parts(board)
        fresh = RegionSolver(rules, table=None)
        assert fresh.wins(board) == shared.wins(board) == (solver.nimber(board) != 0), bin(board)
        assert shared.nimber_by_search(board) == solver.nimber(board), bin(board)
        heaped += len(parts) > 1 and any(solver.nimber(rules.full & ~p) for p in parts[1:])
    assert heaped > 10


def test_outcomes_with_any_heap_equal_the_brute_force():
    """board + *h is lost iff the board's nimber is h, for heaps above the nimber too, as far as past the bounds a
    search could settle positions by (a region's nimber is at most its placements and its cells / 2): a bound
    applied wrongly, or a heap move missed, fails here."""
    rng = random.Random(17)
    lost = 0
    for name, shapes, make in RULESETS:
        for rows, cols in ((3, 4), (4, 4), (3, 5), (2, 7)):
            rules = make(rows, cols).rules
            brute = Brute(shapes, rows, cols)
            shared = RegionSolver(rules, table=None)
            for _ in range(40):
                board = sum(1 << i for i in range(rows * cols) if rng.random() < rng.uniform(0.1, 0.5))
                g = brute.nimber(board)
                empty = rows * cols - bin(board).count("1")
                h = g if rng.random() < 0.3 else rng.randrange(empty // 2 + 3)
                solver = shared if rng.random() < 0.7 else RegionSolver(rules, table=None)
                assert solver.wins(board, h) == (g != h), (name, rows, cols, bin(board), h)
                lost += g == h
    assert lost > 100


def test_nimbers_the_outcome_search_records_from_lost_positions_equal_the_mex_search():
    """A position (region, heap h) the outcome search proves lost gives the region's nimber, h: it goes into the
    table. Every entry of a table filled by outcome searches alone must be the region's nimber by the mex search."""
    rng = random.Random(11)
    for game in (Cram(4, 4), Blockgame(3, 5), Cram(3, 5)):
        rules = game.rules
        searched = RegionSolver(rules, table=None)
        for _ in range(60):
            board = sum(1 << i for i in range(rules.n) if rng.random() < 0.2)
            searched.wins(board, rng.randrange(4))
        if game.rules.name == "cram" and rules.rows == rules.cols:
            assert not searched.wins(0)  # so the whole empty board's nimber, 0, is in the table
            (dims, cells), = searched.keys([rules.full])
            assert (dims, cells, 0) in set(zip(*(a.tolist() for a in searched.entries())))
        mex = RegionSolver(rules, table=None)
        recorded = 0
        for dims, cells, v in zip(*searched.entries()):
            h, w = int(dims) >> 8, int(dims) & 255
            region = sum(1 << (i // w * rules.cols + i % w) for i in range(h * w) if int(cells) >> i & 1)
            if h <= rules.rows and w <= rules.cols:
                assert mex.nimber(rules.full & ~region) == v, (h, w, bin(int(cells)))
            else:  # a turned region: solve it on the turned board
                turned = mex.for_board(type(game)(rules.cols, rules.rows).rules)
                region = sum(1 << (i // w * rules.rows + i % w) for i in range(h * w) if int(cells) >> i & 1)
                assert turned.nimber(turned.rules.full & ~region) == v, (h, w, bin(int(cells)))
            recorded += 1
        assert recorded > 20


@pytest.mark.slow
def test_a_solver_moved_to_other_boards_answers_outcomes_in_their_frame():
    """The outcome search caches canonical keys and splits of regions as they lie on the board: a solver moved
    to another board size (for_board) must not read the old board's entries (with either, some of these boards
    go wrong)."""
    rng = random.Random(5)
    for _ in range(6):
        solver = RegionSolver(Blockgame(3, 4).rules, table=None)
        for rows, cols in ((3, 4), (4, 3), (2, 6), (6, 2), (4, 4), (3, 4), (4, 3)):
            solver = solver.for_board(Blockgame(rows, cols).rules)
            brute = Brute(L_SHAPES + DOMINOES, rows, cols)
            for _ in range(40):
                board = sum(1 << i for i in range(rows * cols) if rng.random() < 0.2)
                assert solver.wins(board) == (brute.nimber(board) != 0), (rows, cols, bin(board))


@pytest.mark.parametrize("name,shapes,make", RULESETS)
def test_every_region_in_the_table_passes_the_filter_in_front_of_it(name, shapes, make):
    """The outcome search asks the table for a region only if the filter in front of it passes the region as it
    lies: each region the table holds must pass, however it lies, whoever filled the table (outcome searches, mex
    searches), and in another board's frame (the filter made again from the table)."""
    import numpy as np

    from gamedp.kernels.regions import may_hold

    rng = random.Random(3)
    solver = RegionSolver(make(4, 5).rules, table=None)
    for rows, cols in ((4, 5), (5, 4), (3, 6)):
        solver = solver.for_board(make(rows, cols).rules)
        rules = solver.rules
        for i in range(40):
            board = sum(1 << j for j in range(rules.n) if rng.random() < 0.3)
            solver.wins(board) if i % 2 else solver.nimber(board)
        solver.wins(0)  # the last word to an outcome search, which fills the filter again after the mex search
        known = set(zip(*(a.tolist() for a in solver.entries()[:2])))
        held = 0
        for _ in range(200):
            board = sum(1 << j for j in range(rules.n) if rng.random() < 0.3)
            for region in solver.parts(board):
                if solver.keys([region])[0] in known:
                    with np.errstate(over="ignore"):
                        assert may_hold(np.uint64(region), solver.bloom), (name, rows, cols, bin(region))
                    held += 1
        assert held > 20, held


def test_one_row_cram_is_dawsons_kayles():
    from gamedp.games.impartial import family

    dawson = family("octal:0.07").heap_sequence(20).values  # remove 2 adjacent, from anywhere: 1 x n Cram
    solver = RegionSolver(Cram(1, 20).rules, table=None)
    for n in range(1, 21):
        assert solver.for_board(Cram(1, n).rules).nimber(0) == dawson[n], n


def test_cram_outcomes_follow_the_symmetry_strategy():
    """Even x even: the second player mirrors through the centre and wins; even x odd: the first player takes the
    middle two cells and then mirrors, and wins."""
    solver = RegionSolver(Cram(2, 2).rules, table=None)
    for rows in range(1, 7):
        for cols in range(rows, 7):
            if rows * cols > 24 or rows % 2 and cols % 2:
                continue
            value = solver.for_board(Cram(rows, cols).rules).nimber(0)
            assert (value == 0) == (rows % 2 == 0 and cols % 2 == 0), (rows, cols, value)


def _images(rules, board, names):
    from gamedp.square import MAPS

    out = []
    for name in names:
        cells = [MAPS[name](i // rules.cols, i % rules.cols, rules.rows, rules.cols) for i in range(rules.n)]
        out.append(sum(1 << (cells[i][0] * rules.cols + cells[i][1]) for i in range(rules.n) if board >> i & 1))
    return out


@pytest.mark.parametrize("name,shapes,make", RULESETS)
def test_region_keys_are_invariant_under_the_symmetries_they_claim(name, shapes, make):
    rng = random.Random(7)
    rules = make(6, 6).rules
    claimed = region_symmetries(rules)
    solver = RegionSolver(rules, table=None)
    for _ in range(300):
        region = sum(1 << i for i in range(rules.n) if rng.random() < 0.5) or 1
        keys = set(solver.keys(_images(rules, region, claimed)))
        # a translation as well: one row down and one column right, where the region leaves room
        if not region & (sum(1 << (5 * 6 + c) for c in range(6)) | sum(1 << (r * 6 + 5) for r in range(6))):
            keys |= set(solver.keys([region << 7]))
        assert len(keys) == 1, (name, bin(region))


def test_claimed_symmetries_are_those_of_the_pieces():
    assert len(region_symmetries(Cram(3, 3).rules)) == len(region_symmetries(Blockgame(3, 3).rules)) == 8
    fixed = custom(FIXED_L, 4, 4).rules
    assert region_symmetries(fixed) == ["identity", "transpose"]
    # and a symmetry left out does change nimbers: the fixed L fits its own cells, not their mirror image
    solver = RegionSolver(fixed, table=None)
    el, mirrored = 0b1_0011, 0b10_0011  # a1 b1 a2, and a1 b1 b2, on a 4 x 4 board
    assert solver.nimber(fixed.full & ~el) == 1 and solver.nimber(fixed.full & ~mirrored) == 0


def test_one_cell_pieces_split_a_board_into_single_cells():
    # with a piece that is not 4-connected regions grow by placements; this one is too wide to fit at all
    game = PlacementGame(Rules("dots", 8, 8, [[Piece("#", "fixed"), Piece("#........#", "fixed")]]))
    solver = RegionSolver(game.rules, table=None)
    assert len(solver.parts(0)) == 64 and solver.nimber(0) == 0  # 64 heaps of one: *1 64 times
    assert solver.nimber(1) == 1


@pytest.mark.slow
def test_the_python_grundy_solver_uses_split_and_agrees():
    rng = random.Random(3)
    for shapes, game in ((DOMINOES, Cram(3, 4)), (L_SHAPES + DOMINOES, Blockgame(4, 4)),
                         (GAPPED + DOMINOES, custom(GAPPED + DOMINOES, 4, 4))):
        nimbers, brute = Nimbers(game), Brute(shapes, game.rules.rows, game.rules.cols)
        for _ in range(150):
            board = sum(1 << i for i in range(game.rules.n) if rng.random() < 0.3)
            assert nimbers(board) == brute.nimber(board)
            assert all(nimbers.known(p) is not None for p in game.split(board))


def test_lemoine_viennot_outcomes_agree_with_the_brute_force():
    rng = random.Random(5)
    for shapes, game in ((DOMINOES, Cram(4, 4)), (L_SHAPES + DOMINOES, Blockgame(3, 5))):
        outcome, brute = PartsOutcome(game), Brute(shapes, game.rules.rows, game.rules.cols)
        for _ in range(200):
            board = sum(1 << i for i in range(game.rules.n) if rng.random() < 0.25)
            assert outcome.wins(board) == (brute.nimber(board) != 0)


def test_compiled_games_may_split():
    from numba import njit

    @njit
    def take12(p, out):  # two heaps a * 64 + b; take 1 or 2 from either
        a, b, n = p // 64, p % 64, 0
        for k in (1, 2):
            if a >= k:
                out[n] = p - 64 * k
                n += 1
            if b >= k:
                out[n] = p - k
                n += 1
        return n

    @njit
    def heaps(p, out):
        out[0] = p - p % 64
        out[1] = p % 64
        return 2

    game = CompiledGame("two heaps", 64 * 7 + 5, take12, 4, split=heaps)
    nimbers = Nimbers(game)
    assert [nimbers(64 * a + b) for a, b in ((7, 5), (3, 3), (4, 2))] == [1 ^ 2, 0, 1 ^ 2]
    assert nimbers.known(64 * 7) == 1 and nimbers.known(64 * 7 + 5) is None  # parts are stored, not sums


def test_games_without_split_are_refused_by_parts():
    from gamedp.games.impartial import family

    with pytest.raises(GamedpError, match="no split hook"):
        PartsOutcome(family("nim"))
    with pytest.raises(GamedpError, match="partizan"):
        RegionSolver(PlacementGame(Rules("d", 3, 3, [[Piece("##", "fixed")], [Piece("#/#", "fixed")]])).rules)


def test_the_region_table_persists_and_is_checked(tmp_path):
    path = tmp_path / "cram.gdb"
    first = RegionSolver(Cram(4, 5).rules, table=path)
    assert first.nimber(0) == 2 and first.solved > 1000
    first.save()
    again = RegionSolver(Cram(5, 4).rules, table=path)
    assert again.loaded == len(first) and again.nimber(0) == 2 and again.solved == 0
    with pytest.raises(DatabaseError, match="not a region table of blockgame"):
        RegionSolver(Blockgame(4, 5).rules, table=path)
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(DatabaseError, match="damaged"):
        RegionSolver(Cram(4, 5).rules, table=path)
    assert not list(tmp_path.glob(".*.tmp"))  # written by rename: no temporary left behind


def test_the_table_refuses_to_grow_past_its_memory_and_keeps_what_it_solved(tmp_path):
    path = tmp_path / "cram.gdb"
    solver = RegionSolver(Cram(5, 6).rules, table=path, memory=2 << 20)
    with pytest.raises(GamedpError, match="region table would need"):
        solver.nimber(0)
    assert RegionSolver(Cram(5, 6).rules, table=path).loaded > 40_000
    with pytest.raises(GamedpError, match="outcome search's memo would need"):
        RegionSolver(Blockgame(5, 6).rules, table=None, memory=1 << 18).wins(0)


@pytest.fixture
def db_env(tmp_path, monkeypatch):
    import os

    return {**os.environ, "GAMEDP_DB_DIR": str(tmp_path)}


@pytest.mark.slow
def test_nimber_and_grundy_commands(db_env):
    out = json.loads(gamedp("nimber", "cram", "3x4", "--json", env=db_env).stdout)
    assert (out["nimber"], out["outcome"]) == (1, "win") and "b1-c1" in out["winning_moves"]
    drawn = json.loads(gamedp("nimber", "blockgame", "-", "--json", stdin="..#\n...\n", env=db_env).stdout)
    assert drawn["nimber"] == Brute(L_SHAPES + DOMINOES, 2, 3).nimber(0b000100)
    table = json.loads(gamedp("grundy", "cram", "--boards", "2..3x2..4", "--json", env=db_env).stdout)
    assert [(b["rows"], b["cols"], b["nimber"]) for b in table["boards"]][:3] == [(2, 2, 0), (2, 3, 1), (3, 2, 1)]
    text = gamedp("grundy", "cram", "--boards", "3x3..4", env=db_env).stdout
    assert "regions solved" in text and "3 x 4" in text
    only = json.loads(gamedp("grundy", "blockgame", "--boards", "3..4x4", "--outcome-only", "--json",
                              env=db_env).stdout)
    assert [(b["nimber"], b["outcome"]) for b in only["boards"]] == [(None, "win"), (None, "win")]
    searched = json.loads(gamedp("grundy", "blockgame", "--boards", "3..4x4", "--by-search", "--json",
                                  env=db_env).stdout)
    assert [(b["nimber"], b["outcome"]) for b in searched["boards"]] == [(3, "win"), (5, "win")]


def misere_wins(placements, board: int) -> bool:
    """Misère play from the rules, by plain recursion over whole boards: no move left is a win."""
    children = [board | p for p in placements if not board & p]
    return not children or any(not misere_wins(placements, c) for c in children)


@pytest.mark.parametrize("family,shapes,boards", [
    ("cram", DOMINOES, ["1x2", "2x2", "1x5", "2x3", "3x3", "3x4", "..#/.../#..", "...#/..../.#.."]),
    ("blockgame", L_SHAPES + DOMINOES, ["1x2", "2x2", "2x3", "3x3", "..../.#../...."]),
])
@pytest.mark.slow
def test_misere_boards_are_answered_by_misere_play(family, shapes, boards, db_env):
    """--misere on a board gives its misère outcome and winning moves (it was answered by normal play)."""
    from gamedp.cli.regions import parse_drawing

    for text in boards:
        if "x" in text:
            rows, cols, board = *map(int, text.split("x")), 0
        else:
            rows, cols, board = parse_drawing(text)
        placements = Brute(shapes, rows, cols).placements
        rules = (Cram if family == "cram" else Blockgame)(rows, cols).rules
        winning = sorted(rules.move_name(p) for p in placements
                         if not board & p and not misere_wins(placements, board | p))
        out = json.loads(gamedp("nimber", family, text, "--misere", "--json", env=db_env).stdout)
        assert out["misere"] is True and "nimber" not in out, out
        assert (out["outcome"], sorted(out["winning_moves"])) == \
            ("win" if misere_wins(placements, board) else "lose", winning), (family, text)
    normal = json.loads(gamedp("nimber", family, "1x2", "--json", env=db_env).stdout)
    assert (normal["misere"], normal["outcome"]) == (False, "win")
    shown = gamedp("nimber", family, "1x2", "--misere", env=db_env).stdout
    assert "LOSE for the player to move (misère play)" in shown


@pytest.mark.parametrize("args,message", [
    (("nimber", "cram", "3x3", "--misere", "--memory", "1"), "leave them out with --misere"),
    (("nimber", "cram", "5x7x"), "a board is ROWSxCOLS"),
    (("nimber", "cram", "..#/.a."), "line 2, column 2"),
    (("nimber", "cram", "9x9"), "at most 64 cells"),
    (("nimber", "domineering", "3x3"), "partizan"),
    (("grundy", "cram", "--boards", "3..x4"), "--boards takes"),
    (("grundy", "cram"), "give the boards"),
    (("grundy", "nim", "--boards", "3x3"), "give --upto"),
    (("grundy", "cram", "--boards", "5x6", "--memory", "0.001"), "region table would need"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, db_env):
    p = gamedp(*args, env=db_env)
    assert p.returncode == 2 and message in p.stderr and p.stderr.count("\n") == 1, p.stderr


@pytest.mark.parametrize("sections", [
    {"cells": b"", "nimbers": b""},                                   # no dims
    {"dims": bytes(2), "cells": bytes(8)},                            # no nimbers
    {"dims": bytes(3), "cells": bytes(8), "nimbers": bytes(2)},       # half a region
    {"dims": bytes(2), "cells": bytes(8), "nimbers": b"\xff\xff"},    # a nimber of -1
], ids=["no dims", "no nimbers", "odd length", "negative nimber"])
def test_a_region_table_whose_checksums_hold_but_not_its_sections_is_refused(tmp_path, sections):
    from gamedp.database import write_container
    from gamedp.solvers.regions import TABLE_ID, table_variant

    rules = Cram(4, 5).rules
    path = tmp_path / "cram.gdb"
    write_container(path, {"game_id": TABLE_ID, "variant": table_variant(rules), "size": 1}, list(sections.items()))
    with pytest.raises(DatabaseError, match="it is damaged"):
        RegionSolver(rules, table=path)
