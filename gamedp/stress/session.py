"""A stress run: trials on random inputs until the program fails, then the failure shrunk and explained.

Two sources of inputs and answers: a built-in judge problem (:data:`gamedp.stress.problems.PROBLEMS`, answers
by :func:`gamedp.judge.answer`), or a person's generator with a reference program (:class:`GeneratorSource`).
Trial sizes start tiny (a failure found there is already small) and then spread from tiny to the largest, with
every tenth trial at the largest size.

Every trial's input comes from its own seed, drawn from ``--seed``, so a run repeats exactly.
"""

from __future__ import annotations

import os
import random
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from gamedp.errors import GamedpError
from gamedp.stress.problems import MAX_SIZE, Problem
from gamedp.stress.run import run_program
from gamedp.stress.saving import Named, Numbered
from gamedp.stress.shrink import Shrunk, shrink
from gamedp.stress.verdict import Kind, Verdict, judge_run

#: tries of the generator at each smaller size while shrinking through it
GENERATOR_TRIES = 10


@dataclass
class Limits:
    time: float
    memory_mb: int


@dataclass
class Timing:
    """Where the time of a stress run went: gamedp's part against the program's."""

    program: float = 0.0
    generate: float = 0.0
    answer: float = 0.0
    compare: float = 0.0
    runs: int = 0

    @property
    def own(self) -> float:
        return self.generate + self.answer + self.compare


class ProblemSource:
    """Inputs and answers of a built-in judge problem."""

    def __init__(self, problem: Problem):
        self.problem = problem
        self.name = problem.name

    def make(self, seed: int, size: int) -> Any:
        return self.problem.generate(random.Random(seed), size)

    def render(self, value: Any) -> str:
        return self.problem.render(value)

    def expected(self, value: Any, text: str, limits: Limits) -> str:
        if self.problem.answer is not None:
            return self.problem.answer(value)
        from gamedp.judge import answer

        return answer(self.problem.name, text)

    def isolate(self, value: Any, line: int) -> list:
        return self.problem.isolate(value, line) if self.problem.isolate else []

    def passes(self, seed: int, kind: Kind) -> tuple:
        if kind in (Kind.TIME, Kind.MEMORY):
            return self.problem.passes[:self.problem.sizing]
        return self.problem.passes

    def measure(self, value: Any) -> str:
        return self.problem.measure(value)

    def explain(self, value: Any, line: int) -> str | None:
        try:
            return self.problem.explain(value, line)
        except GamedpError as e:
            return f"(no explanation: {e})"


@dataclass(frozen=True)
class Generated:
    """An input from a person's generator: the text, and the size and seed that made it."""

    size: int
    seed: int
    text: str


class GeneratorSource:
    """Inputs from a person's ``generate(rng, size) -> str`` and answers from their reference program."""

    def __init__(self, path: str, reference: list[str]):
        self.generate = load_generator(path)
        self.reference = reference
        self.name = Path(path).name
        self.path = path

    def make(self, seed: int, size: int) -> Generated:
        try:
            text = self.generate(random.Random(seed), size)
        except Exception as e:  # the person's generator failed: say where, with their exception
            raise GamedpError(f"the generator {self.path} raised {type(e).__name__}: {e} "
                              f"(size {size}, seed {seed})") from None
        except SystemExit as e:  # else the run would end there, with the generator's status (0: "passed")
            raise GamedpError(f"the generator {self.path} called sys.exit({e.code!r}) (size {size}, seed {seed}); "
                              "generate(rng, size) must return the input text") from None
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        if not isinstance(text, str):
            raise GamedpError(f"the generator {self.path} returned a {type(text).__name__}; generate(rng, size) "
                              "must return the input as a str")
        return Generated(size, seed, text)

    def render(self, value: Generated) -> str:
        return value.text

    def expected(self, value: Generated, text: str, limits: Limits) -> str:
        run = run_program(self.reference, text.encode(), limits.time, limits.memory_mb)
        verdict = judge_run(run, "")
        if verdict.kind not in (Kind.ACCEPTED, Kind.WRONG):
            raise GamedpError(f"the reference program {' '.join(self.reference)} failed on the generated input "
                              f"({verdict.summary()}); fix it or its limits (--time, --memory) first")
        return verdict.received

    def passes(self, seed: int, kind: Kind) -> tuple:
        def smaller(value: Generated):
            for size in range(1, value.size):
                for attempt in range(GENERATOR_TRIES):
                    yield self.make(hash((seed, size, attempt)) & (2**63 - 1), size)

        return (smaller,)

    def isolate(self, value: Generated, line: int) -> list:
        return []

    def measure(self, value: Generated) -> str:
        return f"generator size {value.size} (seed {value.seed})"

    def explain(self, value: Any, line: int) -> str | None:
        return None


