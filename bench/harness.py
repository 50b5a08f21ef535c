"""Side-by-side benchmark harness: run gamedp and reference programs on the same input, several rounds.

Each contender is a whole process (start-up included) given the same standard input. Rounds interleave the
contenders so that a noisy neighbour hurts all of them alike; the table shows the median of each and its ratio
to the baseline. Outputs are compared too: a contender whose answer differs from the baseline's is flagged.

Usage from a benchmark script::

    from harness import Contender, compare, build_cpp
    exe = build_cpp("reference/blockgame_memo.cpp")
    compare("BLOCKGAME 50 hard boards", [Contender("C++ memo", [exe]), Contender("gamedp", GAMEDP + ["judge", "blockgame"])],
            stdin_path=path, rounds=5)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
BUILD = BENCH / "build"
#: How to run the gamedp command from the current interpreter, installed or not.
GAMEDP = [sys.executable, "-m", "gamedp"]
PYTHON = [sys.executable]


@dataclass
class Contender:
    label: str
    argv: list[str]
    #: Extra environment variables for this contender only.
    env: dict[str, str] = field(default_factory=dict)
    #: The exit status it must end with (2: an input gamedp refuses, as it should).
    status: int = 0


@dataclass
class Result:
    label: str
    times: list[float]
    peak_kib: int | None
    output_ok: bool

    @property
    def median(self) -> float:
        return statistics.median(self.times)


def build_cpp(source: str | Path, flags: tuple[str, ...] = ("-O2",)) -> str:
    """Compile a C++ reference with g++ (at bench time, as the brief asks) and return the executable."""
    source = Path(source)
    if not source.is_absolute():
        source = BENCH / source
    BUILD.mkdir(exist_ok=True)
    exe = BUILD / source.stem
    if not exe.exists() or exe.stat().st_mtime < source.stat().st_mtime:
        subprocess.run(["g++", *flags, "-std=c++17", "-o", str(exe), str(source)], check=True)
    return str(exe)


def run_once(c: Contender, stdin_path: Path | None) -> tuple[float, bytes, int | None]:
    time_bin = shutil.which("time") or ("/usr/bin/time" if Path("/usr/bin/time").exists() else None)
    with tempfile.NamedTemporaryFile() as rss_file:
        argv = [time_bin, "-f", "%M", "-o", rss_file.name, *c.argv] if time_bin else c.argv
        # Installed software caches its bytecode: PYTHONDONTWRITEBYTECODE (set on these machines) would make
        # every timed run of a Python contender compile its sources again.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | c.env
        with open(stdin_path, "rb") if stdin_path else open(os.devnull, "rb") as stdin:
            t0 = time.perf_counter()
            proc = subprocess.run(argv, stdin=stdin, capture_output=True, env=env)
            elapsed = time.perf_counter() - t0
        if proc.returncode != c.status:
            raise SystemExit(f"{c.label} failed (exit {proc.returncode}):\n{proc.stderr.decode(errors='replace')}")
        peak = None
        if time_bin:
            try:
                peak = int(Path(rss_file.name).read_text().split()[-1])
            except (ValueError, IndexError):
                peak = None
    return elapsed, proc.stdout, peak


def compare(title: str, contenders: list[Contender], stdin_path: str | Path | None = None, rounds: int = 5,
            warmup: int = 1, same_output: bool = True) -> list[Result]:
    """Run every contender ``rounds`` times (after ``warmup`` untimed runs) and print medians and ratios.

    The first contender is the baseline (ratio 1.00); ratios below 1 mean faster than the baseline. Outputs are
    compared with the baseline's unless ``same_output`` is false (a baseline that does no work).
    """
    stdin_path = Path(stdin_path) if stdin_path else None
    expected: bytes | None = None
    results = [Result(c.label, [], None, True) for c in contenders]
    for _ in range(warmup):
        for c in contenders:
            run_once(c, stdin_path)
    for _ in range(rounds):
        for c, r in zip(contenders, results):
            elapsed, out, peak = run_once(c, stdin_path)
            r.times.append(elapsed)
            r.peak_kib = max(r.peak_kib or 0, peak or 0) or None
            if expected is None:
                expected = out
            elif same_output and out.split() != expected.split():
                r.output_ok = False
    base = results[0].median
    print(f"\n## {title}  ({rounds} rounds, medians, whole process)")
    print(f"{'program':<40} {'median s':>9} {'min s':>8} {'ratio':>7} {'peak MiB':>9}  output")
    for r in results:
        peak = f"{r.peak_kib / 1024:.0f}" if r.peak_kib else "?"
        print(f"{r.label:<40} {r.median:9.3f} {min(r.times):8.3f} {r.median / base:7.2f} {peak:>9}  "
              f"{('same' if r.output_ok else 'DIFFERS') if same_output else '-'}")
    if os.environ.get("BENCH_JSON"):
        with open(os.environ["BENCH_JSON"], "a") as f:
            f.write(json.dumps({"title": title, "results": [
                {"label": r.label, "median": r.median, "times": r.times, "ratio": r.median / base,
                 "peak_kib": r.peak_kib, "output_ok": r.output_ok} for r in results]}) + "\n")
    return results


def arguments(description: str, *flags: tuple[str, str],
              values: tuple[tuple[str, str, str], ...] = ()) -> argparse.Namespace:
    """The options every benchmark script takes, and the script's own ``flags`` (name, help) and options that
    take a value (``values``: name, metavar, help)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--rounds", type=int, default=5, help="timed rounds per contender (default 5)")
    p.add_argument("--quick", action="store_true", help="smaller inputs, for a smoke test")
    for name, text in flags:
        p.add_argument(name, action="store_true", help=text)
    for name, metavar, text in values:
        p.add_argument(name, metavar=metavar, help=text)
    return p.parse_args()
