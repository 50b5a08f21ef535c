"""The compact opening book (gamedp.solvers.compact_book) and the books shipped with gamedp (gamedp.books): a
small board's book written compact holds every score of the book it was written from, each as a search finds it;
a damaged or altered file is refused; the user's own book comes before the shipped one; ``gamedp value`` answers
from a shipped book the lines it holds (explored 0) and the others by its compiled search."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from command import gamedp, one_clear_error

from gamedp import books
from gamedp.books import shipped, shipped_name
from gamedp.errors import GamedpError
from gamedp.games.connect4 import Connect4
from gamedp.solvers import compact_book
from gamedp.solvers.book_builder import make_book
from gamedp.solvers.book_positions import positions_up_to
from gamedp.solvers.compact_book import CompactBook, compact_from, write_compact
from gamedp.solvers.opening_book import OpeningBook, find_book, write_book
from gamedp.solvers.score_search import ScoreSearch

DEPTH, LINES = 2, 4
#: Pascal Pons' six benchmark sets of 7x6 positions and their scores
SETS = Path(__file__).parent / "fixtures" / "connect4-positions"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A 5x4 book (depth 2, lines 4) as gamedp builds it, and the same book written compact."""
    folder = tmp_path_factory.mktemp("book")
    rules = Connect4(5, 4).score_search()
    make_book(rules, DEPTH, folder / "book.gdb", lines=LINES)
    book = OpeningBook(folder / "book.gdb", rules.book_id, rules.variant)
    compact_from(book, rules, folder / shipped_name(rules.book_id, rules.variant))
    return rules, book, folder / shipped_name(rules.book_id, rules.variant)


def kept(book: OpeningBook) -> dict[int, int]:
    return dict(zip(book.keys.tolist(), book.scores.tolist()))


def positions(rules, scores: dict[int, int]) -> dict[int, object]:
    """A position of each key of a book whose scores are ``scores``: a Connect-Four key is a position itself
    (the first of it and its mirror image)."""
    return {key: key for key in scores}


def test_a_compact_book_holds_every_score_of_its_book_each_as_a_search_finds_it(built):
    rules, book, path = built
    compact = CompactBook(path, rules)
    assert (compact.depth, compact.lines, compact.reach, len(compact)) == (book.depth, LINES, book.reach, len(book))
    scores = kept(book)
    search = ScoreSearch(rules, progress=False, book=False)
    for key, position in positions(rules, scores).items():
        bound = rules.score_bound(position)
        assert compact.score(key, bound) == scores[key] == search.score(position), \
            rules.game.format_position_line(position)
    assert len(compact.kept) == len(scores)
    assert compact.score(rules.book_key(rules.read_moves("1111")), 8) is None  # none of its positions
    # a few bits a score: 5x4's -10..10 in 5 at most, the header and the SHA-256 beside them
    assert path.stat().st_size < len(scores) * 5 / 8 + 400


def test_the_positions_past_the_depth_are_read_only_when_one_is_asked_for(built):
    rules, book, path = built
    compact = CompactBook(path, rules)
    start = rules.game.start()
    assert compact.score(rules.book_key(start), 10) == kept(book)[rules.book_key(start)]
    assert len(compact.kept) == len(positions_up_to(rules, DEPTH)) < len(book)
    deep = next(k for k, p in positions(rules, kept(book)).items() if rules.moves_made(p) == LINES)
    assert compact.score(deep, 10) == kept(book)[deep] and len(compact.kept) == len(book)


def test_a_compact_book_keeps_every_best_move_of_its_book(built):
    rules, book, path = built
    compact = CompactBook(path, rules)
    assert book.best and all(compact.best_move(key) == move for key, move in book.best.items())
    assert compact.best == book.best
    assert compact.best_move(rules.read_moves("1111")) is None  # none of its positions


def test_a_book_made_before_best_moves_loads_but_is_not_written_compact(built, tmp_path):
    """Such a book still gives its scores (play then searches its moves); written compact, it would lack the
    best moves a compact book must hold, so the command that makes it again is given instead."""
    rules, book, _ = built
    write_book(tmp_path / "old.gdb", rules.book_id, rules.variant, DEPTH, kept(book), lines=LINES,
               reach=book.reach)
    old = OpeningBook(tmp_path / "old.gdb", rules.book_id, rules.variant)
    assert old.best == {} and old.best_move(rules.game.start()) is None
    assert kept(old) == kept(book)
    with pytest.raises(GamedpError, match="keeps no best moves .* gamedp book connect4:5x4 --depth 2 --lines 4 "
                                          "--force"):
        compact_from(old, rules, tmp_path / "old.book")


