"""Domineering values: against a plain search of the difference game, plain minimax, the generic engine, the
published values, and the board's symmetries."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgt_oracle import equal, tree_of
from gamedp.analysis import Analyst
from gamedp.cgt.domineering import format_board, parse_board, value, value_of_text
from gamedp.cgt.search import value as generic_value
from gamedp.errors import InputError
from gamedp.games.placement import Domineering


def boards(most_cells: int = 12):
    """Random boards as text rows ('.' empty, '#' filled)."""
    return st.tuples(st.integers(1, 4), st.integers(1, 4)).filter(lambda hw: hw[0] * hw[1] <= most_cells).flatmap(
        lambda hw: st.lists(st.lists(st.sampled_from(".." + "#"), min_size=hw[1], max_size=hw[1]),
                            min_size=hw[0], max_size=hw[0]).map(lambda rows: ["".join(r) for r in rows]))


def moves(rows: list[str], vertical: bool) -> list[list[str]]:
    """The boards after each domino of one player, straight from the rules."""
    out = []
    dr, dc = (1, 0) if vertical else (0, 1)
    for r in range(len(rows)):
        for c in range(len(rows[0])):
            r2, c2 = r + dr, c + dc
            if r2 < len(rows) and c2 < len(rows[0]) and rows[r][c] == rows[r2][c2] == ".":
                grid = [list(row) for row in rows]
                grid[r][c] = grid[r2][c2] = "#"
                out.append(["".join(row) for row in grid])
    return out


@lru_cache(maxsize=None)
def tree(rows: tuple[str, ...]):
    """The game tree of a board, Vertical as Left."""
    return (tuple(tree(tuple(b)) for b in moves(list(rows), True)),
            tuple(tree(tuple(b)) for b in moves(list(rows), False)))


@lru_cache(maxsize=None)
def mover_wins(rows: tuple[str, ...], vertical: bool) -> bool:
    """Plain minimax: does the player to move win?"""
    return any(not mover_wins(tuple(b), not vertical) for b in moves(list(rows), vertical))


def filled(rows: list[str]) -> int:
    """The game's position of a board of Vertical to move: its filled cells, bit r * width + c."""
    return sum(1 << (r * len(row) + c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#")


def rotate(rows: list[str]) -> list[str]:
    """A quarter turn clockwise."""
    return ["".join(rows[len(rows) - 1 - r][c] for r in range(len(rows))) for c in range(len(rows[0]))]


ENGINES = pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])


@ENGINES
@settings(max_examples=80, deadline=None)
@given(rows=boards(9))
def test_value_is_the_game_by_the_difference_game(rows, compiled):
    assert equal(tree_of(value(parse_board("/".join(rows)), compiled=compiled)), tree(tuple(rows)))


@ENGINES
@settings(max_examples=150, deadline=None)
@given(rows=boards(16))
def test_outcome_against_minimax_with_each_player_first(rows, compiled):
    v = value(parse_board("/".join(rows)), compiled=compiled)
    left_first, right_first = mover_wins(tuple(rows), True), mover_wins(tuple(rows), False)
    expected = {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}
    assert v.outcome == expected[left_first, right_first]


@settings(max_examples=100, deadline=None)
@given(boards(16))
def test_a_quarter_turn_negates_and_a_reflection_keeps(rows):
    v = value_of_text("/".join(rows))
    assert value_of_text("/".join(rotate(rows))) == -v
    assert value_of_text("/".join(r[::-1] for r in rows)) == v
    assert value_of_text("/".join(rows[::-1])) == v


@settings(max_examples=60, deadline=None)
@given(boards(12))
def test_the_region_sums_agree_with_the_generic_engine(rows):
    assert generic_value(Domineering(len(rows), len(rows[0])), filled(rows)) == value(parse_board("/".join(rows)))


@settings(max_examples=40, deadline=None)
@given(boards(12), st.booleans())
def test_analyze_values_a_board_by_its_regions_whoever_is_to_move(rows, horizontal_to_move):
    h, w = len(rows), len(rows[0])
    found = Analyst(Domineering(h, w)).partizan_value(filled(rows) | horizontal_to_move << h * w)
    assert equal(tree_of(found), tree(tuple(rows)))


