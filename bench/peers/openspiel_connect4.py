"""OpenSpiel's own solvers on its (C++) connect_four: ``python openspiel_connect4.py alphabeta|minimax W H``.

Prints the start's outcome for the first player (win/tie/lose), the same line the gamedp contenders print.
``alphabeta`` is open_spiel.python.algorithms.minimax.alpha_beta_search (no depth limit); ``minimax`` is
open_spiel.python.algorithms.minimax_solver.MinimaxSolver (a full memoised solve).
"""

import sys

import pyspiel
from open_spiel.python.algorithms import minimax, minimax_solver

mode, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
spec = f"connect_four(columns={width},rows={height})"
game = pyspiel.load_game(spec)
if mode == "alphabeta":
    value, _ = minimax.alpha_beta_search(game, maximum_depth=width * height + 1, maximizing_player_id=0)
else:
    solver = minimax_solver.MinimaxSolver(spec)
    solver.solve()
    value = solver._table[str(game.new_initial_state())].value
print("win" if value > 0 else "lose" if value < 0 else "tie")
