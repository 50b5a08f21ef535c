"""Connect-Four strong solves by the tier solver, whole process: positions per second, peak memory, 1 vs 2 Dask
workers.

    python bench/bench_connect4.py --rounds 3            # 5x4: in this process, --workers 1, --workers 2
    python bench/bench_connect4.py --rounds 1 --big      # and 6x4 (1.6e8 indices; ~0.5 GB of disk)

Each run is `gamedp solve connect4 -V width=W -V height=H --force --json` into bench/build/db; the printed
output is the position count and the start's value (the same for every contender, or the table says DIFFERS).
Peak memory is the largest single process (/usr/bin/time); Dask workers are separate processes. The reference
figures (the BDD strong solver markus7800/Connect4-Strong-Solver on this kind of machine: 5x4 ~12 s CPU, 6x4
~110 s CPU and 870 MB) are in /work/shared/DESIGN.md; positions per second are the published counts over the
median time.
"""

from __future__ import annotations

import sys

from harness import BUILD, PYTHON, Contender, arguments, compare

PUBLISHED = {(5, 4): 3_945_711, (6, 4): 94_910_577, (4, 4): 161_029}
#: Runs the solve and prints only what every contender must agree on.
SOLVE = """\
import json, subprocess, sys
out = subprocess.run([sys.executable, "-m", "gamedp", "solve", "connect4", *sys.argv[1:], "--force", "--json"],
                     capture_output=True, text=True)
if out.returncode:
    sys.exit(out.stderr)
stats = json.loads(out.stdout)
print(stats["positions"], stats["start"]["value"])
"""


def board(width: int, height: int, rounds: int, workers: tuple[int, ...]) -> None:
    db = BUILD / "db"
    db.mkdir(parents=True, exist_ok=True)
    base = ["-V", f"width={width}", "-V", f"height={height}"]
    contenders = [Contender("gamedp solve (this process)", PYTHON + ["-c", SOLVE, *base, "--db", str(db / "local.gdb")])]
    for n in workers:
        contenders.append(Contender(f"gamedp solve --workers {n} (Dask)",
                                    PYTHON + ["-c", SOLVE, *base, "--workers", str(n), "--db", str(db / f"w{n}.gdb")]))
    results = compare(f"connect4 {width}x{height} strong solve", contenders, rounds=rounds, warmup=0)
    positions = PUBLISHED[(width, height)]
    for r in results:
        print(f"{r.label:<40} {positions / r.median:12,.0f} positions/s")


def main() -> None:
    big = "--big" in sys.argv  # the harness's options plus this one
    if big:
        sys.argv.remove("--big")
    args = arguments(__doc__.splitlines()[0])
    if args.quick:
        board(4, 4, args.rounds, (2,))
        return
    board(5, 4, args.rounds, (1, 2))
    if big:
        board(6, 4, args.rounds, (2,))


if __name__ == "__main__":
    main()
