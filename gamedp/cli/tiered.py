"""``gamedp solve``'s tier solve: the tier solver, its executor, its progress and statistics."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import click

from gamedp.cli.solve import _progress_bar
from gamedp.tiers import TieredGame


def solve_tiers(name: str, game: TieredGame, path: Path, remoteness: bool, workers: int | None,
                address: str | None, scheduler_file: str | None) -> dict:
    """Solve ``game`` into ``path`` with the executor the options ask for; return the statistics."""
    from gamedp.executors import make_executor
    from gamedp.solvers.tier_solver import TierSolve, job_variant, preload_passes, solve_tiered

    TierSolve(game, name, path, remoteness).check_resources()  # refuse before starting a cluster
    preload = functools.partial(preload_passes, name, job_variant(game))
    with make_executor(workers, address, scheduler_file, preload) as executor, _progress_bar(game.label) as progress:
        stats = solve_tiered(game, name, path, remoteness=remoteness, executor=executor, progress=progress)
    if stats["resumed_shards"]:
        click.echo(f"gamedp: resumed: {stats['resumed_shards']} shards were already solved", err=True)
    return stats


def tier_lines(stats: dict[str, Any]) -> list[str]:
    """The per-tier table and the start's value, for the text report.

    >>> stats = {"tiers": [{"tier": 0, "positions": 1, "WIN": 0, "LOSE": 0, "TIE": 1, "terminal": 0}],
    ...          "start": {"value": "TIE", "remoteness": 16}, "terminal": 0, "index_space": 1}
    >>> print("\\n".join(tier_lines(stats)))
    <BLANKLINE>
    tier       positions            WIN           LOSE            TIE       terminal
    0                  1              0              0              1              0
    <BLANKLINE>
    terminal positions: 0; indices: 1
    the start: TIE in 16 moves
    """
    lines = ["", f"{'tier':<5}" + "".join(f"{h:>15}" for h in ("positions", "WIN", "LOSE", "TIE", "terminal"))]
    for row in stats["tiers"]:
        lines.append(f"{row['tier']:<5}" + "".join(f"{row[h]:>15,}" for h in ("positions", "WIN", "LOSE", "TIE",
                                                                              "terminal")))
    start = stats["start"]
    lines += ["", f"terminal positions: {stats['terminal']:,}; indices: {stats['index_space']:,}",
              f"the start: {start['value']}" + (f" in {start['remoteness']} moves" if start["remoteness"] is not None
                                                 else "")]
    return lines
