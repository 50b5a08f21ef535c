"""``gamedp check GAME``: self-test a game description."""

from __future__ import annotations

import json
import sys

import click

from gamedp.cli.arguments import board_spec, variant_option


@click.command()
@click.argument("game")
@variant_option
@click.option("--limit", default=100_000, show_default=True, type=click.IntRange(min=1),
              help="Check at most this many reachable positions.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def check(game: str, variant: tuple[str, ...], limit: int, as_json: bool) -> None:
    """Check GAME for the usual description bugs: illegal children, moves from primitive positions,
    symmetries that change values, unstable keys; for a game `gamedp solve` takes (blockgame, connect4,
    subtraction, tictactoe), that its tiers' rank and unrank are inverse and that children lie in the declared
    tiers. It then lists the capabilities GAME offers (notation, drawing, search hints, ...) with the hooks it gives
    (each tested on the first positions reached), and what is turned off without the others.

    GAME is a built-in name, module:attribute, or path/to/file.py[:attribute]. Exit status 1 when a problem is
    found.
    """
    from gamedp.loader import load_game
    from gamedp.selfcheck import check_game

    loaded = load_game(board_spec(game, variant))
    report = check_game(loaded, max_positions=limit)
    tiers = None
    tiered = loaded.tiered() if report.ok and getattr(loaded, "tiered", None) is not None else None
    if tiered is not None:  # a tiered game: its ranks and tiers, by the compiled kernels
        from gamedp.tiers import check_tiers

        tiers = check_tiers(tiered, limit=limit, compiled=True)
    if as_json:
        extra = {} if tiers is None else {"tiers": {"ok": tiers.ok, "indices": tiers.indices, "tiers": tiers.tiers,
                                                    "complete": tiers.complete, "problem": tiers.problem}}
        click.echo(json.dumps({"game": report.game, "ok": report.ok and (tiers is None or tiers.ok),
                               "positions": report.positions, "complete": report.complete,
                               "ends_seen": report.ends_seen,
                               "problem": report.problem or (tiers.problem if tiers else None),
                               "capabilities": report.capabilities, **extra}))
    else:
        click.echo(str(report))
        if tiers is not None:
            click.echo(str(tiers))
        for line in report.capability_lines():
            click.echo(f"  {line}")
    if not report.ok or (tiers is not None and not tiers.ok):
        sys.exit(1)
