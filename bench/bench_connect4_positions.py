"""Connect-Four 7x6 position solving, gamedp against Pascal Pons' solver, on his six published benchmark sets.

    python bench/bench_connect4_positions.py --reference ~/src/connect4/c4solver         # all six sets, 3 rounds
    python bench/bench_connect4_positions.py --quick                                     # gamedp alone, small sets
    python bench/bench_connect4_positions.py --reference PATH --sets-only End-Easy,Middle-Easy --rounds 1
    python bench/bench_connect4_positions.py --reference PATH --memory 64M --start --json build/c4pos.jsonl
    python bench/bench_connect4_positions.py --reference PATH --threads 1,2     # one and two threads, same rounds

The sets (MOVES SCORE a line) are read from <repo>/../shared/connect4-positions or --sets DIR. Per set, each round
runs `gamedp value connect4 --json` and then the reference (a build of Pons' solver named by --reference; never
fetched or built here) on the same lines, whole process; the table gives medians over the rounds: gamedp's
in-process seconds and positions explored per position (its JSON), both whole-process times and their ratio, and
a per-position ratio where the reference's time per position is (whole process - its start-up) / positions.
Every answer of both is checked against the set's score; any wrong one makes the exit status 1. Then a
harness.compare of plain `gamedp value connect4` against the reference on the 1000 End-Easy positions (target:
at most 1.5x the reference); its output column says DIFFERS because the two print different formats. --start
times the empty board too (minutes). Everything runs in a fresh temporary directory so that the reference finds
no opening book (7x6.book) to answer from. With --threads 1,2 each round runs gamedp once per thread count (and
the reference once); with more than one thread, lines are searched at once, so gamedp's time per position is
one thread's plus the difference of the two whole runs' times per position (without a one-thread run, like the
reference's: (whole process - gamedp's start-up on empty input) / positions).
"""

from __future__ import annotations

import argparse
import json
import os
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


def timed(label: str, argv: list[str], stdin_path: Path | None) -> tuple[float, str]:
    # The harness's own runner, so that these times are measured like compare()'s (same wrapper, same env).
    elapsed, out, _ = run_once(Contender(label, argv), stdin_path)
    return elapsed, out.decode()


def human(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds * 1e6:.1f} us" if seconds < 1e-3 else f"{seconds * 1e3:.2f} ms" if seconds < 1 else \
        f"{seconds:.2f} s"


def bench_set(name: str, path: Path, lines: list[str], scores: list[int], gamedp: dict[int, list[str]],
              ref: str | None, startup: float, g_startup: float, rounds: int) -> list[dict]:
    """One row per thread count of ``gamedp`` (its command line by threads), the reference run in the same rounds."""
    g_wall: dict[int, list[float]] = {t: [] for t in gamedp}
    g_sec: dict[int, list[float]] = {t: [] for t in gamedp}
    g_explored: dict[int, list[float]] = {t: [] for t in gamedp}
    wrong_g: dict[int, set[int]] = {t: set() for t in gamedp}
    r_wall: list[float] = []
    wrong_r: set[int] = set()
    for _ in range(rounds):
        for t, argv in gamedp.items():
            elapsed, out = timed("gamedp", argv, path)
            rows = [json.loads(x) for x in out.splitlines() if x.strip()]
            g_wall[t].append(elapsed)
            g_sec[t].append(sum(r["seconds"] for r in rows) / len(lines))
            g_explored[t].append(sum(r["explored"] for r in rows) / len(lines))
            got = {r["line"]: score_of(lines[r["line"] - 1], r["value"], r["remoteness"]) for r in rows}
            wrong_g[t] |= {i for i, s in enumerate(scores, 1) if got.get(i) != s}
        if ref:
            elapsed, out = timed("reference", [ref], path)
            r_wall.append(elapsed)
            got_r = reference_scores(out)
            wrong_r |= {i for i, (m, s) in enumerate(zip(lines, scores), 1) if got_r.get(m) != s}
    result = []
    for t in gamedp:
        wall = statistics.median(g_wall[t])
        # Lines searched at once overlap, so with threads a position's time is one thread's, plus the difference
        # of the whole runs' times per position (the same start-up cancels out); without a one-thread run, the
        # whole run's, less the start-up on empty input.
        if t == 1:
            seconds = statistics.median(g_sec[t])
        elif 1 in gamedp:
            seconds = max(statistics.median(g_sec[1]) + (wall - statistics.median(g_wall[1])) / len(lines), 0.0)
        else:
            seconds = max(wall - g_startup, 0.0) / len(lines)
        row = {"set": name, "file": SETS[name], "positions": len(lines), "rounds": rounds, "threads": t,
               "gamedp_seconds_per_position": seconds,
               "gamedp_explored_per_position": statistics.median(g_explored[t]), "gamedp_wall": wall,
               "gamedp_wrong": sorted(wrong_g[t]), "reference_wall": None, "reference_seconds_per_position": None,
               "wall_ratio": None, "per_position_ratio": None, "reference_wrong": sorted(wrong_r)}
        if ref:
            r_med = statistics.median(r_wall)
            per = (r_med - startup) / len(lines)
            row.update(reference_wall=r_med, reference_start_up=startup, wall_ratio=wall / r_med,
                       # start-up noise can swallow a tiny set's whole solving time: no ratio then
                       reference_seconds_per_position=per if per > 0 else None,
                       per_position_ratio=seconds / per if per > 0 else None)
        result.append(row)
    return result


