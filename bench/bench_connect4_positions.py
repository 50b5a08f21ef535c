"""Connect-Four 7x6 position solving, gamedp against Pascal Pons' solver, on his six published benchmark sets.

    python bench/bench_connect4_positions.py --reference ~/src/connect4/c4solver         # all six sets, 3 rounds
    python bench/bench_connect4_positions.py --quick                                     # gamedp alone, small sets
    python bench/bench_connect4_positions.py --reference PATH --sets-only End-Easy,Middle-Easy --rounds 1
    python bench/bench_connect4_positions.py --reference PATH --memory 64M --start --json build/c4pos.jsonl
    python bench/bench_connect4_positions.py --reference PATH --threads 1,2     # one and two threads, same rounds

The sets (MOVES SCORE a line) are read from tests/fixtures/connect4-positions or --sets DIR. Per set, one run
of `gamedp value connect4 --json` counts the positions gamedp explores; then each round runs plain `gamedp value
connect4` (once per --threads count) and the reference (a build of Pons' solver named by --reference; never
fetched or built here), each on the set and on empty input, whole process. The table gives medians over the
rounds: per position, (whole process - the same round's start-up) / positions for both, in wall and in CPU
seconds; the whole processes' wall and CPU seconds (user + system, every thread); their ratios. Lines searched at
once by several threads overlap, so their time per position is measured only this way. Every answer of every
run is checked against the set's score; any wrong one makes the exit status 1. With a reference, the issue's
bars are checked last (per position, at most 0.6x with the most threads measured on every set, at most 1.0x with
one thread on the easy sets), then a harness.compare of plain `gamedp value connect4` against the reference on
the 1000 End-Easy positions (target: at most 1.5x the reference); its output column says DIFFERS because the two
print different formats. --start times the empty board too (minutes). Everything runs in a fresh temporary
directory so that the reference finds no opening book (7x6.book) to answer from, and gamedp runs with --no-book.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
from pathlib import Path

from harness import BENCH, GAMEDP, Contender, run_once, compare

SETS = {"End-Easy": "Test_L3_R1", "Middle-Easy": "Test_L2_R1", "Begin-Easy": "Test_L1_R1",
        "Middle-Medium": "Test_L2_R2", "Begin-Medium": "Test_L1_R2", "Begin-Hard": "Test_L1_R3"}
FULL = dict(zip(SETS, (1000, 1000, 1000, 1000, 100, 10)))
QUICK = dict(zip(SETS, (50, 50, 50, 20, 5, 1)))
START = "/".join(["......."] * 6)  # gamedp's empty board; to the reference it is an empty line
TARGET = 1.5
#: Per position against the reference: with both cores (the most threads measured), and with one on easy sets.
MOST_THREADS_TARGET, ONE_THREAD_TARGET = 0.6, 1.0


def score_of(moves: str, value: str, remoteness: int) -> int | None:
    """The set's SCORE from gamedp's answer (the README's formulas solved for SCORE); None if none fits."""
    n = len(moves)
    if value == "TIE":
        return 0 if remoteness == 42 - n else None
    twice = 43 - remoteness - 2 * (n // 2) if value == "WIN" else remoteness - 44 + 2 * ((n + 1) // 2)
    return twice // 2 if twice % 2 == 0 else None


def reference_scores(out: str) -> dict[str, int]:
    """The reference's `MOVES SCORE` lines by MOVES: matching by moves, not order, survives a skipped line."""
    scores = {}
    for line in out.splitlines():
        parts = line.split()
        if parts:
            scores[parts[0] if len(parts) == 2 else ""] = int(parts[-1])
    return scores


def timed(label: str, argv: list[str], stdin_path: Path | None) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + system, threads together) and the output of one whole-process run."""
    # The harness's own runner, so that these times are measured like compare()'s (same wrapper, same env).
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    elapsed, out, _ = run_once(Contender(label, argv), stdin_path)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return elapsed, cpu, out.decode()


def human(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1e6:.1f} us" if seconds < 1e-3 else f"{seconds * 1e3:.2f} ms" if seconds < 1 else \
        f"{seconds:.2f} s"


class Runs:
    """One contender's timed runs of a set, each beside a run on empty input in the same round."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.start_wall: list[float] = []
        self.start_cpu: list[float] = []
        self.wrong: set[int] = set()

    def add(self, label: str, argv: list[str], path: Path) -> str:
        empty = timed(label, argv, None)
        self.start_wall.append(empty[0])
        self.start_cpu.append(empty[1])
        elapsed, cpu, out = timed(label, argv, path)
        self.wall.append(elapsed)
        self.cpu.append(cpu)
        return out

    def row(self, who: str, positions: int) -> dict:
        """Medians: whole process, start-up, and per position the whole process less the same round's start-up
        (None where start-up noise swallows the solving: a tiny set)."""
        per = statistics.median(w - s for w, s in zip(self.wall, self.start_wall)) / positions
        per_cpu = statistics.median(c - s for c, s in zip(self.cpu, self.start_cpu)) / positions
        return {f"{who}_wall": statistics.median(self.wall), f"{who}_cpu": statistics.median(self.cpu),
                f"{who}_start_up": statistics.median(self.start_wall),
                f"{who}_seconds_per_position": per if per > 0 else None,
                f"{who}_cpu_per_position": per_cpu if per_cpu > 0 else None, f"{who}_wrong": sorted(self.wrong)}


def gamedp_scores(out: str) -> dict[int, int | None]:
    """The set's score of each line gamedp answered (`MOVES<TAB>VALUE<TAB>REMOTENESS`, in the lines' order)."""
    rows = [line.split("\t") for line in out.splitlines() if line.strip()]
    return {i: score_of(moves, value, int(remoteness)) for i, (moves, value, remoteness) in enumerate(rows, 1)}


def bench_set(name: str, path: Path, lines: list[str], scores: list[int], gamedp: dict[int, list[str]],
              explain: list[str], ref: str | None, rounds: int) -> list[dict]:
    """One row per thread count of ``gamedp`` (its command line by threads), the reference run in the same rounds;
    before them one run of ``explain`` (`gamedp value connect4 --json`) for the positions explored."""
    _, _, out = timed("gamedp --json", explain, path)
    rows = [json.loads(x) for x in out.splitlines() if x.strip()]
    explored = sum(r["explored"] for r in rows) / len(lines)
    json_wrong = {r["line"] for r in rows if score_of(lines[r["line"] - 1], r["value"], r["remoteness"])
                  != scores[r["line"] - 1]} | (set(range(1, len(lines) + 1)) - {r["line"] for r in rows})
    runs = {t: Runs() for t in gamedp}
    reference = Runs()
    for _ in range(rounds):
        for t, argv in gamedp.items():
            got = gamedp_scores(runs[t].add("gamedp", argv, path))
            runs[t].wrong |= {i for i, s in enumerate(scores, 1) if got.get(i) != s}
        if ref:
            got_r = reference_scores(reference.add("reference", [ref], path))
            reference.wrong |= {i for i, (m, s) in enumerate(zip(lines, scores), 1) if got_r.get(m) != s}
    result = []
    for t in gamedp:
        row = {"set": name, "file": SETS[name], "positions": len(lines), "rounds": rounds, "threads": t,
               "gamedp_explored_per_position": explored, **runs[t].row("gamedp", len(lines))}
        row["gamedp_wrong"] = sorted(set(row["gamedp_wrong"]) | json_wrong)
        if ref:
            row.update(reference.row("reference", len(lines)))
            for kind, key in (("wall", "wall"), ("cpu", "cpu"), ("per_position", "seconds_per_position"),
                              ("cpu_per_position", "cpu_per_position")):
                g, r = row[f"gamedp_{key}"], row[f"reference_{key}"]
                row[f"{kind}_ratio"] = g / r if g is not None and r else None
        result.append(row)
    return result


HEADER = (f"{'set':<14} {'n':>5} {'thr':>3} {'explored/pos':>12} | {'gamedp/pos':>10} {'ref/pos':>10} {'pos x':>6} | "
          f"{'gamedp s':>8} {'ref s':>8} {'wall x':>6} | {'cpu/pos x':>9} {'gamedp cpu':>10} {'ref cpu':>8} "
          f"{'cpu x':>6} | {'wrG':>4} {'wrR':>4}")


def print_row(r: dict) -> None:
    ratio = lambda x: "-" if x is None else f"{x:.2f}"  # noqa: E731
    seconds = lambda x: "-" if x is None else f"{x:.3f}"  # noqa: E731
    wrong_r = len(r["reference_wrong"]) if "reference_wrong" in r else "-"
    print(f"{r['set']:<14} {r['positions']:>5} {r['threads']:>3} {r['gamedp_explored_per_position']:>12,.0f} | "
          f"{human(r['gamedp_seconds_per_position']):>10} {human(r.get('reference_seconds_per_position')):>10} "
          f"{ratio(r.get('per_position_ratio')):>6} | {seconds(r['gamedp_wall']):>8} "
          f"{seconds(r.get('reference_wall')):>8} {ratio(r.get('wall_ratio')):>6} | "
          f"{ratio(r.get('cpu_per_position_ratio')):>9} {seconds(r['gamedp_cpu']):>10} "
          f"{seconds(r.get('reference_cpu')):>8} {ratio(r.get('cpu_ratio')):>6} | "
          f"{len(r['gamedp_wrong']):>4} {wrong_r:>4}")
    for who in ("gamedp", "reference"):
        if r.get(f"{who}_wrong"):
            print(f"  {who} wrong on lines {r[f'{who}_wrong'][:10]}{' ...' if len(r[f'{who}_wrong']) > 10 else ''}")


def start(gamedp: list[str], ref: str | None, tmp: Path) -> int:
    """The empty board, one whole-process run each; returns how many answers are wrong."""
    (tmp / "start-g.in").write_text(START + "\n")
    (tmp / "start-r.in").write_text("\n")
    elapsed, _, out = timed("gamedp", gamedp, tmp / "start-g.in")
    g = json.loads(out)
    ok = (g["value"], g["remoteness"]) == ("WIN", 41)
    print(f"\n## Empty board, whole process\ngamedp     {elapsed:9.2f} s  {g['value']} {g['remoteness']}  "
          f"explored {g['explored']:,}  {'ok' if ok else 'WRONG (expected WIN 41)'}")
    wrong = not ok
    if ref:
        elapsed, _, out = timed("reference", [ref], tmp / "start-r.in")
        score = reference_scores(out).get("")
        print(f"reference  {elapsed:9.2f} s  score {score}  {'ok' if score == 1 else 'WRONG (expected 1)'}")
        wrong += score != 1
    return wrong


def targets(rows: list[dict]) -> None:
    """Issue 26's bars, per position: at most MOST_THREADS_TARGET x the reference with the most threads measured on
    every set, and at most ONE_THREAD_TARGET x with one thread on the easy sets."""
    most = max(r["threads"] for r in rows)
    checks = [(r, MOST_THREADS_TARGET) for r in rows if r["threads"] == most and most > 1]
    checks += [(r, ONE_THREAD_TARGET) for r in rows if r["threads"] == 1 and r["set"].endswith("-Easy")]
    for r, bar in checks:
        x = r["per_position_ratio"]
        verdict = "not measurable (start-up noise)" if x is None else f"{x:.2f}x, {'met' if x <= bar else 'MISSED'}"
        print(f"target {r['set']}, {r['threads']} thread(s), per position at most {bar}x the reference: {verdict}")


def main() -> int:
    # harness.arguments() takes only on/off flags, and these options take values: the same --rounds/--quick here.
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3, help="timed rounds per set (default 3)")
    p.add_argument("--quick", action="store_true", help="50/50/50/20/5/1 positions, for a smoke test")
    p.add_argument("--reference", type=Path, help="a built Pons solver (c4solver) to run beside gamedp")
    p.add_argument("--sets", type=Path, default=BENCH.parent / "tests" / "fixtures" / "connect4-positions")
    p.add_argument("--sets-only", help=f"comma-separated sets, by name or file ({', '.join(SETS)})")
    p.add_argument("--positions", type=int, help="positions per set (the first N lines)")
    p.add_argument("--memory", help="passed to gamedp --memory (e.g. 64M; default: gamedp's own)")
    p.add_argument("--threads", default="1", help="gamedp's --threads, several comma-separated to compare them in "
                                                  "the same rounds (e.g. 1,2; default 1)")
    p.add_argument("--start", action="store_true", help="also time the empty board (minutes)")
    p.add_argument("--json", type=Path, help="append the measured rows to this file as JSON lines")
    args = p.parse_args()
    ref = str(args.reference.expanduser().resolve()) if args.reference else None
    if ref and not os.access(ref, os.X_OK):
        raise SystemExit(f"--reference {ref}: not an executable")
    sets_dir = args.sets.expanduser().resolve()
    by_key = {k.lower(): k for k in SETS} | {v.lower(): k for k, v in SETS.items()}
    chosen = [by_key.get(s.strip().lower()) for s in args.sets_only.split(",")] if args.sets_only else list(SETS)
    if None in chosen:
        raise SystemExit(f"--sets-only: known sets are {', '.join(SETS)} (or their files)")
    if args.json:
        # compare() appends its own results to $BENCH_JSON: one file gets both
        os.environ["BENCH_JSON"] = str(args.json.expanduser().resolve())
    try:
        threads = [int(t) for t in args.threads.split(",")]
    except ValueError:
        raise SystemExit(f"--threads {args.threads}: write thread counts separated by commas (e.g. 1,2)") from None
    # no opening book on either side: the searches are compared (the sets' shortest lines are in gamedp's book)
    plain = GAMEDP + ["value", "connect4", "--no-book"] + (["--memory", args.memory] if args.memory else [])
    gamedp = {t: plain + (["--threads", str(t)] if t != 1 else []) for t in threads}
    print("reference: " + (ref or "none (no --reference): gamedp alone, no ratios, target not checked"))
    home = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="c4pos-") as tmpname:
        tmp = Path(tmpname)
        os.chdir(tmp)  # the reference loads ./7x6.book if there is one; none in a fresh directory
        try:
            timed("gamedp", plain, None)  # untimed: warms the imports' bytecode cache
            print(f"\n## Pons' sets, {args.rounds} round(s), medians"
                  + (f", gamedp --memory {args.memory}" if args.memory else ""))
            print("Each round runs every contender on the set and on empty input (its start-up). Per position: "
                  "(whole process - start-up) / positions,\nwall (/pos) and CPU (cpu/pos x), alike for gamedp "
                  "and the reference; whole process: wall (s) and CPU (cpu), user + system, all threads.")
            print(HEADER)
            wrong = 0
            measured_rows = []
            for name in chosen:
                pairs = [line.split() for line in (sets_dir / SETS[name]).read_text().splitlines() if line.strip()]
                n = args.positions or (QUICK if args.quick else FULL)[name]
                lines, scores = [m for m, _ in pairs[:n]], [int(s) for _, s in pairs[:n]]
                path = tmp / f"{name}.in"
                path.write_text("\n".join(lines) + "\n")
                measured = bench_set(name, path, lines, scores, gamedp, plain + ["--json"], ref, args.rounds)
                for row in measured:
                    print_row(row)
                    if args.json:  # as measured, so that an interrupted long run keeps its sets
                        with open(os.environ["BENCH_JSON"], "a") as f:
                            f.write(json.dumps({"title": "connect4 positions", "memory": args.memory, **row}) + "\n")
                    wrong += len(row["gamedp_wrong"])
                wrong += len(measured[0].get("reference_wrong", ()))
                measured_rows += measured
            print("(x: ratio gamedp/reference; wrG/wrR: wrong answers of gamedp/reference)")
            if ref:
                targets(measured_rows)
            ee = [m.split()[0] for m in (sets_dir / SETS["End-Easy"]).read_text().splitlines() if m.strip()]
            ee = ee[:QUICK["End-Easy"]] if args.quick else ee
            (tmp / "end-easy.in").write_text("\n".join(ee) + "\n")
            contenders = [Contender("gamedp value connect4", GAMEDP + ["value", "connect4", "--no-book"])]
            contenders += [Contender(f"gamedp value connect4 --threads {t}", plain + ["--threads", str(t)])
                           for t in threads if t != 1]
            if ref:
                contenders.insert(0, Contender("Pons' solver (reference)", [ref]))
            results = compare(f"connect4 End-Easy, {len(ee)} positions", contenders, tmp / "end-easy.in",
                              rounds=args.rounds)
            if ref:
                ratio = results[1].median / results[0].median
                print(f"target: gamedp at most {TARGET}x the reference: {ratio:.2f}x, "
                      f"{'met' if ratio <= TARGET else 'MISSED'} (the output column compares raw text)")
            if args.start:
                wrong += start(plain + ["--json"], ref, tmp)
        finally:
            os.chdir(home)
    if wrong:
        print(f"\n{wrong} wrong answer(s)")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
