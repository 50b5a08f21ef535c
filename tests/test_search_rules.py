"""A game of one's own on the exact-score search (gamedp.solvers.search_rules, gamedp.solvers.hooks_search): the hooks of
examples/k_in_a_row.py give, on many random small boards, the scores of a plain minimax written here from the
rules alone; a mistake in a hook is one line naming it, exit status 2, no traceback."""

from __future__ import annotations

import importlib.util
import os
import random
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from gamedp import GamedpError, SearchRules
from gamedp.solvers.score_search import ScoreSearch

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "k_in_a_row.py"


def example():
    spec = importlib.util.spec_from_file_location("k_in_a_row", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


K = example()


# -- the rules once more, as plainly as they can be written: cells as (row, column), a dict of stones ----------
def minimax_score(width: int, height: int, k: int, gravity: bool, stones: tuple[tuple[int, int, int], ...]) -> int:
    """The mover's score (a win by a stone placed onto n stones: (W*H + 1 - n) // 2) by plain negamax over every
    move, from ``stones`` ((row, column, player) with player 0 the first)."""
    return _best(width, height, k, gravity, frozenset(stones))


def _line_through(board: dict, row: int, col: int, who: int, width: int, height: int, k: int) -> bool:
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < height and 0 <= c < width and board.get((r, c)) == who:
                run += 1
                r, c = r + sign * dr, c + sign * dc
        if run >= k:
            return True
    return False


@cache
def _best(width: int, height: int, k: int, gravity: bool, state: frozenset) -> int:
    board = {(r, c): who for r, c, who in state}
    n = len(board)
    who = n % 2
    free = [(r, c) for r in range(height) for c in range(width) if (r, c) not in board and
            (not gravity or r == 0 or (r - 1, c) in board)]
    if not free:
        return 0
    return max((width * height + 1 - n) // 2 if _line_through(board, r, c, who, width, height, k) else
               -_best(width, height, k, gravity, state | {(r, c, who)}) for r, c in free)


def random_positions(game, count: int, seed: int) -> list[tuple[tuple[int, int], tuple]]:
    """Positions reached by random play where the game is not over, each as (a, b) and as plain stones."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position, stones = game.start(), []
        for _ in range(rng.randrange(game.cells)):
            if game.primitive(position) is not None:
                break
            move = rng.choice(game.moves(position))
            bit = move.bit_length() - 1
            stones.append((bit % (game.height + 1), bit // (game.height + 1), len(stones) % 2))
            position = game.do_move(position, move)
        if game.primitive(position) is None:
            found.append((position, tuple(stones)))
    return found


def check_against_minimax(game, count: int, seed: int) -> None:
    search = ScoreSearch(game.score_search(), memory=1 << 20, progress=False, book=False)
    for position, stones in random_positions(game, count, seed):
        expected = minimax_score(game.width, game.height, game.k, game.gravity, stones)
        assert search.score(position) == expected, game.format_position(position)
        assert search.value(position) == game.value_of(position, expected)


def test_the_search_of_plain_hooks_gives_plain_minimax_scores():
    check_against_minimax(K.KInARow(4, 3, 3, gravity=True), 150, seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("board", [(3, 3, 3, False), (4, 3, 3, False), (4, 4, 4, True), (5, 3, 3, True),
                                   (3, 5, 3, True)])
def test_the_search_of_plain_hooks_gives_plain_minimax_scores_on_more_boards(board):
    width, height, k, gravity = board
    check_against_minimax(K.KInARow(width, height, k, gravity=gravity), 100, seed=sum(board))


LOAD = """
import sys
sys.path.insert(0, {folder!r})
from k_in_a_row import KInARow
from gamedp.solvers.score_search import ScoreSearch
game = KInARow(4, 3, 3, gravity=True)
print(ScoreSearch(game.score_search(), progress=False, book=False).value(game.start()), "numba" in sys.modules)
"""


def test_a_later_run_loads_the_built_search_without_numba():
    load = [sys.executable, "-c", LOAD.format(folder=str(EXAMPLE.parent))]
    first = subprocess.run(load, capture_output=True, text=True, check=True)  # builds it, unless a test did
    again = subprocess.run(load, capture_output=True, text=True, check=True)
    expected = K.KInARow(4, 3, 3, gravity=True).value_of((0, 0), minimax_score(4, 3, 3, True, ()))
    assert first.stdout.split()[:-1] == again.stdout.split()[:-1] == str(expected).split()
    assert again.stdout.split()[-1] == "False" and again.stderr == ""


@pytest.mark.slow
def test_numbas_path_gives_the_same_scores(monkeypatch):
    monkeypatch.setenv("GAMEDP_JIT", "1")
    check_against_minimax(K.KInARow(3, 4, 3, gravity=True), 60, seed=7)


# -- mistakes ----------------------------------------------------------------------------------------------------
def hooks(**replaced):
    given = {name: getattr(K, name) for name in ("start", "moves", "play", "order", "key")}
    return {**given, **replaced}


def test_a_missing_hook_is_named():
    with pytest.raises(GamedpError, match=r"hook 'order' is missing; give SearchRules\(order=a function "
                                          r"order\(a, b, move, p\)\)"):
        SearchRules(K.game, **hooks(order=None), parameters=K.game.p)


def test_a_hook_that_is_not_a_plain_function_is_named():
    from numba import njit

    with pytest.raises(GamedpError, match=r"hook 'key' in .*k_in_a_row.py: it is a CPUDispatcher, not a plain Python function"):
        SearchRules(K.game, **hooks(key=njit(K.key)), parameters=K.game.p)
    with pytest.raises(GamedpError, match=r"hook 'play' in .*k_in_a_row.py: it takes 3 arguments; write it as "
                                          r"play\(a, b, move, p\)"):
        SearchRules(K.game, **hooks(play=K.start), parameters=K.game.p)


BROKEN = '''
import sys
sys.path.insert(0, {folder!r})
import numpy as np
from k_in_a_row import KInARow, start, moves, play, order, key
from gamedp import SearchRules


def {name}({arguments}):
{body}


class Broken(KInARow):
    def score_search(self):
        hooks = dict(start=start, moves=moves, play=play, order=order, key=key)
        hooks[{name!r}] = {name}
        return SearchRules(self, **hooks, parameters=self.p, value=self.value_of)


game = Broken(3, 3, 3, gravity=False)
'''


def moves_of_nothing(a, b, p):
    return a.cells, 0, 0


@pytest.mark.slow
def test_a_hook_that_does_not_compile_is_named_before_anything_is_built(monkeypatch, tmp_path):
    monkeypatch.setenv("GAMEDP_CACHE_DIR", str(tmp_path))
    rules = SearchRules(K.game, **hooks(moves=moves_of_nothing), parameters=K.game.p)
    with pytest.raises(GamedpError, match=r"hook 'moves' in .*test_search_rules.py: line \d+: Unknown attribute "
                                          r"'cells' of type uint64"):
        rules.library()
    assert not list(tmp_path.rglob("libown_search.*"))  # no build started, none remembered as failed


@pytest.mark.slow
@pytest.mark.parametrize("name, arguments, body, said", [
    ("moves", "a, b, p", "    return a.cells, 0, 0",
     r"hook 'moves' in .*broken.py: line 10: Unknown attribute 'cells' of type uint64"),
    ("order", "a, b, move, p", "    return 'first'",
     r"hook 'order' in .*broken.py: returns .*str.*; it must return an integer \(higher: searched first\)"),
    ("play", "a, b, move, p", "    return a ^ b",
     r"hook 'play' in .*broken.py: returns uint64; it must return \(a, b\), the position after the move"),
    ("bound", "a, b, p", "    return a",
     r"hook 'bound' in .*broken.py: returns uint64; it must return \(low, high\), bounds on the position's score"),
], ids=["typing", "order-returns-text", "play-returns-one-word", "bound-returns-one-word"])
def test_a_mistake_in_a_hook_is_one_line_naming_it(tmp_path, name, arguments, body, said):
    game = tmp_path / "broken.py"
    game.write_text(BROKEN.format(folder=str(EXAMPLE.parent), name=name, arguments=arguments, body=body))
    done = subprocess.run([sys.executable, "-m", "gamedp", "value", str(game)], input="...\n...\n...\n",
                          capture_output=True, text=True, env={**os.environ,
                                                               "GAMEDP_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("gamedp: error: ") and "Traceback" not in done.stderr
    assert re.search(said, done.stderr), done.stderr


def test_the_how_to_shows_the_example_as_it_is():
    """Every Python block of docs/howto/own-search.md is a passage of examples/k_in_a_row.py, word for word (the
    page's commands run that file: tests/test_doc_examples.py)."""
    page = (ROOT / "docs" / "howto" / "own-search.md").read_text()
    shown = re.findall(r"^```python\n(.*?)^```$", page, re.M | re.S)
    assert shown
    for block in shown:
        assert block in EXAMPLE.read_text(), block


# -- the optional hooks: read and remoteness (gamedp value's lines in compiled code), bound -----------------------
def own_connect4():
    """bench/connect4_hooks.py: Connect-Four on plain hooks, with read and remoteness."""
    spec = importlib.util.spec_from_file_location("connect4_hooks", ROOT / "bench" / "connect4_hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def value_lines(game, rules, text: str, compiled: bool) -> tuple[str, str]:
    """``gamedp value``'s output and errors for the lines ``text``, read in compiled code or each in Python."""
    import io

    from gamedp.batch import answer_lines, score_reader

    reader = score_reader(game, rules, progress=False)
    assert reader.compiled == (getattr(rules, "answer_lines", None) is not None)
    reader.compiled = compiled
    out, err = io.StringIO(), io.StringIO()
    answer_lines(reader, io.TextIOWrapper(io.BytesIO(text.encode())), out, err)
    return out.getvalue(), err.getvalue()


POSITIONS = ROOT / "tests" / "fixtures" / "connect4-positions" / "Test_L2_R1"


def test_lines_the_read_hook_reads_are_answered_in_compiled_code_as_the_built_in_answers_them():
    from gamedp.games.connect4 import Connect4

    own = own_connect4().game
    moves = [line.split()[0] for line in POSITIONS.read_text().splitlines()[:150]]
    text = "".join(m + "\n" for m in moves)
    rules = own.score_search()
    assert rules.answer_lines is not None
    answers, errors = value_lines(own, rules, text, compiled=True)
    builtin = Connect4()
    assert (answers, errors) == value_lines(builtin, builtin.score_search(), text, compiled=True)
    # lines it does not read are the game's own, among those it reads: the same answers as read one by one
    odd = f" {moves[0]} \n4444444\n3x\n\n{moves[1]}\r\n1\u00e9\n" + "".join(m + "\n" for m in moves[2:10]) + moves[10]
    assert value_lines(own, rules, odd, compiled=True) == value_lines(own, rules, odd, compiled=False)
    said = value_lines(own, rules, odd, compiled=True)
    assert said[0].startswith(answers.splitlines(True)[0]) and "line 2: '4' at move 7 is not a column" in said[1]


def test_the_read_hook_needs_the_score_compiled_too():
    with pytest.raises(GamedpError, match=r"give remoteness=a function remoteness\(a, b, score, p\) instead"):
        SearchRules(K.game, **hooks(), read=own_connect4().read, value=K.game.value_of, parameters=K.game.p)


count, win_score, LINES = K.count, K.win_score, K.LINES  # for the hook below, as a game's file has them


def bound(a, b, p):
    """k in a row: the mover wins with its k-th stone at the soonest, the opponent with theirs (k: a line's cells)."""
    k, stones = count(p[LINES][0]), count(b)
    mine, theirs = count(a), count(a ^ b)
    return (-win_score(p, stones + 1 + 2 * max(k - theirs - 1, 0)),
            win_score(p, stones + 2 * max(k - mine - 1, 0)))


def all_tie(a, b, p):
    return 0, 0


@pytest.mark.slow
def test_a_bound_hook_gives_the_answers_found_without_it():
    game = K.KInARow(4, 4, 4, gravity=True)
    positions = [position for position, _ in random_positions(game, 60, seed=3)]

    def scores(**extra):
        search = ScoreSearch(SearchRules(game, **hooks(), **extra, parameters=game.p, value=game.value_of),
                             memory=1 << 20, progress=False, book=False)
        return [search.score(position) for position in positions], search

    plain, _ = scores()
    bounded, search = scores(bound=bound)
    assert bounded == plain
    wrong, _ = scores(bound=all_tie)  # the search does ask the hook: a bound that lies changes answers
    assert wrong != plain


def test_the_history_heuristic_on_gives_plain_minimax_scores():
    """history=True: moves of one word (each a bit) counted in the history's slots of their bits' indices."""
    game = K.KInARow(4, 3, 3, gravity=True)
    search = ScoreSearch(SearchRules(game, **hooks(), parameters=game.p, value=game.value_of, history=True),
                         memory=1 << 20, progress=False, book=False)
    for position, stones in random_positions(game, 80, seed=5):
        assert search.score(position) == minimax_score(4, 3, 3, True, stones), game.format_position(position)
