"""Domineering past the 8 x 8 frame (gamedp.kernels.domineering_wide_search over gamedp.kernels.null_window): who
wins, against a plain game-tree search written from the rules on boards of up to 127 cells with few empty cells,
against the published winners of the boards the search reaches, and from the command line."""

from __future__ import annotations

import json
import random

import pytest
from command import gamedp, one_clear_error
from test_domineering_search import plain_wins

from gamedp.games.domineering_scores import DomineeringScores, WideDomineeringScores
from gamedp.errors import GamedpError
from gamedp.games.placement import Domineering, domineering
from gamedp.solvers.score_search import ScoreSearch
from gamedp.values import LOSE, WIN


def sparse_position(rng: random.Random, rows: int, cols: int, empties: int) -> tuple[int, frozenset, bool]:
    """A board with ``empties`` empty cells (bit r * cols + c filled, the turn above the cells) and its plain
    form: a patch grown from a random cell, or cells scattered over the board, or some of each."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    empty = {rng.choice(cells)}
    scattered = rng.choice([0.0, 0.2, 1.0])
    while len(empty) < empties:
        if rng.random() < scattered:
            empty.add(rng.choice(cells))
            continue
        r, c = rng.choice(sorted(empty))
        dr, dc = rng.choice([(0, 1), (1, 0), (0, -1), (-1, 0)])
        if 0 <= r + dr < rows and 0 <= c + dc < cols:
            empty.add((r + dr, c + dc))
    vertical = rng.random() < 0.5
    bits = sum(1 << (r * cols + c) for r, c in cells if (r, c) not in empty)
    return bits | (0 if vertical else 1 << rows * cols), frozenset(empty), vertical


@pytest.mark.parametrize("rows, cols", [(9, 9), (10, 10), (11, 11), (30, 3), (3, 26), (5, 20), (20, 5), (9, 14),
                                        (14, 9), (30, 4), (4, 30), (2, 27), (1, 30)])
@pytest.mark.slow
def test_boards_past_64_cells_match_a_plain_search(rows, cols):
    matches_a_plain_search((WideDomineeringScores,), rows, cols, 12, (10, 23), rows * 100 + cols)


def matches_a_plain_search(kinds: tuple[type, ...], rows: int, cols: int, count: int, empties: tuple[int, int],
                           seed: int) -> None:
    """The search of each of ``kinds`` (rules classes) on ``rows`` x ``cols`` answers ``count`` random positions,
    either side to move, of a number of empty cells in the range ``empties``, as the plain game-tree search does."""
    rng = random.Random(seed)
    game = Domineering(rows, cols)
    searches = [ScoreSearch(kind(game), progress=False) for kind in kinds]
    for _ in range(count):
        bits, empty, vertical = sparse_position(rng, rows, cols, rng.randrange(*empties))
        expected = WIN if plain_wins(empty, vertical) else LOSE
        for search in searches:
            assert search.value(bits).outcome is expected, (type(search.rules), game.format_position(bits))


@pytest.mark.parametrize("rows, cols", [(3, 4), (4, 5), (5, 4), (5, 5), (2, 7)])
def test_the_wide_search_agrees_with_the_frame_s_on_small_boards(rows, cols):
    """Random positions of boards both searches take, both sides to move, against the plain search too."""
    matches_a_plain_search((WideDomineeringScores, DomineeringScores), rows, cols, 25,
                           (rows * cols // 2, rows * cols + 1), rows * 10 + cols)


# Who wins the empty board with Vertical to move (Breuker, Uiterwijk and van den Herik 2000; Lachmann, Moore and
# Rapaport 2002; rows by columns, Vertical's dominoes along the columns): the first player on every square board
# but 5 x 5; boards with one row leave Vertical no move.
PUBLISHED = {(2, 2): WIN, (3, 3): WIN, (4, 4): WIN, (5, 5): LOSE, (6, 6): WIN, (1, 9): LOSE}


@pytest.mark.parametrize("shape", sorted(PUBLISHED))
def test_published_winners_through_the_wide_path(shape):
    game = Domineering(*shape)
    search = ScoreSearch(WideDomineeringScores(game), progress=False)
    assert search.value(game.start()).outcome is PUBLISHED[shape]


def test_a_square_board_is_the_same_game_for_either_player_first():
    """A square board with Horizontal first is the board with Vertical first, turned: one answer, on 9 x 9 with
    most cells filled."""
    rng = random.Random(99)
    game = Domineering(9, 9)
    search = ScoreSearch(WideDomineeringScores(game), progress=False)
    for _ in range(8):
        bits, empty, _ = sparse_position(rng, 9, 9, 20)
        board = bits & game.rules.full
        turned = sum(1 << (c * 9 + r) for r in range(9) for c in range(9) if board >> (r * 9 + c) & 1)
        assert search.value(board).outcome is search.value(turned | 1 << 81).outcome


def test_value_takes_a_9x9_line_and_refuses_a_bad_one_with_one_clear_error():
    rng = random.Random(9)
    bits, empty, vertical = sparse_position(rng, 9, 9, 18)
    cells = "".join("." if (r, c) in empty else "#" for r in range(9) for c in range(9))
    out = gamedp("value", "domineering:9x9", "--json", stdin=f"{cells} {'V' if vertical else 'H'}\n")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["value"] == ("WIN" if plain_wins(empty, vertical) else "LOSE")
    one_clear_error(gamedp("value", "domineering:9x9", stdin="." * 80 + "\n"), "line 1", "9 lines of 9")
    one_clear_error(gamedp("value", "domineering:9x9", stdin="." * 81 + " X\n"), "line 1",
                    "then V or H for the player to move")


@pytest.mark.parametrize("bad", ["31x2", "17x16", "2x31", "0x3", "9x29"])
def test_boards_past_the_search_s_limits_are_refused_saying_the_limits(bad):
    one_clear_error(gamedp("value", f"domineering:{bad}", stdin=""), "256 cells", "30 rows", "domineering:RxC")


@pytest.mark.parametrize("rows, cols", [(4, 30), (3, 29), (2, 27)])
def test_a_board_of_27_to_30_columns_is_the_turned_board_with_the_other_player_first(rows, cols):
    rng = random.Random(rows * 100 + cols)
    wide, turned = (ScoreSearch(WideDomineeringScores(Domineering(r, c)), progress=False)
                    for r, c in ((rows, cols), (cols, rows)))
    for _ in range(6):
        bits, _, vertical = sparse_position(rng, rows, cols, 22)
        board = bits & (1 << rows * cols) - 1
        other = sum(1 << (c * rows + r) for r in range(rows) for c in range(cols) if board >> (r * cols + c) & 1)
        assert wide.value(bits).outcome is turned.value(other | (1 << rows * cols if vertical else 0)).outcome


def test_columns_past_z_are_named_aa_to_ad_on_the_board_and_in_moves():
    game = domineering(4, 30)
    drawn = game.rules.draw(1 << 29 | 1 << 59)  # a domino on ad1-ad2
    assert drawn.splitlines()[0].split()[-4:] == ["aa", "ab", "ac", "ad"]
    assert drawn.splitlines()[1].split()[-1] == "#" and len({len(line) for line in drawn.splitlines()}) == 1
    assert game.rules.parse_board(drawn) == 1 << 29 | 1 << 59  # the board as drawn reads back
    assert game.parse_move(0, "AD1-ad2") == 1 << 29 | 1 << 59 and game.format_move(0, 1 << 29 | 1 << 59) == "ad1-ad2"
    with pytest.raises(GamedpError, match="columns a-ad"):
        game.parse_move(0, "ae1-ae2")
    cells = "".join("." if c >= 27 else "#" for r in range(4) for c in range(30))  # columns ab-ad empty
    out = gamedp("play", "domineering:4x30", cells + " V", stdin="ad1-ad2\nquit\n")
    assert out.returncode == 0 and "ad1-ad2" in out.stdout, out.stderr


def test_a_wide_board_is_searched_for_value_and_analyze():
    game = domineering(10, 10)
    assert isinstance(game.score_search(), WideDomineeringScores)
    assert isinstance(domineering(8, 8).score_search(), DomineeringScores)
    rng = random.Random(10)
    bits, empty, vertical = sparse_position(rng, 10, 10, 14)
    cells = "".join("." if (r, c) in empty else "#" for r in range(10) for c in range(10))
    out = gamedp("analyze", "domineering:10x10", "--json", f"{cells} {'V' if vertical else 'H'}")
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["positionValue"] == ("win" if plain_wins(empty, vertical) else "lose")


def wide_settled(game, bits: int) -> int:
    """The wide search's bound (Bullock's, over rows of any length), called as plain Python: +1 if the player to
    move is sure to win, -1 if sure to lose, else 0."""
    import numpy as np

    from gamedp.kernels import domineering_wide_search as kernels

    p = (*kernels.parameters(game.rules.rows << 8 | game.rules.cols), np.zeros(kernels.SCRATCH_WORDS, np.uint64))
    a, b, _ = WideDomineeringScores(game).arguments(bits)
    with np.errstate(over="ignore"):  # the popcount's multiply wraps, as it does compiled
        empty = kernels.empty_of(np.uint64(a & (1 << 64) - 1), np.uint64(b & (1 << 64) - 1), p)
        return int(kernels.settled(*empty, bool(game.player(bits)), p))


@pytest.mark.parametrize("rows, cols", [(4, 4), (3, 5), (5, 3), (4, 6), (6, 5), (3, 8), (8, 8)])
def test_the_wide_bound_is_the_frame_s_bound(rows, cols):
    """On boards the 8 x 8 frame holds, the wide search settles the same positions the same way (the same bound,
    over 128 bits), for either player to move, on random boards and positions random play leaves."""
    import numpy as np

    from gamedp.kernels import domineering_search as frame

    rng = random.Random(rows * 1000 + cols)
    game = Domineering(rows, cols)
    named = 0
    for _ in range(150):
        bits, _, _ = sparse_position(rng, rows, cols, rng.randrange(rows * cols // 3, rows * cols + 1))
        for _ in range(rng.randrange(4)):
            moves = game.move_list(bits)
            if moves:
                bits = rng.choice(moves)[1]
        frame_empty = np.uint64(~DomineeringScores(game).frame(bits) & (1 << 64) - 1)
        with np.errstate(over="ignore"):
            expected = int(frame.settled(frame_empty, np.uint64(frame.transpose(frame_empty))))
        assert wide_settled(game, bits) == expected, game.format_position(bits)
        named += expected != 0
    assert named > 10


@pytest.mark.parametrize("rows, cols", [(9, 9), (30, 3), (6, 20)])
def test_positions_past_64_cells_settled_without_search_are_settled_right(rows, cols):
    rng = random.Random(rows + cols)
    game = Domineering(rows, cols)
    named = 0
    for _ in range(60):
        bits, empty, vertical = sparse_position(rng, rows, cols, rng.randrange(8, 21))
        outcome = wide_settled(game, bits)
        if outcome:
            assert (outcome > 0) == plain_wins(empty, vertical), game.format_position(bits)
            named += 1
    assert named > 5


@pytest.mark.parametrize("rows, cols", [(9, 9), (16, 16), (8, 30)])  # the wide search's board, the big one's
def test_the_web_board_and_the_api_answer_a_position_past_64_cells(rows, cols):
    from starlette.testclient import TestClient

    from gamedp.web.app import create_app

    rng = random.Random(rows * cols)
    bits, empty, vertical = sparse_position(rng, rows, cols, 16)
    cells = "".join("." if (r, c) in empty else "#" for r in range(rows) for c in range(cols))
    name = f"domineering:{rows}x{cols}"
    with TestClient(create_app([name])) as client:
        response = client.get("/api/position", params={"game": name,
                                                       "position": f"{cells} {'V' if vertical else 'H'}"})
    assert response.status_code == 200, response.text
    record = response.json()
    assert record["positionValue"] == ("win" if plain_wins(empty, vertical) else "lose")
    assert record["board"].startswith("<svg") and len(record["moves"]) == len(domineering(rows, cols).move_list(bits))


def test_a_row_packs_run_by_run_as_it_packs_whole():
    import numpy as np

    from gamedp.kernels import domineering_search, domineering_wide_search

    rng = random.Random(30)
    for _ in range(2000):
        width = rng.randrange(1, 31)
        cells = rng.getrandbits(width) | rng.choice([0, (1 << width) - 1]) & rng.getrandbits(width)
        held = cells & rng.getrandbits(width)
        whole = domineering_search.pack_row(cells, held, width)
        with np.errstate(over="ignore"):  # the popcount's multiply wraps, as it does compiled
            runs = domineering_wide_search.pack_runs(np.uint64(cells), np.uint64(held), width)
        assert tuple(int(x) for x in runs) == whole, (bin(cells), bin(held))


HISTORY_RUN = """
import json, sys
import numpy as np
from gamedp.aot import jit_functions, kernel_modules_used
from gamedp.kernels import domineering_wide_search as wide, null_window
for used in [*kernel_modules_used(wide), wide]:
    jit_functions(used, skip=wide.NATIVE if used is wide else ())
