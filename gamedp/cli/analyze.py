"""``gamedp analyze GAME [POSITION]``: a position's value and every move's value, best first.

The engine that values it is chosen by :mod:`gamedp.analysis`; this module reads the arguments and prints.
"""

from __future__ import annotations

import json
import sys
from contextlib import ExitStack
from typing import Any

import click

from gamedp.analysis import Analyst, load_analyst
from gamedp.cli.arguments import (NumbersCommand, board_spec, cluster_options, depth_option, fresh_option,
                                  memory_option, position_argument, read_position_argument, saved_option,
                                  threads_option, variant_option)
from gamedp.errors import GamedpError


@click.command(cls=NumbersCommand)
@click.argument("game")
@position_argument
@variant_option
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as GamesmanUni's JSON instead.")
@click.option("--line", "show_line", is_flag=True, help="Also print a perfect line of play to the end.")
@click.option("--outcomes-only", is_flag=True,
              help="Win/lose/tie only, no remoteness: pruned alpha-beta searches, far fewer positions on big games.")
@saved_option
@depth_option
@memory_option
@threads_option
@fresh_option
@cluster_options
def analyze(game: str, position: tuple[str, ...], variant: tuple[str, ...], as_json: bool, show_line: bool,
            outcomes_only: bool, db: str | None, depth: int | None, memory: int | None, threads: int,
            fresh: bool, workers: int | None, address: str | None, scheduler_file: str | None) -> None:
    """Show POSITION of GAME, its value and every legal move with its value, best first.

    GAME is a built-in name, module:attribute, or path/to/file.py[:attribute]. POSITION is written in the
    game's own notation (several lines are fine; `-` reads it from standard input); without it, the start.
    Values are for the player making the move: WIN/LOSE/TIE/DRAW, with the remoteness (moves to the end
    under perfect play), the score in scored games and the nimber where the game gives one.

    A game searched one position at a time (connect4, big domineering boards) keeps a long analysis in a
    checkpoint beside the databases now and then and when stopped (Ctrl-C, SIGTERM); the same command again goes
    on from it (--fresh: starts afresh). The file is removed once the analysis is done. --workers N (a local Dask
    cluster), --cluster or --scheduler-file split the search of the position and of each move over a cluster.
    """
    from gamedp.progress import report_when_piped
    from gamedp.solvers.search_checkpoint import Keeping, command_afresh, interrupt_on_sigterm

    interrupt_on_sigterm()
    report_when_piped()  # a long search says it is alive, even piped
    with ExitStack() as cluster:
        executor = None
        if (workers, address, scheduler_file) != (None, None, None):  # a plain run does not import the executors
            from gamedp.executors import cluster_option, make_executor

            split = cluster_option(workers, address, scheduler_file)
            for given, option in ((threads != 1, "--threads"), (depth is not None, "--depth")):
                if given:
                    raise GamedpError(f"{option} and {split} cannot be used together: the split search values "
                                      f"every move exactly, each over the workers in turn (leave {option} out)")
            executor = cluster.enter_context(make_executor(workers, address, scheduler_file))
        analyst = load_analyst(board_spec(game, variant), "analyze", db=db, outcomes_only=outcomes_only,
                               depth=depth, memory=memory, threads=threads,
                               keeping=Keeping(command_afresh(), fresh=fresh), executor=executor)
        _analyze(analyst, position, as_json, show_line, depth)


def _analyze(analyst: Analyst, position: tuple[str, ...], as_json: bool, show_line: bool,
             depth: int | None) -> None:
    """Read POSITION and print its analysis (or its judgement by a search ``depth`` moves deep)."""
    from gamedp.render import analysis_lines, console

    where = read_position_argument(analyst, position)
    if depth is not None:
        if show_line:
            raise GamedpError("--line shows a perfect line of play, which a search --depth moves deep cannot "
                              "promise; leave out one of them")
        _show_judgement(analyst, where, as_json)
        return
    analysis = analyst.analyze(where)
    child_nimbers = analyst.child_nimbers(analysis)
    if as_json:
        from gamedp.gamesman import gamesman_json

        doc = gamesman_json(analysis, lambda m: analyst.move_name(where, m), analyst.position_name,
                            nimber=analyst.nimber(where), child_values=analyst.child_values(analysis),
                            child_nimbers=child_nimbers)
        doc.update(analyst.partizan_fields(where))
        click.echo(json.dumps(doc, indent=2))
        return
    out = console(color=sys.stdout.isatty())
    out.print(analyst.draw(where))
    out.print()
    for text in analysis_lines(analysis, lambda m: analyst.move_name(where, m), nimber=analyst.nimber(where),
                               child_nimbers=child_nimbers):
        out.print(text)
    partizan = analyst.partizan_line(where)
    if partizan is not None:
        out.print(partizan, markup=False)
    if show_line:
        line = analyst.line(where)
        moves = ", ".join(analyst.move_name(p, m) for p, m in line) or "(none: the game is over)"
        out.print(f"perfect line of play: {moves}")
    if analyst.note:
        out.print(f"({analyst.note})")


def _show_judgement(analyst: Analyst, where: Any, as_json: bool) -> None:
    """``analyze --depth``: every move scored by the depth-limited search."""
    from gamedp.render import console, judgement_lines

    judgement = analyst.judge(where)
    if as_json:
        def entry(value: Any, score: int | None) -> dict:
            from gamedp.solvers.lookahead import SCALE

            return {"value": None if value is None else value.outcome.value,
                    "remoteness": None if value is None else value.remoteness,
                    "estimate": None if value is not None or score is None else score / SCALE}

        best = judgement.best
        doc = {"position": analyst.position_name(where), "depth": judgement.depth,
               **entry(judgement.value, None if best is None else best.score),
               "moves": [{"move": analyst.move_name(where, j.move), "position": analyst.position_name(j.child),
                          **entry(j.value, j.score)} for j in judgement.moves]}
        click.echo(json.dumps(doc, indent=2))
        return
    out = console(color=sys.stdout.isatty())
    out.print(analyst.draw(where))
    out.print()
    for text in judgement_lines(judgement, lambda m: analyst.move_name(where, m)):
        out.print(text)
