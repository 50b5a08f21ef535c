"""Placement games: pieces, placements, symmetries, text, and the Python game checked against a brute force.

The brute force here is written from the rules alone: a board is a tuple of row strings, the pieces are listed
cell by cell, and a position's value comes from plain recursion (a dict of finished boards, no symmetry, no
dead cells, nothing shared with gamedp).
"""

from __future__ import annotations

import random

import pytest
from command import gamedp
from hypothesis import given, settings
from hypothesis import strategies as st

from gamedp.errors import GamedpError
from gamedp.games.placement import Blockgame, Cram, Domineering, Piece, PlacementGame, Rules
from gamedp.selfcheck import check_game
from gamedp.solvers.memo import Solution
from gamedp.values import LOSE, WIN

# -- the brute force ------------------------------------------------------------------------------------------
L_SHAPES = [((0, 0), (0, 1), (1, 0)), ((0, 0), (0, 1), (1, 1)), ((0, 0), (1, 0), (1, 1)), ((0, 1), (1, 0), (1, 1))]
H_DOMINO, V_DOMINO = ((0, 0), (0, 1)), ((0, 0), (1, 0))
BLOCKGAME_SHAPES = L_SHAPES + [H_DOMINO, V_DOMINO]
CRAM_SHAPES = [H_DOMINO, V_DOMINO]


class Brute:
    """Win/lose and remoteness of boards for players owning lists of shapes.

    A board is an int, bit ``r * cols + c`` set where that cell is filled (the problem's own reading order).
    """

    def __init__(self, shapes_per_player, rows, cols):
        self.placements = []
        for shapes in shapes_per_player:
            masks = []
            for shape in shapes:
                for r in range(rows):
                    for c in range(cols):
                        cells = [(r + dr, c + dc) for dr, dc in shape]
                        if all(y < rows and x < cols for y, x in cells):
                            masks.append(sum(1 << (y * cols + x) for y, x in cells))
            self.placements.append(masks)
        self.memo = {}

    def value(self, board, player=0):
        """(mover wins?, remoteness): the winner hurries, the loser stalls."""
        key = (board, player)
        if key not in self.memo:
            nxt = (player + 1) % len(self.placements)
            kids = [self.value(board | m, nxt) for m in self.placements[player] if board & m == 0]
            lost = [r for w, r in kids if not w]
            if lost:
                self.memo[key] = (True, min(lost) + 1)
            else:
                self.memo[key] = (False, max((r for _, r in kids), default=-1) + 1)
        return self.memo[key]


def random_board(rng: random.Random, n: int, fill: float) -> int:
    return sum(1 << i for i in range(n) if rng.random() < fill)


# -- pieces and rules ---------------------------------------------------------------------------------------
def test_orientations_of_pieces():
    assert len(Piece("##/#.", "rotations").orientation_cells()) == 4
    assert len(Piece("##/#.", "all").orientation_cells()) == 4
    assert len(Piece("##", "rotations").orientation_cells()) == 2
    assert len(Piece("##", "fixed").orientation_cells()) == 1
    assert len(Piece("##./.##", "all").orientation_cells()) == 4  # S tetromino and its mirror Z
    assert len(Piece("##./.##", "rotations").orientation_cells()) == 2
    assert len(Piece("###/#..", "all").orientation_cells()) == 8  # L tetromino


def test_bad_piece_descriptions():
    with pytest.raises(GamedpError):
        Piece("#x", "fixed").cells()
    with pytest.raises(GamedpError):
        Piece("##", "sideways").maps()
    with pytest.raises(GamedpError):
        Rules("big", 9, 8, [[Piece("##")]])


def test_placement_counts():
    assert len(Blockgame().rules.placements[0]) == 64 + 40
    assert len(Cram(3, 4).rules.placements[0]) == 3 * 3 + 2 * 4
    d = Domineering(3, 4).rules
    assert [len(p) for p in d.placements] == [2 * 4, 3 * 3]


def test_symmetries_used_only_where_the_pieces_allow():
    assert len(Blockgame().rules.symmetries) == 8
    assert len(Blockgame(4, 5).rules.symmetries) == 4
    assert len(Cram(3, 3).rules.symmetries) == 8
    assert len(Domineering(4, 4).rules.symmetries) == 4  # a quarter turn swaps the players' pieces
    # one fixed L-tromino (corner top left) is its own mirror image in the main diagonal, and nothing else
    one = Rules("one-l", 4, 4, [[Piece("##/#.", "fixed")]])
    assert one.symmetries == [one.cell_map("identity"), one.cell_map("transpose")]
    # the L and its mirror image: the mirror swaps them, every other map leaves the set
    skew = Rules("skew", 4, 4, [[Piece("##/#.", ("identity", "mirror"))]])
    assert skew.symmetries == [skew.cell_map("identity"), skew.cell_map("mirror")]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, (1 << 25) - 1))
