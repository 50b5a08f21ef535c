"""``gamedp solve GAME``: strongly solve an indexed game, by the tier solver, and keep the result as a position
database."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable

import click

from gamedp.cli.arguments import NumbersCommand, position_argument, variant_option
from gamedp.errors import GamedpError
from gamedp.games.indexed import table_name

ORDER = ("WIN", "LOSE", "TIE", "DRAW")
db_option = click.option("--db", "db", type=click.Path(dir_okay=True), default=None,
                         help="The database file (or a directory for it). Default: $GAMEDP_DB_DIR, else "
                              "$XDG_CACHE_HOME/gamedp/db, else ~/.cache/gamedp/db.")


@click.command(cls=NumbersCommand)
@click.argument("game")
@position_argument
@variant_option
@click.option("--remoteness", "-r", is_flag=True, help="Also store each position's remoteness (one byte each).")
@db_option
@click.option("--force", is_flag=True, help="Solve again even if a valid database is there; replace any file.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Run the shards on a local Dask cluster of this many processes.")
@click.option("--cluster", "address", default=None, metavar="ADDRESS",
              help="Run the shards on the Dask scheduler at ADDRESS (workers must see --db's directory).")
@click.option("--scheduler-file", type=click.Path(dir_okay=False), default=None,
              help="Like --cluster, with the scheduler's address read from this Dask scheduler file.")
def solve(game: str, position: tuple[str, ...], variant: tuple[str, ...], remoteness: bool, db: str | None,
          force: bool, as_json: bool, workers: int | None, address: str | None, scheduler_file: str | None) -> None:
    """Solve every position GAME can index, in tiers, on every core, and store the values.

    Games: blockgame, connect4, subtraction, tictactoe. Prints counts by outcome and per tier (and, for games
    whose every index is a position, by remoteness with -r, with the longest win and loss). A solve that is
    killed resumes from its last finished shard.

    Any other game (a built-in such as nim, or path/to/game.py) is solved from POSITION (default: its start)
    and every position reachable from there is saved, for query and analyze to answer from.
    """
    from gamedp.database import DatabaseError, Reader, check_regular, check_writable, default_path
    from gamedp.games.indexed import command_for, label, table_of, table_spec

    name, table_variant = table_of(game, variant)
    if name is None:
        from gamedp.cli.saved import refuse_options, solve_saved

        refuse_options(game, bool(variant) or any(o is not None for o in (workers, address, scheduler_file)))
        return solve_saved(game, position, remoteness, db, force, as_json)
    if position:
        raise GamedpError(f"{game} is solved whole (every position it indexes); POSITION is for the other games")

    spec = table_spec(name, **table_variant)
    game = name
    path = default_path(spec.game_id, spec.variant, db)
    check_regular(path)  # even with --force: only a regular file is ever replaced
    what = label(game, spec)
    if force and not remoteness:
        remoteness = keeps_remoteness(path, lambda: Reader(path, spec.game_id, spec.variant, spec.size))
    if path.exists() and not force:
        refuse_foreign(path)
        try:
            command = command_for(game, spec.variant)
            with Reader(path, spec.game_id, spec.variant, spec.size, command=command) as existing:
                if existing.has_remoteness or not remoteness:
                    existing.verify()
                    from gamedp.solvers.tier_work import remove_leftover

                    remove_leftover(path, existing.has_remoteness)
                    _report(what, spec, path, existing.stats, existing.has_remoteness, as_json, already=True)
                    return
        except DatabaseError as e:
            if not e.damaged:  # another game's or a newer gamedp's file: not ours to replace
                raise GamedpError(f"{e} (or --force to replace it)") from None
            refuse_unless_ours(path, spec, e.why)
            check_writable(path)  # before saying it will be solved
            click.echo(f"gamedp: {path} is {e.why}; solving {what} again", err=True)

    from gamedp.cli.tiered import solve_tiers

    stats = solve_tiers(game, spec, path, remoteness, workers, address, scheduler_file)
    _report(what, spec, path, stats, remoteness, as_json)


def refuse_unless_ours(path: Path, spec: Any, why: str) -> None:
    """A damaged database is solved again only when its header names this game: another game's (or one whose
    game cannot be told) is never replaced without ``--force``."""
    from gamedp.database import describe, named_game

    named, this = named_game(path), describe(spec.game_id, spec.variant)
    if named == this:
        return
    whose = "whose game cannot be told" if named is None else f"of {named}"
    raise GamedpError(f"{path} is a database {whose}, and {why}; refusing to replace it with one of {this} "
                      "(choose another --db, or --force)")


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


class _progress_bar:
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


def _report(what: str, spec: Any, path: Path, stats: dict, remoteness: bool, as_json: bool,
            already: bool = False) -> None:
    if as_json:
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
        from gamedp.cli.tiered import tier_lines

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
