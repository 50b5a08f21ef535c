"""gamedp side by side with OpenSpiel and easyAI (issue 17), whole processes, medians.

    python bench/bench_peers.py [--rounds 5] [--quick] [--start-only] [--small] [--depth] [--saved]

Rows: the start's value of Connect-4 4x4 and 5x4 (gamedp's pruned engine on the built-in game, on a plainly
written Game and on the CompiledGame; easyAI's iterative deepening with a transposition table; OpenSpiel's
alpha_beta_search), and the full solve of 5x4 written plainly (gamedp's memo engine; OpenSpiel's MinimaxSolver).
The last start-value row only imports numba: the floor of any CompiledGame's whole process.
``--small``: tic-tac-toe strongly solved (``gamedp solve tictactoe``; OpenSpiel's MinimaxSolver; easyAI's
depth-first solve with a transposition table). ``--depth``: one move of Connect-4 7x6 by a search D plies deep,
from the start and after 4453 (gamedp's Lookahead; easyAI's Negamax with a table; OpenSpiel's alpha_beta_search),
every horizon scored by the same formula (gamedp's Connect4 heuristic); the moves may differ (tie-breaks, how ends
are scored), so only their legality is compared. ``--saved``: Connect-4 4x4 solved and saved, then the start's
value answered from the file (gamedp's positions save and ``gamedp query``; easyAI's table ``to_file`` /
``from_file``; OpenSpiel saves no solve): the first table's answers are "saved", the second's the value.
With some of these three flags only those groups run; with none, every group (``--start-only``: the start-value
rows alone).
The peers are installed only in the bench environment (``pip install open-spiel==2.0.2 easyai==2.0.12``; easyAI
2.1 needs Python 3.12); a missing peer is skipped with a line saying so. The first contender is the baseline.
"""

from __future__ import annotations

import importlib.util
import shlex
import tempfile
from pathlib import Path

from harness import BENCH, GAMEDP, PYTHON, Contender, arguments, compare

PEERS = BENCH / "peers"


def peer(module: str, label: str, argv: list[str]) -> list[Contender]:
    if importlib.util.find_spec(module) is None:
        print(f"(skipped {label}: the Python package {module!r} is not installed in this environment)")
        return []
    return [Contender(label, argv)]


def piped(argv: list[str], tail: str) -> list[str]:
    """``argv`` run by the shell with ``tail`` after it, to cut its output to the line the peers print."""
    return ["sh", "-c", f"{shlex.join(argv)} {tail}"]


# sed (a few ms) keeping the value gamedp prints after "...: ", in lower case as the peers print it
VALUE = "| sed -n 's/^{}: \\(.*\\)/\\L\\1/p'"


