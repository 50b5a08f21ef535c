"""``gamedp stress PROBLEM -- COMMAND...``: find an input on which a judge solution fails, and shrink it."""

from __future__ import annotations

import json
import random
import shlex
import sys
from pathlib import Path

import click

from gamedp.errors import GamedpError

PROBLEM_NAMES = ("blockgame", "cardgame", "gridgame")


@click.command()
@click.argument("args", nargs=-1, required=True, metavar="PROBLEM -- COMMAND...")
@click.option("--time", "time_limit", type=click.FloatRange(min=0.01), default=None,
              help="CPU seconds per run (default: the problem's, 2 for blockgame, 1 for the others).")
@click.option("--memory", type=click.IntRange(min=8), default=None,
              help="Megabytes of address space per run (default: the problem's, 64 for blockgame, 256 otherwise).")
@click.option("--trials", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Random inputs to try before declaring the program correct.")
@click.option("--seed", type=int, default=None, help="Make the run repeatable (the seed used is always printed).")
@click.option("--save", metavar="PATH", default=None,
              help="Save the shrunk failing input to PATH: a new file, or one an earlier run saved there (never "
                   "a file gamedp did not write). Default: a new gamedp-stress-PROBLEM-N.in here, N counting up.")
@click.option("--shrink-time", type=click.FloatRange(min=0), default=60.0, show_default=True,
              help="Seconds to spend shrinking a failing input.")
@click.option("--generator", default=None,
              help="Any problem: a Python file with generate(rng, size) -> input text (size 1..100).")
@click.option("--reference", default=None, help="With --generator: the command whose output is right.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def stress(args: tuple[str, ...], time_limit: float | None, memory: int | None, trials: int, seed: int | None,
           save: str | None, shrink_time: float, generator: str | None, reference: str | None,
           as_json: bool) -> None:
    """Run COMMAND (your solution, any language) on random inputs of PROBLEM and compare with gamedp's answers.

    PROBLEM is blockgame, cardgame or gridgame; put `--` before COMMAND, e.g.
    `gamedp stress cardgame -- python3 sol.py`. Inputs run from tiny to the largest the problem allows, with
    many cases in shuffled orders (so answers that depend on earlier cases show). On the first failure (wrong
    answer, time or memory limit, crash, output that is not text) the input is shrunk to a small one that still
    fails, saved (by default to a new file gamedp-stress-PROBLEM-N.in here, the highest N the newest), and
    printed with the expected and received output and an explanation of the failing case.
    Exit status: 0 all trials passed, 1 a failure was found, 2 a usage error.

    With --generator gen.py --reference REF, any problem: `gamedp stress --generator gen.py --reference
    ./slow -- ./fast`; a failure is shrunk through the generator's size.
    """
    from gamedp.stress.problems import PROBLEMS
    from gamedp.stress.session import GeneratorSource, Limits, ProblemSource
    from gamedp.stress.saving import Named, Numbered
    from gamedp.stress.session import stress as run_stress

    if generator is None:
        if reference is not None:
            raise GamedpError("--reference goes with --generator; a built-in PROBLEM has gamedp's own answers")
        problem, command = args[0], list(args[1:])
        if problem not in PROBLEMS:
            raise GamedpError(f"unknown problem {problem!r}: choose one of {', '.join(PROBLEM_NAMES)}, or give "
                              "--generator gen.py --reference REF for any other")
        source = ProblemSource(PROBLEMS[problem])
        limits = Limits(time_limit or PROBLEMS[problem].time_limit, memory or PROBLEMS[problem].memory_mb)
    else:
        if reference is None:
            raise GamedpError("--generator needs --reference REF_COMMAND, the program whose answers are right")
        command = list(args)
        ref = shlex.split(reference)
        if not ref:
            raise GamedpError("--reference is empty: give the command of the program whose answers are right")
        source = GeneratorSource(generator, ref)
        limits = Limits(time_limit or 2.0, memory or 256)
    if not command:
        raise GamedpError("no COMMAND to test: put it after `--`, e.g. gamedp stress cardgame -- python3 sol.py")
    seed = random.randrange(2**31) if seed is None else seed

    with _progress(trials) as progress:
        outcome = run_stress(source, command, trials=trials, seed=seed, limits=limits,
                             save=Numbered(Path(source.name).stem) if save is None else Named(save),
                             shrink_budget=shrink_time, progress=progress)
    if as_json:
        click.echo(json.dumps(_as_json(source.name, command, limits, outcome), indent=2))
    else:
        click.echo(_report(source.name, command, limits, outcome))
    if outcome.failure is not None:
        sys.exit(1)


def _report(name: str, command: list[str], limits, outcome) -> str:
    from gamedp.stress.verdict import Kind

    timing = outcome.timing
    head = (f"gamedp stress {name}: {shlex.join(command)}, seed {outcome.seed}, limits {limits.time:g} s and "
            f"{limits.memory_mb} MB")
    failure = outcome.failure
    if failure is None:
        return "\n".join([head, f"PASSED {outcome.trials} trials (sizes {min(outcome.sizes)} to {max(outcome.sizes)}); "
                          f"slowest run CPU {outcome.worst_cpu:.2f} s, peak memory {outcome.worst_memory:.1f} MB; "
                          f"gamedp's own time {timing.own:.2f} s against the program's {timing.program:.2f} s"])
    shrunk = failure.shrunk
    lines = [head, f"FAILED on trial {failure.trial}: {failure.first.kind.value}",
             f"shrunk in {failure.runs} runs ({failure.shrink_seconds:.1f} s) to {failure.measure}"
             + (" (the shrinking time ran out: a smaller failing input may exist)" if shrunk.out_of_time else ""),
             failure.verdict.summary()]
    flood = failure.verdict.kind is Kind.OUTPUT
    lines += ["--- input ---", _cut(failure.text), "--- expected output ---", _cut(failure.verdict.expected),
              "--- received output" + (" (its beginning)" if flood else "") + " ---",
              _cut(failure.verdict.received, 5 if flood else 60)]
    if failure.explanation:
        lines += ["--- why (the expected answer, explained) ---", failure.explanation]
    if failure.saved:  # last, where it is seen after the rest has scrolled by
        where = shlex.quote(str(failure.saved))
        lines += ["---", f"input saved to {where}; run it again: {shlex.join(command)} < {where}"]
    return "\n".join(lines)


def _cut(text: str, most: int = 60) -> str:
    """At most ``most`` lines of ``text`` (a shrunk input is short; one cut short by the time may not be), each
    cut to a width, printable text only (a program's output may be anything)."""
    from gamedp.stress.run import cut_line, printable

    lines = [cut_line(line) for line in printable(text).rstrip("\n").split("\n")]
    if len(lines) <= most:
        return "\n".join(lines)
    return "\n".join(lines[:most] + [f"... ({len(lines) - most} more lines)"])


def _as_json(name: str, command: list[str], limits, outcome) -> dict:
    doc = {"problem": name, "command": command, "seed": outcome.seed, "trials": outcome.trials,
           "limits": {"time": limits.time, "memory_mb": limits.memory_mb}, "passed": outcome.failure is None,
           "timing": {"program": outcome.timing.program, "gamedp": outcome.timing.own, "runs": outcome.timing.runs}}
    failure = outcome.failure
    if failure is not None:
        run = failure.verdict.run
        doc["failure"] = {
            "trial": failure.trial, "kind": failure.verdict.kind.value, "first_kind": failure.first.kind.value,
            "input": failure.text, "size": failure.measure, "saved": str(failure.saved) if failure.saved else None,
            "expected": failure.verdict.expected, "received": failure.verdict.received,
            "first_difference": failure.verdict.difference, "explanation": failure.explanation,
            "shrink": {"runs": failure.runs, "steps": failure.shrunk.steps,
                       "seconds": failure.shrink_seconds, "out_of_time": failure.shrunk.out_of_time},
            "run": {"exit_code": run.exit_code, "signal": run.signal, "cpu_seconds": run.cpu_seconds,
                    "wall_seconds": run.wall_seconds, "peak_memory_mb": run.peak_rss_mb,
                    "stopped": run.killed, "stderr": run.stderr_head()},
        }
    return doc


class _progress:
    """A rich progress bar on a terminal (stderr); nothing when it is not one."""

    def __init__(self, total: int):
        self.total = total
        self.bar = None

    def __enter__(self):
        if not sys.stderr.isatty():
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.bar = Progress(TextColumn("stress trials"), BarColumn(), MofNCompleteColumn(),
                            console=Console(stderr=True), transient=True)
        self.bar.start()
        task = self.bar.add_task("", total=self.total)
        return lambda done: self.bar.update(task, completed=done)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
        return False
