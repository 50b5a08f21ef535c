"""``gamedp book GAME --depth N``: an opening book of exact scores (:mod:`gamedp.solvers.opening_book`)."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from gamedp.cli.arguments import board_spec, cluster_options, memory_option, variant_option
from gamedp.errors import GamedpError

if TYPE_CHECKING:  # read only by the command
    from gamedp.solvers.opening_book import OpeningBook


@click.command()
@click.argument("game")
@variant_option
@click.option("--depth", type=click.IntRange(0, 20), required=True, metavar="N",
              help="Every position up to N moves from the start (0-20).")
@click.option("--lines", type=click.IntRange(0, 20), default=0, metavar="PLIES",
              help="Also every move of the positions a perfect player meets in its first PLIES plies, as either "
                   "side, against any replies (so that play has its moves at once), e.g. 8.")
@click.option("--compact", type=click.Path(dir_okay=False), metavar="PATH",
              help="Also write the book in compact form (a few bits a position, the form gamedp ships) to PATH; a "
                   "book of this depth and lines already made is written from, nothing searched.")
@click.option("--force", is_flag=True, help="Replace the book that is there (and the file at --compact's PATH).")
@memory_option
@cluster_options
@click.option("--json", "as_json", is_flag=True, help="Print the book's statistics as a JSON object.")
def book(game: str, variant: tuple[str, ...], depth: int, lines: int, compact: str | None, force: bool,
         memory: int | None, workers: int | None, address: str | None, scheduler_file: str | None,
         as_json: bool) -> None:
    """Search every position of GAME up to N moves from the start and keep their exact scores as its book.

    analyze, play, serve and value answer from the book the positions it holds (a position and its mirror image
    are one entry). The book is kept beside gamedp's databases ($GAMEDP_DB_DIR, else ~/.cache/gamedp/db).
    A game offers a book with its exact-score search (Connect-Four, any board).

    Only the positions N moves deep are searched (the others are the best of their moves), a few at a time, on
    this process or on Dask workers (--workers, --cluster, --scheduler-file; each worker's table takes up to
    --memory). What is found is kept as it is found: a build that stops goes on from there when the same command
    is run again.

    --compact PATH writes the book as gamedp ships it, its scores alone, a few bits each (the positions follow
    from the game, the depth and the lines); the command prints its SHA-256, to compare with the shipped one.

    Example: gamedp book connect4:5x4 --depth 6
    """
    from gamedp.executors import make_executor
    from gamedp.loader import load_game
    from gamedp.solvers.book_builder import make_book, refuse_to_replace
    from gamedp.solvers.opening_book import OpeningBook, book_path
    from gamedp.solvers.score_search import score_rules

    game = board_spec(game, variant)
    rules = score_rules(load_game(game))
    if rules is None or getattr(rules, "book_id", None) is None:
        raise GamedpError(f"{game} has no opening book: a book is made by a game's exact-score search "
                          "(e.g. gamedp book connect4 --depth 4)")
    path = book_path(rules)
    if compact is not None:
        refuse_to_replace(Path(compact), force)
    made = None if force or compact is None else _made(path, rules, depth, lines)
    stats = None
    if made is None:
        refuse_to_replace(path, force)  # before a cluster is reached
        with make_executor(workers, address, scheduler_file) as executor:
            stats = make_book(rules, depth, path, lines=lines, memory=memory, force=force, executor=executor)
    written = None
    if compact is not None:
        made = made or OpeningBook(path, rules.book_id, rules.variant, rules.book_game)
        written = _write_compact(made, rules, Path(compact))
        made.close()
    if as_json:
        sys.stdout.write(json.dumps({**(stats or {}), "depth": depth, "lines": lines, "path": str(path),
                                     **({"compact": written} if written else {})}) + "\n")
        return
    if stats is not None:
        resumed = f", {stats['resumed']:,} of them found before" if stats["resumed"] else ""
        along = f" and along a perfect player's first {lines} plies" if lines else ""
        sys.stdout.write(f"{rules.name}: {stats['positions']:,} positions up to {depth} moves{along} "
                         f"({stats['searched']:,} searched{resumed}; {stats['explored']:,} explored, "
                         f"{stats['seconds']} s) in {path}\n")
    if written is not None:
        sys.stdout.write(f"{rules.name}: the book of {path} in compact form in {written['path']}: "
                         f"{written['positions']:,} positions, {written['bits']} bits a score, "
                         f"{written['bytes']:,} bytes, SHA-256 {written['sha256']}\n")


def _made(path: Path, rules: Any, depth: int, lines: int) -> OpeningBook | None:
    """The book at ``path`` if one of this depth and lines is there, else None."""
    from gamedp.solvers.opening_book import OpeningBook

    if not path.exists():
        return None
    made = OpeningBook(path, rules.book_id, rules.variant, rules.book_game)
    if (made.depth, made.lines) == (depth, lines):
        return made
    made.close()
    return None


def _write_compact(book: OpeningBook, rules: Any, path: Path) -> dict:
    """Write ``book`` compact to ``path``; what the command says of it."""
    from gamedp.solvers.compact_book import compact_from

    header = compact_from(book, rules, path)
    data = path.read_bytes()
    return {"path": str(path), "positions": header["count"], "bits": header["bits"], "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}
