"""gamedp side by side with OpenSpiel and easyAI on Connect-4 (issue 17), whole processes, medians.

    python bench/bench_peers.py [--rounds 5] [--quick] [--start-only]

Rows: the start's value of Connect-4 4x4 and 5x4 (gamedp's pruned engine on the built-in game, on a plainly
written Game and on the CompiledGame; easyAI's iterative deepening with a transposition table; OpenSpiel's
alpha_beta_search), and the full solve of 5x4 written plainly (gamedp's memo engine; OpenSpiel's MinimaxSolver).
The last start-value row only imports numba: the floor of any CompiledGame's whole process.
The peers are installed only in the bench environment (``pip install open-spiel==2.0.2 easyai==2.0.12``; easyAI
2.1 needs Python 3.12); a missing peer is skipped with a line saying so. The first contender is the baseline.
"""

from __future__ import annotations

import importlib.util

from harness import BENCH, PYTHON, Contender, arguments, compare

PEERS = BENCH / "peers"


def peer(module: str, label: str, argv: list[str]) -> list[Contender]:
    if importlib.util.find_spec(module) is None:
        print(f"(skipped {label}: the Python package {module!r} is not installed in this environment)")
        return []
    return [Contender(label, argv)]


def main() -> None:
    args = arguments(__doc__.splitlines()[0],
                     ("--start-only", "the start-value rows only (a round of the full solve takes ~20 minutes)"))
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
