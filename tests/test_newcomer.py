"""A newcomer's path: tic-tac-toe says whose turn it is and numbers its cells; query labels its answers."""

from __future__ import annotations

import json
import subprocess
import sys

from command import gamedp

from gamedp.games.tictactoe import TicTacToe


def test_tictactoe_draws_the_turn_and_the_cell_numbers_and_reads_it_back():
    game = TicTacToe()
    assert game.format_position("XX.OO....") == "X X 3\nO O 6\n7 8 9\nX to move"
    assert game.format_position("XX.OO...X").endswith("O to move")
    assert game.format_position("XXXOO....").endswith("game over")
    for board in ("XX.OO....", ".........", "XXXOO....", "XOXXOOOXX"):
        assert game.parse_position(game.format_position(board)) == board


def test_query_labels_each_answer_with_its_position(tmp_path):
    db = str(tmp_path / "t.gdb")
    run = [sys.executable, "-m", "gamedp"]
    subprocess.run([*run, "solve", "tictactoe", "--db", db], capture_output=True, check=True, timeout=300)
    out = subprocess.run([*run, "query", "tictactoe", "--db", db, "XX.OO....", "X X 3\nO O 6\n7 8 9"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["XX.OO....: WIN", "X X 3 O O 6 7 8 9: WIN"]


# -- positions that are ints, strings or tuples of them need no notation of their own ----------------------------
PLAIN_GAMES = '''
from gamedp import Game


class TakeAway(Game):                      # the README's: take 1-3 stones; who cannot move loses
    def start(self): return 21
    def moves(self, n): return range(1, min(3, n) + 1)
    def do_move(self, n, k): return n - k


class Heaps(Game):                         # Nim on a tuple of heaps
    def start(self): return (2, 3)
    def moves(self, hs): return [(i, k) for i, h in enumerate(hs) for k in range(1, h + 1)]
    def do_move(self, hs, m): return tuple(h - m[1] if i == m[0] else h for i, h in enumerate(hs))


class Strip(Game):                         # a string of stones: take one or two adjacent 'o' from the left end
    def start(self): return "ooooo"
    def moves(self, s): return [k for k in (1, 2) if s[:k] == "o" * k]
    def do_move(self, s, k): return s[k:]


class Labelled(Game):                      # a tuple that holds a string and a number
    def start(self): return ("left", 4)
    def moves(self, p): return [k for k in (1, 2) if k <= p[1]]
    def do_move(self, p, k): return ("right" if p[0] == "left" else "left", p[1] - k)


class Strict(TakeAway):                    # a parse_move that does not forgive a stray newline
    def parse_move(self, n, text):
        if text not in {str(k) for k in self.moves(n)}:
            raise ValueError(f"{text!r} is not a move")
        return int(text)
'''


def plain_outcome(rest: int) -> str:
    """TakeAway by hand: the mover loses exactly on multiples of 4 (take 1-3)."""
    return "LOSE" if rest % 4 == 0 else "WIN"


def test_positions_of_ints_strings_and_tuples_are_read_and_written(tmp_path):
    from click.testing import CliRunner

    from gamedp.cli.main import cli
    from gamedp.errors import GamedpError

    path = tmp_path / "plain.py"
    path.write_text(PLAIN_GAMES)

    def analyze(game, *position):
        out = CliRunner().invoke(cli, ["analyze", f"{path}:{game}", *position, "--json"])
        assert out.exit_code == 0, out.output
        return json.loads(out.stdout)

    for n in (20, 12, 7):
        assert analyze("TakeAway", str(n))["remoteness"] is not None
        assert analyze("TakeAway", str(n))["positionValue"].upper() == plain_outcome(n)
        assert analyze("TakeAway", str(n))["position"] == str(n)
    heaps = analyze("Heaps", "3", "5")
    assert heaps["position"] == "3 5" and heaps["positionValue"].upper() == "WIN"
    assert analyze("Heaps", "(4, 4)")["positionValue"] == "lose" == analyze("Heaps", "4,", "4")["positionValue"]
    for stones in ("ooo", "oooo", "oooooo"):
        strip = analyze("Strip", stones)
        assert strip["position"] == stones
        assert strip["positionValue"] == ("lose" if len(stones) % 3 == 0 else "win")
    labelled = analyze("Labelled", "('right', 3)")
    assert labelled["positionValue"].upper() == "LOSE"
    assert CliRunner().invoke(cli, ["analyze", f"{path}:Labelled", *labelled["position"].split()]).exit_code == 0
    for game, bad in (("TakeAway", "x"), ("TakeAway", "True"), ("Heaps", "3 x"), ("Labelled", "(3, 'right')")):
        out = CliRunner().invoke(cli, ["analyze", f"{path}:{game}", bad])
        assert isinstance(out.exception, GamedpError) and bad in str(out.exception), out.output


def test_piped_play_hands_parse_move_the_line_without_its_newline(tmp_path):
    path = tmp_path / "plain.py"
    path.write_text(PLAIN_GAMES)
    out = gamedp("play", f"{path}:Strict", "5", stdin="1\n", timeout=120)
    assert out.returncode == 0, out.stderr
    assert "not a move" not in out.stdout and "The computer plays" in out.stdout
