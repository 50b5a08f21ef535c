"""``gamedp solve``'s tier solve: the tier solver, its executor, its progress and statistics."""

from __future__ import annotations

import functools
from pathlib import Path

import click

from gamedp.cli.common import progress_bar
from gamedp.tiers import TieredGame


def solve_tiers(name: str, game: TieredGame, path: Path, remoteness: bool, workers: int | None,
                address: str | None, scheduler_file: str | None) -> dict:
    """Solve ``game`` into ``path`` with the executor the options ask for; return the statistics."""
    from gamedp.executors import make_executor
    from gamedp.solvers.tier_solver import TierSolve, job_variant, preload_passes, solve_tiered

    TierSolve(game, name, path, remoteness).check_resources()  # refuse before starting a cluster
    preload = functools.partial(preload_passes, name, job_variant(game))
    with make_executor(workers, address, scheduler_file, preload) as executor, progress_bar(game.label) as progress:
        stats = solve_tiered(game, name, path, remoteness=remoteness, executor=executor, progress=progress)
    if stats["resumed_shards"]:
        click.echo(f"gamedp: resumed: {stats['resumed_shards']} shards were already solved", err=True)
    return stats