def test_a_compact_book_of_the_first_format_is_refused_with_the_command_that_writes_it_again(built, tmp_path):
    rules, _, path = built
    data = bytearray(path.read_bytes())
    data[8:12] = (1).to_bytes(4, "little")
    (tmp_path / "v1.book").write_bytes(data)
    with pytest.raises(GamedpError, match="is of format 1; this gamedp reads format 2: write it again with: "
                                          "gamedp book connect4:5x4"):
        CompactBook(tmp_path / "v1.book", rules)


def test_the_same_book_is_the_same_file(built, tmp_path):
    rules, book, path = built
    compact_from(book, rules, tmp_path / "again.book")
    assert (tmp_path / "again.book").read_bytes() == path.read_bytes()


def test_a_book_of_other_positions_is_not_written_compact(built, tmp_path):
    rules, book, _ = built
    with pytest.raises(GamedpError, match="not a book of that depth and lines"):
        write_compact(tmp_path / "x.book", rules, DEPTH, LINES + 2, LINES + 2, kept(book), book.best)


@pytest.mark.parametrize("at", [0, 20, -40, -1])
def test_a_damaged_compact_book_is_refused(built, tmp_path, at):
    rules, _, path = built
    data = bytearray(path.read_bytes())
    data[at] ^= 0x10
    (tmp_path / "bad.book").write_bytes(data)
    with pytest.raises(GamedpError, match="bad.book (is damaged|is not a compact book)"):
        CompactBook(tmp_path / "bad.book", rules)


def test_a_compact_book_of_another_board_is_refused(built):
    _, _, path = built
    with pytest.raises(GamedpError, match="is the book of connect4-book .*'width': 5.*, not of connect4-book .*'width': 4"):
        CompactBook(path, Connect4(4, 4).score_search())


