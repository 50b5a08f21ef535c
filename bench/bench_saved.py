"""Saved solves: the time to save a solve, and to answer from the file instead of solving again.

For each game (a Python game of your own, a built-in Python game, a compiled game of your own), whole process:

1. `gamedp solve GAME POSITION --force --json` several times: the medians of its own solve and save times
   (in-process figures it reports), the file's size, and the whole command;
2. side by side (interleaved rounds, medians): `gamedp analyze GAME POSITION` with no save (solving again) = 1.00
   against the same command answering from the save; and one value solved again (a few lines of the Python API,
   printing what `gamedp query` prints) = 1.00 against `gamedp query GAME POSITION` answering from the save;
   and `gamedp play GAME POSITION --first computer` making its first move (then `quit` is read) with no save =
   1.00 against the same command answering from the save.

    python bench/bench_saved.py [--rounds 5] [--quick]
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import time
from pathlib import Path

from harness import BUILD, GAMEDP, PYTHON, Contender, arguments, compare

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
#: (title, game, position solved from, position asked about)
GAMES = [
    ("Toads and Frogs TTTT...FFFF (examples/my_game.py, Python)", str(EXAMPLES / "my_game.py"), "TTTT...FFFF:T",
     "TTTT...FFFF:T"),
    ("Connect-4 4x4 (built-in Python Connect4)", "connect4:4x4", "", ""),
    ("BLOCKGAME empty board (examples/blockgame_compiled.py, CompiledGame)", str(EXAMPLES / "blockgame_compiled.py"),
     ".........................", "........................."),
]
QUICK = [
    ("Toads and Frogs TTT...FFF (examples/my_game.py, Python)", str(EXAMPLES / "my_game.py"), "TTT...FFF:T",
     "TTT...FFF:T"),
    ("BLOCKGAME, 13 empty cells (examples/blockgame_compiled.py)", str(EXAMPLES / "blockgame_compiled.py"),
     "##### ##### ##... ##... ##...", "##### ##### ##... ##... ##..."),
]


#: `gamedp query`'s line for one position, by solving (the engine `gamedp analyze` uses)
VALUE = """\
import sys
from gamedp.analysis import Analyst
from gamedp.loader import load_game
analyst = Analyst(load_game(sys.argv[1]))
shown = " ".join(sys.argv[2].split()) or '""'
print(shown + ": " + str(analyst.value(analyst.read_position(sys.argv[2]))))
"""


def words(position: str) -> list[str]:
    return [position] if position else []


def main() -> None:
    args = arguments(__doc__.splitlines()[0])
    saved_dir, empty_dir = BUILD / "saved", BUILD / "saved-none"
    for folder in (saved_dir, empty_dir):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    with_save, without = {"GAMEDP_DB_DIR": str(saved_dir)}, {"GAMEDP_DB_DIR": str(empty_dir)}
    quit_file = BUILD / "saved-quit.txt"
    quit_file.write_text("quit\n")
    for title, game, start, asked in QUICK if args.quick else GAMES:
        solve, save, whole, size = [], [], [], 0
        for _ in range(args.rounds):
            t0 = time.perf_counter()
            out = subprocess.run(GAMEDP + ["solve", game, *words(start), "-r", "--force", "--json"],
                                 capture_output=True, text=True, env={**os.environ, **with_save}, check=True)
            whole.append(time.perf_counter() - t0)
            stats = json.loads(out.stdout)
            solve.append(stats["solve_seconds"])
            save.append(stats["save_seconds"])
            size = stats["bytes"]
        print(f"\n## {title}: gamedp solve -r ({args.rounds} rounds, medians)")
        print(f"{stats['positions']:,} positions; file {size:,} bytes ({8 * size / stats['positions']:.1f} bits "
              f"a position, {stats['encoding']} keys); solve {statistics.median(solve):.3f} s, save "
              f"{statistics.median(save):.3f} s ({statistics.median(save) / statistics.median(solve):.2f}x the "
              f"solve); whole command {statistics.median(whole):.3f} s")
        compare(f"{title}: one position's analysis", [
            Contender("gamedp analyze, solving again", GAMEDP + ["analyze", game, *words(asked)], without),
            Contender("gamedp analyze, from the save", GAMEDP + ["analyze", game, *words(asked)], with_save),
        ], rounds=args.rounds)
        compare(f"{title}: one position's value", [
            Contender("solving again (Python API, same output)", PYTHON + ["-c", VALUE, game, asked], without),
            Contender("gamedp query, from the save", GAMEDP + ["query", game, asked], with_save),
        ], rounds=args.rounds)
        play = GAMEDP + ["play", game, *words(asked), "--first", "computer"]
        compare(f"{title}: the computer's first move in gamedp play", [
            Contender("gamedp play, solving again", play, without),
            Contender("gamedp play, from the save", play, with_save),
        ], stdin_path=quit_file, rounds=args.rounds)


if __name__ == "__main__":
    main()
