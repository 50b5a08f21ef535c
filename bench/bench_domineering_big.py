"""Domineering's search of boards past 127 cells (gamedp.kernels.domineering_big_search: a board per ply in an
arena, counted row by row) against the two-word search (gamedp.kernels.domineering_wide_search) on boards both
take, and alone on boards only it takes.

    python bench/bench_domineering_big.py              # 5 rounds
    python bench/bench_domineering_big.py --quick      # the small boards only, 3 rounds

First table: from the empty board, each search with a fresh 64 MiB table, CPU seconds in this process (medians of
the rounds), positions explored, microseconds per position and the ratio big / wide; the winners must agree (exit
status 1 otherwise). Second table: positions of 12 x 12 and 16 x 16 after random dominoes (the same seeds every
run), the big search alone: its time and positions.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from harness import arguments

from gamedp.games.domineering_scores import BigDomineeringScores, WideDomineeringScores
from gamedp.games.placement import Domineering
from gamedp.solvers.score_search import ScoreSearch

#: rows, columns, Horizontal to move
BOTH = [(6, 8, 0), (8, 7, 1), (7, 7, 0), (6, 9, 0), (9, 6, 1)]
QUICK = [(6, 8, 0), (7, 7, 0)]
#: rows, columns, dominoes placed at random, seed
BIG_ONLY = [(12, 12, 36, 1), (12, 12, 33, 2), (16, 16, 75, 3), (8, 30, 70, 5), (8, 30, 65, 6)]


def timed(kind: type, game: Domineering, position: int, rounds: int) -> tuple[str, int, float]:
    """The winner, the positions explored and the median CPU seconds of ``kind``'s search of ``position``."""
    seconds = []
    for _ in range(rounds):
        search = ScoreSearch(kind(game), progress=False, memory=64 << 20)
        began = time.process_time()
        outcome = search.value(position).outcome
        seconds.append(time.process_time() - began)
    return outcome.name, search.explored, statistics.median(seconds)


def placed(rows: int, cols: int, dominoes: int, seed: int) -> int:
    """The position after ``dominoes`` random moves from the start of ``rows`` x ``cols`` (the tests' too)."""
    rng = random.Random(seed)
    game = Domineering(rows, cols)
    position = game.start()
    for _ in range(dominoes):
        position = rng.choice(game.move_list(position))[1]
    return position


def main() -> int:
    args = arguments(__doc__.splitlines()[0])
    rounds = min(args.rounds, 3) if args.quick else args.rounds
    agree = True
    print(f"from the empty board, {rounds} rounds, medians of CPU seconds")
    print(f"{'board':12} {'winner':6} {'wide s':>8} {'big s':>8} {'wide pos':>10} {'big pos':>10} {'wide us/pos':>11} "
          f"{'big us/pos':>10} {'big/wide':>8}")
    for rows, cols, horizontal in QUICK if args.quick else BOTH:
        game = Domineering(rows, cols)
        start = game.start() | horizontal << rows * cols
        (w_win, w_pos, w_s), (b_win, b_pos, b_s) = (timed(kind, game, start, rounds)
                                                    for kind in (WideDomineeringScores, BigDomineeringScores))
        agree &= w_win == b_win
        board = f"{rows}x{cols} {'H' if horizontal else 'V'}"
        print(f"{board:12} {w_win:6} {w_s:8.3f} {b_s:8.3f} {w_pos:10,} {b_pos:10,} {w_s / w_pos * 1e6:11.2f} "
              f"{b_s / b_pos * 1e6:10.2f} {b_s / w_s:8.2f}")
    if not args.quick:
        print("\nboards past 127 cells, the big search alone")
        for rows, cols, dominoes, seed in BIG_ONLY:
            game = Domineering(rows, cols)
            position = placed(rows, cols, dominoes, seed)
            empty = rows * cols - bin(position & game.rules.full).count("1")
            winner, positions, seconds = timed(BigDomineeringScores, game, position, rounds)
            print(f"{rows}x{cols}, {dominoes} dominoes placed ({empty} empty cells): {winner}, {positions:,} positions, "
                  f"{seconds:.3f} s, {seconds / max(positions, 1) * 1e6:.2f} us/pos")
    print("winners: " + ("the same" if agree else "DIFFER"))
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
