"""OpenSpiel's own solvers on its (C++) connect_four: ``python openspiel_connect4.py alphabeta|minimax W H``.

Prints the start's outcome for the first player (win/tie/lose), the same line the gamedp contenders print.
``alphabeta`` is open_spiel.python.algorithms.minimax.alpha_beta_search (no depth limit); ``minimax`` is
open_spiel.python.algorithms.minimax_solver.MinimaxSolver (a full memoised solve; ``minimax_value`` is imported by
openspiel_tictactoe.py). ``python openspiel_connect4.py depth W H D MOVES`` chooses one move by alpha_beta_search
D plies deep from the position after MOVES (columns from 1; "" for the start), the horizon scored by gamedp's
Connect4 heuristic (open_lines.py), and prints "ok" once the move is checked legal, the move on standard error.
"""

import sys

import pyspiel
from open_spiel.python.algorithms import minimax, minimax_solver

from open_lines import lines, open_lines


def outcome(value: float) -> str:
    return "win" if value > 0 else "lose" if value < 0 else "tie"


def minimax_value(spec: str) -> float:
    """The start's value for the first player by a full MinimaxSolver solve of the game ``spec``."""
    solver = minimax_solver.MinimaxSolver(spec)
    solver.solve()
    return solver._table[str(pyspiel.load_game(spec).new_initial_state())].value


def depth_limited(width: int, height: int, depth: int, moves: str) -> None:
    game = pyspiel.load_game(f"connect_four(columns={width},rows={height})")
    state = game.new_initial_state()
    for column in moves:
        state.apply_action(int(column) - 1)
    windows = lines(width, height)
    me = state.current_player()

    def horizon(s) -> float:
        # observation_string: rows top first, x the first player's stones, o the second's
        rows = s.observation_string(0).split()[::-1]
        mover, other = ("x", "o") if s.current_player() == 0 else ("o", "x")
        value = open_lines(lambda r, c: rows[r][c], windows, mover, other)
        # halved so that no estimate reaches a proven end's 1; the search maximises the player at the root
        return 0.5 * (value if s.current_player() == me else -value)

    _, move = minimax.alpha_beta_search(game, state, value_function=horizon, maximum_depth=depth,
                                        maximizing_player_id=me)
    assert move in state.legal_actions(), move
    print("ok")
    print(f"OpenSpiel depth {depth} after {moves!r}: column {move + 1}", file=sys.stderr)


if __name__ == "__main__":
    mode = sys.argv[1]
    width, height = int(sys.argv[2]), int(sys.argv[3])
    if mode == "depth":
        depth_limited(width, height, int(sys.argv[4]), sys.argv[5])
    elif mode == "alphabeta":
        value, _ = minimax.alpha_beta_search(pyspiel.load_game(f"connect_four(columns={width},rows={height})"),
                                             maximum_depth=width * height + 1, maximizing_player_id=0)
        print(outcome(value))
    else:
        print(outcome(minimax_value(f"connect_four(columns={width},rows={height})")))
