"""Small strong solves, whole process: `gamedp solve tictactoe` (and subtraction) now vs the previous way.

A tiny index space (at most 32,768) is solved in memory by the tier functions as plain Python: no numba is
imported and no kernel loaded. The previous way (gamedp before the tier solver took these games: kernels
compiled around the game's functions, loaded from numba's cache) runs from a checkout given by --previous
(e.g. `git worktree add /tmp/prev 34e2bc3`). Floors: python alone, and python importing numpy. Every contender
re-solves (--force) into a database folder of its own; stdout is discarded (the reports differ in layout).
Last, for scale, BLOCKGAME's 2^25 boards, which now go through the tier solver's shards too.

    python bench/bench_small_solves.py --rounds 7 --previous /tmp/prev
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

from harness import GAMEDP, PYTHON, Contender, compare

QUIET = ["sh", "-c", 'exec "$@" >/dev/null', "quiet"]  # the same bytes out of every contender


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--previous", help="a checkout of the previous gamedp, run with PYTHONPATH")
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="gamedp-small-")
    for title, solve in (("gamedp solve tictactoe", ["solve", "tictactoe", "--force"]),
                         ("gamedp solve subtraction (n=1000, moves 1,3,4)", ["solve", "subtraction", "--force"]),
                         ("gamedp solve blockgame (5x5, 2^25 boards)", ["solve", "blockgame", "--force"])):
        contenders = []
        if args.previous:
            contenders.append(Contender("previous (tables.py)", QUIET + GAMEDP + solve,
                                        {"PYTHONPATH": args.previous, "PYTHONSAFEPATH": "1",  # not the current folder's
                                         "GAMEDP_DB_DIR": os.path.join(work, "prev")}))
        contenders += [
            Contender("now (the tier solver)", QUIET + GAMEDP + solve,
                      {"PYTHONSAFEPATH": "1", "GAMEDP_DB_DIR": os.path.join(work, "now")}),
            Contender("floor: python -c 'import numpy'", QUIET + PYTHON + ["-c", "import numpy"]),
            Contender("floor: python -c pass", QUIET + PYTHON + ["-c", "pass"]),
        ]
        compare(title, contenders, rounds=args.rounds)


if __name__ == "__main__":
    sys.exit(main())
