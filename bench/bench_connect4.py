"""Connect-Four strong solves, whole process: gamedp's tier solver against the BDD strong solver, 1 vs 2 Dask
workers, CPU seconds and peak memory.

    python bench/bench_connect4.py --rounds 3                      # 5x4: in this process, --workers 1 and 2
    python bench/bench_connect4.py --rounds 3 --boards 5x4,6x4,5x5 --workers '' --bdd PATH/TO/solve.out
    python bench/bench_connect4.py --rounds 1 --boards 6x4 --workers 1,2

Each gamedp run is `gamedp solve connect4 -V width=W -V height=H --force --json` into bench/build/db. With
--bdd PATH (the `solve` program of markus7800/Connect4-Strong-Solver, which you build yourself in its repository,
e.g. with its makefile's `make solve`; this bench never fetches or builds it) it runs beside, as `PATH 24 W H`
(2^24 nodes, < 1 GB, the setting its README gives for 6x4 and 5x5), saving its solution like gamedp does. Every
contender prints the position count and the start's value, which must agree (else the table says DIFFERS).

The harness's table gives wall-clock medians; on a shared machine the CPU seconds (user + system of the process
and all it waited for, Dask workers included) are the fairer measure, so they follow, with their ratio to the BDD
solver's, measured here or else its figures from issue 12 (5x4 ~12 s, 6x4 ~110 s CPU on this kind of machine;
5x5 ~40 s on its author's desktop).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

from harness import BUILD, PYTHON, Contender, compare

#: The BDD solver's CPU seconds from issue 12 (5x5: its author's desktop, wall clock).
BDD_FIGURES = {(5, 4): 12.0, (6, 4): 110.0, (5, 5): 40.0}
PUBLISHED = {(4, 4): 161_029, (5, 4): 3_945_711, (4, 5): 1_706_255, (6, 4): 94_910_577, (5, 5): 69_763_700}
#: Runs one contender (argv after the CPU log's path) and prints what every contender must agree on; appends the
#: CPU seconds of everything it waited for to the log.
RUN = """\
import json, os, re, resource, subprocess, sys
log, kind, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
out = subprocess.run(argv, capture_output=True, text=True, cwd=os.environ.get("BENCH_CWD"))
if out.returncode:
    sys.exit(out.stderr or out.stdout)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(log, "a") as f:
    f.write(f"{usage.ru_utime + usage.ru_stime}\\n")
if kind == "gamedp":
    stats = json.loads(out.stdout)
    print(stats["positions"], stats["start"]["value"])
else:  # the BDD solver: per ply 'win=.. draw=.. loss=.. term=.. / total=..', ply 0 last
    plies = re.findall(r"win=(\\d+) draw=(\\d+) loss=(\\d+) term=\\d+ / total=(\\d+)", out.stdout)
    win, draw, loss, _ = (int(x) for x in plies[-1])
    print(sum(int(p[3]) for p in plies), "WIN" if win else "TIE" if draw else "LOSE")
"""


def bdd_program(path: Path) -> Path:
    """The BDD solver's program the user built and named, checked to be a runnable file of theirs."""
    path = path.expanduser().resolve()
    if not path.is_file() or not os.access(path, os.X_OK):
        raise SystemExit(f"--bdd {path}: not an executable file; build the BDD solver's `solve` program in its "
                         "own repository (`make solve`) and name it here")
    if path.stat().st_uid != os.getuid() or path.stat().st_mode & 0o022:
        raise SystemExit(f"--bdd {path}: another user could have written it; use a build of your own "
                         "(yours, not group- or world-writable)")
    return path


def board(width: int, height: int, rounds: int, workers: list[int], bdd: Path | None) -> None:
    db = BUILD / "db"
    db.mkdir(parents=True, exist_ok=True)
    logs = BUILD / "cpu"
    logs.mkdir(parents=True, exist_ok=True)
    base = ["-V", f"width={width}", "-V", f"height={height}"]

    def contender(label: str, kind: str, argv: list[str], env: dict | None = None) -> Contender:
        log = logs / f"{width}x{height}-{len(labels)}.log"
        log.write_text("")
        labels.append((label, log))
        return Contender(label, PYTHON + ["-c", RUN, str(log), kind, *argv], env or {})

    labels: list[tuple[str, Path]] = []
    gamedp = PYTHON + ["-m", "gamedp", "solve", "connect4", *base, "--force", "--json"]
    contenders = []
    if bdd is not None:
        run_dir = BUILD / "bdd_run"
        run_dir.mkdir(exist_ok=True)
        contenders.append(contender("BDD solver (your build)", "bdd", [str(bdd), "24", str(width), str(height)],
                                    {"BENCH_CWD": str(run_dir)}))
    contenders.append(contender("gamedp solve (this process)", "gamedp", gamedp + ["--db", str(db / "local.gdb")]))
    for n in workers:
        contenders.append(contender(f"gamedp solve --workers {n} (Dask)", "gamedp",
                                    gamedp + ["--workers", str(n), "--db", str(db / f"w{n}.gdb")]))
    results = compare(f"connect4 {width}x{height} strong solve", contenders, rounds=rounds, warmup=0)
    cpu = {label: statistics.median(float(x) for x in log.read_text().split()) for label, log in labels}
    reference = cpu[labels[0][0]] if bdd is not None else BDD_FIGURES.get((width, height))
    where = "measured here" if bdd is not None else "issue 12's figure"
    print(f"{'program':<40} {'CPU s':>9} {'vs BDD':>7} {'positions/s (wall)':>20}")
    positions = PUBLISHED.get((width, height))
    for r in results:
        ratio = f"{cpu[r.label] / reference:7.3f}" if reference else "      ?"
        rate = f"{positions / r.median:20,.0f}" if positions else ""
        print(f"{r.label:<40} {cpu[r.label]:9.2f} {ratio} {rate}")
    if reference:
        print(f"(BDD solver's CPU seconds: {reference:.1f} s, {where})")
    if os.environ.get("BENCH_JSON"):
        with open(os.environ["BENCH_JSON"], "a") as f:
            f.write(json.dumps({"title": f"connect4 {width}x{height} CPU seconds", "cpu": cpu,
                                "bdd_reference": reference}) + "\n")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3, help="timed rounds per contender (default 3)")
    p.add_argument("--quick", action="store_true", help="4x4 only, for a smoke test")
    p.add_argument("--boards", default="5x4", help="boards as WxH, comma-separated (default 5x4)")
    p.add_argument("--workers", default="1,2", help="Dask local cluster sizes to run too (default 1,2; '' none)")
    p.add_argument("--bdd", type=Path, metavar="PATH",
                   help="the BDD strong solver's `solve` program, built by you, to run beside")
    args = p.parse_args()
    boards = [(4, 4)] if args.quick else [tuple(int(x) for x in b.split("x")) for b in args.boards.split(",")]
    workers = [int(n) for n in args.workers.split(",") if n]
    bdd = bdd_program(args.bdd) if args.bdd else None
    for w, h in boards:
        board(w, h, args.rounds, workers, bdd)


if __name__ == "__main__":
    sys.exit(main())
