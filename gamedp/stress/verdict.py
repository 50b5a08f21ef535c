"""What a run of a person's program amounts to, against the expected output: accepted, or which failure.

Outputs are compared as judges of these problems compare them: line by line, trailing spaces and trailing
blank lines ignored (``\\r\\n`` reads as ``\\n``).

>>> first_difference("6\\n8\\n", "6 \\n9\\n")
(2, '8', '9')
>>> first_difference("6\\n8\\n", "6\\n8\\n\\n") is None
True
>>> first_difference("6\\n8\\n", "6\\n")
(2, '8', '(nothing: the output ended)')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from gamedp.stress.run import STDERR_CAP, Run


class Kind(enum.Enum):
    ACCEPTED = "accepted"
    WRONG = "wrong answer"
    TIME = "time limit exceeded"
    MEMORY = "memory limit exceeded"
    CRASH = "runtime error"
    OUTPUT = "output limit exceeded"
    NOT_TEXT = "output is not text"


@dataclass
class Verdict:
    kind: Kind
    run: Run
    expected: str
    #: the output as text (invalid bytes replaced), for the report
    received: str
    #: (1-based line, expected line, received line) of the first difference, for wrong answers
    difference: tuple[int, str, str] | None = None

    @property
    def failed(self) -> bool:
        return self.kind is not Kind.ACCEPTED

    def summary(self) -> str:
        """One paragraph: what went wrong, with the measured figures and, for a crash, how it ended."""
        text = f"{self.kind.value}: {self.run.figures()}"
        if self.kind in (Kind.CRASH, Kind.MEMORY, Kind.TIME) and not self.run.killed and self.run.exit_code != 0:
            text += f"; the program {self.run.ending()}"
        elif self.run.killed or self.run.output_capped:
            text += f"; the program {self.run.ending()}"
        if self.kind is Kind.NOT_TEXT:
            text += f"; its output begins {self.run.stdout[:40]!r}"
        if self.kind is Kind.WRONG and self.difference:
            line, want, got = self.difference
            text += f"; first difference on line {line}: expected {want!r}, received {got!r}"
        stderr = self.run.stderr_head()
        if stderr and self.kind is not Kind.ACCEPTED:
            text += "\nits stderr:\n" + "\n".join("  " + s for s in stderr.splitlines())
        return text


def judge_run(run: Run, expected: str) -> Verdict:
    """Classify ``run`` against the ``expected`` output. Resource failures come first: a program stopped for
    time or memory has no answer worth comparing."""
    if run.output_capped:  # what it wrote is no answer, and too much to show
        return Verdict(Kind.OUTPUT, run, expected, run.stdout[:STDERR_CAP].decode("utf-8", "replace"))
    received = run.stdout.decode("utf-8", "replace")
    if run.out_of_memory:
        return Verdict(Kind.MEMORY, run, expected, received)
    if run.timed_out:
        return Verdict(Kind.TIME, run, expected, received)
    if run.exit_code != 0:
        return Verdict(Kind.CRASH, run, expected, received)
    if not is_text(run.stdout):
        return Verdict(Kind.NOT_TEXT, run, expected, received)
    difference = first_difference(expected, received)
    return Verdict(Kind.WRONG if difference else Kind.ACCEPTED, run, expected, received, difference)


def is_text(data: bytes) -> bool:
    """UTF-8 without NUL or other control bytes than tab, newline and carriage return."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not any(ord(ch) < 32 and ch not in "\t\n\r" for ch in text)


def output_lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def first_difference(expected: str, received: str) -> tuple[int, str, str] | None:
    """The first line where ``received`` differs from ``expected``: (1-based number, expected, received)."""
    want, got = output_lines(expected), output_lines(received)
    ended = "(nothing: the output ended)"
    for number in range(max(len(want), len(got))):
        a = want[number] if number < len(want) else ended
        b = got[number] if number < len(got) else ended
        if a != b:
            return number + 1, a, b
    return None