def wider_boards():
    """Random boards of up to 5 x 5 cells, a few filled."""
    return st.tuples(st.integers(2, 5), st.integers(2, 5), st.randoms(use_true_random=False)).map(
        lambda t: "/".join("".join("#" if t[2].random() < 0.3 else "." for _ in range(t[1])) for _ in range(t[0])))


@settings(max_examples=60, deadline=None)
@given(wider_boards())
def test_the_compiled_kernels_and_python_find_the_same_forms(text):
    board = parse_board(text)
    assert value(board, compiled=True).id == value(board, compiled=False).id  # canonical forms are unique


def test_the_compiled_kernels_grow_their_tables_and_resume_in_chunks(monkeypatch):
    """Every section starts too small to hold the form 0's neighbours, and 3 regions are valued a call: the
    valuation starts over in a bigger arena again and again, and goes on from call to call."""
    from gamedp.cgt import domineering_compiled

    monkeypatch.setattr(domineering_compiled, "_arena", None)
    monkeypatch.setattr(domineering_compiled, "FIRST", (8, 8, 8, 8, 8, 8, 8, 64))
    monkeypatch.setattr(domineering_compiled, "CHUNK", 3)
    for text in ("4x4", "3x5", "#..#/..../..../#..#"):
        board = parse_board(text)
        assert value(board, compiled=True).id == value(board, compiled=False).id
    assert domineering_compiled._arena.capacities > (8, 8, 8, 8, 8, 8, 8, 64)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.data())
def test_the_kernels_key_a_region_by_its_least_image(h, w, data):
    """The kernels' own images and cut (run here as Python functions) against images made cell by cell."""
    from gamedp.kernels.domineering_values import cut, least_image

    cells = data.draw(st.integers(1, (1 << h * w) - 1))
    images = images_by_cells(h, w, cells)
    least = min(b for b in images if b[0][0] <= b[0][1])[0]  # the kernels compare images no taller than wide
    cells_, height, width, negated = least_image(h, w, cells)
    assert ((height, width, cells_), negated) == (least, (least, False) not in images)
    rows = [(cells >> (r * w)) & ((1 << w) - 1) for r in range(h)]
    used = [r for r in range(h) if rows[r]]
    columns = [c for c in range(w) if any(row >> c & 1 for row in rows)]
    box = (used[-1] - used[0] + 1, columns[-1] - columns[0] + 1)
    assert cut(h, w, cells)[:2] == box and bin(cut(h, w, cells)[2]).count("1") == bin(cells).count("1")


def test_analyze_leaves_out_the_value_of_a_board_too_big_to_value_at_once():
    assert Analyst(Domineering(6, 6)).partizan_value(0) is None
    assert str(Analyst(Domineering(2, 3)).partizan_value(0)) == "{2|-1/2}"


def test_published_values():
    v = value_of_text("2x3")
    assert (str(value_of_text("2x2")), str(v), v.mean, v.temperature) == ("±1", "{2|-1/2}", Fraction(3, 4),
                                                                           Fraction(5, 4))
    for n in range(6):
        assert value_of_text(f"1x{2 * n}") == -n if n else True
        assert value_of_text(f"1x{2 * n + 1}") == -n
        assert value_of_text(f"{2 * n + 1}x1") == n


@pytest.mark.parametrize("text, message", [
    ("../.", "row 2 has 1 cells"),
    ("..x/...", "column 3: unexpected 'x'"),
    ("9x9", "give 1 to 64 cells"),
    ("", "row 1 has 0 cells"),
])
def test_bad_boards_say_what_and_where(text, message):
    with pytest.raises(InputError, match=message):
        parse_board(text)


def test_boards_read_back():
    assert format_board(parse_board("#../..#")) == "#../..#"


def test_the_region_table_reads_back(tmp_path):
    from gamedp.cgt import domineering, region_table

    for board in ("3x4", "2x5", "#.../..../...#"):
        value(parse_board(board), compiled=False)
    region_table.save(tmp_path / "t.gdb")
    saved = dict(domineering.table)
    domineering.table.clear()
    domineering._memo.clear()
    assert region_table.load(tmp_path / "t.gdb") == len(saved)
    assert domineering.table == saved  # the same canonical forms: equal values have equal ids


