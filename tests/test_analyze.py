"""``gamedp analyze``: values, move lists and GamesmanUni JSON held to plain brute force, and its error messages.

The brute forces here are written from the rules (tic-tac-toe's lines, Kayles' pins, taking cards from the ends),
sharing no code with gamedp's solvers or games.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from command import gamedp
from hypothesis import given, settings
from hypothesis import strategies as st

from gamedp.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
GAMES = str(Path(__file__).resolve().parent / "test_analyze_games.py")
KAYLES = f"{GAMES}:Kayles"
EXAMPLE = str(ROOT / "examples" / "my_game.py")
PREFERENCE = {"win": 3, "tie": 2, "draw": 1, "lose": 0}


def run_cli(*args: str, stdin: str | None = None) -> str:
    result = CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout  # a first compile's notice goes to stderr


def analyze_json(*args: str, stdin: str | None = None) -> dict:
    return json.loads(run_cli("analyze", "--json", *args, stdin=stdin))


# -- tic-tac-toe, by plain minimax ----------------------------------------------------------------------------
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def ttt_children(board: str) -> list[tuple[int, str]]:
    if any(board[a] != "." and board[a] == board[b] == board[c] for a, b, c in LINES):
        return []
    mark = "X" if board.count("X") == board.count("O") else "O"
    return [(i, board[:i] + mark + board[i + 1:]) for i in range(9) if board[i] == "."]


def preference(outcome: str, remoteness: int) -> tuple:
    """Larger is better for the mover: win soonest, then tie soonest, then lose latest."""
    return (PREFERENCE[outcome], remoteness if outcome == "lose" else -remoteness)


@lru_cache(maxsize=None)
def ttt_value(board: str) -> tuple[str, int]:
    kids = ttt_children(board)
    if not kids:
        lined = any(board[a] != "." and board[a] == board[b] == board[c] for a, b, c in LINES)
        return ("lose" if lined else "tie"), 0
    options = [move_value(ttt_value(child)) for _, child in kids]
    return max(options, key=lambda v: preference(*v))


def move_value(child: tuple[str, int]) -> tuple[str, int]:
    return {"win": "lose", "lose": "win", "tie": "tie", "draw": "draw"}[child[0]], child[1] + 1


def delta_remoteness(moves: list[dict]) -> list[int]:
    """GamesmanUni's deltaRemoteness, from its definition: distance to the best move of the same value."""
    deltas = []
    for m in moves:
        same = [n["remoteness"] + 1 for n in moves if n["moveValue"] == m["moveValue"]]
        best = max(same) if m["moveValue"] == "lose" else min(same)
        deltas.append(abs(m["remoteness"] + 1 - best))
    return deltas


def random_board(draw) -> str:
    board = "." * 9
    for _ in range(draw(st.integers(2, 8))):
        kids = ttt_children(board)
        if not kids:
            break
        board = kids[draw(st.integers(0, len(kids) - 1))][1]
    return board


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_tictactoe_json_agrees_with_minimax(data):
    board = data.draw(st.composite(lambda draw: random_board(draw))())
    doc = analyze_json("tictactoe", board)
    assert (doc["positionValue"], doc["remoteness"]) == ttt_value(board)
    assert doc["position"].replace(" ", "").replace("\n", "") == board
    kids = dict((str(i + 1), child) for i, child in ttt_children(board))
    assert sorted(m["move"] for m in doc["moves"]) == sorted(kids)
    for m in doc["moves"]:
        child = kids[m["move"]]
        assert m["moveName"] == m["move"]
        assert (m["positionValue"], m["remoteness"]) == ttt_value(child)
        assert (m["moveValue"], m["remoteness"] + 1) == move_value(ttt_value(child))
        # the resulting position is given in a notation analyze reads back
        assert analyze_json("tictactoe", m["position"])["remoteness"] == ttt_value(child)[1]
    ranks = [preference(m["moveValue"], m["remoteness"] + 1) for m in doc["moves"]]
    assert ranks == sorted(ranks, reverse=True), "moves must come best first"
    assert [m["deltaRemoteness"] for m in doc["moves"]] == delta_remoteness(doc["moves"])


def test_tictactoe_text_shows_board_value_and_moves_best_first():
    board = "XX.OO...."
    out = run_cli("analyze", "tictactoe", "XX.\nOO.\n...")  # a position typed over several lines
    doc = analyze_json("tictactoe", board)
    from gamedp.games.tictactoe import TicTacToe

    assert out.startswith(TicTacToe().format_position(board) + "\n")
    assert "WIN in 1 for the player to move" in out
    listed = [line.split() for line in out.splitlines() if line.startswith("  ")]
    assert [words[0] for words in listed] == [m["move"] for m in doc["moves"]]
    assert [words[1].lower() for words in listed] == [m["moveValue"] for m in doc["moves"]]


