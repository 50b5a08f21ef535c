"""``gamedp play``: the real program in a pseudo-terminal (pexpect), and with its input piped in.

The perfect opponent is checked move by move against plain brute force written from the rules, never against
gamedp's own solvers.
"""

from __future__ import annotations

import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterator

import pexpect
import pytest
from command import gamedp
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
GAMES = str(Path(__file__).resolve().parent / "test_analyze_games.py")
KAYLES = f"{GAMES}:Kayles"
EXAMPLE = str(ROOT / "examples" / "my_game.py")
PROMPT = "your move> "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(*args: str) -> pexpect.spawn:
    """The real program in a pseudo-terminal, as a person at a colour terminal runs it."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    env["TERM"] = "xterm-256color"
    return pexpect.spawn(sys.executable, ["-m", "gamedp", "play", *args], cwd=str(ROOT), env=env,
                         encoding="utf-8", timeout=60, dimensions=(50, 200))


def screen(child: pexpect.spawn) -> str:
    """What the terminal showed before the last match, without colours and carriage returns."""
    return ANSI.sub("", child.before).replace("\r\n", "\n")


def piped(*args: str, moves: list[str]) -> str:
    result = gamedp("play", *args, stdin="".join(m + "\n" for m in moves), cwd=ROOT, timeout=120)
    assert result.returncode == 0 and not result.stderr, result
    return result.stdout


# -- tic-tac-toe from the rules ----------------------------------------------------------------------------
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def lined(board: str) -> bool:
    return any(board[a] != "." and board[a] == board[b] == board[c] for a, b, c in LINES)


def ttt_moves(board: str) -> dict[str, str]:
    if lined(board):
        return {}
    mark = "X" if board.count("X") == board.count("O") else "O"
    return {str(i + 1): board[:i] + mark + board[i + 1:] for i in range(9) if board[i] == "."}


@lru_cache(maxsize=None)
def ttt_value(board: str) -> tuple[int, int]:
    """(preference, -remoteness or +remoteness) for the mover: larger is better; win 2, tie 1, lose 0."""
    kids = ttt_moves(board)
    if not kids:
        return (0, 0) if lined(board) else (1, 0)
    return max(move_rank(child) for child in kids.values())


def move_rank(child: str) -> tuple[int, int]:
    """The rank of moving to ``child`` for the mover: win soonest, tie soonest, lose latest."""
    outcome, r = ttt_value(child)
    remoteness = abs(r) + 1
    mine = 2 - outcome
    return mine, (remoteness if mine == 0 else -remoteness)


def best_moves(board: str) -> set[str]:
    kids = ttt_moves(board)
    top = max(move_rank(c) for c in kids.values())
    return {m for m, c in kids.items() if move_rank(c) == top}


def draw(board: str) -> str:
    from gamedp.games.tictactoe import TicTacToe

    return TicTacToe().format_position(board)


# -- a whole game in a pseudo-terminal ---------------------------------------------------------------------
def test_whole_game_to_its_end_with_hint_illegal_move_and_undo():
    child = spawn("tictactoe")
    board = "." * 9
    child.expect_exact(PROMPT)
    assert "You move first" in screen(child)
    assert "Your moves: 1, 2, 3, 4, 5, 6, 7, 8, 9" in screen(child)

    child.sendline("hint")
    child.expect_exact(PROMPT)
    hint = screen(child)
    assert "TIE in 9 for you" in hint
    assert re.findall(r"^  (\d)  TIE in 9$", hint, re.M) == [str(i) for i in range(1, 10)]

    child.sendline("0")  # an illegal move: a clear message and the same prompt again
    child.expect_exact(PROMPT)
    assert "'0' is not a legal move here; legal moves: 1, 2, 3, 4, 5, 6, 7, 8, 9" in screen(child)

    child.sendline("undo")  # nothing to take back yet
    child.expect_exact(PROMPT)
    assert "Nothing to undo" in screen(child)

    child.sendline("2")  # a poor first move; the computer must answer with a best reply
    child.expect_exact(PROMPT)
    reply = re.search(r"The computer plays (\d)\.", screen(child)).group(1)
    assert reply in best_moves(ttt_moves(board)["2"])
    after = ttt_moves(ttt_moves(board)["2"])[reply]
    assert draw(after) in screen(child)

    child.sendline("undo")
    child.expect_exact(PROMPT)
    assert "Taken back." in screen(child) and draw(board) in screen(child)
    assert "Your moves: 1, 2, 3, 4, 5, 6, 7, 8, 9" in screen(child)

    # Now play to the end, always the first listed move; every reply must be a best move.
    while True:
        mine = next(iter(ttt_moves(board)))
        board = ttt_moves(board)[mine]
        child.sendline(mine)
        index = child.expect_exact([PROMPT, pexpect.EOF])
        shown = screen(child)
        replies = re.findall(r"The computer plays (\d)\.", shown)
        if replies:
            assert replies[0] in best_moves(board), (board, replies)
            board = ttt_moves(board)[replies[0]]
        if index == 1:
            break
        assert draw(board) in shown
    assert not ttt_moves(board)
    verdict = "You lose." if lined(board) else "It is a tie."
    assert f"Game over. {verdict}" in shown
    assert draw(board) in shown
    child.close()
    assert child.exitstatus == 0


def test_computer_first_help_and_quit():
    child = spawn("tictactoe", "--first", "computer")
    child.expect_exact(PROMPT)
    first = re.search(r"The computer plays (\d)\.", screen(child)).group(1)
    assert first in best_moves("." * 9)
    child.sendline("help")
    child.expect_exact(PROMPT)
    assert all(word in screen(child) for word in ("hint", "undo", "help", "quit"))
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert "Bye." in screen(child)
    child.close()
    assert child.exitstatus == 0


def test_hints_flag_and_colour_in_a_terminal():
    child = spawn(KAYLES, "II.I", "--hints")
    child.expect_exact(PROMPT)
    assert "\x1b[" in child.before  # colour in a terminal
    shown = screen(child)
    assert f"WIN in {kayles_value('II.I')[1]} for you, nimber *3" in shown  # II.I: *2 + *1
    # the winning moves are those to *0: knock pin 1 or pin 2, leaving two single pins
    assert re.findall(r"^  (\S+)\s+WIN in \d+\s+-> \*0$", shown, re.M) == ["1", "2"]
    child.sendline("quit")
    child.expect(pexpect.EOF)


# -- piped input ---------------------------------------------------------------------------------------------
@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(0, 8), min_size=9, max_size=9))
@pytest.mark.slow
def test_piped_games_are_plain_deterministic_and_perfect(choices):
    """Random human moves, piped in: no colour, echoed input, the same transcript twice, a best reply every time.

    Among equally good replies the computer takes the first the game lists (the lowest cell here).
    """
    board, moves, replies = "." * 9, [], []
    while ttt_moves(board):
        options = list(ttt_moves(board))
        moves.append(options[choices[len(moves)] % len(options)])
        board = ttt_moves(board)[moves[-1]]
        if ttt_moves(board):
            replies.append(min(best_moves(board), key=int))
            board = ttt_moves(board)[replies[-1]]
    transcript = piped("tictactoe", moves=["hint", *moves])
    assert "\x1b" not in transcript
    assert transcript == piped("tictactoe", moves=["hint", *moves])
    assert re.findall(r"^your move> (.*)$", transcript, re.M) == ["hint", *moves]
    assert re.findall(r"^The computer plays (\d)\.$", transcript, re.M) == replies
    verdict = "You lose." if lined(board) else "It is a tie."  # nobody beats the perfect opponent here
    assert transcript.rstrip().endswith(f"Game over. {verdict}")


# -- the perfect opponent hurries when winning, stalls when losing, keeps a draw ------------------------------
def knock(row: str, move: str) -> str:
    pins = [int(p) - 1 for p in move.split("-")]
    assert all(row[p] == "I" for p in pins), (row, move)
    return "".join("." if i in pins else c for i, c in enumerate(row))


def kayles_moves(row: str) -> list[str]:
    singles = [str(i + 1) for i in range(len(row)) if row[i] == "I"]
    pairs = [f"{i + 1}-{i + 2}" for i in range(len(row) - 1) if row[i:i + 2] == "II"]
    return singles + pairs


@lru_cache(maxsize=None)
def kayles_value(row: str) -> tuple[bool, int]:
    """(mover wins, remoteness) by plain recursion from the rules: the winner hurries, the loser stalls."""
    values = [kayles_value(knock(row, m)) for m in kayles_moves(row)]
    if not values:
        return False, 0
    wins = [r for w, r in values if not w]
    return (True, min(wins) + 1) if wins else (False, max(r for _, r in values) + 1)


def kayles_rank(row: str, move: str) -> tuple[int, int]:
    wins, r = kayles_value(knock(row, move))
    return (1, -(r + 1)) if not wins else (0, r + 1)


@pytest.mark.parametrize("row, first", [("IIIIIII", "computer"), ("III.II", "human"), ("IIII.I.III", "computer"),
                                        ("IIIII", "human")])
def test_opponent_wins_fastest_or_holds_out_longest(row, first):
    """Both sides play best: every reply is a best move, and the game lasts exactly the start's remoteness."""
    wins, remoteness = kayles_value(row)
    child = spawn(KAYLES, row, "--first", first)
    plies = 0
    while True:
        index = child.expect_exact([PROMPT, pexpect.EOF])
        for reply in re.findall(r"The computer plays (\S+)\.", screen(child)):
            assert kayles_rank(row, reply) == max(kayles_rank(row, m) for m in kayles_moves(row)), (row, reply)
            row, plies = knock(row, reply), plies + 1
        if index == 1:
            break
        mine = max(kayles_moves(row), key=lambda m: kayles_rank(row, m))
        row, plies = knock(row, mine), plies + 1
        child.sendline(mine)
    assert plies == remoteness and "I" not in row
    assert ("You lose." in screen(child)) == (wins == (first == "computer"))