def small_solves(rounds: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        compare("Tic-tac-toe strongly solved from scratch", [
            Contender("gamedp solve tictactoe", piped(GAMEDP + ["solve", "tictactoe", "--force", "--db",
                                                                str(Path(scratch) / "ttt.db")],
                                                      VALUE.format("the start"))),
            *peer("pyspiel", "OpenSpiel MinimaxSolver", PYTHON + [str(PEERS / "openspiel_tictactoe.py")]),
            *peer("easyAI", "easyAI depth-first + TT (weak solve)", PYTHON + [str(PEERS / "easyai_solve.py"),
                                                                             "tictactoe"]),
        ], rounds=rounds)


def depth_limited(rounds: int, depths: list[int]) -> None:
    for moves in ("", "4453"):
        for depth in depths:
            where = f"after {moves}" if moves else "from the start"
            common = ["7", "6", str(depth), moves]
            compare(f"Connect-4 7x6 {where}: one move, {depth} plies deep (moves not compared)", [
                Contender("gamedp Lookahead", PYTHON + [str(PEERS / "gamedp_connect4.py"), "depth", "builtin",
                                                        *common]),
                *peer("easyAI", "easyAI Negamax + TT", PYTHON + [str(PEERS / "easyai_connect4.py"), *common]),
                *peer("pyspiel", "OpenSpiel alpha_beta_search", PYTHON + [str(PEERS / "openspiel_connect4.py"),
                                                                          "depth", *common]),
            ], rounds=rounds, warmup=0)


def saved(rounds: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        db, table = str(Path(scratch) / "c4.sav"), str(Path(scratch) / "c4.pickle")
        easyai = PYTHON + [str(PEERS / "easyai_solve.py"), "connect4:4x4"]
        compare("Connect-4 4x4: solve and save", [
            Contender("gamedp solve (positions save)", piped(GAMEDP + ["solve", "connect4:4x4", "--force", "--db",
                                                                       db], "> /dev/null && echo saved")),
            *peer("easyAI", "easyAI depth-first + TT to_file", easyai + ["save", table]),
        ], rounds=rounds)
        if importlib.util.find_spec("easyAI") is None:
            return
        compare("Connect-4 4x4: the start's value from the saved file", [
            Contender("gamedp query", piped(GAMEDP + ["query", "connect4:4x4", "--db", db, ""], VALUE.format('""'))),
            Contender("easyAI TT from_file", easyai + ["query", table]),
        ], rounds=rounds)


def main() -> None:
    args = arguments(__doc__.splitlines()[0],
                     ("--start-only", "the start-value rows only (a round of the full solve takes ~20 minutes)"),
                     ("--small", "the tic-tac-toe strong solve rows"),
                     ("--depth", "the depth-limited Connect-4 7x6 rows"),
                     ("--saved", "the solve-and-save and answer-from-the-file rows"))
    groups = args.small or args.depth or args.saved
    everything = not (groups or args.start_only)
    if args.small or everything:
        small_solves(args.rounds)
    if args.depth or everything:
        depth_limited(args.rounds, [6] if args.quick else [6, 8])
    if args.saved or everything:
        saved(args.rounds)
    if groups:
        return
    boards = [(4, 4)] if args.quick else [(4, 4), (5, 4)]
    gamedp = PYTHON + [str(PEERS / "gamedp_connect4.py")]
    for w, h in boards:
        size = [str(w), str(h)]
        compare(f"Connect-4 {w}x{h}: the start's value", [
            *peer("pyspiel", "OpenSpiel alpha_beta_search", PYTHON + [str(PEERS / "openspiel_connect4.py"),
                                                                      "alphabeta", *size]),
            *peer("easyAI", "easyAI iterative deepening + TT", PYTHON + [str(PEERS / "easyai_connect4.py"), *size]),
            Contender("gamedp pruned, built-in Game", gamedp + ["pruned", "builtin", *size]),
            Contender("gamedp pruned, plain Game", gamedp + ["pruned", "plain", *size]),
            Contender("gamedp pruned, plain, primitive_first", gamedp + ["pruned", "plain-once", *size]),
            Contender("gamedp pruned, CompiledGame", gamedp + ["pruned", "compiled", *size]),
            # The floor under any compiled game: importing numba, no work (it prints the answer so as to compare).
            Contender("python: import numba only", PYTHON + ["-c", "import numba; print('tie')"]),
        ], rounds=args.rounds, warmup=1 if (w, h) == (4, 4) else 0)  # 5x4 peers take minutes: no warm-up
    if not (args.quick or args.start_only):
        compare("Connect-4 5x4 written plainly: full solve", [
            *peer("pyspiel", "OpenSpiel MinimaxSolver", PYTHON + [str(PEERS / "openspiel_connect4.py"), "minimax",
                                                                  "5", "4"]),
            Contender("gamedp memo, plain Game", gamedp + ["full", "plain", "5", "4"]),
            Contender("gamedp memo, plain, primitive_first", gamedp + ["full", "plain-once", "5", "4"]),
        ], rounds=args.rounds, warmup=0)


if __name__ == "__main__":
    main()