def test_position_from_standard_input_and_the_start_by_default():
    assert analyze_json("tictactoe", "-", stdin="X..\n.O.\n...\n") == analyze_json("tictactoe", "X...O....")
    assert analyze_json("tictactoe")["position"] == analyze_json("tictactoe", ".........")["position"]


def test_perfect_line_plays_the_best_moves_to_the_end():
    out = run_cli("analyze", "tictactoe", "X...O....", "--line")
    line = out.splitlines()[-1].removeprefix("perfect line of play: ").split(", ")
    board = "X...O...."
    for move in line:
        kids = {str(i + 1): child for i, child in ttt_children(board)}
        assert preference(*move_value(ttt_value(kids[move]))) == max(
            preference(*move_value(ttt_value(child))) for child in kids.values()), (board, move)
        board = kids[move]
    assert not ttt_children(board) and len(line) == ttt_value("X...O....")[1]


# -- an impartial user game with nimbers, held to plain mex ------------------------------------------------
@lru_cache(maxsize=None)
def plain_nimber(row: str) -> int:
    """The nimber of a row by the definition: the mex of the nimbers of every row one move away."""
    reachable = set()
    for i in range(len(row)):
        for width in (1, 2):
            if row[i:i + width] == "I" * width:
                reachable.add(plain_nimber(row[:i] + "." * width + row[i + width:]))
    n = 0
    while n in reachable:
        n += 1
    return n


@settings(max_examples=25, deadline=None)
@given(st.text(alphabet="I.", min_size=1, max_size=9))
def test_user_game_from_a_file_with_nimbers(row):
    doc = analyze_json(KAYLES, row)
    assert doc["mex"] == f"*{plain_nimber(row)}"
    assert doc["positionValue"] == ("win" if plain_nimber(row) else "lose")
    for m in doc["moves"]:
        assert m["mex"] == f"*{plain_nimber(m['position'])}"
        # normal play: the winning moves are exactly those to nimber 0
        assert (m["moveValue"] == "win") == (plain_nimber(m["position"]) == 0)


# -- the example user game, Toads and Frogs, by plain minimax from its rules -------------------------------
def toads_moves(position: str) -> dict[str, str]:
    """Square number of the piece moved -> the position after it, written plainly from the rules."""
    strip, mover = position.split(":")
    step, other = (1, "F") if mover == "T" else (-1, "T")
    result = {}
    for i, c in enumerate(strip):
        if c != mover:
            continue
        for j in (i + step, i + 2 * step):
            if not 0 <= j < len(strip):
                break
            if strip[j] == ".":
                if j == i + step or strip[i + step] == other:
                    cells = list(strip)
                    cells[i], cells[j] = ".", mover
                    result[str(i + 1)] = "".join(cells) + ":" + other
                break
    return result


@lru_cache(maxsize=None)
def toads_value(position: str) -> tuple[str, int]:
    kids = toads_moves(position)
    if not kids:
        return "lose", 0
    return max((move_value(toads_value(c)) for c in kids.values()), key=lambda v: preference(*v))


@settings(max_examples=25, deadline=None)
@given(st.text(alphabet="TF..", min_size=2, max_size=8), st.sampled_from("TF"))
def test_example_user_game_agrees_with_minimax(strip, mover):
    position = f"{strip}:{mover}"
    doc = analyze_json(EXAMPLE, position)
    assert (doc["positionValue"], doc["remoteness"]) == toads_value(position)
    kids = toads_moves(position)
    assert sorted(m["move"] for m in doc["moves"]) == sorted(kids)
    for m in doc["moves"]:
        assert m["position"] == kids[m["move"]]
        assert (m["moveValue"], m["remoteness"] + 1) == move_value(toads_value(kids[m["move"]]))
    # the drawing, as printed, reads back as the same position
    drawn = run_cli("analyze", EXAMPLE, position).split("\n\n")[0]
    assert analyze_json(EXAMPLE, drawn)["position"] == position


def test_user_game_as_module_attribute():
    result = gamedp("analyze", "--json", "tests.test_analyze_games:CardRow", "5 1 3", cwd=ROOT)
    doc = json.loads(result.stdout)
    assert doc["positionValue"] == "win" and doc["winby"] == plain_margin((5, 1, 3))