def test_the_perfect_opponent_keeps_a_draw():
    transcript = piped(f"{GAMES}:Chase", "1", "--first", "computer", moves=["0", "2", "1", "0"])
    # At node 1 the computer can go on to 2 (a draw) or give up at 4 (a loss); it must keep the draw.
    # It is at node 1 at the start and after the person's "1".
    assert transcript.count("The computer plays 2.") == 2
    assert "The computer plays 4." not in transcript and "Input ended" in transcript


def test_example_user_game_played_from_its_file_to_the_end():
    """`gamedp play examples/my_game.py`: the computer takes the toads, whose first move wins; it must win."""
    from test_analyze import toads_moves, toads_value

    position = "TTT..FFF:T"
    assert toads_value(position)[0] == "win"
    child = spawn(EXAMPLE, "--first", "computer")
    while True:
        index = child.expect_exact([PROMPT, pexpect.EOF])
        for reply in re.findall(r"The computer plays (\d+)\.", screen(child)):
            assert toads_value(toads_moves(position)[reply])[0] == "lose"  # keeps the win
            position = toads_moves(position)[reply]
        if index == 1:
            break
        listed = re.findall(r"Your moves: (.*)", screen(child))[-1].split(", ")
        assert sorted(listed) == sorted(toads_moves(position))
        position = toads_moves(position)[listed[-1]]
        child.sendline(listed[-1])
    assert not toads_moves(position) and "Game over. You lose." in screen(child)


