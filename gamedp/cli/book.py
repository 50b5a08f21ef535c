"""``gamedp book GAME --depth N``: an opening book of exact scores (:mod:`gamedp.solvers.opening_book`)."""

from __future__ import annotations

import json
import sys

import click

from gamedp.cli.arguments import board_spec, cluster_options, memory_option, variant_option
from gamedp.errors import GamedpError


@click.command()
@click.argument("game")
@variant_option
@click.option("--depth", type=click.IntRange(0, 20), required=True, metavar="N",
              help="Every position up to N moves from the start (0-20).")
@click.option("--lines", type=click.IntRange(0, 20), default=0, metavar="PLIES",
              help="Also every move of the positions a perfect player meets in its first PLIES plies, as either "
                   "side, against any replies (so that play has its moves at once), e.g. 8.")
@click.option("--force", is_flag=True, help="Replace the book that is there.")
@memory_option
@cluster_options
@click.option("--json", "as_json", is_flag=True, help="Print the book's statistics as a JSON object.")
def book(game: str, variant: tuple[str, ...], depth: int, lines: int, force: bool, memory: int | None, workers: int | None,
         address: str | None, scheduler_file: str | None, as_json: bool) -> None:
    """Search every position of GAME up to N moves from the start and keep their exact scores as its book.

    analyze, play, serve and value answer from the book the positions it holds (a position and its mirror image
    are one entry). The book is kept beside gamedp's databases ($GAMEDP_DB_DIR, else ~/.cache/gamedp/db).
    A game offers a book with its exact-score search (Connect-Four, any board).

    Only the positions N moves deep are searched (the others are the best of their moves), a few at a time, on
    this process or on Dask workers (--workers, --cluster, --scheduler-file; each worker's table takes up to
    --memory). What is found is kept as it is found: a build that stops goes on from there when the same command
    is run again.

    Example: gamedp book connect4:5x4 --depth 6
    """
    from gamedp.executors import make_executor
    from gamedp.loader import load_game
    from gamedp.solvers.book_builder import make_book, refuse_to_replace
    from gamedp.solvers.opening_book import book_path
    from gamedp.solvers.score_search import score_rules

    game = board_spec(game, variant)
    rules = score_rules(load_game(game))
    if rules is None or getattr(rules, "book_id", None) is None:
        raise GamedpError(f"{game} has no opening book: a book is made by a game's exact-score search "
                          "(e.g. gamedp book connect4 --depth 4)")
    path = book_path(rules)
    refuse_to_replace(path, force)  # before a cluster is reached
    with make_executor(workers, address, scheduler_file) as executor:
        stats = make_book(rules, depth, path, lines=lines, memory=memory, force=force, executor=executor)
    if as_json:
        sys.stdout.write(json.dumps({**stats, "depth": depth, "lines": lines, "path": str(path)}) + "\n")
    else:
        resumed = f", {stats['resumed']:,} of them found before" if stats["resumed"] else ""
        along = f" and along a perfect player's first {lines} plies" if lines else ""
        sys.stdout.write(f"{rules.name}: {stats['positions']:,} positions up to {depth} moves{along} ({stats['searched']:,} "
                         f"searched{resumed}; {stats['explored']:,} explored, {stats['seconds']} s) in {path}\n")
