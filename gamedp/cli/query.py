"""``gamedp query GAME POSITION...``: a position's value, looked up in the game's database (no numba)."""

from __future__ import annotations

import json
from typing import Any

import click

from gamedp.cli.arguments import NumbersCommand, db_option, variant_option
from gamedp.cli.common import print_answer, refuse_options
from gamedp.errors import GamedpError, InputError


@click.command(cls=NumbersCommand)
@click.argument("game")
@click.argument("positions", nargs=-1, required=True)
@variant_option
@db_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object per position.")
def query(game: str, positions: tuple[str, ...], variant: tuple[str, ...], db: str | None, as_json: bool) -> None:
    """Print the value of each POSITION (WIN/LOSE/TIE/DRAW, with remoteness when stored) from GAME's database.

    Create the database first with `gamedp solve GAME`. Positions are written as the game writes them, e.g.
    `X.O......` in tic-tac-toe, or a board's rows in blockgame (spaces and newlines are ignored). Games that are
    not indexed (nim, path/to/game.py) answer from what `gamedp solve GAME [POSITION]` saved.
    """
    from gamedp.database import open_for
    from gamedp.games.indexed import command_for, label, table_of, table_spec

    name, table_variant = table_of(game, variant)
    if name is None:  # any other game answers from its saved solve
        from gamedp.cli.saved import query_saved

        refuse_options(game, bool(variant))
        return query_saved(game, positions, db, as_json)
    spec = table_spec(name, **table_variant)
    game = name
    _refuse_unsolvable(game, spec, db)
    unreached = []
    with open_for(spec, db, label(game, spec), command_for(game, spec.variant)) as reader:
        for text in positions:
            index = spec.index(spec.parse_position(text))
            if reader.reachable(index):
                print_answer(text, reader.value(index), as_json)
            else:  # the file stores no value there: the other positions are still answered, then exit 2
                unreached.append(" ".join(text.split()))
                if as_json:
                    click.echo(json.dumps({"position": text, "reachable": False}))
    if unreached:
        raise InputError(f"{', '.join(unreached)}: not a position play reaches from the start of "
                         f"{label(game, spec)}, so the database has no value for it")


def _refuse_unsolvable(game: str, spec: Any, db: str | None) -> None:
    """Where there is no database and this machine could not make one, say so, and what answers instead
    (rather than suggest the solve, which would be refused)."""
    from gamedp.database import default_path
    from gamedp.games.indexed import label
    from gamedp.memory import available_memory
    from gamedp.solvers.tier_solver import memory_need

    path = default_path(spec.game_id, spec.variant, db)
    need = memory_need(spec, remoteness=False)
    if not path.exists() and need > available_memory():
        raise GamedpError(f"no database of {label(game, spec)} at {path}, and this machine cannot make one (the "
                          f"solve needs about {need / 2**30:,.0f} GiB of memory, {available_memory() / 2**30:.0f} "
                          f"GiB are available); gamedp analyze {game} POSITION values a position by a search")


