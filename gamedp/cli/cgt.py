"""``gamedp cgt GAME POSITION...`` and ``gamedp cgt --expr EXPR``: partizan values (canonical form, outcome
class, mean and temperature) of positions, of their sum, or of an expression in CGSuite's notation. The answer
itself is :mod:`gamedp.cli.cgt_answer`'s, which the executable also calls without this module for the plain
``gamedp cgt GAME POSITION... [--json]``."""

from __future__ import annotations

import click

from gamedp.cli.arguments import MemorySize, NumbersCommand


@click.command(cls=NumbersCommand)
@click.argument("game", required=False)
@click.argument("position", nargs=-1)
@click.option("--expr", "-e", metavar="EXPR", help="Evaluate EXPR instead: values in braces or by name, added "
              "and subtracted, e.g. \"{1|-1} + ↑\" (ASCII: ^ for ↑, v for ↓, +- for ±).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: canonical, braces, outcome, mean, "
              "temperature (numbers as \"3/4\").")
@click.option("--table", metavar="PATH", help="Domineering: read region values from this file and write the "
              "new ones back (gamedp's database format; \"default\": the file in the database directory).")
@click.option("--memory", type=MemorySize(least=1 << 20), metavar="SIZE", help="Stop with an error when valuing "
              "takes more than SIZE of memory (e.g. 512M, 2G); by default, when the machine's available memory "
              "runs low.")
def cgt(game: str | None, position: tuple[str, ...], expr: str | None, as_json: bool, table: str | None,
        memory: int | None) -> None:
    """The partizan value of POSITION in GAME, or of the sum of several POSITIONs.

    GAME is domineering (POSITION: RxC, an empty board, or rows of '.' (empty) and '#' (filled) joined by '/',
    top row first; Vertical is Left), toads-and-frogs (a strip such as TT..FF; the toads are Left) or
    hackenbush (a Blue-Red string from the ground, such as BRRB; Blue is Left), or any game that gives Left's
    and Right's options (Game.options). The value is printed in CGSuite's notation, with the outcome class
    (L: Left wins, R: Right wins, P: the second player wins, N: the first player wins), mean and temperature.

    Examples: gamedp cgt domineering 2x3; gamedp cgt domineering ../.. 1x5; gamedp cgt toads T.TFF;
    gamedp cgt --expr "{2|0} + {1|-1}"
    """
    from gamedp.cli.cgt_answer import ALIASES, answer_expression, answer_positions, show

    if expr is not None:
        if game is not None:
            raise click.UsageError("give either --expr EXPR or GAME POSITION..., not both")
        if table is not None:
            raise click.UsageError("--table is for Domineering's region values; an expression has none")
        answer = answer_expression(expr, memory)
    else:
        if game is None or not position:
            raise click.UsageError("give GAME and at least one POSITION (e.g. gamedp cgt domineering 2x3), or "
                                   "--expr EXPR")
        if table is not None and ALIASES.get(game.lower(), game.lower()) != "domineering":
            raise click.UsageError("--table is for Domineering's region values; other games have none")
        answer = answer_positions(game, position, table, memory)
    click.echo(show(answer, as_json), nl=False)