@pytest.mark.slow
def test_symmetry_tables_match_the_cell_maps(board):
    rules = Blockgame().rules
    for s, cells in enumerate(rules.symmetries):
        assert rules.image(board, s) == rules.map_board(board, cells)


CRAM_BRUTE = Brute([CRAM_SHAPES], 3, 4)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, (1 << 12) - 1))
def test_symmetries_and_dead_cells_keep_the_value(board):
    game = Cram(3, 4)
    want = CRAM_BRUTE.value(board)
    for s in range(len(game.rules.symmetries)):
        assert CRAM_BRUTE.value(game.rules.image(board, s)) == want
    assert CRAM_BRUTE.value(game.canonical(board)) == want


@pytest.mark.parametrize("game", [Blockgame(3, 3), Blockgame(2, 4), Cram(3, 3), Cram(2, 5), Domineering(3, 3),
                                  Domineering(3, 4)], ids=lambda g: f"{g.name}{g.rules.rows}x{g.rules.cols}")
def test_self_check(game):
    report = check_game(game)
    assert report.ok, report.problem
    assert report.complete


def test_self_check_catches_a_wrong_symmetry():
    class Lopsided(PlacementGame):
        def canonical(self, position):  # a quarter turn is no symmetry of one fixed L-tromino
            return min(position, self.rules.map_board(position, self.rules.cell_map("rot90")))

    game = Lopsided(Rules("lopsided", 3, 3, [[Piece("##/#.", "fixed")]]))
    assert not check_game(game).ok


# -- text -----------------------------------------------------------------------------------------------------
def test_board_text_round_trip():
    game = Blockgame()
    board = game.parse_position("#..##\n##.##\n##.##\n#...#\n##.##")
    assert game.parse_position(game.format_position(board)) == board
    assert game.parse_position("#..####.####.###...###.##") == board
    assert "a b c d e" in game.format_position(board)


def test_move_names():
    game = Blockgame()
    board = game.parse_position(".....\n" * 5)
    move = game.parse_move(board, "a1-b1-a2")
    assert game.format_move(board, move) == "a1-b1-a2"
    assert game.parse_move(board, "A2, a1 b1") == move
    assert game.format_move_on_board(board, move).splitlines()[1].split()[1:3] == ["o", "o"]
    with pytest.raises(GamedpError):
        game.parse_move(board, "a1-c1")
    with pytest.raises(GamedpError):
        game.parse_move(board, "z9-a1")


@pytest.mark.parametrize("text", ["#####\n#####", "##x##\n" * 5, "######\n" * 5])
def test_bad_board_text(text):
    with pytest.raises(GamedpError):
        Blockgame().parse_position(text)


def test_domineering_turn_in_the_text():
    game = Domineering(3, 3)
    p = game.parse_position("...\n.#.\n...\nH")
    assert game.player(p) == 1
    assert game.parse_position(game.format_position(p)) == p
    assert all(game.rules.cells_of(m)[1] - game.rules.cells_of(m)[0] == 1 for m in game.moves(p))


# -- values against the brute force -------------------------------------------------------------------------
@pytest.mark.parametrize("make, shapes, rows, cols", [
    (Blockgame, BLOCKGAME_SHAPES, 3, 4), (Blockgame, BLOCKGAME_SHAPES, 4, 4), (Cram, CRAM_SHAPES, 3, 4),
    (Cram, CRAM_SHAPES, 4, 4)])
def test_python_game_against_brute_force(make, shapes, rows, cols):
    game = make(rows, cols)
    brute = Brute([shapes], rows, cols)
    solution = Solution(game)
    rng = random.Random(rows * 100 + cols)
    for _ in range(300):
        board = random_board(rng, rows * cols, rng.choice((0.0, 0.2, 0.4, 0.6, 0.8)))
        won, rem = brute.value(board)
        assert solution.value(board).outcome == (WIN if won else LOSE)
        assert solution.value(board).remoteness == rem


@pytest.mark.parametrize("rows, cols", [(3, 3), (3, 4), (4, 4)])
def test_domineering_against_brute_force(rows, cols):
    game = Domineering(rows, cols)
    brute = Brute([[V_DOMINO], [H_DOMINO]], rows, cols)
    solution = Solution(game)
    rng = random.Random(rows * cols)
    n = rows * cols
    for _ in range(200):
        board = random_board(rng, n, rng.choice((0.0, 0.3, 0.5)))
        turn = rng.randrange(2)
        won, rem = brute.value(board, turn)
        value = solution.value(board | turn << n)
        assert (value.outcome, value.remoteness) == (WIN if won else LOSE, rem)


def test_analyze_command_draws_blockgame():
    board = "#####\n#####\n##.##\n#...#\n##.##"
    out = gamedp("analyze", "blockgame", board, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "b4-c4-c5" in out.stdout and "a b c d e" in out.stdout