# -- scored games: the final margin is what was really taken ---------------------------------------------------
def plain_margin(cards: tuple[int, ...]) -> int:
    if not cards:
        return 0
    return max(cards[0] - plain_margin(cards[1:]), cards[-1] - plain_margin(cards[:-1]))


@settings(max_examples=6, deadline=None)
@given(st.lists(st.integers(1, 9), min_size=2, max_size=7).map(tuple))
@pytest.mark.slow
def test_scored_game_ends_with_the_real_margin(cards):
    """The person always takes the left card; the computer plays best. The margin printed is what was taken."""
    row, mine, theirs, human = list(cards), 0, 0, True
    while row:
        if human:
            mine += row.pop(0)
        else:
            left = row[0] - plain_margin(tuple(row[1:]))
            right = row[-1] - plain_margin(tuple(row[:-1]))
            theirs += row.pop(0) if left >= right else row.pop()
        human = not human
    margin = mine - theirs
    verdict = "It is a tie." if margin == 0 else f"You {'win' if margin > 0 else 'lose'} by {abs(margin)}."
    text = " ".join(map(str, cards))
    for spec in (f"{GAMES}:CardRow", f"{GAMES}:CardRowTally"):
        transcript = piped(spec, text, moves=["L"] * len(cards))
        assert f"Game over. {verdict}" in transcript, (spec, transcript)