@pytest.fixture
def as_shipped(built, tmp_path, monkeypatch):
    """The built book as if shipped with gamedp: in a package folder of the test's, listed with its digest."""
    rules, _, path = built
    folder = tmp_path / "books"
    folder.mkdir()
    (folder / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(books, "_FOLDER", folder)
    monkeypatch.setitem(books.SHIPPED, path.name, hashlib.sha256(path.read_bytes()).hexdigest())
    monkeypatch.setenv("GAMEDP_DB_DIR", str(tmp_path / "db"))
    return rules, folder / path.name


def test_the_shipped_book_is_found_and_the_users_own_comes_first(as_shipped, tmp_path):
    rules, _ = as_shipped
    assert isinstance(find_book(rules), CompactBook)
    assert ScoreSearch(rules, progress=False).book is not None
    make_book(rules, 1, tmp_path / "db" / "connect4-book_height4_width5.gdb")
    assert isinstance(find_book(rules), OpeningBook)
    assert find_book(Connect4(4, 4).score_search()) is None  # none shipped for 4x4


def test_a_shipped_book_that_is_not_the_file_shipped_is_refused(as_shipped):
    rules, path = as_shipped
    data = bytearray(path.read_bytes())
    data[30] ^= 1
    path.write_bytes(data)
    with pytest.raises(GamedpError, match="shipped with gamedp is not the file it was shipped as .* not used"):
        find_book(rules)


def shipped_gamedp(folder, name: str, digest: str, *args: str, stdin: str, db_dir) -> subprocess.CompletedProcess:
    """``gamedp ARGS`` in a process whose gamedp ships the book ``folder/name``."""
    script = ("import pathlib, sys; import gamedp.books as b; "
              f"b._FOLDER = pathlib.Path({str(folder)!r}); b.SHIPPED[{name!r}] = {digest!r}; "
              "from gamedp.cli.entry import main; main(sys.argv[1:])")
    return subprocess.run([sys.executable, "-c", script, *args], input=stdin, capture_output=True, text=True,
                          env={**__import__("os").environ, "GAMEDP_DB_DIR": str(db_dir)}, timeout=300)


def made_up_book(rules, folder, depth: int = DEPTH, lines: int = LINES) -> tuple[str, dict[int, int]]:
    """A compact book of made-up scores and best moves (walked with them, as the builder would have); its
    digest."""
    scores: dict[int, int] = {}
    best: dict[int, int] = {}

    def made_up(key: int) -> int:
        scores[key] = (key * 0x9E3779B97F4A7C15 >> 40) % 7 - 3
        return scores[key]

    def made_up_move(key: int, count: int) -> int:
        best[key] = (key * 0x9E3779B97F4A7C15 >> 36) % count
        return best[key]

    walked = compact_book._positions_up_to(rules, depth, made_up)
    compact_book._lines(rules, lines, walked, {}, made_up, made_up_move)
    scores.update(walked)  # with those the walk puts in: the positions the best moves lead to
    path = folder / shipped_name(rules.book_id, rules.variant)
    write_compact(path, rules, depth, lines, max(depth, lines), scores, best)
    return hashlib.sha256(path.read_bytes()).hexdigest(), scores


def test_value_answers_from_the_shipped_book_the_lines_it_holds_and_the_others_by_its_search(tmp_path):
    """A book of made-up scores shows which lines it answers: those it holds (explored 0), in the compiled
    lines' path as in --json's; the lines past its reach are searched and answered truly."""
    rules = Connect4(5, 4).score_search()
    digest, scores = made_up_book(rules, tmp_path)
    held = ["", "3", "12", "55", "31"]
    deep = ["123451", "3333", "1122334"]
    search = ScoreSearch(rules, progress=False, book=False)

    def answer(line: str, score: int) -> str:
        value = rules.value(rules.read_moves(line), score)
        return f"{line}\t{value.outcome.name}\t{value.remoteness}"

    expected = [answer(line, scores[rules.book_key(rules.read_moves(line))]) for line in held] + \
        [answer(line, search.score(rules.read_moves(line))) for line in deep]
    lines = held + deep
    order = [1, 5, 2, 6, 3, 0, 7, 4]  # lines in and past the book, mixed
    shown = shipped_gamedp(tmp_path, shipped_name(rules.book_id, rules.variant), digest, "value", "connect4:5x4",
                           stdin="".join(lines[i] + "\n" for i in order), db_dir=tmp_path / "db")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines() == [expected[i] for i in order]
    as_json = shipped_gamedp(tmp_path, shipped_name(rules.book_id, rules.variant), digest, "value", "connect4:5x4", "--json",
                             stdin="\n".join(held) + "\n", db_dir=tmp_path / "db")
    assert as_json.returncode == 0, as_json.stderr
    assert [json.loads(line)["explored"] for line in as_json.stdout.splitlines()] == [0] * len(held)
    # --no-book: every line searched, so answered truly (the book's scores are made up)
    searched = shipped_gamedp(tmp_path, shipped_name(rules.book_id, rules.variant), digest, "value", "connect4:5x4",
                              "--json", "--no-book", stdin="\n".join(held) + "\n", db_dir=tmp_path / "db")
    assert searched.returncode == 0, searched.stderr
    truly = [rules.value(rules.read_moves(line), search.score(rules.read_moves(line))) for line in held]
    got = [json.loads(line) for line in searched.stdout.splitlines()]
    assert [(g["value"], g["remoteness"]) for g in got] == [(v.outcome.name, v.remoteness) for v in truly]
    assert all(g["explored"] > 0 for g in got)
    # split over Dask's workers, the same: the driver takes the book's positions as settled
    split = [shipped_gamedp(tmp_path, shipped_name(rules.book_id, rules.variant), digest, "value", "connect4:5x4",
                            "--json", "--workers", "2", *options, stdin="\n".join(held) + "\n", db_dir=tmp_path / "db")
             for options in ((), ("--no-book",))]
    assert [p.returncode for p in split] == [0, 0], [p.stderr for p in split]
    booked, searched_split = ([json.loads(line) for line in p.stdout.splitlines()] for p in split)
    assert [(g["value"], g["remoteness"], g["explored"]) for g in booked] == \
        [(g["value"], g["remoteness"], 0) for g in map(json.loads, as_json.stdout.splitlines())]
    assert [(g["value"], g["remoteness"]) for g in searched_split] == [(g["value"], g["remoteness"]) for g in got]
    assert all(g["explored"] > 0 for g in searched_split)


def test_value_refuses_a_shipped_book_not_as_shipped_in_one_line(tmp_path):
    rules = Connect4(5, 4).score_search()
    made_up_book(rules, tmp_path)
    shown = shipped_gamedp(tmp_path, shipped_name(rules.book_id, rules.variant), "0" * 64, "value", "connect4:5x4", stdin="3\n",
                           db_dir=tmp_path / "db")
    one_clear_error(shown, "shipped with gamedp is not the file it was shipped as", "install gamedp again")


def test_book_writes_the_compact_form_from_the_book_already_made(tmp_path):
    first = gamedp("book", "connect4:5x4", "--depth", "2", "--lines", "4", "--compact", str(tmp_path / "a.book"),
                   "--json", db_dir=tmp_path / "db")
    assert first.returncode == 0, first.stderr
    made = json.loads(first.stdout)
    assert made["searched"] > 0
    again = gamedp("book", "connect4:5x4", "--depth", "2", "--lines", "4", "--compact", str(tmp_path / "b.book"),
                   "--json", db_dir=tmp_path / "db")
    assert again.returncode == 0, again.stderr
    assert "searched" not in json.loads(again.stdout)  # nothing searched: written from the book made
    assert (tmp_path / "a.book").read_bytes() == (tmp_path / "b.book").read_bytes()
    assert made["compact"]["sha256"] == hashlib.sha256((tmp_path / "a.book").read_bytes()).hexdigest()
    one_clear_error(gamedp("book", "connect4:5x4", "--depth", "2", "--lines", "4", "--compact",
                           str(tmp_path / "a.book"), db_dir=tmp_path / "db"), "a.book exists; give --force")


def test_a_search_reads_the_lines_of_its_book_only_for_a_position_they_may_hold(built):
    """Past the book's reach a position is searched without reading the book's lines (tens of thousands of
    positions walked on 7x6); within it, the lines are read."""
    rules, book, path = built
    search = ScoreSearch(rules, progress=False, book=CompactBook(path, rules))
    search.score(rules.read_moves("1234512"))
    assert not search.book._lines_read
    search.score(rules.read_moves("123"))
    assert search.book._lines_read


def test_with_a_book_value_still_answers_the_lines_past_it_in_compiled_code(built):
    """The lines the book may hold are read one by one; the others go to the compiled code, many a call."""
    from gamedp.batch import ScoreReader

    rules, book, path = built
    search = ScoreSearch(rules, progress=False, book=CompactBook(path, rules))
    reader = ScoreReader(rules.game, search, rules.read_moves)
    assert reader.compiled
    block = b"3\n1212\n1234512\n12345123\n\n"
    answers = [text for _, text in reader.answer_block(1, block, 0, len(block), "ascii", "strict")]
    plain = ScoreSearch(rules, progress=False, book=False)
    expected = []
    for line in block.decode().splitlines():
        value = rules.value(rules.read_moves(line), plain.score(rules.read_moves(line)))
        expected.append(f"{line}\t{value.outcome.name}\t{value.remoteness}\n")
    assert "".join(answers) == "".join(expected)
    assert len(answers) == 4  # the two lines past the book in one compiled call


def benchmark_lines(most: int) -> list[tuple[str, int]]:
    """The benchmark sets' positions of at most ``most`` stones, with their scores."""
    lines = []
    for path in sorted(SETS.glob("Test_*")):
        for line in path.read_text().splitlines():
            moves, score = line.split()
            if len(moves) <= most:
                lines.append((moves, int(score)))
    return lines


def disagreements(book, rules) -> tuple[list[tuple[str, int, int]], int]:
    """The benchmark sets' positions ``book`` (7x6) holds with another score than theirs (each with the two
    scores), and how many of their positions it holds."""
    wrong, held = [], 0
    for moves, score in benchmark_lines(book.reach):
        position = rules.read_moves(moves)
        kept = book.score(rules.book_key(position), rules.score_bound(position))
        held += kept is not None
        if kept is not None and kept != score:
            wrong.append((moves, kept, score))
    return wrong, held


def test_a_book_whose_scores_are_not_the_benchmark_sets_is_caught(tmp_path):
    rules = Connect4(7, 6).score_search()
    made_up_book(rules, tmp_path, depth=4, lines=0)
    wrong, held = disagreements(CompactBook(tmp_path / shipped_name(rules.book_id, rules.variant), rules), rules)
    assert held == len(benchmark_lines(4)) > 200 and len(wrong) > held // 2


SHIPPED_7X6 = shipped("connect4-book", {"width": 7, "height": 6})


@pytest.mark.skipif(SHIPPED_7X6 is None, reason="no 7x6 book is shipped yet")
def test_the_shipped_7x6_book_agrees_with_the_benchmark_sets_and_value_answers_from_it(tmp_path):
    """Every position of the benchmark sets the shipped book holds has the sets' score; every one of at most 4
    stones is held, and `gamedp value connect4` answers each from the book (explored 0)."""
    rules = Connect4(7, 6).score_search()
    path, digest = SHIPPED_7X6
    book = CompactBook(path, rules, digest)
    assert book.depth >= 4
    wrong, held = disagreements(book, rules)
    assert not wrong and held >= len(benchmark_lines(4))
    short = [moves for moves, _ in benchmark_lines(4)]
    shown = gamedp("value", "connect4", "--json", stdin="".join(m + "\n" for m in short), db_dir=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert [json.loads(line)["explored"] for line in shown.stdout.splitlines()] == [0] * len(short)
