"""Grid game (Baekjoon 28218): gamedp's judge against an O(N*M) C++ program and the plain CPython DP.

    python bench/bench_gridgame.py [--rounds 5] [--quick]

Inputs (deterministic seeds, written under bench/build/): the judge's worst case 300x300, K=299, Q=300, and
3000x3000, K=2999, Q=10^5 with about 1% '#'. (K is at most min(N-1, M-1) by the statement, so 299 and 2999
stand for 300 and 3000: a longer jump would leave the board anyway.) Open cells that cannot reach (N, M) are
walled up, as the statement promises every open cell reaches it.

Bars on the large input: gamedp whole process at most 3x the C++ time; gamedp's own work (reading, solving,
answering: its whole time minus its start-up) at most 1.5x the C++ program's whole time. Start-up is measured
as the whole time of the same command on the 2x2 first sample, where the work is nil, and also broken down
in-process (interpreter + imports, loading the compiled kernels, then parse / solve / answer).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
from harness import BENCH, BUILD, GAMEDP, PYTHON, Contender, arguments, build_cpp, compare

SAMPLE = b"2 2 0\n.#\n..\n2\n1 1\n2 1\n"
BYTECODE = {**os.environ, "PYTHONDONTWRITEBYTECODE": ""}

PHASES = r"""
import sys, time, json
t0 = time.perf_counter()
from gamedp.judge import gridgame
from gamedp.native import load_native
t1 = time.perf_counter()
load_native("gamedp.kernels.gridgame_judge")
t2 = time.perf_counter()
data = open(sys.argv[1], "rb").read()
t3 = time.perf_counter()
text = gridgame._native_run(data)
t4 = time.perf_counter()
assert text is not None
print(json.dumps({"imports": t1 - t0, "load kernels": t2 - t1, "read": t3 - t2,
                  "parse + solve + answer": t4 - t3}))
"""


def reachable_board(n: int, m: int, k: int, wall: float, rng: np.random.Generator) -> np.ndarray:
    """A random board with (N, M) open where every open cell reaches (N, M) (the others are walled up)."""
    blocked = rng.random((n, m)) < wall
    blocked[-1, -1] = False
    reach = np.zeros((n + 1, m), dtype=bool)
    nearest = np.full(n + m - 1, 1 << 40, dtype=np.int64)  # per diagonal, the nearest reaching row below
    cols = np.arange(m)
    for r in range(n - 1, -1, -1):
        opened = ~blocked[r]
        diag = nearest[n - 1 - r:n - 1 - r + m]
        base = opened & (reach[r + 1] | (diag - r <= k))
        if r == n - 1:
            base[-1] = True
        # Along the row, a cell reaches iff a base cell follows it before the next wall.
        next_wall = np.minimum.accumulate(np.where(blocked[r], cols, m)[::-1])[::-1]
        next_base = np.minimum.accumulate(np.where(base, cols, m)[::-1])[::-1]
        reach[r] = opened & (next_base < next_wall)
        diag[reach[r]] = r
    blocked |= ~reach[:n]
    return blocked


def write_input(name: str, n: int, m: int, k: int, q: int, wall: float, seed: int) -> str:
    BUILD.mkdir(exist_ok=True)
    path = BUILD / name
    if path.exists():
        return str(path)
    rng = np.random.default_rng(seed)
    blocked = reachable_board(n, m, k, wall, rng)
    cells = np.where(blocked, ord("#"), ord(".")).astype(np.uint8)
    grid = np.concatenate([cells, np.full((n, 1), ord("\n"), np.uint8)], axis=1).tobytes()
    candidates = np.flatnonzero(~blocked.reshape(-1)[:-1])  # open, and not (N, M)
    picks = candidates[rng.integers(0, len(candidates), q)]
    queries = "".join(f"{i // m + 1} {i % m + 1}\n" for i in picks.tolist())
    path.write_bytes(f"{n} {m} {k}\n".encode() + grid + f"{q}\n{queries}".encode())
    return str(path)


def phases(path: str, rounds: int) -> dict[str, float]:
    runs = [json.loads(subprocess.run(PYTHON + ["-c", PHASES, path], capture_output=True, text=True, check=True,
                                      env=BYTECODE).stdout) for _ in range(rounds)]
    return {key: float(np.median([run[key] for run in runs])) for key in runs[0]}


def main() -> None:
    args = arguments(__doc__.splitlines()[0])
    cpp = build_cpp("reference/gridgame.cpp")
    plain = PYTHON + [str(BENCH / "reference" / "gridgame_plain.py")]
    gamedp = GAMEDP + ["judge", "gridgame"]
    # Build the kernels once outside the timing (a first run compiles them into the user cache), and let Python
    # cache gamedp's bytecode as an installed package would: PYTHONDONTWRITEBYTECODE=1 in the environment would
    # make every run compile gamedp's modules from source again.
    subprocess.run(gamedp, input=SAMPLE, capture_output=True, check=True, env=BYTECODE)
    contenders = [Contender("C++ O(N*M)", [cpp]), Contender("CPython O(N*M)", plain),
                  Contender("gamedp judge gridgame", gamedp, env={"PYTHONDONTWRITEBYTECODE": ""})]

    judge = write_input("gridgame-300.in", 300, 300, 299, 300, 0.01, seed=28218)
    compare("grid game, judge worst case 300x300 K=299 Q=300", contenders, stdin_path=judge, rounds=args.rounds)

    side = 1000 if args.quick else 3000
    big = write_input(f"gridgame-{side}.in", side, side, side - 1, 100_000, 0.01, seed=3000)
    results = compare(f"grid game, {side}x{side} K={side - 1} Q=100000, 1% '#'", contenders, stdin_path=big,
                      rounds=args.rounds)
    sample = BUILD / "gridgame-sample1.in"
    sample.write_bytes(SAMPLE)
    start = compare("start-up: the 2x2 first sample", [contenders[0], contenders[2]], stdin_path=sample,
                    rounds=args.rounds)

    # Medians are what the tables show; minima are the least disturbed runs on a machine shared with others.
    for how, pick in (("medians", lambda r: r.median), ("minima", lambda r: min(r.times))):
        cxx, whole, startup = pick(results[0]), pick(results[2]), pick(start[1])
        print(f"\nby {how}: gamedp / C++ whole process on {side}x{side}: {whole / cxx:.2f}x  (bar 3x)")
        print(f"  gamedp start-up (2x2 sample, whole process): {startup:.3f} s = {startup / whole:.0%} of its "
              f"{side}x{side} run")
        print(f"  gamedp own work (whole - start-up): {whole - startup:.3f} s = {(whole - startup) / cxx:.2f}x "
              f"the C++ whole process  (bar 1.5x)")
    parts = phases(big, args.rounds)
    print("in-process medians: " + ", ".join(f"{key} {value:.3f} s" for key, value in parts.items()))
    work = parts["read"] + parts["parse + solve + answer"]
    print(f"gamedp own work in-process (read + parse + solve + answer): {work:.3f} s = "
          f"{work / results[0].median:.2f}x the C++ whole process (median)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