def test_compiled_game_plays():
    transcript = piped(f"{GAMES}:TAKE_134", "9", moves=["8", "hint", "4"])
    # Take 1, 3 or 4: heaps 0 and 2 (mod 7) lose. A compiled game names moves by the heap left behind.
    # 9 -> 8 hands the computer a win, which it takes at once: 8 -> 7; then 7 -> 4 lets it take all 4.
    assert "The computer plays 7." in transcript and "The computer plays 0." in transcript
    assert transcript.rstrip().endswith("Game over. You lose.")


# -- every built-in game ---------------------------------------------------------------------------------------
def builtin_names() -> list[str]:
    from gamedp.games.registry import GAMES

    # Connect-4 on its classic 7x6 board is far beyond a search from the start; its 4x4 board plays the same rules.
    return sorted("connect4:4x4" if name == "connect4" else name for name in GAMES)


@pytest.mark.parametrize("name", builtin_names())
@pytest.mark.slow
def test_every_builtin_game_plays_to_its_end(name):
    """Near the end of each built-in game (see test_analyze.near_the_end), play the first listed move each turn."""
    from test_analyze import near_the_end

    analyst, position, text = near_the_end(name)
    child = spawn(name) if text is None else spawn(name, text)
    for _ in range(200):
        index = child.expect_exact([PROMPT, pexpect.EOF])
        for reply in re.findall(r"The computer plays (.+)\.$", screen(child), re.M):
            best = analyst.analyze(position).best
            assert analyst.move_name(position, best.move) == reply  # the first best move, every time
            position = best.child
        if index == 1:
            break
        listed = re.findall(r"^Your moves: (.*)$", screen(child), re.M)[-1].split(", ")
        assert listed == [analyst.move_name(position, m) for m, _ in analyst.rules.move_list(position)]
        move = analyst.read_move(position, listed[0])
        position = next(c for m, c in analyst.rules.move_list(position) if m == move)
        child.sendline(listed[0])
    assert "Game over. " in screen(child)
    assert not analyst.analyze(position).moves


# -- from a saved solve ----------------------------------------------------------------------------------------
def saved_nim(db_dir: Path, *position: str) -> Path:
    """``gamedp solve nim POSITION -r`` in ``db_dir``, its every remoteness restated as 40 (no search says that)."""
    from test_saved_solution import restate

    solved = gamedp("solve", "nim", *position, "-r", "--json", db_dir=db_dir)
    assert solved.returncode == 0, solved.stderr
    path = Path(json.loads(solved.stdout)["database"])
    restate(path, 40)
    return path


def test_play_answers_from_the_save_where_it_holds_the_position_and_searches_elsewhere(tmp_path):
    path = saved_nim(tmp_path, "2", "3")
    for db in ([], ["--db", str(path)]):  # the default place, and the file named
        done = gamedp("play", "nim", "2 3", *db, "--hints", db_dir=tmp_path, stdin="quit\n")
        assert done.returncode == 0 and not done.stderr, done
        assert "WIN in 40 for you" in done.stdout and re.search(r"^  3 -> 2  WIN in 41 ", done.stdout, re.M)
    # 3 3 is not reachable from 2 3: searched, so its values are the real ones
    elsewhere = gamedp("play", "nim", "3 3", "--hints", db_dir=tmp_path, stdin="quit\n")
    assert elsewhere.returncode == 0
    assert "LOSE in 6 for you" in elsewhere.stdout
    # --db answers from the file alone: a position it lacks is an error, not a search
    one_line = gamedp("play", "nim", "3 3", "--db", str(path), db_dir=tmp_path)
    assert one_line.returncode == 2 and one_line.stderr.count("\n") == 1
    assert "'3 3' is not in the saved solve" in one_line.stderr and "Traceback" not in one_line.stderr


