"""Domineering on the score search (gamedp.kernels.domineering_search over gamedp.kernels.null_window): who wins,
against a plain game-tree search written from the rules, on random boards of every shape up to 5 x 5 and from
the command line."""

from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest
from command import gamedp

from gamedp.games.domineering_scores import DomineeringScores, transpose
from gamedp.games.placement import Domineering, domineering
from gamedp.solvers.score_search import ScoreSearch
from gamedp.values import LOSE, WIN


@lru_cache(maxsize=None)
def plain_wins(empty: frozenset, vertical: bool) -> bool:
    """Whether the player to move wins: Vertical covers (r, c) and (r + 1, c), Horizontal (r, c) and (r, c + 1);
    who cannot move loses."""
    dr, dc = (1, 0) if vertical else (0, 1)
    for r, c in empty:
        if (r + dr, c + dc) in empty and not plain_wins(empty - {(r, c), (r + dr, c + dc)}, not vertical):
            return True
    return False


def random_position(rng: random.Random, rows: int, cols: int) -> tuple[int, frozenset, bool]:
    """A board of the game (bit r * cols + c filled, the turn above the cells) and its plain form."""
    density = rng.choice([0.0, 0.1, 0.25, 0.4])
    filled = [(r, c) for r in range(rows) for c in range(cols) if rng.random() < density]
    vertical = rng.random() < 0.5
    bits = sum(1 << (r * cols + c) for r, c in filled) | (0 if vertical else 1 << rows * cols)
    empty = frozenset((r, c) for r in range(rows) for c in range(cols)) - set(filled)
    return bits, empty, vertical


@pytest.mark.parametrize("rows, cols", [(1, 5), (2, 2), (3, 4), (4, 3), (4, 4), (3, 6), (5, 4), (4, 5), (5, 5)])
@pytest.mark.slow
def test_random_boards_match_a_plain_search(rows, cols):
    rng = random.Random(rows * 10 + cols)
    game = Domineering(rows, cols)
    search = ScoreSearch(DomineeringScores(game), progress=False)
    for _ in range(40):
        bits, empty, vertical = random_position(rng, rows, cols)
        expected = WIN if plain_wins(empty, vertical) else LOSE
        assert search.value(bits).outcome is expected, game.format_position(bits)


def test_a_table_too_small_to_hold_the_search_gives_the_same_answers():
    rng = random.Random(7)
    game = Domineering(5, 5)
    search = ScoreSearch(DomineeringScores(game), memory=1 << 19, progress=False)  # 2^16 slots, never grown
    for _ in range(30):
        bits, empty, vertical = random_position(rng, 5, 5)
        assert search.value(bits).outcome is (WIN if plain_wins(empty, vertical) else LOSE)


@pytest.mark.parametrize("rows, cols", [(5, 5), (5, 6), (7, 4)])
def test_a_lost_board_takes_one_null_window_search(rows, cols):
    # A search that fails low returns the best score it found (-1 here), not its window's alpha (0): so the
    # outcome of a lost board is proved by the one search that asks whether it is won, not by a second one.
    game = Domineering(rows, cols)
    outcome = ScoreSearch(DomineeringScores(game), progress=False, book=False)
    assert outcome.score(game.start(), -1, 1) == -1
    won = ScoreSearch(DomineeringScores(game), progress=False, book=False)
    assert won.score(game.start(), 0, 1) == 0
    assert outcome.explored == won.explored


def test_the_frame_turns_horizontal_s_move_into_vertical_s():
    rng = random.Random(3)
    for _ in range(100):
        frame = rng.getrandbits(64)
        assert transpose(transpose(frame)) == frame
    game = Domineering(2, 3)
    rules = DomineeringScores(game)
    # a 2 x 3 board with Horizontal to move is Vertical's 3 x 2 board
    assert rules.frame(1 << 6) == transpose(rules.frame(0))


def test_boards_are_named_rows_by_columns_and_bad_names_are_one_line():
    assert (domineering(6, 7).rules.rows, domineering(6, 7).rules.cols) == (6, 7)
    for bad in ["31x2", "8", "0x3", "x"]:
        out = gamedp("analyze", f"domineering:{bad}")
        assert out.returncode == 2 and out.stderr.count("\n") == 1 and "domineering:RxC" in out.stderr, out.stderr


