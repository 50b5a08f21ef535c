"""``gamedp solve GAME``: strongly solve an indexed game, by the tier solver, and keep the result as a position
database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from gamedp.cli.arguments import NumbersCommand, cluster_options, db_option, position_argument, variant_option
from gamedp.cli.common import keeps_remoteness, refuse_foreign, refuse_options, report
from gamedp.errors import GamedpError



@click.command(cls=NumbersCommand)
@click.argument("game")
@position_argument
@variant_option
@click.option("--remoteness", "-r", is_flag=True, help="Also store each position's remoteness (one byte each).")
@db_option
@click.option("--force", is_flag=True, help="Solve again even if a valid database is there; replace any file.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@cluster_options
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
        from gamedp.cli.saved import solve_saved

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
                    report(what, spec, path, existing.stats, existing.has_remoteness, as_json, already=True)
                    return
        except DatabaseError as e:
            if not e.damaged:  # another game's or a newer gamedp's file: not ours to replace
                raise GamedpError(f"{e} (or --force to replace it)") from None
            refuse_unless_ours(path, spec, e.why)
            check_writable(path)  # before saying it will be solved
            click.echo(f"gamedp: {path} is {e.why}; solving {what} again", err=True)

    from gamedp.cli.tiered import solve_tiers

    stats = solve_tiers(game, spec, path, remoteness, workers, address, scheduler_file)
    report(what, spec, path, stats, remoteness, as_json)


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


