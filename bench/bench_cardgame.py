"""Card game (Baekjoon 11062): gamedp's judge against an O(N^2) C++ DP and the plain CPython DP.

    python bench/bench_cardgame.py [--rounds 5] [--quick]

Inputs (deterministic seeds, written under bench/build/): the judge's worst case T=10, N=1000 (values 1..10000),
where the bar is 0.25x the CPython time, and T=10, N=5000, where the bar is 1.5x the C++ time; plus many small
cases (T=100000, N=1..20) to show that reading input stays fast when T is large.
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
from pathlib import Path

from harness import BENCH, BUILD, GAMEDP, PYTHON, Contender, arguments, build_cpp, compare

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "cardgame-sample.in"

# gamedp's time split in-process: what start-up costs and what the work costs, on the native path (the judge's)
# and on the checked numpy path (what a malformed input, or a machine without a C compiler, gets).
PHASES = r"""
import sys, time, json
t0 = time.perf_counter()
from gamedp.judge import cardgame
from gamedp.native import load_native
t1 = time.perf_counter()
load_native("gamedp.kernels.cardgame_judge")
t2 = time.perf_counter()
data = open(sys.argv[1], "rb").read()
native = cardgame._native_run(data)
t3 = time.perf_counter()
import numpy
t4 = time.perf_counter()
checked = cardgame.checked_run(data.decode())
t5 = time.perf_counter()
assert native == checked
print(json.dumps({"gamedp imports": t1 - t0, "native load": t2 - t1, "native read+solve+write": t3 - t2,
                  "import numpy": t4 - t3, "checked path (numpy)": t5 - t4}))
"""


def write_input(name: str, sizes: list[int], seed: int) -> str:
    rng = random.Random(seed)
    BUILD.mkdir(exist_ok=True)
    path = BUILD / name
    lines = [str(len(sizes))]
    for n in sizes:
        lines += [str(n), " ".join(str(rng.randint(1, 10_000)) for _ in range(n))]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def cpu_seconds(argv: list[str], stdin_path: str, rounds: int) -> float:
    """The least CPU time (user + system) of ``rounds`` runs: steadier than wall time on a shared machine."""
    best = float("inf")
    for _ in range(rounds):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(stdin_path, "rb") as stdin:
            subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def main() -> None:
    args = arguments(__doc__.splitlines()[0])
    cpp = build_cpp("reference/cardgame.cpp")
    plain = PYTHON + [str(BENCH / "reference" / "cardgame_plain.py")]
    gamedp = GAMEDP + ["judge", "cardgame"]
    # Build the kernels once outside the timing (a first run compiles them into the user cache).
    subprocess.run(gamedp, input=b"1\n300\n" + b"1 " * 300 + b"\n", capture_output=True, check=True)
    scale = 5 if args.quick else 1
    worst = write_input("cardgame-t10-n1000.in", [1000 // scale] * 10, seed=11062)
    compare("card game, judge worst case T=10 N=1000", [Contender("CPython DP", plain), Contender("C++ O(N^2)", [cpp]),
            Contender("gamedp judge cardgame", gamedp)], stdin_path=worst, rounds=args.rounds)
    big = write_input("cardgame-t10-n5000.in", [5000 // scale] * 10, seed=5000)
    compare("card game, T=10 N=5000", [Contender("C++ O(N^2)", [cpp]), Contender("gamedp judge cardgame", gamedp)],
            stdin_path=big, rounds=args.rounds)
    # Start-up alone, for scale: the same command on the 2-case sample, and the floor of any Python program.
    compare("start-up: the official sample (nothing to compute)", [Contender("C++ O(N^2)", [cpp]),
            Contender("gamedp judge cardgame", gamedp)], stdin_path=SAMPLE, rounds=args.rounds)
    compare("floor: the Python interpreter alone (output differs by design)",
            [Contender("C++ O(N^2)", [cpp]), Contender("python -c pass", PYTHON + ["-c", "pass"])],
            stdin_path=SAMPLE, rounds=args.rounds)
    print("\n## CPU time (user + system, least of the rounds), same inputs")
    for title, path, contenders in [("T=10 N=1000", worst, [("CPython DP", plain), ("C++ O(N^2)", [cpp]),
                                                            ("gamedp", gamedp)]),
                                    ("T=10 N=5000", big, [("C++ O(N^2)", [cpp]), ("gamedp", gamedp)])]:
        times = {label: cpu_seconds(argv, path, args.rounds) for label, argv in contenders}
        base = next(iter(times.values()))
        print(f"  {title}: " + ", ".join(f"{label} {t:.3f} s ({t / base:.2f}x)" for label, t in times.items()))
    splits = [json.loads(subprocess.run(PYTHON + ["-c", PHASES, big], capture_output=True, check=True).stdout)
              for _ in range(args.rounds)]
    print("\n## gamedp in-process phases on T=10 N=5000 (medians, s)")
    for phase in splits[0]:
        print(f"  {phase:<26} {sorted(s[phase] for s in splits)[len(splits) // 2]:.4f}")
    rng = random.Random(7)
    many = write_input("cardgame-t100000-small.in", [rng.randint(1, 20) for _ in range(100_000 // scale)], seed=100)
    compare("card game, T=100000 N=1..20", [Contender("C++ O(N^2)", [cpp]), Contender("CPython DP", plain),
            Contender("gamedp judge cardgame", gamedp)], stdin_path=many, rounds=args.rounds)


if __name__ == "__main__":
    main()
