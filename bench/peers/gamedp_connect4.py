"""gamedp on Connect-4 W x H from the start: ``python gamedp_connect4.py ENGINE GAME W H``.

ENGINE: ``pruned`` (the start's value only: alpha-beta) or ``full`` (the memo engine, every position below the
start, as OpenSpiel's MinimaxSolver does). GAME: ``builtin`` (gamedp.games.connect4 as a Python Game), ``compiled``
(its CompiledGame), ``plain`` (plain_connect4.py, written as a user would) or ``plain-once`` (the same with
the end test given once, ``primitive_first``). Prints win/tie/lose for the first
player. ENGINE ``depth`` (``python gamedp_connect4.py depth builtin W H D MOVES``) chooses one move by
``Lookahead(game, depth=D).best_move`` from the position after MOVES (gamedp's notation, columns from 1; "" for the
start) and prints "ok" once the move is checked legal, the move on standard error.
"""

import sys

engine, kind, width, height = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if kind.startswith("plain"):
    from plain_connect4 import PlainConnect4, PlainConnect4Once

    game = (PlainConnect4Once if kind == "plain-once" else PlainConnect4)(width, height)
else:
    from gamedp.games.connect4 import Connect4

    game = Connect4(width, height)
    if kind == "compiled":
        game = game.compiled()
if engine == "depth":
    from gamedp.solvers.lookahead import Lookahead

    depth, moves = int(sys.argv[5]), sys.argv[6]
    position = game.parse_position(moves) if moves else game.start()
    move = Lookahead(game, depth=depth).best_move(position)
    assert move in game.moves(position), move
    print("ok")
    print(f"gamedp depth {depth} after {moves!r}: column {game.format_move(position, move)}", file=sys.stderr)
    sys.exit()
if engine == "pruned":
    from gamedp.solvers.alphabeta import value_of

    value = value_of(game)
elif kind == "compiled":
    from gamedp.solvers.compiled import solve_compiled

    value = solve_compiled(game, outcomes_only=True).value(game.start())
else:
    from gamedp.solvers.memo import solve

    value = solve(game, outcomes_only=True).value(game.start())
print(value.outcome.value)
