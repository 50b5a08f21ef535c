"""Building an opening book (gamedp.solvers.book_builder): only the deepest positions are searched, in parts kept
as they are found; the shallower ones are the best of their moves. A build that stops goes on from its parts, a
damaged part is searched again, another user's is refused, and a Dask cluster's workers build the same book."""

from __future__ import annotations

import os
import random

import pytest
from command import gamedp

from gamedp.errors import GamedpError
from gamedp.executors import LocalExecutor
from gamedp.games.connect4 import Connect4
from gamedp.solvers import book_builder
from gamedp.solvers.book_builder import Stopped, make_book, parts_folder, positions_up_to
from gamedp.solvers.opening_book import OpeningBook
from gamedp.solvers.score_search import ScoreSearch


def read(path, rules) -> dict[int, int]:
    book = OpeningBook(path, rules.book_id, rules.variant)
    return dict(zip(book.keys.tolist(), book.scores.tolist()))


def test_every_position_of_the_book_is_scored_as_a_search_of_its_own_scores_it(tmp_path):
    """The shallow positions are not searched but taken as the best of their moves: each must equal a search of
    that position alone (the search itself is checked against the strong solve in test_score_search)."""
    rules = Connect4(5, 4).score_search()
    stats = make_book(rules, 5, tmp_path / "book.gdb")
    kept = read(tmp_path / "book.gdb", rules)
    positions = positions_up_to(rules, 5)
    assert set(kept) == set(positions) and stats["positions"] == len(kept)
    assert stats["searched"] == sum(rules.moves_made(p) == 5 for p in positions.values()) < len(kept)
    search = ScoreSearch(rules, progress=False, book=False)
    for key in random.Random(5).sample(sorted(positions), 300):
        assert kept[key] == search.score(positions[key]), rules.game.format_position_line(positions[key])
    assert not parts_folder(tmp_path / "book.gdb").exists()  # the parts go once the book is written


class StopAfter(LocalExecutor):
    """Runs ``parts`` parts, then stops as Ctrl-C would."""

    def __init__(self, parts: int):
        self.left = parts

    def run(self, fn, jobs, on_done):
        for job in jobs:
            if self.left == 0:
                raise KeyboardInterrupt
            self.left -= 1
            fn(job)
            on_done(job)


def test_a_stopped_build_goes_on_from_its_parts_and_makes_the_same_book(tmp_path):
    rules = Connect4(4, 4).score_search()
    make_book(rules, 6, tmp_path / "whole.gdb")
    with pytest.raises(Stopped, match="run the same command again") as stopped:
        make_book(rules, 6, tmp_path / "book.gdb", executor=StopAfter(5))
    assert stopped.value.exit_status == 130
    parts = sorted(parts_folder(tmp_path / "book.gdb").iterdir())
    assert len(parts) == 5
    # a part cut short is searched again; the others are read
    parts[2].write_bytes(parts[2].read_bytes()[:-3])
    stats = make_book(rules, 6, tmp_path / "book.gdb")
    assert stats["resumed"] == 4 * book_builder.PART_POSITIONS
    assert read(tmp_path / "book.gdb", rules) == read(tmp_path / "whole.gdb", rules)


def test_a_stopped_build_of_lines_goes_on_from_its_parts_and_makes_the_same_book(tmp_path):
    """The lines' parts are named by their positions too: a build stopped among them finds them again."""
    rules = Connect4(5, 4).score_search()
    make_book(rules, 2, tmp_path / "whole.gdb", lines=6)
    with pytest.raises(Stopped):
        make_book(rules, 2, tmp_path / "book.gdb", lines=6, executor=StopAfter(6))
    assert len(list(parts_folder(tmp_path / "book.gdb").iterdir())) == 6
    stats = make_book(rules, 2, tmp_path / "book.gdb", lines=6)
    assert stats["resumed"] > 3 * book_builder.PART_POSITIONS
    whole, book = (OpeningBook(tmp_path / name, rules.book_id, rules.variant) for name in ("whole.gdb", "book.gdb"))
    assert read(tmp_path / "book.gdb", rules) == read(tmp_path / "whole.gdb", rules) and book.best == whole.best


class Counting(LocalExecutor):
    """Runs every part, and notes which kind each was (the function run on it)."""

    def __init__(self):
        self.ran = []

    def run(self, fn, jobs, on_done):
        for job in jobs:
            self.ran.append(fn.__name__)
            fn(job)
            on_done(job)