def load_generator(path: str) -> Callable[[random.Random, int], str]:
    """``generate`` from the Python file ``path``, after checking no other user could have changed the file."""
    from gamedp.loader import _import_file

    file = Path(path)
    if not file.is_file():
        raise GamedpError(f"no such generator file: {path}")
    info = file.stat()
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) or info.st_uid not in (os.getuid(), 0):
        raise GamedpError(f"refusing to run {path}: other users can change it (chmod go-w {path}, and own it)")
    module = _import_file(file)
    generate = getattr(module, "generate", None)
    if not callable(generate):
        raise GamedpError(f"{path} has no function generate(rng, size) returning the input text")
    return generate


@dataclass
class Failure:
    trial: int
    first: Verdict
    shrunk: Shrunk
    #: runs of the program while shrinking
    runs: int
    verdict: Verdict
    text: str
    measure: str
    explanation: str | None
    saved: Path | None
    shrink_seconds: float


@dataclass
class Outcome:
    trials: int
    seed: int
    failure: Failure | None
    timing: Timing
    worst_cpu: float = 0.0
    worst_memory: float = 0.0
    sizes: list[int] = field(default_factory=list)


def trial_size(trial: int, rng: random.Random) -> int:
    """Tiny inputs first, then sizes spread log-uniformly up to the largest, which every tenth trial takes."""
    if trial < 10:
        return trial + 1
    if trial % 10 == 9:
        return MAX_SIZE
    return max(1, int(MAX_SIZE ** rng.random()))


def stress(source: ProblemSource | GeneratorSource, command: list[str], *, trials: int, seed: int, limits: Limits,
           save: Numbered | Named | None, shrink_budget: float = 60.0,
           progress: Callable[[int], None] | None = None) -> Outcome:
    """Run ``command`` on up to ``trials`` inputs; on the first failure, shrink it, save it and explain it.

    The failing input is saved by ``save`` (if given); where it could not be, the run stops before its first
    trial."""
    if save is not None:
        save.check()
    rng = random.Random(seed)
    timing = Timing()
    outcome = Outcome(0, seed, None, timing)

    def attempt(value: Any) -> Verdict:
        clock = time.perf_counter()
        text = source.render(value)
        expected = source.expected(value, text, limits)
        timing.answer += time.perf_counter() - clock
        run = run_program(command, text.encode(), limits.time, limits.memory_mb)
        timing.program += run.wall_seconds
        timing.runs += 1
        clock = time.perf_counter()
        verdict = judge_run(run, expected)
        timing.compare += time.perf_counter() - clock
        return verdict

    for trial in range(trials):
        size = trial_size(trial, rng)
        trial_seed = rng.getrandbits(63)
        clock = time.perf_counter()
        value = source.make(trial_seed, size)
        timing.generate += time.perf_counter() - clock
        verdict = attempt(value)
        outcome.trials = trial + 1
        outcome.sizes.append(size)
        outcome.worst_cpu = max(outcome.worst_cpu, verdict.run.cpu_seconds)
        outcome.worst_memory = max(outcome.worst_memory, verdict.run.peak_rss_mb)
        if progress:
            progress(trial + 1)
        if verdict.failed:
            outcome.failure = _shrink_failure(source, attempt, value, verdict, trial + 1, trial_seed, save,
                                              shrink_budget)
            break
    return outcome


def _shrink_failure(source, attempt, value, first: Verdict, trial: int, seed: int, save: Numbered | Named | None,
                    budget: float) -> Failure:
    failing: dict[str, Verdict] = {}
    known: dict[str, bool] = {}  # input text -> failed the same way: passes may offer an input again

    def fails(candidate: Any) -> bool:
        text = source.render(candidate)
        if text not in known:
            verdict = attempt(candidate)
            known[text] = verdict.kind is first.kind
            if known[text]:
                failing[text] = verdict
        return known[text]

    clock = time.perf_counter()
    if first.difference:  # the wrong line names its case: try it alone first, a shortcut past halving
        value = next((c for c in source.isolate(value, first.difference[0]) if fails(c)), value)
    shrunk = shrink(value, source.passes(seed, first.kind), fails, budget - (time.perf_counter() - clock))
    seconds = time.perf_counter() - clock
    text = source.render(shrunk.value)
    verdict = failing.get(text, first)
    explanation = None
    if verdict.kind is Kind.WRONG and verdict.difference:
        explanation = source.explain(shrunk.value, verdict.difference[0])
    saved = save.save(text) if save is not None else None
    return Failure(trial, first, shrunk, len(known), verdict, text, source.measure(shrunk.value), explanation, saved,
                   seconds)