def test_play_depth_takes_the_saves_values_as_exact(tmp_path):
    saved_nim(tmp_path, "2", "3")
    done = gamedp("play", "nim", "2 3", "--depth", "1", "--first", "computer", db_dir=tmp_path, stdin="quit\n")
    assert done.returncode == 0, done.stderr
    assert re.search(r"^The computer plays 3 -> 2 \(WIN in 41\)\.$", done.stdout, re.M), done.stdout


def test_a_damaged_or_foreign_save_is_refused_on_one_line(tmp_path):
    from test_database import one_clear_error

    path = saved_nim(tmp_path, "2", "3")
    foreign = tmp_path / "misere.gdb"
    assert gamedp("solve", "misere-nim", "2 3", "--db", str(foreign), db_dir=tmp_path).returncode == 0
    one_clear_error(gamedp("play", "nim", "2 3", "--db", str(foreign), db_dir=tmp_path),
                    "is the saved solve of misere-nim", "not of this nim")
    # another game's save in nim's place: said on one line, and the game is played by searching (as analyze does)
    original = path.read_bytes()
    path.write_bytes(foreign.read_bytes())
    done = gamedp("play", "nim", "2 3", "--hints", db_dir=tmp_path, stdin="quit\n")
    assert done.returncode == 0 and done.stderr.startswith(f"gamedp: not answering from {path}: ")
    assert done.stderr.count("\n") == 1 and "WIN in 5 for you" in done.stdout
    damaged = bytearray(original)
    damaged[-1] ^= 4
    path.write_bytes(bytes(damaged))
    for db in ([], ["--db", str(path)]):  # a block found damaged when read: the fix named
        one_clear_error(gamedp("play", "nim", "2 3", *db, db_dir=tmp_path, stdin="quit\n"), "damaged",
                        "gamedp solve nim")