# -- scored games: own analyze() and the memo engine, by plain recursion ----------------------------------
def plain_margin(cards: tuple[int, ...]) -> int:
    if not cards:
        return 0
    return max(cards[0] - plain_margin(cards[1:]), cards[-1] - plain_margin(cards[:-1]))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 20), min_size=1, max_size=9).map(tuple))
def test_card_row_descriptions_agree_with_brute_force(cards):
    from gamedp.loader import load_game
    from gamedp.solvers.memo import solve

    assert load_game(f"{GAMES}:CardRow").analyze(cards).value.score == plain_margin(cards)
    tally = load_game(f"{GAMES}:CardRowTally")
    assert solve(tally, (cards, 0)).value((cards, 0)).score == plain_margin(cards)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 30), min_size=2, max_size=8).map(tuple))
def test_scored_game_json_agrees_with_brute_force(cards):
    row = " ".join(map(str, cards))
    for spec in (f"{GAMES}:CardRow", f"{GAMES}:CardRowTally"):
        doc = analyze_json(spec, row)
        margin = plain_margin(cards)
        assert doc["winby"] == abs(margin)
        assert doc["positionValue"] == ("win" if margin > 0 else "lose" if margin < 0 else "tie")
        assert doc["remoteness"] == len(cards)
        by_move = {m["move"]: m for m in doc["moves"]}
        for side, child, taken in (("L", cards[1:], cards[0]), ("R", cards[:-1], cards[-1])):
            # The child's own value, not the move's negated: CardRow's moves score the card taken, while
            # CardRowTally's child carries it in its running margin.
            own = plain_margin(child) - (taken if spec.endswith("Tally") else 0)
            assert by_move[side]["winby"] == abs(own), spec
            assert by_move[side]["moveValue"] == ("win" if taken > plain_margin(child) else
                                                  "lose" if taken < plain_margin(child) else "tie")


def test_scored_text_shows_score():
    out = run_cli("analyze", f"{GAMES}:CardRow", "5 1 3")
    # L: 5 - (3 - 1) = +3; R: 3 - (5 - 1) = -1
    assert "WIN in 3, score +3 for the player to move" in out
    assert "L  WIN in 3, score +3" in out and "R  LOSE in 3, score -1" in out


# -- cycles, compiled games ------------------------------------------------------------------------------
def test_draws_carry_gamesmanuni_infinite_remoteness():
    doc = analyze_json(f"{GAMES}:Chase", "1")
    assert (doc["positionValue"], doc["remoteness"]) == ("draw", -200)
    assert [(m["move"], m["moveValue"]) for m in doc["moves"]] == [("2", "draw"), ("4", "lose")]


def test_outcomes_only_leaves_remoteness_unknown():
    doc = analyze_json("tictactoe", "XX.OO....", "--outcomes-only")
    assert doc["positionValue"] == "win" and doc["remoteness"] == -100


def test_compiled_game():
    doc = analyze_json(f"{GAMES}:TAKE_134", "7")
    assert doc["positionValue"] == "lose" and sorted(m["position"] for m in doc["moves"]) == ["3", "4", "6"]


def test_own_solution_is_made_once_and_preferred():
    from gamedp.analysis import Analyst
    from gamedp.loader import load_game

    game = load_game(f"{GAMES}:TableTake")
    analyst = Analyst(game)
    type(game).solutions_made = 0
    for n in range(31):
        analysis = analyst.analyze(n)
        assert (analysis.value.outcome.name == "LOSE") == plain_take_loses(n)
        assert [str(mv.value) for mv in analysis.moves] == \
            [str(v) for v in sorted((analyst.value(n - mv.move).for_parent() for mv in analysis.moves),
                                    key=lambda v: v.rank(), reverse=True)]
    assert type(game).solutions_made == 1


def plain_take_loses(n: int) -> bool:
    return all(not plain_take_loses(n - k) for k in (1, 3, 4) if k <= n)


@pytest.mark.slow
def test_a_huge_game_is_analysed_only_below_the_shown_position():
    from gamedp.analysis import Analyst
    from gamedp.loader import load_game

    game = load_game(f"{GAMES}:Countdown")
    type(game).visited = set()
    analysis = Analyst(game).analyze(12)
    assert analysis.value.outcome.name == "LOSE"  # 12 = 0 (mod 3): every move leaves a multiple-of-3 reply
    assert type(game).visited <= set(range(13))
    doc = analyze_json(f"{GAMES}:Countdown", "100000")
    assert doc["positionValue"] == "win" and doc["remoteness"] == 2 * 100000 // 3 + 1