def print_row(r: dict) -> None:
    ratio = lambda x: "-" if x is None else f"{x:.2f}"  # noqa: E731
    wrong_r = len(r["reference_wrong"]) if r["reference_wall"] is not None else "-"
    print(f"{r['set']:<14} {r['positions']:>5} {r['threads']:>3} {human(r['gamedp_seconds_per_position']):>10} "
          f"{r['gamedp_explored_per_position']:>12,.0f} {r['gamedp_wall']:>9.3f} "
          f"{'-' if r['reference_wall'] is None else format(r['reference_wall'], '.3f'):>9} "
          f"{human(r['reference_seconds_per_position']):>10} {ratio(r['wall_ratio']):>6} "
          f"{ratio(r['per_position_ratio']):>6} {len(r['gamedp_wrong']):>5} {wrong_r:>5}")
    for who in ("gamedp", "reference"):
        if r[f"{who}_wrong"]:
            print(f"  {who} wrong on lines {r[f'{who}_wrong'][:10]}{' ...' if len(r[f'{who}_wrong']) > 10 else ''}")


def start(gamedp: list[str], ref: str | None, tmp: Path) -> int:
    """The empty board, one whole-process run each; returns how many answers are wrong."""
    (tmp / "start-g.in").write_text(START + "\n")
    (tmp / "start-r.in").write_text("\n")
    elapsed, out = timed("gamedp", gamedp, tmp / "start-g.in")
    g = json.loads(out)
    ok = (g["value"], g["remoteness"]) == ("WIN", 41)
    print(f"\n## Empty board, whole process\ngamedp     {elapsed:9.2f} s  {g['value']} {g['remoteness']}  "
          f"explored {g['explored']:,}  {'ok' if ok else 'WRONG (expected WIN 41)'}")
    wrong = not ok
    if ref:
        elapsed, out = timed("reference", [ref], tmp / "start-r.in")
        score = reference_scores(out).get("")
        print(f"reference  {elapsed:9.2f} s  score {score}  {'ok' if score == 1 else 'WRONG (expected 1)'}")
        wrong += score != 1
    return wrong


def main() -> int:
    # harness.arguments() takes only on/off flags, and these options take values: the same --rounds/--quick here.
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3, help="timed rounds per set (default 3)")
    p.add_argument("--quick", action="store_true", help="50/50/50/20/5/1 positions, for a smoke test")
    p.add_argument("--reference", type=Path, help="a built Pons solver (c4solver) to run beside gamedp")
    p.add_argument("--sets", type=Path, default=BENCH.parent.parent / "shared" / "connect4-positions")
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
    plain = GAMEDP + ["value", "connect4"] + (["--memory", args.memory] if args.memory else [])
    gamedp = {t: plain + ["--json"] + (["--threads", str(t)] if t != 1 else []) for t in threads}
    print("reference: " + (ref or "none (no --reference): gamedp alone, no ratios, target not checked"))
    home = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="c4pos-") as tmpname:
        tmp = Path(tmpname)
        os.chdir(tmp)  # the reference loads ./7x6.book if there is one; none in a fresh directory
        try:
            timed("gamedp", GAMEDP + ["value", "connect4"], None)  # untimed: warms the imports' bytecode cache
            startup = statistics.median(timed("reference", [ref], None)[0] for _ in range(5)) if ref else 0.0
            if ref:
                print(f"reference start-up on empty stdin: {human(startup)} (median of 5)")
            g_startup = 0.0
            if 1 not in threads:
                g_startup = statistics.median(timed("gamedp", gamedp[max(threads)], None)[0] for _ in range(5))
                print(f"gamedp start-up on empty stdin: {human(g_startup)} (median of 5); with threads, gamedp's "
                      f"time per position is (whole process - start-up) / positions, as the reference's")
            elif threads != [1]:
                print("with threads, gamedp's time per position is one thread's plus the difference of the whole "
                      "runs' times per position")
            print(f"\n## Pons' sets, {args.rounds} round(s), medians"
                  + (f", gamedp --memory {args.memory}" if args.memory else ""))
            print(f"{'set':<14} {'n':>5} {'thr':>3} {'gamedp/pos':>10} {'explored/pos':>12} {'gamedp s':>9} "
                  f"{'ref s':>9} "
                  f"{'ref/pos':>10} {'wall x':>6} {'pos x':>6} {'wrG':>5} {'wrR':>5}")
            wrong = 0
            for name in chosen:
                pairs = [line.split() for line in (sets_dir / SETS[name]).read_text().splitlines() if line.strip()]
                n = args.positions or (QUICK if args.quick else FULL)[name]
                lines, scores = [m for m, _ in pairs[:n]], [int(s) for _, s in pairs[:n]]
                path = tmp / f"{name}.in"
                path.write_text("\n".join(lines) + "\n")
                measured = bench_set(name, path, lines, scores, gamedp, ref, startup, g_startup, args.rounds)
                for row in measured:
                    print_row(row)
                    if args.json:  # as measured, so that an interrupted long run keeps its sets
                        with open(os.environ["BENCH_JSON"], "a") as f:
                            f.write(json.dumps({"title": "connect4 positions", "memory": args.memory, **row}) + "\n")
                    wrong += len(row["gamedp_wrong"])
                wrong += len(measured[0]["reference_wrong"])
            print("(x: ratio gamedp/reference; wrG/wrR: wrong answers of gamedp/reference)")
            ee = [m.split()[0] for m in (sets_dir / SETS["End-Easy"]).read_text().splitlines() if m.strip()]
            ee = ee[:QUICK["End-Easy"]] if args.quick else ee
            (tmp / "end-easy.in").write_text("\n".join(ee) + "\n")
            contenders = [Contender("gamedp value connect4", GAMEDP + ["value", "connect4"])]
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
                wrong += start(gamedp[threads[0]], ref, tmp)
        finally:
            os.chdir(home)
    if wrong:
        print(f"\n{wrong} wrong answer(s)")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
