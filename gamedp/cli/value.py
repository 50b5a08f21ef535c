"""``gamedp value GAME``: the exact value of every position read on standard input, one a line
(:mod:`gamedp.batch`)."""

from __future__ import annotations

import sys
from contextlib import ExitStack

import click

from gamedp.cli.arguments import (board_spec, cluster_options, fresh_option, memory_option, threads_option,
                                  variant_option)
from gamedp.errors import GamedpError


@click.command()
@click.argument("game")
@variant_option
@memory_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object a line, with the positions explored and "
                                                       "the seconds taken.")
@click.option("--outcomes-only", is_flag=True, help="Win/lose/tie only, no remoteness: a quicker search.")
@click.option("--format", "form", type=click.Choice(["tab", "pons"]), default="tab", show_default=True,
              help="pons: Pascal Pons' solver's lines `MOVES SCORE` (the benchmark sets' score; with "
                   "--outcomes-only its sign), reading `MOVES` or a benchmark line `MOVES SCORE`, whose score is "
                   "checked. Connect-Four only.")
@threads_option
@fresh_option
@click.option("--no-book", is_flag=True, help="Search every position, answering none from an opening book (the "
                                               "one gamedp ships included): to time the search itself.")
@cluster_options
def value(game: str, variant: tuple[str, ...], memory: int | None, as_json: bool, outcomes_only: bool,
          form: str, threads: int, fresh: bool, no_book: bool, workers: int | None, address: str | None,
          scheduler_file: str | None) -> None:
    """Print the exact value of each position of GAME read from standard input, one a line.

    Each answer is a line `POSITION<TAB>VALUE<TAB>REMOTENESS` (VALUE is WIN, LOSE, TIE or DRAW for the player to
    move), printed as soon as it is found. A line that is not a position gets an error line naming its number
    on stderr; the others are still answered, and the exit status is then 2. For Connect-Four an empty line is
    the empty board (its answer's POSITION is empty). Connect-Four (any board) is
    searched one position at a time with a table of bounded size (--memory), kept across the lines; with
    --threads N, N lines are searched at once on that table, and the answers still come in the lines' order.
    A line searched long is kept in a checkpoint beside the databases now and then and when stopped (Ctrl-C,
    SIGTERM); the same command again goes on from it (--fresh: starts afresh).

    With --workers N (a local Dask cluster), --cluster ADDRESS or --scheduler-file FILE, each line's search is
    split over the cluster's workers (a local cluster's share one table, others have one each; --memory), a
    worker lost costing only its part (games with the exact-score search).

    Example: echo 4453 | gamedp value connect4
    """
    from gamedp.batch import analyst_reader, answer_lines, benchmark_scores, score_reader
    from gamedp.loader import load_game
    from gamedp.solvers.score_search import score_rules

    spec = board_spec(game, variant)
    loaded = load_game(spec)
    rules = score_rules(loaded)
    scores = form == "pons"
    if scores and not benchmark_scores(rules):
        raise GamedpError(f"--format pons writes Connect-Four's benchmark scores; {game} has no such score "
                          f"(leave --format out)")
    if scores and as_json:
        raise GamedpError("--json and --format pons are two formats of the answers; give one of them")
    stop = None
    split = None
    if (workers, address, scheduler_file) != (None, None, None):  # a plain run does not import the executors
        from gamedp.executors import cluster_option

        split = cluster_option(workers, address, scheduler_file)
    from gamedp.solvers.search_checkpoint import Keeping, command_afresh, interrupt_on_sigterm

    with ExitStack() as cluster:
        if split is not None:
            if rules is None:
                raise GamedpError(f"{split} splits the search of a game searched one position at a time; {game} is "
                                  f"solved by an engine that keeps every position it meets (leave {split} out)")
            if threads != 1:
                raise GamedpError(f"--threads and {split} cannot be used together: the split's workers search in "
                                  f"processes of their own (leave --threads out)")
            from gamedp.batch import ScoreReader
            from gamedp.executors import make_executor
            from gamedp.solvers.split_search import SplitSearch, refuse_unsplit

            refuse_unsplit(rules, split)  # before a cluster starts

            interrupt_on_sigterm()
            executor = cluster.enter_context(make_executor(workers, address, scheduler_file))
            search = SplitSearch(rules, spec, executor, memory=memory, outcomes_only=outcomes_only,
                                 book=False if no_book else None, keeping=Keeping(command_afresh(), fresh=fresh))
            read, stop = ScoreReader(loaded, search, getattr(rules, "read_moves", None), scores), search.stop
        elif rules is not None:
            from gamedp.cores import usable_threads

            threads = usable_threads(threads)
            interrupt_on_sigterm()
            reader = score_reader(loaded, rules, memory=memory, outcomes_only=outcomes_only, threads=threads,
                                  scores=scores, keeping=Keeping(command_afresh(), fresh=fresh), book=not no_book)
            read, stop = reader, reader.stop
        else:
            for given, option in ((memory is not None, "--memory bounds the table"),
                                  (threads != 1, "--threads shares the search"),
                                  (fresh, "--fresh starts afresh the search"),
                                  (no_book, "--no-book leaves out the opening book")):
                if given:
                    raise GamedpError(f"{option} of a game searched one position at a time; {game} is solved by an "
                                      f"engine that keeps every position it meets (leave {option.split()[0]} out)")
            from gamedp.analysis import load_analyst

            read = analyst_reader(load_analyst(spec, "value", outcomes_only=outcomes_only))
        if answer_lines(read, sys.stdin, sys.stdout, sys.stderr, as_json=as_json, threads=threads, stop=stop,
                        scores=scores):
            sys.exit(2)