shape, positions = json.load(sys.stdin)
rows, cols, *masks = wide.parameters(shape)  # back in numba's types (a small word comes out of it a plain int)
p = (np.int64(rows), np.int64(cols), *(np.uint64(mask) for mask in masks), np.zeros(wide.SCRATCH_WORDS, np.uint64))
plies, width = null_window.MAX_PLIES + 1, wide.MAX_MOVES
history_at = plies * null_window.counter_words(width)
answers = []
for a, b in positions:
    table = np.zeros(1 << 16, np.uint64)
    frames = np.zeros(plies * null_window.frame_words(width), np.uint64)
    counters = np.full(history_at + null_window.HISTORY_WORDS + 64, -7, np.int64)  # 64 guard words after it
    counters[:history_at + null_window.HISTORY_WORDS] = 0
    watch = np.zeros(null_window.WATCH_WORDS, np.int64)
    watch[null_window.LIMIT] = 1 << 62
    score = null_window.solve(wide.start, wide.moves, wide.bound, wide.play_move, wide.order, wide.key,
                              np.uint64(a), np.uint64(b), p, -1, 1, width, True, table,
                              len(table), frames, counters, watch)
    history = counters[history_at:history_at + null_window.HISTORY_WORDS]
    half = null_window.HISTORY_WORDS // 2
    answers.append([int(score), [[int(i) // half, int(i) % half] for i in np.flatnonzero(history)],
                    bool((counters[history_at + null_window.HISTORY_WORDS:] == -7).all())])
print(json.dumps(answers))
"""


@pytest.mark.slow
def test_the_history_heuristic_counts_the_moves_of_two_word_sets():
    """The core's history heuristic, on for a game of more than 64 moves (a move is then its bit's index, not a
    bit): each count lands on a move the player had, in the history's words, and the answers stay right. The
    core compiled with the wide hooks in a process of its own (compiling them replaces the module's functions)."""
    import subprocess
    import sys

    rng = random.Random(36)
    game = Domineering(9, 9)
    positions, expected = [], []
    for _ in range(6):  # the empty cells low on the board: indices far from what a bit's index of them would be
        empty = frozenset((r, c) for r in range(5, 9) for c in range(9) if rng.random() < 0.45)
        vertical = rng.random() < 0.5
        bits = sum(1 << (r * 9 + c) for r in range(9) for c in range(9) if (r, c) not in empty)
        a, b, shape = WideDomineeringScores(game).arguments(bits | (0 if vertical else 1 << 81))
        positions.append([a & (1 << 64) - 1, b & (1 << 64) - 1])
        expected.append((empty, vertical))
    run = subprocess.run([sys.executable, "-c", HISTORY_RUN], input=json.dumps([shape, positions]),
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    counted = 0
    for (score, slots, guard_kept), (empty, vertical) in zip(json.loads(run.stdout), expected):
        assert (score > 0) == plain_wins(empty, vertical)
        assert guard_kept
        for side, slot in slots:
            dr, dc = (1, 0) if vertical == (side == 0) else (0, 1)  # side 0: the player to move at the root
            r, c = divmod(slot, 9)
            assert (r, c) in empty and (r + dr, c + dc) in empty, (side, slot)
        counted += len(slots)
    assert counted > 0


@pytest.mark.parametrize("rows, cols", [(10, 10), (30, 4)])
def test_play_takes_a_wide_position_with_either_player_to_move(rows, cols):
    rng = random.Random(rows * cols)
    for vertical in (True, False):
        _, empty, _ = sparse_position(rng, rows, cols, 16)
        cells = "".join("." if (r, c) in empty else "#" for r in range(rows) for c in range(cols))
        out = gamedp("play", f"domineering:{rows}x{cols}", f"{cells} {'V' if vertical else 'H'}",
                     stdin="hint\nquit\n")
        assert out.returncode == 0, out.stderr
        assert f"{'Vertical' if vertical else 'Horizontal'} to move" in out.stdout
        assert f"{'WIN' if plain_wins(empty, vertical) else 'LOSE'} for you" in out.stdout
