"""Octal games side by side: the Grundy sequence G(0..n) of Kayles (0.77) and Dawson's Kayles (0.07), whole process.

Contenders, same output (the values on one line):
- C++, the contestant's O(n^2) loop with a stamped seen array (g++ -O2) = 1.00;
- `gamedp grundy FAMILY --upto N --no-extrapolate --bare`: every term by mex in the compiled kernel
  (64-bit masks of reachable values, split loop read forwards so that it vectorises);
- `gamedp grundy FAMILY --upto N --bare`: the default, which stops computing once the Guy-Smith criterion
  proves the period (a few hundred terms) and fills in the rest from it;
- plain CPython (a set per heap, then the mex). It needs minutes at n = 10^5, so it runs once
  (--plain-rounds), and --plain-n can run it smaller.

    python bench/bench_octal.py --rounds 5            # n = 10^5
    python bench/bench_octal.py --quick               # n = 2*10^4, smoke test
"""

from __future__ import annotations

import sys

from harness import BENCH, GAMEDP, PYTHON, Contender, arguments, build_cpp, compare

GAMES = (("kayles", "0.77"), ("dawson", "0.07"))


def main() -> None:
    extra = {"--plain-n": None, "--plain-rounds": "1", "--no-plain": None}
    for flag in list(extra):
        if flag in sys.argv:
            i = sys.argv.index(flag)
            if flag == "--no-plain":
                extra[flag] = True
                del sys.argv[i]
            else:
                extra[flag] = sys.argv[i + 1]
                del sys.argv[i:i + 2]
    args = arguments(__doc__.splitlines()[0])
    n = 20_000 if args.quick else 100_000
    plain_n = int(extra["--plain-n"] or n)
    exe = build_cpp("reference/octal.cpp")
    plain = str(BENCH / "reference" / "octal_plain.py")
    for name, code in GAMES:
        compare(f"{name} ({code}) G(0..{n})", [
            Contender("C++ O(n^2) seen-array loop", [exe, code, str(n)]),
            Contender("gamedp, every term by mex", GAMEDP + ["grundy", name, "--upto", str(n), "--no-extrapolate",
                                                            "--bare"]),
            Contender("gamedp, period proven then filled", GAMEDP + ["grundy", name, "--upto", str(n), "--bare"]),
        ], rounds=args.rounds)
        if not extra["--no-plain"]:
            compare(f"{name} ({code}) G(0..{plain_n}) against plain CPython", [
                Contender("plain CPython set + mex", PYTHON + [plain, code, str(plain_n)]),
                Contender("gamedp, every term by mex", GAMEDP + ["grundy", name, "--upto", str(plain_n),
                                                                "--no-extrapolate", "--bare"]),
                Contender("gamedp, period proven then filled", GAMEDP + ["grundy", name, "--upto", str(plain_n),
                                                                        "--bare"]),
            ], rounds=int(extra["--plain-rounds"]), warmup=0)


if __name__ == "__main__":
    main()
