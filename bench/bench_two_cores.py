"""What two busy cores of this machine give: the ceiling of any 2-worker speed-up measured here.

A C++ loop that works in its registers alone (reference/spin.cpp, g++ -O2 at bench time) runs alone, then beside
a copy of itself, rounds interleaved; the table gives the medians and the ceiling they imply for a perfectly
parallel CPU-bound job on 2 processes (2 x time alone / time beside another). On a machine whose 2 cores slow
each other down (shared physical cores, a clock that drops when both are busy, the host's other guests), the
ceiling is under 2 whatever the program; the tier solver's 2-worker speed-up (bench_connect4.py) is bounded by it
before any serial part or Dask's barriers count.

    python bench/bench_two_cores.py --rounds 5
"""

from __future__ import annotations

import statistics
import subprocess

from harness import arguments, build_cpp


def run(exe: str, copies: int, steps: int) -> list[float]:
    procs = [subprocess.Popen([exe, str(steps)], stdout=subprocess.PIPE, text=True) for _ in range(copies)]
    return [float(p.communicate()[0].split()[1]) for p in procs]


def main() -> None:
    args = arguments(__doc__.split("\n")[0])
    exe = build_cpp("reference/spin.cpp")
    steps = 1_000_000_000
    alone: list[float] = []
    beside: list[float] = []
    for _ in range(args.rounds):
        alone += run(exe, 1, steps)
        beside += run(exe, 2, steps)
    a, b = statistics.median(alone), statistics.median(beside)
    print(f"\n## a register-bound loop of {steps:,} steps ({args.rounds} rounds, medians)")
    print(f"{'run':<34}{'seconds':>10}")
    print(f"{'alone':<34}{a:>10.3f}")
    print(f"{'beside a copy (each)':<34}{b:>10.3f}")
    print(f"each copy {100 * (b / a - 1):.1f}% slower beside another: 2 processes give at most {2 * a / b:.2f}x")


if __name__ == "__main__":
    main()