def test_a_big_board_is_analysed_by_the_search_from_the_command_line():
    out = gamedp("analyze", "domineering:6x6", "--json", timeout=600)
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["positionValue"] == "win"  # Vertical, first to move on 6 x 6, wins (Breuker et al. 2000)
    # the moves' values agree with the search from the positions they lead to
    game = domineering(6, 6)
    search = ScoreSearch(DomineeringScores(game), progress=False)
    assert {move["moveValue"] for move in record["moves"]} == {"win", "lose"}
    for move in record["moves"][::5]:
        child = game.do_move(game.start(), game.parse_move(game.start(), move["move"]))
        assert search.value(child).outcome is (LOSE if move["moveValue"] == "win" else WIN)


@pytest.mark.parametrize("threads", [1, 2])
def test_analysis_values_every_move_as_a_plain_search_does(threads):
    """Every move of random 4 x 5 positions, with the moves valued one at a time and two at once (one thread each,
    sharing the table)."""
    rng = random.Random(45 + threads)
    game = Domineering(4, 5)
    search = ScoreSearch(DomineeringScores(game), progress=False, threads=threads)
    for _ in range(12):
        bits, empty, vertical = random_position(rng, 4, 5)
        analysis = search.analyze(bits)
        assert analysis.value.outcome is (WIN if plain_wins(empty, vertical) else LOSE)
        assert len(analysis.moves) == len(game.move_list(bits))
        for move in analysis.moves:
            child = frozenset((r, c) for r in range(4) for c in range(5) if not move.child >> (r * 5 + c) & 1)
            assert move.value.outcome is (LOSE if plain_wins(child, not vertical) else WIN), game.format_position(bits)


def settled_right(game, bits: int) -> bool:
    """Whether the bound that ends the search early (the moves a player is sure of against the most the other can
    make), called as plain Python, names a winner for ``bits``; if it does, the plain search must agree."""
    import numpy as np

    from gamedp.kernels import domineering_search as kernels

    frame_empty = np.uint64(~DomineeringScores(game).frame(bits) & (1 << 64) - 1)
    with np.errstate(over="ignore"):  # the popcount's multiply wraps, as it does compiled
        outcome = kernels.settled(frame_empty, np.uint64(kernels.transpose(frame_empty)))  # numba returns ints
    if outcome == 0:
        return False
    rows, cols = game.rules.rows, game.rules.cols
    empty = frozenset((r, c) for r in range(rows) for c in range(cols) if not bits >> (r * cols + c) & 1)
    assert (outcome > 0) == plain_wins(empty, not game.player(bits)), game.format_position(bits)
    return True


