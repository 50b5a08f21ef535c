"""Command-line arguments that are positions: several words need no quotes, and negative numbers are not options.

``gamedp analyze nim 3 4 5`` is the position ``3 4 5``: the words of POSITION are joined with spaces.
A command of class :class:`NumbersCommand` takes a word such as ``-1`` as an argument (a card worth -1, a heap
of -1 for the parser to refuse), while a word such as ``--bogus`` is still an unknown option.

>>> import click
>>> @click.command(cls=NumbersCommand)
... @click.argument("row", nargs=-1)
... @click.option("--json", is_flag=True)
... def show(row, json):
...     click.echo(f"{row} {json}")
>>> show.main(["3", "-1", "--json", "-4"], standalone_mode=False)
('3', '-1', '-4') True
>>> show.main(["3", "--jsn"], standalone_mode=False)
Traceback (most recent call last):
...
click.exceptions.NoSuchOption: No such option '--jsn'.
"""

from __future__ import annotations

import difflib
import re
import sys
from typing import TYPE_CHECKING, Any, Callable

import click

from gamedp.errors import GamedpError
from gamedp.memory import SEARCH_TABLE_WORDS

if TYPE_CHECKING:
    from gamedp.analysis import Analyst

_NUMBER = re.compile(r"-\d[\d,.]*")

#: POSITION as the commands take it: any number of words, joined with spaces (none: the start)
position_argument = click.argument("position", nargs=-1)

#: ``--db FILE``: the saved solve that answers (analyze, play, serve); without it, the one in the default place
saved_option = click.option(
    "--db", type=click.Path(dir_okay=True), metavar="FILE", default=None,
    help="Answer from this saved solve (`gamedp solve GAME --db ...`) only. Without it, a saved solve in "
         "the default place answers the positions it holds.")

#: ``-V KEY=VALUE``: an indexed game's parameters (solve, query, value)
variant_option = click.option("--variant", "-V", "variant", multiple=True, metavar="KEY=VALUE",
                              help="A variant parameter, e.g. -V rows=4 -V cols=4 (repeatable).")

#: ``--db``: the database of an indexed game, or where a saved solve goes (solve, query)
db_option = click.option("--db", "db", type=click.Path(dir_okay=True), default=None,
                         help="The database file (or a directory for it). Default: $GAMEDP_DB_DIR, else "
                              "$XDG_CACHE_HOME/gamedp/db, else ~/.cache/gamedp/db.")

#: ``--depth D``: a depth-limited search instead of an exact one (analyze, play, serve)
depth_option = click.option(
    "--depth", type=click.IntRange(min=1), metavar="D",
    help="For games too big to solve: search only D moves ahead (alpha-beta), judging the positions there by "
         "the game's heuristic; exact wherever the search reaches the end or the game's database answers.")


class MemorySize(click.ParamType):
    """A number of bytes as people write it: ``512M``, ``2G``, ``1.5GiB``, ``300000000``."""

    name = "size"
    _UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}

    def __init__(self, least: int | None = None):
        self.least = least  # the smallest size taken; None: a pruned search's smallest table

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        if isinstance(value, int):
            return value
        match = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*([KMGT]?)(?:I?B)?\s*", str(value), re.IGNORECASE)
        if not match:
            self.fail(f"{value!r} is not a size; write bytes, or a number with K, M, G or T (e.g. 512M, 2G)",
                      param, ctx)
        size = int(float(match.group(1)) * self._UNITS[match.group(2).upper()])
        from gamedp.memory import available_memory

        least = self.least
        if least is None:
            from gamedp.solvers.score_search import MIN_SLOTS, SLOT_BYTES

            least = MIN_SLOTS * SLOT_BYTES
        if size < least:
            self.fail(f"{value} is too small: give at least {least // 1024} KiB (e.g. 64M)", param, ctx)
        left = available_memory()
        if size > left:
            self.fail(f"{value} is more than the memory available ({left / (1 << 30):.1f} GiB); give less",
                      param, ctx)
        return size


#: ``--memory SIZE``: the bound of a pruned search's table (analyze, play, serve, explain, value)
memory_option = click.option(
    "--memory", type=MemorySize(), default=None, metavar="SIZE",
    help="For games searched one position at a time (connect4): the most memory the search's table takes, "
         f"e.g. 256M or 4G (default {SEARCH_TABLE_WORDS}). The table starts small and grows to this as a "
         "search needs.")


#: ``--threads N``: how many threads a pruned search runs in (analyze, value)
threads_option = click.option(
    "--threads", type=click.IntRange(1, 64), default=1, metavar="N",
    help="For games searched one position at a time (connect4): search in N threads sharing the table "
         "(default 1; at most one a core: more are reduced to the cores, with a note). The answers are the same; "
         "long searches go faster with a free core for each thread.")