# -- Ctrl-C and long searches ---------------------------------------------------------------------------------------
@contextmanager
def interruptible(*args: str) -> Iterator[subprocess.Popen]:
    """``gamedp ARGS`` with pipes, Ctrl-C's signal at its default as on a terminal (a test started in the
    background inherits it ignored, and so would gamedp); killed if still running when the test ends."""
    process = subprocess.Popen([sys.executable, "-m", "gamedp", *args], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=str(ROOT),
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def test_ctrl_c_at_the_prompt_prints_the_game_so_far_in_a_form_play_takes_back():
    with interruptible("play", "tictactoe", "X........") as process:
        process.stdin.write("5\nundo\n9\n")  # X at 1, then O: 5, the computer's reply, undo, 9, the computer's
        process.stdin.flush()
        seen = ""
        while seen.count(PROMPT) < 4:  # the prompt is written whole before play reads a line
            chunk = os.read(process.stdout.fileno(), 4096).decode()
            assert chunk, seen
            seen += chunk
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        assert process.returncode == 130 and err.strip() == "gamedp: interrupted", err
        moves = re.search(r"The game so far, from X\.{8}: (.*)\.\n", out)
        played = re.findall(r"^your move> (\d)$", seen, re.M)
        replies = re.findall(r"The computer plays (\d)\.", seen)
        assert moves and moves.group(1) == f"9, {replies[-1]}", out  # the undone moves are gone
        command = re.search(r"To play on: gamedp play tictactoe (\S+) --first human\n", out)
        assert command and played == ["5", "9"], out
        position = command.group(1)
        assert sorted(i for i, c in enumerate(position) if c != ".") == sorted([0, 8, int(replies[-1]) - 1])
        again = gamedp("play", "tictactoe", position, "--first", "human", stdin="quit\n")
        assert again.returncode == 0 and "Your moves: " in again.stdout, again.stderr


@pytest.mark.slow
@pytest.mark.parametrize("command", [["play", "connect4", "12121", "--first", "computer"],
                                     ["analyze", "connect4", "12121"]])
def test_a_long_search_piped_says_it_is_alive_and_ctrl_c_ends_it(command):
    """A 7x6 board of five stones off the opening book's lines (the computer's move, or every move's value) takes
    minutes: a plain line on stderr every few seconds says how far the search is; Ctrl-C ends it at once, play
    with the game so far."""
    with interruptible(*command) as process:
        said = ""
        deadline = time.monotonic() + 120  # the search's library may be built first, once per machine
        while "positions, " not in said:
            ready, _, _ = select.select([process.stderr], [], [], max(deadline - time.monotonic(), 0))
            assert ready, f"nothing said on stderr in 2 minutes of search: {said!r}"
            chunk = os.read(process.stderr.fileno(), 4096).decode()
            assert chunk, said
            said += chunk
        line = said.splitlines()[-1]
        assert re.fullmatch(r"gamedp: searching connect4 7x6(: score between -?\d+ and -?\d+)?: [\d,]+ positions, "
                            r"[\d.]+ s", line), said
        assert process.poll() is None
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
        assert process.returncode == 130 and (said + err).strip().endswith("gamedp: interrupted"), said + err
        assert "Traceback" not in said + err
        if command[0] == "play":
            assert re.search(r"The game so far, from (\S+): no moves\.\n"
                             r"To play on: gamedp play connect4 \1 --first computer\n", out), out


# -- a Connect-Four opening book's lines ---------------------------------------------------------------------
def lines_book(db_dir: Path) -> Path:
    """A 5x4 book of depth 2 and lines 6 where play finds it (gamedp book)."""
    made = gamedp("book", "connect4:5x4", "--depth", "2", "--lines", "6", "--json", db_dir=db_dir)
    assert made.returncode == 0, made.stderr
    return Path(json.loads(made.stdout)["path"])


def test_the_computer_plays_the_books_best_move_along_its_lines_without_a_search(tmp_path):
    """A book whose best move at the start is made up (the last column, which is not the first of the best)
    shows that the computer's move comes from the book, not from a search."""
    from gamedp.games.connect4 import Connect4
    from gamedp.solvers.opening_book import OpeningBook, write_book

    path = lines_book(tmp_path)
    rules = Connect4(5, 4).score_search()
    book = OpeningBook(path, rules.book_id, rules.variant)
    scores = dict(zip(book.keys.tolist(), book.scores.tolist()))
    start = rules.game.start()
    assert book.best_move(rules.line_key(start)) != 4
    write_book(path, rules.book_id, rules.variant, book.depth, scores, lines=book.lines, reach=book.reach,
               best={**book.best, rules.line_key(start): 4})
    shown = gamedp("play", "connect4:5x4", "--first", "computer", stdin="quit\n", cwd=ROOT, db_dir=tmp_path)
    assert shown.returncode == 0 and not shown.stderr, shown
    assert re.search(r"^The computer plays 5\.$", shown.stdout, re.M), shown.stdout


@pytest.mark.parametrize("first", ["computer", "human"])
def test_along_its_book_the_computer_never_loses_to_random_replies(tmp_path, first):
    lines_book(tmp_path)
    rng = random.Random(first)
    for _ in range(10):
        moves = [str(rng.randint(1, 5)) for _ in range(200)]  # a full column's is refused and the next taken
        result = gamedp("play", "connect4:5x4", "--first", first, stdin="".join(m + "\n" for m in moves),
                        cwd=ROOT, timeout=120, db_dir=tmp_path)
        assert result.returncode == 0 and not result.stderr, result
        assert re.search(r"^Game over\. (You lose\.|It is a tie\.)$", result.stdout, re.M), result.stdout
