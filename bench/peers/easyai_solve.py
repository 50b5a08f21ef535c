"""easyAI solving a game from its start by ``solve_with_depth_first_search`` with a transposition table:
``python easyai_solve.py GAME [save FILE | query FILE]``. GAME: ``tictactoe`` (easyAI's own example game) or
``connect4:WxH`` (easyai_connect4.py's). Prints the start's outcome for the first player (win/tie/lose).

``save FILE`` also writes the table with its ``to_file`` (a pickle) and prints "saved" instead; ``query FILE``
solves nothing: it reads the table back with ``from_file`` and answers the start from it. The depth-first search
stops at a position's first winning move, so the table holds the positions that search visited, not every
reachable one (the start is always there).
"""

import sys

from easyAI import AI_Player, Negamax, TranspositionTable, solve_with_depth_first_search
from easyAI.games.TicTacToe import TicTacToe

from easyai_connect4 import ConnectFour


class KeyedTicTacToe(TicTacToe):
    def ttentry(self):  # easyAI's tables need a key; its example game has none
        return tuple(self.board), self.current_player


name, action = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None
players = [AI_Player(Negamax(1)), AI_Player(Negamax(1))]
if name == "tictactoe":
    game = KeyedTicTacToe(players)
else:
    width, height = map(int, name.split(":")[1].split("x"))
    game = ConnectFour(players, width, height)
table = TranspositionTable()
if action == "query":
    table.from_file(sys.argv[3])
    value = table.lookup(game)["value"]
else:
    value = solve_with_depth_first_search(game, win_score=100, tt=table)
    if action == "save":
        table.to_file(sys.argv[3])
print("saved" if action == "save" else {1: "win", 0: "tie", -1: "lose"}[value])
