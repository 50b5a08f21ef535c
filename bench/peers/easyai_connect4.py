"""easyAI solving Connect-4 on a W x H board from the start: ``python easyai_connect4.py W H``.

The game is written the way easyAI's own examples write Connect-4 (a board of rows, moves are columns), and
solved with easyAI's ``solve_with_iterative_deepening`` and a transposition table, as its documentation
suggests. Prints the start's outcome for the first player (win/tie/lose).
"""

import contextlib
import io
import sys

from easyAI import AI_Player, Negamax, TranspositionTable, TwoPlayerGame, solve_with_iterative_deepening

WIDTH, HEIGHT = int(sys.argv[1]), int(sys.argv[2])
LINES = [[(r + k * dr, c + k * dc) for k in range(4)]
         for r in range(HEIGHT) for c in range(WIDTH) for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
         if 0 <= r + 3 * dr < HEIGHT and 0 <= c + 3 * dc < WIDTH]


class ConnectFour(TwoPlayerGame):
    def __init__(self, players):
        self.players = players
        self.board = [[0] * WIDTH for _ in range(HEIGHT)]
        self.current_player = 1

    def possible_moves(self):
        return [c for c in range(WIDTH) if self.board[HEIGHT - 1][c] == 0]

    def make_move(self, column):
        r = next(r for r in range(HEIGHT) if self.board[r][column] == 0)
        self.board[r][column] = self.current_player

    def unmake_move(self, column):
        r = max(r for r in range(HEIGHT) if self.board[r][column] != 0)
        self.board[r][column] = 0

    def lose(self):
        opp = self.opponent_index
        return any(all(self.board[r][c] == opp for r, c in line) for line in LINES)

    def is_over(self):
        return self.lose() or not self.possible_moves()

    def scoring(self):
        return -100 if self.lose() else 0

    def ttentry(self):
        return (tuple(map(tuple, self.board)), self.current_player)


game = ConnectFour([AI_Player(Negamax(1)), AI_Player(Negamax(1))])
with contextlib.redirect_stdout(io.StringIO()):  # easyAI prints each depth it tries
    result, depth, move = solve_with_iterative_deepening(game, ai_depths=range(2, WIDTH * HEIGHT + 2), win_score=100,
                                                         tt=TranspositionTable())
print({1: "win", 0: "tie", -1: "lose"}[result])
