"""``gamedp cgt GAME POSITION...`` and ``gamedp cgt --expr EXPR``: partizan values (canonical form, outcome
class, mean and temperature) of positions, of their sum, or of an expression in CGSuite's notation."""

from __future__ import annotations

import json
import sys

import click

from gamedp.cli.arguments import NumbersCommand
from gamedp.errors import GamedpError, InputError

#: what GAME may be besides a game gamedp loads (which then gives Game.options)
ALIASES = {"toads": "toads-and-frogs", "tf": "toads-and-frogs", "blue-red-hackenbush": "hackenbush"}


@click.command(cls=NumbersCommand)
@click.argument("game", required=False)
@click.argument("position", nargs=-1)
@click.option("--expr", "-e", metavar="EXPR", help="Evaluate EXPR instead: values in braces or by name, added "
              "and subtracted, e.g. \"{1|-1} + ↑\" (ASCII: ^ for ↑, v for ↓, +- for ±).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: canonical, braces, outcome, mean, "
              "temperature (numbers as \"3/4\").")
@click.option("--table", metavar="PATH", help="Domineering: read region values from this file and write the "
              "new ones back (gamedp's database format; \"default\": the file in the database directory).")
def cgt(game: str | None, position: tuple[str, ...], expr: str | None, as_json: bool, table: str | None) -> None:
    """The partizan value of POSITION in GAME, or of the sum of several POSITIONs.

    GAME is domineering (POSITION: RxC, an empty board, or rows of '.' (empty) and '#' (filled) joined by '/',
    top row first; Vertical is Left), toads-and-frogs (a strip such as TT..FF; the toads are Left) or
    hackenbush (a Blue-Red string from the ground, such as BRRB; Blue is Left), or any game that gives Left's
    and Right's options (Game.options). The value is printed in CGSuite's notation, with the outcome class
    (L: Left wins, R: Right wins, P: the second player wins, N: the first player wins), mean and temperature.

    Examples: gamedp cgt domineering 2x3; gamedp cgt domineering ../.. 1x5; gamedp cgt toads T.TFF;
    gamedp cgt --expr "{2|0} + {1|-1}"
    """
    from gamedp.cgt.values import GameValue

    if expr is not None:
        if game is not None:
            raise click.UsageError("give either --expr EXPR or GAME POSITION..., not both")
        from gamedp.cgt.values import parse

        total, answer = _guarded(lambda: parse(expr)), {"expression": expr}
    else:
        if game is None or not position:
            raise click.UsageError("give GAME and at least one POSITION (e.g. gamedp cgt domineering 2x3), or "
                                   "--expr EXPR")
        name = ALIASES.get(game.lower(), game.lower())
        if table is not None and name != "domineering":
            raise click.UsageError("--table keeps Domineering's region values; other games have none")
        values = _guarded(lambda: _values(name, game, position, table))
        total = GameValue.number(0)
        for v in values:
            total = total + v
        answer = {"game": ALIASES.get(game.lower(), game.lower()), "positions": list(position)}
        if len(values) > 1:
            answer["parts"] = [str(v) for v in values]
    answer.update(describe(total))
    if as_json:
        click.echo(json.dumps(answer, ensure_ascii=False))
        return
    if "parts" in answer:
        click.echo(f"parts: {' + '.join(answer['parts'])}")
    click.echo(f"value: {answer['canonical']}")
    if answer["braces"] != answer["canonical"]:
        click.echo(f"braces: {answer['braces']}")
    from gamedp.cgt.values import OUTCOME_NAMES

    click.echo(f"outcome: {answer['outcome']} ({OUTCOME_NAMES[answer['outcome']]})")
    click.echo(f"mean: {answer['mean']}")
    click.echo(f"temperature: {answer['temperature']}")


def describe(v) -> dict:
    """The JSON fields of a value."""
    from gamedp.cgt.numbers import format_number

    return {"canonical": str(v), "braces": v.braces, "outcome": v.outcome, "mean": format_number(v.mean),
            "temperature": format_number(v.temperature)}


def _values(name: str, typed: str, positions: tuple[str, ...], table: str | None = None) -> list:
    """Each position's value; errors name the position (its number when there are several)."""
    def where(k: int) -> str:
        return "position" if len(positions) == 1 else f"position {k}"

    if name == "domineering":
        from gamedp.cgt import domineering, region_table

        boards = [domineering.parse_board(p, where(k)) for k, p in enumerate(positions, 1)]
        path = None if table is None else region_table.default_path() if table == "default" else table
        known = region_table.load(path) if path is not None else 0
        out = [domineering.value(b) for b in boards]
        if path is not None and len(domineering.table) > known:
            region_table.save(path)
        return out
    from gamedp.cgt.search import Values
    from gamedp.loader import load_game

    game = load_game(name if name in ("toads-and-frogs", "hackenbush") else typed)
    values = Values(game)
    out = []
    for k, p in enumerate(positions, 1):
        try:
            parsed = game.parse_position(p)
        except InputError as e:  # the game names "position"; with several, say which
            text = str(e)
            raise GamedpError(where(k) + text[len("position"):] if text.startswith("position") else text) from None
        out.append(values.value(parsed))
    return out


def _guarded(compute):
    """Run ``compute``; a game too deep for Python's stack is refused in one line."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        return compute()
    except RecursionError:
        raise GamedpError("this game is too deep to value here (its canonical form nests thousands of levels); "
                          "try a smaller position") from None
    finally:
        sys.setrecursionlimit(limit)