def cluster_options(command: Callable) -> Callable:
    """``--workers N``, ``--cluster ADDRESS`` and ``--scheduler-file FILE``: where the work runs (solve, book)."""
    for option in reversed([
        click.option("--workers", type=click.IntRange(min=1), default=None,
                     help="Run the work on a local Dask cluster of this many processes."),
        click.option("--cluster", "address", default=None, metavar="ADDRESS",
                     help="Run the work on the Dask scheduler at ADDRESS (its workers must see the directory "
                          "the files go to: --db, else $GAMEDP_DB_DIR)."),
        click.option("--scheduler-file", type=click.Path(dir_okay=False), default=None,
                     help="Like --cluster, with the scheduler's address read from this Dask scheduler file (yours, "
                          "writable by you alone: the cluster runs code in this process).")]):
        command = option(command)
    return command


#: ``--fresh``: a long pruned search starts afresh instead of going on from its checkpoint (analyze, value)
fresh_option = click.option(
    "--fresh", is_flag=True,
    help="For games searched one position at a time (connect4): a long search keeps what it proved in a file "
         "beside the databases (now and then, and when stopped: Ctrl-C, SIGTERM), and the same command goes on "
         "from it; --fresh starts afresh instead, replacing that file.")


class NumbersCommand(click.Command):
    """A click command whose arguments may start with ``-`` when they are numbers."""

    def __init__(self, *args, **kwargs):
        kwargs["context_settings"] = {**kwargs.get("context_settings", {}), "ignore_unknown_options": True}
        super().__init__(*args, **kwargs)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        options = [p for p in self.get_params(ctx) if isinstance(p, click.Option)]
        known = {name for p in options for name in p.opts + p.secondary_opts}
        # the word after one of these is its value, whatever it starts with (`cgt --expr -1/2`), as click takes it
        valued = {name for p in options if not p.is_flag and not p.count for name in p.opts}
        if any(word in self.get_help_option_names(ctx) for word in args):
            named = [word for word in args if not word.startswith("-")]
            ctx.meta["gamedp.game"] = named[0] if named else None
        words = iter(args)
        for word in words:
            if word == "--":
                break
            if word in valued:
                next(words, None)
            elif word.startswith("-") and word != "-" and not _NUMBER.fullmatch(word) \
                    and word.split("=", 1)[0] not in known and not _short_flags(word, known):
                name = word.split("=", 1)[0]
                raise click.NoSuchOption(name, possibilities=difflib.get_close_matches(name, known), ctx=ctx)
        return super().parse_args(ctx, args)


    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """``gamedp analyze GAME --help``: the help, then GAME's notation and an example."""
        super().format_epilog(ctx, formatter)
        name = ctx.meta.get("gamedp.game")
        if not name or "game" not in {p.name for p in self.params}:
            return
        from gamedp.cli.games import describe
        from gamedp.loader import load_game

        try:
            entry = describe(name, load_game(name))
        except GamedpError as e:
            entry = {"notation": str(e), "example": "(none)"}
        with formatter.section(f"Notation of {name}"):
            formatter.write_text(entry["notation"])
            formatter.write_text("Example position:")
            for line in entry["example"].splitlines():
                formatter.write(f"{' ' * formatter.current_indent}  {line}\n")


def _short_flags(word: str, known: set[str]) -> bool:
    """``-rX``: a short option with its value attached."""
    return not word.startswith("--") and word[:2] in known


def board_spec(game: str, variant: tuple[str, ...]) -> str:
    """GAME as typed, with its ``-V`` options, as the one name of its board (``connect4 -V width=5 -V height=4``
    and ``connect4:5x4`` are ``connect4:5x4``; see :mod:`gamedp.games.registry`).

    >>> board_spec("connect4", ("width=5", "height=4")), board_spec("connect4:7x6", ()), board_spec("nim", ())
    ('connect4:5x4', 'connect4', 'nim')
    """
    from gamedp.games.indexed import parse_variant
    from gamedp.loader import board_name

    return board_name(game, parse_variant(variant)) if variant or ":" in game else game


def joined(words: tuple[str, ...] | str | None) -> str | None:
    """POSITION's words as one text (``None`` when none were given).

    >>> joined(("3", "4", "5")), joined(()), joined("X.O")
    ('3 4 5', None, 'X.O')
    """
    if words is None or isinstance(words, str):
        return words
    return " ".join(words) if words else None


def read_position_argument(analyst: Analyst, words: tuple[str, ...] | str | None) -> Any:
    """POSITION as typed on the command line: absent for the start, ``-`` for standard input, else its words
    joined with spaces (so ``3 4 5`` needs no quotes)."""
    text = joined(words)
    if text is None:
        return analyst.start()
    if text == "-":
        text = sys.stdin.read()
        if not text.strip():
            raise GamedpError("POSITION '-' reads the position from standard input, but it was empty")
    return analyst.read_position(text)
