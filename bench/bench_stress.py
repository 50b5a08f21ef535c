"""gamedp stress: its own share of a run, the bundled wrong solutions found and shrunk, correct ones passing.

    python bench/bench_stress.py [--rounds 5] [--quick]

1. Overhead: stress runs (in this process) of the correct C++ references (g++ -O2 at bench time) on every
   problem. gamedp's own share is generating the inputs, answering them (the judge) and comparing the outputs;
   it is set against the wall-clock time of the program's runs. The bar: at most 10%. The whole loop's time
   less the program's (starting processes, pipes included) is shown as well.
2. The bundled wrong solutions (tests/fixtures/stress): the whole `gamedp stress` command, seed 1, each must
   fail with the right kind and end shrunk within a minute; the bounds reached are printed.
3. The correct references pass 1000 trials each (200 with --quick).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from harness import GAMEDP, arguments, build_cpp

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "stress"
REFERENCES = {"blockgame": "reference/blockgame_memo.cpp", "cardgame": "reference/cardgame.cpp",
              "gridgame": "reference/gridgame.cpp"}


def overhead(rounds: int, trials: int) -> None:
    from gamedp.stress.problems import PROBLEMS
    from gamedp.stress.session import Limits, ProblemSource, stress

    print(f"\n## gamedp's own share of a stress run ({trials} trials, {rounds} rounds, medians; C++ references)")
    print(f"{'problem':<10} {'program s':>10} {'gamedp s':>9} {'share':>7} {'loop-program s':>15} {'share':>7}")
    for name, source in REFERENCES.items():
        exe = build_cpp(source)
        problem = PROBLEMS[name]
        programs, owns, rests = [], [], []
        for r in range(rounds):
            clock = time.perf_counter()
            outcome = stress(ProblemSource(problem), [exe], trials=trials, seed=100 + r,
                             limits=Limits(problem.time_limit * 5, problem.memory_mb), save=None)
            total = time.perf_counter() - clock
            assert outcome.failure is None, f"the reference {source} failed: {outcome.failure.verdict.summary()}"
            programs.append(outcome.timing.program)
            owns.append(outcome.timing.own)
            rests.append(total - outcome.timing.program)
        program, own, rest = map(statistics.median, (programs, owns, rests))
        print(f"{name:<10} {program:10.2f} {own:9.2f} {own / program:7.1%} {rest:15.2f} {rest / program:7.1%}")


FIXTURE_RUNS = [
    ("cardgame table kept between cases", "cardgame", [sys.executable, str(FIXTURES / "cardgame_leaky_memo.py")], []),
    ("blockgame one L orientation missing", "blockgame", ["@blockgame_missing_l.cpp"], []),
    ("gridgame K off by one", "gridgame", [sys.executable, str(FIXTURES / "gridgame_k_off_by_one.py")], []),
    ("blockgame memo over 64 MB", "blockgame", [sys.executable, str(FIXTURES / "blockgame_list_memo.py")], []),
    ("cardgame 2^N recursion (--time 0.3)", "cardgame", [sys.executable, str(FIXTURES / "cardgame_no_memo.py")],
     ["--time", "0.3"]),
]


def fixtures(tmp: Path) -> None:
    print("\n## the bundled wrong solutions: `gamedp stress PROBLEM --seed 1` (whole process, one run each)")
    print(f"{'fixture':<38} {'found':<24} {'trial':>5} {'runs':>5} {'seconds':>8}  shrunk to")
    for label, problem, command, extra in FIXTURE_RUNS:
        if command[0].startswith("@"):
            source = FIXTURES / command[0][1:]
            exe = tmp / source.stem
            subprocess.run(["g++", "-O2", "-o", str(exe), str(source)], check=True)
            command = [str(exe)]
        clock = time.perf_counter()
        proc = subprocess.run([*GAMEDP, "stress", problem, "--seed", "1", "--json", "--save", str(tmp / "fail.in"),
                               *extra, "--", *command], capture_output=True, text=True)
        seconds = time.perf_counter() - clock
        report = json.loads(proc.stdout)
        failure = report["failure"]
        print(f"{label:<38} {failure['kind']:<24} {failure['trial']:5d} {failure['shrink']['runs']:5d} "
              f"{seconds:8.1f}  {failure['size']}" + (" (shrink time ran out)" if failure["shrink"]["out_of_time"]
                                                       else ""))


def correct(trials: int) -> None:
    print(f"\n## correct solutions: `gamedp stress PROBLEM --trials {trials}` (whole process)")
    for name, source in REFERENCES.items():
        exe = build_cpp(source)
        clock = time.perf_counter()
        proc = subprocess.run([*GAMEDP, "stress", name, "--trials", str(trials), "--seed", "7", "--json", "--",
                               exe], capture_output=True, text=True)
        report = json.loads(proc.stdout)
        print(f"{name:<10} {source:<32} passed={report['passed']} trials={report['trials']} "
              f"{time.perf_counter() - clock:.1f} s")


def main() -> None:
    args = arguments(__doc__)
    import tempfile

    overhead(3 if args.quick else args.rounds, 50 if args.quick else 200)
    with tempfile.TemporaryDirectory() as tmp:
        fixtures(Path(tmp))
    correct(200 if args.quick else 1000)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
