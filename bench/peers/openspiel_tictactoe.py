"""OpenSpiel's MinimaxSolver on its (C++) tic_tac_toe, every position reachable from the start:
``python openspiel_tictactoe.py``. Prints the start's outcome for the first player (win/tie/lose)."""

from openspiel_connect4 import minimax_value, outcome

print(outcome(minimax_value("tic_tac_toe")))
