"""easyAI solving Connect-4 on a W x H board from the start: ``python easyai_connect4.py W H``, or choosing one
move by a search D plies deep from the position after MOVES (columns from 1, as gamedp writes them; "" for the
start): ``python easyai_connect4.py W H D MOVES``.

The game (``ConnectFour``, imported by easyai_solve.py) is written the way easyAI's own examples write Connect-4
(a board of rows, moves are columns), and solved with easyAI's ``solve_with_iterative_deepening`` and a
transposition table, as its documentation suggests. Prints the start's outcome for the first player
(win/tie/lose). The depth-limited move is easyAI's ``Negamax(D, tt=TranspositionTable())`` scoring the horizon by
gamedp's Connect4 heuristic (open_lines.py); it prints "ok" once the move is checked legal, and the move on
standard error (tie-breaks and the scores of ends differ between the searches, so the moves are not compared).
"""

import contextlib
import io
import sys

from easyAI import AI_Player, Negamax, TranspositionTable, TwoPlayerGame, solve_with_iterative_deepening

from open_lines import lines, open_lines


class ConnectFour(TwoPlayerGame):
    def __init__(self, players, width, height):
        self.players = players
        self.width, self.height = width, height
        self.lines = lines(width, height)
        self.board = [[0] * width for _ in range(height)]
        self.current_player = 1

    def possible_moves(self):
        return [c for c in range(self.width) if self.board[self.height - 1][c] == 0]

    def make_move(self, column):
        r = next(r for r in range(self.height) if self.board[r][column] == 0)
        self.board[r][column] = self.current_player

    def unmake_move(self, column):
        r = max(r for r in range(self.height) if self.board[r][column] != 0)
        self.board[r][column] = 0

    def lose(self):
        opp = self.opponent_index
        return any(all(self.board[r][c] == opp for r, c in line) for line in self.lines)

    def is_over(self):
        return self.lose() or not self.possible_moves()

    def scoring(self):
        return -100 if self.lose() else 0

    def ttentry(self):
        return (tuple(map(tuple, self.board)), self.current_player)


def horizon(game):
    """The depth-limited search's score for the player to move: an end, else the open lines."""
    if game.lose():
        return -1000
    if not game.possible_moves():
        return 0
    return 100 * open_lines(lambda r, c: game.board[r][c], game.lines, game.current_player, game.opponent_index)


def depth_limited(width, height, depth, moves):
    game = ConnectFour([AI_Player(Negamax(1)), AI_Player(Negamax(1))], width, height)
    for column in moves:
        game.play_move(int(column) - 1)
    move = Negamax(depth, horizon, tt=TranspositionTable())(game)
    assert move in game.possible_moves(), move
    print("ok")
    print(f"easyAI depth {depth} after {moves!r}: column {move + 1}", file=sys.stderr)


if __name__ == "__main__" and len(sys.argv) == 5:
    depth_limited(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
elif __name__ == "__main__":
    width, height = int(sys.argv[1]), int(sys.argv[2])
    game = ConnectFour([AI_Player(Negamax(1)), AI_Player(Negamax(1))], width, height)
    with contextlib.redirect_stdout(io.StringIO()):  # easyAI prints each depth it tries
        result, depth, move = solve_with_iterative_deepening(game, ai_depths=range(2, width * height + 2),
                                                             win_score=100, tt=TranspositionTable())
    print({1: "win", 0: "tie", -1: "lose"}[result])
