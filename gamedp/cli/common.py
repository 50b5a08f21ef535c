"""What the command-line modules share: the reports of a solve, a progress bar, answers, refusals.

Each command's module imports these, never another command's private helpers.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable

import click

from gamedp.errors import GamedpError

ORDER = ("WIN", "LOSE", "TIE", "DRAW")


def refuse_options(game: str, given: bool) -> None:
    """Options that only indexed games take, given for another game: a clear error."""
    if given:
        from gamedp.games.indexed import indexed_names

        raise GamedpError(f"-V, --workers, --cluster and --scheduler-file are for the indexed games "
                          f"({', '.join(indexed_names())}); give {game}'s parameters in its name (octal:0.137)")


def keeps_remoteness(path: Path, opener: Callable[[], Any]) -> bool:
    """Whether a solve with --force (without -r) must still store remoteness: the database it replaces had it.
    Nothing a user saved is dropped unsaid; one line says so (to drop it, remove the file first)."""
    from gamedp.database import DatabaseError

    if not path.is_file():
        return False
    try:
        with opener() as existing:
            had = existing.has_remoteness
    except DatabaseError:  # damaged or not one of ours: nothing in it to keep
        return False
    if had:
        click.echo(f"gamedp: {path} stores remoteness; the new solve keeps it (remove the file first to solve "
                   "without)", err=True)
    return had


def refuse_foreign(path: Path) -> None:
    """A file at ``path`` that is not a gamedp database is never replaced without ``--force``."""
    from gamedp.database import MAGIC

    try:
        with open(path, "rb") as f:
            head = f.read(len(MAGIC))
            foreign = head not in (MAGIC, b"")  # read, not stat: /proc shows its files as regular and empty
    except OSError as e:
        raise GamedpError(f"cannot read {path}: {e.strerror}") from None
    if foreign:
        raise GamedpError(f"{path} exists and is not a gamedp database; refusing to overwrite it "
                          "(choose another --db, or --force)")


class progress_bar:
    """A rich progress bar on a terminal; nothing when stdout is not one."""

    def __init__(self, what: str):
        self.what, self.bar, self.task = what, None, None

    def __enter__(self):
        if not sys.stdout.isatty():
            return None
        from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn

        # No redirection of the standard streams: a local Dask cluster may be imported and started under the bar,
        # and its log handlers would keep rich's proxies after the bar is gone.
        self.bar = Progress(TextColumn("solving {task.description}"), BarColumn(), TaskProgressColumn(),
                            TimeRemainingColumn(), transient=True, redirect_stdout=False, redirect_stderr=False)
        self.bar.start()
        self.task = self.bar.add_task(self.what, total=None)
        return self.update

    def update(self, done: int, total: int, where: str = "") -> None:
        self.bar.update(self.task, completed=done, total=total,
                        description=f"{self.what} {where}" if where else self.what)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()


def report(what: str, spec: Any, path: Path, stats: dict, remoteness: bool, as_json: bool,
           already: bool = False) -> None:
    """What a solve made (or found ``already`` made): ``what`` was solved, into ``path``, with these statistics,
    as text or one JSON object."""
    if as_json:
        from gamedp.games.indexed import table_name

        click.echo(json.dumps({"game": table_name(spec.game_id, spec.variant), "variant": spec.variant,
                               "database": str(path), "bytes": path.stat().st_size, "already_solved": already,
                               **stats}))
        return
    size = path.stat().st_size
    seconds = f" in {stats['seconds']:.2f} s" if "seconds" in stats and not already else ""
    head = "already solved" if already else f"solved{seconds}"
    positions = stats.get("positions", spec.size)  # a tiered game's index space is larger than what play reaches
    solved, reached = positions, ""
    if getattr(spec, "every_index", False):  # every index solved (a board typed in need not be reachable)
        solved, reached = spec.size, f", {positions:,} of them reachable from the start (counted below)"
    lines = [f"{what}: {solved:,} positions {head}{reached}",
             f"database: {path} ({_bytes(size)}, {8 * size / max(solved, 1):.2f} bits per position)", ""]
    outcomes = stats.get("outcomes", {})
    lines.append(f"{'outcome':<10}{'positions':>15}{'share':>9}")
    for name in ORDER:
        if name not in outcomes:
            continue
        count = outcomes[name]
        lines.append(f"{name:<10}{count:>15,}{100 * count / max(positions, 1):>8.2f}%")
    by_r = stats.get("remoteness")
    if by_r:
        names = [n for n in ORDER if n in by_r]
        top = max(int(r) for counts in by_r.values() for r in counts)
        lines += ["", f"{'remoteness':<12}" + "".join(f"{n:>14}" for n in names)]
        for r in range(top + 1):
            row = [by_r[n].get(str(r), 0) for n in names]
            if any(row):
                lines.append(f"{r:<12}" + "".join(f"{c:>14,}" for c in row))
        lines.append("")
        for name, label in (("WIN", "longest win"), ("LOSE", "longest loss")):
            longest = stats.get("longest", {}).get(name)
            if longest:
                lines.append(f"{label}: remoteness {longest['remoteness']}, e.g. index {longest['index']}: "
                             f"{_show(spec, longest['index'])}")
    elif "tiers" in stats:
        lines += tier_lines(stats)
    elif not remoteness:
        lines += ["", "(solve with --remoteness for counts by remoteness and the longest win and loss)"]
    click.echo("\n".join(lines))


def _show(spec: Any, index: int) -> str:
    position = spec.position(index)
    text = spec.format_position(position) if hasattr(spec, "format_position") else str(position)
    return " / ".join(line.strip() for line in str(text).splitlines() if line.strip())


def _bytes(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:,} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def tier_lines(stats: dict[str, Any]) -> list[str]:
    """The per-tier table and the start's value, for the text report.

    >>> stats = {"tiers": [{"tier": 0, "positions": 1, "WIN": 0, "LOSE": 0, "TIE": 1, "terminal": 0}],
    ...          "start": {"value": "TIE", "remoteness": 16}, "terminal": 0, "index_space": 1}
    >>> print("\\n".join(tier_lines(stats)))
    <BLANKLINE>
    tier       positions            WIN           LOSE            TIE       terminal
    0                  1              0              0              1              0
    <BLANKLINE>
    terminal positions: 0; indices: 1
    the start: TIE in 16 moves
    """
    lines = ["", f"{'tier':<5}" + "".join(f"{h:>15}" for h in ("positions", "WIN", "LOSE", "TIE", "terminal"))]
    for row in stats["tiers"]:
        lines.append(f"{row['tier']:<5}" + "".join(f"{row[h]:>15,}" for h in ("positions", "WIN", "LOSE", "TIE",
                                                                              "terminal")))
    start = stats["start"]
    lines += ["", f"terminal positions: {stats['terminal']:,}; indices: {stats['index_space']:,}",
              f"the start: {start['value']}" + (f" in {start['remoteness']} moves" if start["remoteness"] is not None
                                                 else "")]
    return lines


def print_answer(text: str, value: Any, as_json: bool) -> None:
    """One position's answer, labelled with the position as it was given (several answers: each says which)."""
    if as_json:
        click.echo(json.dumps({"position": text, **value.to_json()}))
    else:
        shown = " ".join(text.split()) or '""'
        click.echo(f"{shown}: {value}")
