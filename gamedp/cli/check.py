"""``gamedp check GAME``: self-test a game description."""

from __future__ import annotations

import json
import sys

import click


@click.command()
@click.argument("game")
@click.option("--limit", default=100_000, show_default=True, type=click.IntRange(min=1),
              help="Check at most this many reachable positions.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def check(game: str, limit: int, as_json: bool) -> None:
    """Check GAME for the usual description bugs: illegal children, moves from primitive positions,
    symmetries that change values, unstable keys.

    GAME is a built-in name, module:attribute, or path/to/file.py[:attribute]. Exit status 1 when a problem is
    found.
    """
    from gamedp.loader import load_game
    from gamedp.selfcheck import check_game

    report = check_game(load_game(game), max_positions=limit)
    if as_json:
        click.echo(json.dumps({"game": report.game, "ok": report.ok, "positions": report.positions,
                               "complete": report.complete, "ends_seen": report.ends_seen,
                               "problem": report.problem}))
    else:
        click.echo(str(report))
    if not report.ok:
        sys.exit(1)