def test_a_damaged_or_foreign_table_is_refused(tmp_path):
    import os
    import subprocess
    import sys

    path = tmp_path / "t.gdb"
    run = [sys.executable, "-m", "gamedp", "cgt", "domineering", "2x3", "--table", str(path)]
    assert subprocess.run(run, capture_output=True).returncode == 0 and path.exists()
    os.chmod(path, 0o666)
    done = subprocess.run(run, capture_output=True, text=True)
    assert done.returncode == 2 and "is not read: it is writable by" in done.stderr
    os.chmod(path, 0o644)
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF
    path.write_bytes(bytes(data))
    done = subprocess.run(run, capture_output=True, text=True)
    assert done.returncode == 2 and "damaged" in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.parametrize("forms, values", [
    ([1, 0, 1, 1, 1, 1], [-1]),            # the region's form: index -1, read as the last form
    ([1, 0, 1, 0, 0, 0, 1, 0, -1], [1]),   # an option: index -1, read as the form before
    ([1, 0, 1, 0, 0, 0, 2, 0, 0], [1]),    # two left options, one given
], ids=["negative value", "negative option", "options missing"])
def test_a_table_whose_checksums_hold_but_whose_indices_do_not_is_refused(tmp_path, forms, values):
    from array import array

    from gamedp.cgt import region_table
    from gamedp.database import DatabaseError, write_container

    path = tmp_path / "t.gdb"
    meta = {"game_id": region_table.TABLE_ID, "variant": region_table.VARIANT, "size": 1, "forms": 2}
    write_container(path, meta, [("forms", array("q", forms)), ("dims", array("H", [1 << 8 | 1])),
                                 ("cells", array("Q", [1])), ("values", array("q", values))])
    with pytest.raises(DatabaseError, match="it is damaged"):
        region_table.load(path)


def images_by_cells(h: int, w: int, cells: int) -> list[tuple[tuple[int, int, int], bool]]:
    """The 8 images of a board, each cell moved one at a time, and whether each swaps the players."""
    out = []
    for transposed in (False, True):
        for flip_rows in (False, True):
            for flip_columns in (False, True):
                height, width = (w, h) if transposed else (h, w)
                image = 0
                for r in range(h):
                    for c in range(w):
                        if cells >> (r * w + c) & 1:
                            r2, c2 = (c, r) if transposed else (r, c)
                            r2 = height - 1 - r2 if flip_rows else r2
                            c2 = width - 1 - c2 if flip_columns else c2
                            image |= 1 << (r2 * width + c2)
                out.append(((height, width, image), transposed))
    return out


@settings(max_examples=400, deadline=None)
@given(st.integers(1, 8), st.integers(1, 8), st.data())
def test_the_region_key_is_the_least_image(h, w, data):
    from gamedp.cgt.domineering import least_image

    cells = data.draw(st.integers(0, (1 << h * w) - 1))
    images = images_by_cells(h, w, cells)
    least = min(board for board, _ in images)
    assert least_image((h, w, cells)) == (least, (least, False) not in images)


@settings(max_examples=300, deadline=None)
@given(boards(16))
def test_regions_are_the_connected_groups_cut_to_their_boxes(rows):
    """A board's regions against a plain search of 4-connected empty cells, each cut to its bounding box."""
    from gamedp.cgt.domineering import regions

    h, w = len(rows), len(rows[0])
    empty = {(r, c) for r in range(h) for c in range(w) if rows[r][c] == "."}
    expected = []
    while empty:
        group, todo = set(), [min(empty)]
        while todo:
            r, c = todo.pop()
            if (r, c) in empty:
                empty.discard((r, c))
                group.add((r, c))
                todo += [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]
        if len(group) > 1:
            top, left = min(r for r, _ in group), min(c for _, c in group)
            height, width = max(r for r, _ in group) - top + 1, max(c for _, c in group) - left + 1
            expected.append((height, width, sum(1 << ((r - top) * width + c - left) for r, c in group)))
    assert sorted(regions(*parse_board("/".join(rows)))) == sorted(expected)
