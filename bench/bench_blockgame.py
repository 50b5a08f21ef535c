"""BLOCKGAME side by side: the judge (sample, 50 hard boards) and the strong solve of all 2^25 boards.

Contenders, whole process, same input:
- judge: C++ memoised DFS (char cache of 2^25, the contestants' way) = 1.00; `gamedp judge blockgame`; the plain
  CPython dict-memo search (skip with --no-plain: it takes ~15 s a run);
- strong solve, win/lose: straightforward C++ (one board at a time) = 1.00; C++ with 64 boards per word;
  `python -m gamedp.games.placement`;
- strong solve with remoteness: straightforward C++ = 1.00; `python -m gamedp.games.placement -r`.
Then the compute alone (start-up excluded) of the word-parallel C++ and of gamedp's solve, as each prints it.

    python bench/bench_blockgame.py --rounds 5
"""

from __future__ import annotations

import random
import re
import statistics
import subprocess
import sys

from harness import BENCH, BUILD, GAMEDP, PYTHON, Contender, arguments, build_cpp, compare

SAMPLE = BENCH.parent / "examples" / "blockgame-sample.in"


def hard_boards(seed: int = 2024) -> list[int]:
    """The empty board, boards with one, two or three `#`, and random ones: 50 in all."""
    rng = random.Random(seed)
    boards = [0]
    boards += [1 << c for c in rng.sample(range(25), 12)]
    for filled in (2, 3):
        boards += [sum(1 << c for c in rng.sample(range(25), filled)) for _ in range(12)]
    while len(boards) < 50:
        boards.append(sum(1 << c for c in range(25) if rng.random() < 0.3))
    return boards


def judge_input(boards: list[int]) -> str:
    rows = [str(len(boards))]
    for b in boards:
        rows += ["".join("#" if b >> (r * 5 + c) & 1 else "." for c in range(5)) for r in range(5)]
    return "\n".join(rows) + "\n"


def compute_seconds(argv: list[str], pattern: str, stream: str, rounds: int) -> float:
    """The median of the compute time a program prints about itself."""
    times = []
    for _ in range(rounds):
        p = subprocess.run(argv, capture_output=True, text=True, check=True)
        times.append(float(re.search(pattern, getattr(p, stream)).group(1)))
    return statistics.median(times)


def main() -> None:
    args_plain = "--no-plain" not in sys.argv
    if not args_plain:
        sys.argv.remove("--no-plain")
    args = arguments(__doc__.splitlines()[0])
    memo = build_cpp("reference/blockgame_memo.cpp")
    table = build_cpp("reference/blockgame_table.cpp")
    remoteness = build_cpp("reference/blockgame_remoteness.cpp")
    BUILD.mkdir(exist_ok=True)
    hard = BUILD / "blockgame-hard50.in"
    hard.write_text(judge_input(hard_boards()))
    judges = [Contender("C++ memo DFS (char cache 2^25)", [memo]),
              Contender("gamedp judge blockgame", GAMEDP + ["judge", "blockgame"])]
    if args_plain:
        judges.append(Contender("CPython dict memo", PYTHON + [str(BENCH / "reference" / "blockgame_plain.py")]))
    compare("BLOCKGAME judge, official sample", judges, stdin_path=SAMPLE, rounds=args.rounds)
    compare("BLOCKGAME judge, 50 hard boards", judges, stdin_path=hard, rounds=args.rounds)
    if args.quick:
        return
    solver = PYTHON + ["-m", "gamedp.games.placement"]
    compare("BLOCKGAME strong solve, all 2^25 boards, win/lose",
            [Contender("C++ one board at a time", [table]), Contender("C++ 64 boards per word", [table, "--words"]),
             Contender("gamedp (python -m gamedp.games.placement)", solver)], rounds=args.rounds)
    compare("BLOCKGAME strong solve with remoteness",
            [Contender("C++ one board at a time", [remoteness]), Contender("gamedp -r", solver + ["-r"])],
            rounds=args.rounds)
    cpp = compute_seconds([table, "--words"], r"compute ([\d.]+) s", "stderr", args.rounds)
    ours = compute_seconds(solver, r"solved in ([\d.]+) s", "stdout", args.rounds)
    ours_r = compute_seconds(solver + ["-r"], r"solved in ([\d.]+) s", "stdout", args.rounds)
    print("\n## Strong solve, compute alone (start-up excluded), medians")
    print(f"C++ 64 boards per word   {cpp:.4f} s  1.00")
    print(f"gamedp win/lose          {ours:.4f} s  {ours / cpp:.2f}")
    print(f"gamedp with remoteness   {ours_r:.4f} s  {ours_r / cpp:.2f}")


if __name__ == "__main__":
    main()