@pytest.mark.parametrize("rows, cols", [(4, 4), (4, 5), (5, 4), (5, 5), (3, 7), (6, 4)])
def test_positions_settled_without_search_are_settled_right(rows, cols):
    """Random boards, and positions as random play leaves them."""
    rng = random.Random(rows * 100 + cols)
    game = Domineering(rows, cols)
    named = 0
    for _ in range(300):
        bits, _, _ = random_position(rng, rows, cols)
        for _ in range(rng.randrange(rows * cols // 2)):
            moves = game.move_list(bits)
            if not moves:
                break
            bits = rng.choice(moves)[1]
        named += settled_right(game, bits)
    assert named > 0


def test_a_protective_square_taken_spoils_two_of_the_other_s_placements():
    # Horizontal's square c1-d1 over c2-d2 (nothing empty above or below it) is two moves for Horizontal, and
    # its first domino there spoils both of Vertical's placements there (c1-c2, d1-d2): Vertical can make at
    # most its disjoint placements less those two
    game = Domineering(3, 4)
    bits = game.parse_position(""". . . .
                                  . # . .
                                  . # # #
                                  Horizontal to move""")
    assert settled_right(game, bits)


def test_every_other_pair_of_a_run_side_by_side_counts():
    # Horizontal's pairs a1-b1, a2-b2, a3-b3 are a run side by side: a vertical domino spoils one of two
    # neighbouring pairs, never the first and the third, so both count (half of them Horizontal's), and with its
    # safe move c3-d3 Horizontal is sure of as many moves as Vertical can make at most (two)
    game = Domineering(3, 4)
    bits = game.parse_position(""". . # #
                                  . . # #
                                  . . . .
                                  Vertical to move""")
    assert settled_right(game, bits)


def test_safe_moves_are_counted_before_the_pairs_that_would_take_their_cells():
    # Vertical's safe move a2-a3 (out of Horizontal's reach), then the pair c2-c3, not the pair a1-a2 that would
    # leave a3 alone
    game = Domineering(3, 4)
    bits = game.parse_position(""". . # #
                                  . # . .
                                  . # . #
                                  Vertical to move""")
    assert settled_right(game, bits)


@pytest.mark.parametrize("drawn", [
    # Vertical's square c2-d2 over c3-d3 has an empty cell beside it (b3) but the board's edge on its other side:
    # Vertical's domino c2-c3 leaves d2-d3 safe, so it is protective all the same (two moves for Vertical, with
    # its safe move a1-a2 three; of Horizontal's three disjoint placements, the two in the square are spoilt)
    """. # # #
       . # . .
       . . . .
       Vertical to move""",
    # Horizontal's pairs a1-b1, c1-d1 and a3-b3 each hold a cell Vertical can never cover (b1, d1, b3), and d3 is
    # out of Vertical's reach too: Horizontal, first, takes one pair and is sure of one of the other two; the
    # held cells of the pair Vertical spoils and d3 leave Vertical's 8 empty cells room for one domino beside
    # Horizontal's two, though Vertical has two disjoint placements (a1-a2, c1-c2)
    """. . . .
       . # . #
       . . # .
       Horizontal to move""",
])
def test_bullock_s_bound_settles_what_the_sure_moves_alone_did_not(drawn):
    game = Domineering(3, 4)
    assert settled_right(game, game.parse_position(drawn))


def test_pairs_a_domino_can_spoil_two_of_count_one_in_three():
    # Vertical's pairs b1-b2, a2-a3 and c2-c3: a horizontal domino on row 2 spoils two of them, never three, so
    # Vertical, moving second, is sure of one; Horizontal has one move at most
    game = Domineering(3, 4)
    bits = game.parse_position("""# . # .
                                  . . . #
                                  . # . #
                                  Horizontal to move""")
    assert settled_right(game, bits)


@pytest.mark.parametrize("rows, cols", [(4, 4), (3, 5), (5, 3)])
def test_every_position_of_small_boards_settled_without_search_is_settled_right(rows, cols):
    """Every position reachable from the empty board."""
    game = Domineering(rows, cols)
    seen, waiting, named = set(), [game.start()], 0
    while waiting:
        bits = waiting.pop()
        if bits not in seen:
            seen.add(bits)
            waiting.extend(child for _, child in game.move_list(bits))
            named += settled_right(game, bits)
    assert named > len(seen) // 4


def test_value_reads_who_moves_on_the_board_s_own_line():
    """`gamedp value` takes one position a line: a board of 24 cells (answered by the search) with V, H or
    neither after it; each answer is the plain search's for that player to move."""
    rng = random.Random(11)
    lines, expected = [], []
    for _ in range(12):
        _, empty, vertical = random_position(rng, 4, 6)
        cells = "".join("." if (r, c) in empty else "#" for r in range(4) for c in range(6))
        said = rng.choice(["V", "vertical to move", ""]) if vertical else rng.choice(["H", "Horizontal", "h"])
        lines.append(f"{cells} {said}".strip())
        expected.append("WIN" if plain_wins(empty, vertical) else "LOSE")
    out = gamedp("value", "domineering:4x6", stdin="\n".join(lines) + "\n")
    assert out.returncode == 0, out.stderr
    assert [line.split("\t")[1] for line in out.stdout.splitlines()] == expected


def test_a_line_that_is_no_board_says_where_the_player_to_move_goes():
    out = gamedp("value", "domineering:4x6", stdin="." * 24 + " X\n")
    assert out.returncode == 2 and out.stdout == "", out.stdout
    assert out.stderr.startswith("gamedp: error: line 1: ") and "then V or H for the player to move" in out.stderr
    assert out.stderr.count("\n") == 1, out.stderr