def test_perfect_line_stops_when_a_draw_repeats():
    out = run_cli("analyze", f"{GAMES}:Chase", "1", "--line")
    assert out.splitlines()[-1] == "perfect line of play: 2, 0, 1"


# -- every built-in game --------------------------------------------------------------------------------
def builtin_names() -> list[str]:
    from gamedp.games.registry import GAMES

    # Connect-4 on its classic 7x6 board is far beyond a search from the start; its 4x4 board plays the same rules.
    return sorted("connect4:4x4" if name == "connect4" else name for name in GAMES)


def near_the_end(name: str):
    """(analyst, position, its text): a position near the end of a built-in game (its first moves followed a
    while), or the start (text None) where the game's notation does not read its positions back -- a fault of the
    game's text hooks that ``gamedp check`` reports, not of the front ends."""
    from gamedp.analysis import Analyst
    from gamedp.errors import GamedpError
    from gamedp.loader import load_game

    analyst = Analyst(load_game(name))
    position = analyst.start()
    for _ in range(40):
        moves = analyst.rules.move_list(position)
        if len(moves) <= 4:
            break
        position = moves[0][1]
    text = analyst.position_name(position)
    try:
        if analyst.read_position(text) == position:
            return analyst, position, text
    except GamedpError:
        pass
    return analyst, analyst.start(), None


@pytest.mark.parametrize("name", builtin_names())
def test_every_builtin_game(name):
    """analyze works on every built-in game, and the positions it names read back."""
    analyst, position, text = near_the_end(name)
    args = [name] if text is None else [name, text]
    doc = analyze_json(*args)
    analysis = analyst.analyze(position)
    assert (doc["positionValue"], len(doc["moves"])) == (analysis.value.outcome.value, len(analysis.moves))
    children = {analyst.move_name(position, m): child for m, child in analyst.rules.move_list(position)}
    assert sorted(m["move"] for m in doc["moves"]) == sorted(children)
    if text is not None:
        assert analyst.read_position(doc["position"]) == position
        for m in doc["moves"]:
            assert analyst.read_position(m["position"]) == children[m["move"]]
    assert run_cli("analyze", *args).startswith(analyst.draw(position))


# -- bad input: one clear line, exit status 2 ---------------------------------------------------------------
@pytest.mark.parametrize("args, expected", [
    (["analyze", "no-such-game"], "unknown game 'no-such-game'"),
    (["analyze", "tictactoe", "XXXX"], "9 cells"),
    (["analyze", "tictactoe", "XXX......"], "X moves first"),
    (["analyze", "no_such_module:Game"], "cannot import module 'no_such_module'"),
    (["analyze", "examples/no_such_file.py"], "no such file"),
    (["analyze", f"{GAMES}:Nothing"], "has no attribute 'Nothing'"),
    (["analyze", f"{GAMES}:CardRow", "3 x 1"], "a card row is numbers"),
    (["analyze", f"{GAMES}:Chase", "9"], "node number"),
    (["analyze", "tictactoe", "-"], "standard input, but it was empty"),
    (["play", "no-such-game"], "unknown game 'no-such-game'"),
    (["play", "tictactoe", "OO......."], "X moves first"),
    (["play", "tictactoe", "-"], "POSITION cannot be '-'"),
    (["play", "no_such_module:Game"], "cannot import module"),
])
def test_bad_input_is_one_clear_line_and_status_2(args, expected):
    result = gamedp(*args, cwd=ROOT)
    assert result.returncode == 2, result
    assert result.stderr.startswith("gamedp: error: ") and expected in result.stderr
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


def test_a_broken_user_file_is_one_clear_line(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("from gamedp import Game\nclass G(Game)\n    pass\n")
    failing = tmp_path / "failing.py"
    failing.write_text("import no_such_dependency\n")
    parser = tmp_path / "parser.py"
    parser.write_text("from gamedp import Game\nclass G(Game):\n    def start(self): return 3\n"
                      "    def moves(self, n): return [1] if n else []\n    def do_move(self, n, k): return n - k\n"
                      "    def parse_position(self, text): return int(text)\n")
    for path, expected in ((broken, "syntax error"), (failing, "No module named 'no_such_dependency'"),
                           (parser, "cannot read 'three' as a game position")):
        result = gamedp("analyze", str(path), "three", cwd=ROOT)
        assert result.returncode == 2 and expected in result.stderr, result
        assert "Traceback" not in result.stderr
