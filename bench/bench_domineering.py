"""Domineering, gamedp against a reference solver: the empty 8x8, 7x8 and 8x7 boards with each side to move, and
random 8x8 positions after 2 to 10 dominoes.

    python bench/bench_domineering.py --reference ~/src/obsequi/obsequi/Obsequi --rounds 3
    python bench/bench_domineering.py --quick                  # gamedp alone, 6x6, 5x6 and 6x5, for a smoke test
    python bench/bench_domineering.py --reference PATH --positions 3 --seed 7 --rounds 5

The reference is a build of Nathan Bullock's Obsequi (or anything that reads its command, `solve rows R cols C
bits B [bR,C;R,C...] V|H` on standard input, and prints `winner V|H`), named by --reference; the bench never
fetches or builds it. Its transposition table has 2^--reference-bits entries (default 24, as its README solves
8x8). Every case is a whole process, one thread: `gamedp value domineering:RxC --json` (which also gives the
positions gamedp explored) and the reference, taking turns in each of --rounds rounds after an untimed run of
gamedp that warms its bytecode cache; the tables give medians. The random positions (--positions per number of
dominoes, drawn with --seed: the players take turns from Vertical, each domino a random legal one of its player)
go to gamedp as the lines of one process, as `gamedp value` takes them, and to the reference one process each
(its command takes one board): their totals are compared. Every winner of gamedp is compared with the
reference's; a difference makes the exit status 1. With a reference, the issue's bars are checked last: on each
empty board, and on the random positions in total, gamedp takes at most 1.0x the reference's time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from harness import GAMEDP, Contender, run_once

BOARDS = ((8, 8), (7, 8), (8, 7))
QUICK_BOARDS = ((6, 6), (5, 6), (6, 5))
DOMINOES = range(2, 11)
TARGET = 1.0


@dataclass
class Case:
    """A board to value: ``rows`` x ``cols`` with the ``filled`` cells (row, column), ``mover`` "V" or "H"."""

    name: str
    rows: int
    cols: int
    mover: str
    filled: frozenset[tuple[int, int]] = frozenset()

    def gamedp_line(self) -> str:
        cells = "".join("#" if (r, c) in self.filled else "." for r in range(self.rows) for c in range(self.cols))
        return f"{cells} {self.mover}"

    def reference_command(self, bits: int) -> str:
        blocks = ";".join(f"{r},{c}" for r, c in sorted(self.filled))
        return f"solve rows {self.rows} cols {self.cols} bits {bits} {'b' + blocks + ' ' if blocks else ''}{self.mover}"


@dataclass
class Timings:
    times: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.times)


def random_case(rng: random.Random, rows: int, cols: int, dominoes: int) -> Case:
    """The board after ``dominoes`` random legal moves from the empty one, Vertical first."""
    filled: set[tuple[int, int]] = set()
    for ply in range(dominoes):
        dr, dc = (1, 0) if ply % 2 == 0 else (0, 1)
        legal = [(r, c) for r in range(rows - dr) for c in range(cols - dc)
                 if (r, c) not in filled and (r + dr, c + dc) not in filled]
        r, c = rng.choice(legal)
        filled |= {(r, c), (r + dr, c + dc)}
    return Case(f"{dominoes} dominoes", rows, cols, "VH"[dominoes % 2], frozenset(filled))


def gamedp_winners(cases: list[Case], out: bytes) -> tuple[list[str], list[int]]:
    """The winner gamedp names for each case (its value is the mover's) and the positions it explored."""
    rows = [json.loads(line) for line in out.decode().splitlines() if line.strip()]
    if len(rows) != len(cases):
        raise SystemExit(f"gamedp answered {len(rows)} of {len(cases)} lines")
    other = {"V": "H", "H": "V"}
    return ([c.mover if r["value"] == "WIN" else other[c.mover] for c, r in zip(cases, rows)],
            [r["explored"] for r in rows])


def reference_winner(out: bytes) -> str:
    for line in out.decode(errors="replace").splitlines():
        if line.startswith("winner "):
            return line.split()[1].rstrip(",")
    raise SystemExit(f"the reference printed no 'winner' line:\n{out.decode(errors='replace')[-2000:]}")


def run_gamedp(cases: list[Case], tmp: Path) -> tuple[float, list[str], list[int]]:
    """One whole process of `gamedp value` on the cases (all of one size) as its lines."""
    path = tmp / "gamedp.in"
    path.write_text("".join(c.gamedp_line() + "\n" for c in cases))
    spec = f"domineering:{cases[0].rows}x{cases[0].cols}"
    elapsed, out, _ = run_once(Contender("gamedp", GAMEDP + ["value", spec, "--json"]), path)
    winners, explored = gamedp_winners(cases, out)
    return elapsed, winners, explored


def run_reference(ref: str, case: Case, bits: int, tmp: Path) -> tuple[float, str]:
    path = tmp / "reference.in"
    path.write_text(case.reference_command(bits) + "\n")
    elapsed, out, _ = run_once(Contender("reference", [ref]), path)
    return elapsed, reference_winner(out)


def measure(groups: list[list[Case]], ref: str | None, bits: int, rounds: int, tmp: Path) -> list[dict]:
    """Per group (gamedp's one process): gamedp's median and the reference's median per case, summed, over
    ``rounds`` rounds that take turns case by case; the winners of every run compared."""
    gamedp = [Timings() for _ in groups]
    reference = [[Timings() for _ in group] for group in groups]
    explored: list[list[int]] = [[] for _ in groups]
    winners: list[list[str]] = [[] for _ in groups]
    wrong: list[set[int]] = [set() for _ in groups]
    for _ in range(rounds):
        for g, group in enumerate(groups):
            elapsed, got, explored[g] = run_gamedp(group, tmp)
            gamedp[g].times.append(elapsed)
            winners[g] = got
            if ref:
                for i, case in enumerate(group):
                    elapsed, winner = run_reference(ref, case, bits, tmp)
                    reference[g][i].times.append(elapsed)
                    if winner != got[i]:
                        wrong[g].add(i)
    rows = []
    for g, group in enumerate(groups):
        row = {"cases": [c.name for c in group], "size": f"{group[0].rows}x{group[0].cols}",
               "movers": [c.mover for c in group], "winners": winners[g], "explored": explored[g],
               "gamedp": gamedp[g].median, "differs": sorted(wrong[g])}
        if ref:
            row["reference"] = sum(t.median for t in reference[g])
            row["ratio"] = row["gamedp"] / row["reference"]
        rows.append(row)
    return rows


def print_rows(title: str, rows: list[dict], ref: bool) -> None:
    print(f"\n## {title}")
    print(f"{'case':<24} {'winner':>6} {'gamedp explored':>16} {'gamedp s':>9} {'reference s':>12} {'ratio':>6}  "
          f"winners")
    for r in rows:
        name = r["cases"][0] if len(r["cases"]) == 1 else f"{len(r['cases'])} positions"
        label = f"{r['size']} {name}, {r['movers'][0] if len(r['cases']) == 1 else 'V/H'}"
        winner = r["winners"][0] if len(r["winners"]) == 1 else "-"
        same = "-" if not ref else "same" if not r["differs"] else f"DIFFER on {len(r['differs'])}"
        print(f"{label:<24} {winner:>6} {sum(r['explored']):>16,} {r['gamedp']:9.3f} "
              f"{r['reference'] if ref else float('nan'):12.3f} {r['ratio'] if ref else float('nan'):6.2f}  {same}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3, help="timed rounds per case (default 3)")
    p.add_argument("--quick", action="store_true", help="6x6, 5x6 and 6x5 boards and random 6x6 positions")
    p.add_argument("--reference", type=Path, help="a built Obsequi (or a solver reading its command) to run beside "
                                                  "gamedp")
    p.add_argument("--reference-bits", type=int, default=24, help="log2 of the reference's table (default 24)")
    p.add_argument("--positions", type=int, default=1, help="random positions per number of dominoes (default 1)")
    p.add_argument("--seed", type=int, default=1, help="the random positions' seed (default 1)")
    p.add_argument("--json", type=Path, help="append the measured rows to this file as JSON lines")
    args = p.parse_args()
    ref = str(args.reference.expanduser().resolve()) if args.reference else None
    if ref and not os.access(ref, os.X_OK):
        raise SystemExit(f"--reference {ref}: not an executable")
    boards = QUICK_BOARDS if args.quick else BOARDS
    empty = [[Case("empty", rows, cols, mover)] for rows, cols in boards for mover in "VH"]
    rng = random.Random(args.seed)
    side = boards[0]
    positions = [random_case(rng, *side, n) for n in DOMINOES for _ in range(args.positions)]
    print("reference: " + (ref or "none (no --reference): gamedp alone, no ratios, bars not checked"))
    with tempfile.TemporaryDirectory(prefix="domineering-") as tmpname:
        tmp = Path(tmpname)
        run_gamedp(empty[-1], tmp)  # untimed: warms the imports' bytecode cache
        boards_rows = measure(empty, ref, args.reference_bits, args.rounds, tmp)
        print_rows(f"Empty boards, whole process, one thread, medians of {args.rounds}", boards_rows, bool(ref))
        random_rows = measure([positions], ref, args.reference_bits, args.rounds, tmp)
        print_rows(f"Random {side[0]}x{side[1]} positions after {DOMINOES[0]}-{DOMINOES[-1]} dominoes (seed "
                   f"{args.seed}), gamedp one process, the reference one each, medians of {args.rounds}",
                   random_rows, bool(ref))
    if args.json:
        with open(args.json.expanduser(), "a") as f:
            for row in boards_rows + random_rows:
                f.write(json.dumps({"title": "domineering", "rounds": args.rounds, **row}) + "\n")
    if ref:
        for row in boards_rows + random_rows:
            name = f"{row['size']} empty, {row['movers'][0]} to move" if len(row["cases"]) == 1 else \
                "random positions in total"
            print(f"target {name}: at most {TARGET}x the reference: {row['ratio']:.2f}x, "
                  f"{'met' if row['ratio'] <= TARGET else 'MISSED'}")
    differ = sum(len(row["differs"]) for row in boards_rows + random_rows)
    if differ:
        print(f"\n{differ} winner(s) differ from the reference's")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
