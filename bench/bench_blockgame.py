"""BLOCKGAME side by side: the judge (sample, 50 hard boards) and the strong solve of all 2^25 boards.

Contenders, whole process, same input:
- judge: C++ memoised DFS (char cache of 2^25, the contestants' way) = 1.00; `gamedp judge blockgame` (native
  kernels, no numpy); the same on its numpy path, which machines without a C compiler take; the plain CPython
  dict-memo search (skip with --no-plain: it takes ~15 s a run);
- strong solve, win/lose: straightforward C++ (one board at a time) = 1.00; C++ with 64 boards per word;
  `python -m gamedp.games.placement`;
- strong solve with remoteness: straightforward C++ = 1.00; `python -m gamedp.games.placement -r`.
Then the compute alone (start-up excluded) of the word-parallel C++ and of gamedp's solve, 1 bit per board and
expanded to the 2-bit codes of the position database.

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


def compute_seconds(argv: list[str], pattern: str, rounds: int) -> float:
    """The median of the compute time a program prints about itself on stderr."""
    times = []
    for _ in range(rounds):
        p = subprocess.run(argv, capture_output=True, text=True, check=True)
        times.append(float(re.search(pattern, p.stderr).group(1)))
    return statistics.median(times)


# gamedp's strong solve timed inside one process, kernels loaded first: 1 bit per board, then the 2-bit codes the
# database takes, each without and with remoteness
IN_PROCESS = """
import time
from gamedp.aot import load_kernels
from gamedp.games.placement import blockgame_table_spec
load_kernels("gamedp.kernels.blockgame")
spec = blockgame_table_spec()
times = []
for call in (lambda: spec.solve_bits(), lambda: spec.solve_table(False), lambda: spec.solve_bits(True),
             lambda: spec.solve_table(True)):
    t = time.perf_counter()
    call()
    times.append(time.perf_counter() - t)
print(*times)
"""


# `gamedp judge blockgame` as where the native kernels cannot be built: the numpy kernels answer
NUMPY_PATH = """
import gamedp.native
from gamedp.cli.entry import main
gamedp.native._loaded["gamedp.judge.blockgame_native"] = None
main(["judge", "blockgame"])
"""


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
              Contender("gamedp judge blockgame", GAMEDP + ["judge", "blockgame"]),
              Contender("gamedp judge blockgame, numpy path", PYTHON + ["-c", NUMPY_PATH])]
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
    cpp = compute_seconds([table, "--words"], r"compute ([\d.]+) s", args.rounds)
    inside = [[], [], [], []]
    for _ in range(args.rounds):
        p = subprocess.run(PYTHON + ["-c", IN_PROCESS], capture_output=True, text=True, check=True)
        for column, x in zip(inside, p.stdout.split()):
            column.append(float(x))
    bits, codes, rem, rem_codes = (statistics.median(c) for c in inside)
    print("\n## Strong solve, compute alone (start-up excluded), medians")
    print(f"{'C++ 64 boards per word':<52} {cpp:.4f} s  1.00")
    for label, t in (("gamedp win/lose, 1 bit per board (solve_bits)", bits),
                     ("gamedp win/lose, 2-bit codes (solve_table)", codes),
                     ("gamedp with remoteness (solve_bits)", rem),
                     ("gamedp with remoteness, 2-bit codes (solve_table)", rem_codes)):
        print(f"{label:<52} {t:.4f} s  {t / cpp:.2f}")

if __name__ == "__main__":
    main()