def test_a_stopped_build_keeps_its_best_moves_and_tests_only_those_it_lacks(tmp_path):
    """The best moves along the lines are found in parts of their own, kept as the scores are: a build stopped
    before its last part runs that one alone, and a damaged part of best moves again."""
    rules = Connect4(5, 4).score_search()
    whole = Counting()
    make_book(rules, 2, tmp_path / "whole.gdb", lines=6, executor=whole)
    assert whole.ran[-1] == "best_part" and "search_part" in whole.ran
    with pytest.raises(Stopped):
        make_book(rules, 2, tmp_path / "book.gdb", lines=6, executor=StopAfter(len(whole.ran) - 1))
    best = sorted(parts_folder(tmp_path / "book.gdb").glob("best-*"))
    assert len(best) == whole.ran.count("best_part") - 1 >= 2
    best[0].write_bytes(best[0].read_bytes()[:-2])
    again = Counting()
    stats = make_book(rules, 2, tmp_path / "book.gdb", lines=6, executor=again)
    assert again.ran == ["best_part", "best_part"]
    books = [OpeningBook(tmp_path / name, rules.book_id, rules.variant) for name in ("whole.gdb", "book.gdb")]
    assert books[0].best == books[1].best and read(tmp_path / "book.gdb", rules) == read(tmp_path / "whole.gdb", rules)
    assert 0 < stats["tested"] < 2 * len(books[1].best)


def test_a_part_another_user_could_have_written_is_refused(tmp_path):
    rules = Connect4(4, 4).score_search()
    with pytest.raises(Stopped):
        make_book(rules, 4, tmp_path / "book.gdb", executor=StopAfter(1))
    [part] = parts_folder(tmp_path / "book.gdb").iterdir()
    os.chmod(part, 0o666)
    with pytest.raises(GamedpError, match="is not read: it is writable by"):
        make_book(rules, 4, tmp_path / "book.gdb")


def test_a_part_of_other_positions_is_searched_again(tmp_path):
    rules = Connect4(4, 4).score_search()
    with pytest.raises(Stopped):
        make_book(rules, 4, tmp_path / "book.gdb", executor=StopAfter(2))
    first, second = sorted(parts_folder(tmp_path / "book.gdb").iterdir())
    first.write_bytes(second.read_bytes())  # whole, and its checksums hold, but of the next part's positions
    assert make_book(rules, 4, tmp_path / "book.gdb")["resumed"] == book_builder.PART_POSITIONS


@pytest.mark.slow
def test_a_local_dask_cluster_builds_the_same_book(tmp_path):
    """Its scores and, along the lines, its best moves."""
    alone = gamedp("book", "connect4:5x4", "--depth", "4", "--lines", "6", "--json", db_dir=tmp_path / "alone")
    assert alone.returncode == 0, alone.stderr
    shared = gamedp("book", "connect4:5x4", "--depth", "4", "--lines", "6", "--workers", "2", "--json",
                    db_dir=tmp_path / "dask")
    assert shared.returncode == 0, shared.stderr
    rules = Connect4(5, 4).score_search()
    [one] = (tmp_path / "alone").glob("*.gdb")
    [other] = (tmp_path / "dask").glob("*.gdb")
    assert read(one, rules) == read(other, rules)
    books = [OpeningBook(path, rules.book_id, rules.variant) for path in (one, other)]
    assert books[0].best and books[0].best == books[1].best


def first_of_the_best(rules, position, search) -> int:
    """The index of the first of ``position``'s best moves, every child valued by a search of its own."""
    scores = [-search.score(child) for _, child in rules.children(position)]
    return scores.index(max(scores))


@pytest.fixture(scope="module")
def lines_book(tmp_path_factory):
    """A 5x4 book of depth 2 and lines 6, and its build's statistics."""
    rules = Connect4(5, 4).score_search()
    path = tmp_path_factory.mktemp("lines") / "book.gdb"
    stats = make_book(rules, 2, path, lines=6)
    return rules, OpeningBook(path, rules.book_id, rules.variant), stats


def test_every_score_and_best_move_along_the_lines_is_a_direct_searchs(lines_book):
    """Every score kept equals a search of its position alone (a Connect-Four key is a position: the first of it
    and its mirror image), and every best move is the first of the best, every child searched."""
    rules, book, stats = lines_book
    assert (book.depth, book.lines, book.reach) == (2, 6, 6)
    search = ScoreSearch(rules, progress=False, book=False)
    for key, score in zip(book.keys.tolist(), book.scores.tolist()):
        assert score == search.score(key), rules.game.format_position_line(key)
    assert book.best and stats["best_moves"] == len(book.best)
    for key, move in book.best.items():  # a line key is the position itself
        assert move == first_of_the_best(rules, key, search), rules.game.format_position_line(key)
    # the best moves are mostly the first tested: far fewer tests than moves
    assert 0 < stats["tested"] < 2 * len(book.best)


@pytest.mark.parametrize("player", [0, 1])
def test_a_perfect_player_finds_its_move_in_the_book_along_its_lines(lines_book, player):
    """In games where one side plays the book's best move and the other anything, the book has the best move of
    every position of the first side in the first 6 plies (and a mirror image's is its own)."""
    rules, book, _ = lines_book
    rng = random.Random(player)
    met = set()
    for _ in range(40):
        position = rules.game.start()
        for ply in range(6):
            kids = rules.children(position)
            if not kids:
                break
            if ply % 2 == player:
                move = book.best_move(rules.line_key(position))
                assert move is not None, (ply, rules.game.format_position_line(position))
                met.add(position)
                position = kids[move][1]
            else:
                position = rng.choice(kids)[1]
    assert len(met) > 20
