"""A progress line on a terminal for long work; when stderr is a pipe or a file, nothing at all, unless a
front end asks for a plain line every few seconds (:func:`report_when_piped`).

The line appears only once the work has gone on a while (the caller reports progress at its own pace, e.g.
every 64k positions), so quick answers print nothing extra, and it is erased when the work ends.

>>> line = ProgressLine("checking nim")   # under doctest stderr is not a terminal: all quiet
>>> line.update(70_000, 100_000)
>>> line.close()
"""

from __future__ import annotations

import sys
import time
from typing import Any

#: Seconds between the plain lines of long work when stderr is not a terminal; None: no lines (the default)
_piped_every: float | None = None


def report_when_piped(seconds: float = 5.0) -> None:
    """From now on, long work whose stderr is not a terminal says how far it is on one plain line every
    ``seconds``: a program driving ``gamedp play`` through pipes sees that it is alive. Commands whose piped
    stderr must stay quiet (judges, ``value``) never ask."""
    global _piped_every
    _piped_every = seconds


class ProgressLine:
    """``description: done / total positions`` as a rich progress bar on stderr, when that is a terminal."""

    def __init__(self, description: str):
        self.description = description
        self.shown = sys.stderr.isatty()
        self._progress: Any = None
        self._task: Any = None
        self._began = time.monotonic()
        #: when the next plain line is due (piped, where asked for: :func:`report_when_piped`), else None
        self._due = None if self.shown or _piped_every is None else self._began + _piped_every
        self._said = False  # whether a plain line was written

    def update(self, done: int, total: int | None = None) -> None:
        if self._due is not None and time.monotonic() >= self._due:
            self._say(done, total)
        if not self.shown:
            return
        if self._progress is None:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._progress = Progress(TextColumn("gamedp: {task.description}"), BarColumn(), MofNCompleteColumn(),
                                      TextColumn("positions"), TimeElapsedColumn(),
                                      console=Console(file=sys.stderr), transient=True)
            self._progress.start()
            self._task = self._progress.add_task(self.description, total=total)
        self._progress.update(self._task, completed=done, total=total)

    def describe(self, description: str) -> None:
        """Say ``description`` from now on (e.g. how far a search has narrowed its answer)."""
        self.description = description
        if self._progress is not None:
            self._progress.update(self._task, description=description)

    def close(self, summary: str | None = None) -> None:
        """Erase the line; where it was shown, leave ``summary`` in its place (e.g. how long the work took)."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
        elif not self._said:
            return
        self._said = False
        if summary is not None:
            sys.stderr.write(f"gamedp: {summary}\n")
            sys.stderr.flush()

    def _say(self, done: int, total: int | None) -> None:
        """One plain line: ``gamedp: searching connect4: score between -3 and 5: 1,234,567 positions, 12.0 s``."""
        assert _piped_every is not None and self._due is not None
        now = time.monotonic()
        self._due = now + _piped_every
        self._said = True
        count = f"{done:,}" if total is None else f"{done:,} of {total:,}"
        sys.stderr.write(f"gamedp: {self.description}: {count} positions, {duration(now - self._began)}\n")
        sys.stderr.flush()


def duration(seconds: float) -> str:
    """``seconds`` as a person reads a long wait.

    >>> duration(2.345), duration(233.2), duration(4000)
    ('2.3 s', '3 min 53 s', '1 h 6 min')
    """
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes = int(seconds // 60)
    if minutes < 60:
        return f"{minutes} min {int(seconds % 60)} s"
    return f"{minutes // 60} h {minutes % 60} min"
