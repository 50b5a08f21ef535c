"""Position databases, side by side: BLOCKGAME's 50 hard boards answered from the database vs a C++ memo DFS.

Builds the 5x5 BLOCKGAME database once (`gamedp solve blockgame`, under bench/build/db), reports its size in bits
per position, then times, whole process on the same input:

- C++ memoised DFS (bench/reference/blockgame_memo.cpp) = 1.00;
- the judge's database path: parse the judge input, look every board up through the Python API
  (`gamedp.database.find` + the table spec's `index`), print WINNING/LOSING; no numba;
- `gamedp judge blockgame` with GAMEDP_DB_DIR pointing at the database (it answers from it once the judge uses
  `gamedp.database.find`, else by its own search);
- then the cost of keeping the result: `gamedp solve blockgame --force` (solve, statistics, checksummed atomic
  write) vs the C++ word-parallel strong solve and gamedp's solve alone.

    python bench/bench_database.py --rounds 5
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from bench_blockgame import hard_boards, judge_input
from harness import BUILD, GAMEDP, PYTHON, Contender, arguments, build_cpp, compare

DB_DIR = BUILD / "db"
#: What a judge does when a database exists: every board is one look-up.
ANSWER = """\
import sys
from gamedp.database import find
from gamedp.games.placement_tiers import blockgame_table
from gamedp.judge.blockgame import parse
spec = blockgame_table()
db = find(spec.game_id, spec.variant)
sys.stdout.write("".join("WINNING\\n" if db.code(spec.index(spec.key(b))) else "LOSING\\n"
                         for b in parse(sys.stdin.read())))
"""


def main() -> None:
    args = arguments(__doc__.splitlines()[0])
    memo = build_cpp("reference/blockgame_memo.cpp")
    env = {"GAMEDP_DB_DIR": str(DB_DIR)}
    DB_DIR.mkdir(parents=True, exist_ok=True)
    solved = subprocess.run(GAMEDP + ["solve", "blockgame"], capture_output=True, text=True,
                            env={**os.environ, **env})
    if solved.returncode != 0:
        sys.exit(solved.stderr)
    print(solved.stdout)
    path = next(DB_DIR.glob("*.gdb"))
    size = 1 << 25
    print(f"database {path.name}: {path.stat().st_size:,} bytes = {8 * path.stat().st_size / size:.4f} bits per "
          f"position ({path.stat().st_size - size // 8:,} bytes of header and checksums)")
    hard = BUILD / "blockgame-hard50.in"
    hard.write_text(judge_input(hard_boards()))
    compare("BLOCKGAME 50 hard boards answered from the database", [
        Contender("C++ memo DFS (char cache 2^25)", [memo]),
        Contender("database look-up (judge's path, Python API)", PYTHON + ["-c", ANSWER], env),
        Contender("gamedp judge blockgame (GAMEDP_DB_DIR set)", GAMEDP + ["judge", "blockgame"], env),
    ], stdin_path=hard, rounds=args.rounds)
    if args.quick:
        return
    table = build_cpp("reference/blockgame_table.cpp")
    print("\n## BLOCKGAME strong solve, then keep it  (medians, whole process; outputs differ by design)")
    runs = [("C++ 64 boards per word (no file)", [table, "--words"]),
            ("python -m gamedp.games.placement (no file)", PYTHON + ["-m", "gamedp.games.placement"]),
            ("gamedp solve blockgame --force (database written)", GAMEDP + ["solve", "blockgame", "--force"])]
    base = None
    for label, argv in runs:
        seconds = median_seconds(argv, {**os.environ, **env}, args.rounds)
        base = base or seconds
        print(f"{label:<52} {seconds:7.3f} s {seconds / base:7.2f}")


def median_seconds(argv: list[str], env: dict, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, env=env, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)

if __name__ == "__main__":
    main()
