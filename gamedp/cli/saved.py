"""``gamedp solve``, ``query`` and ``analyze`` for games without an index space: saved solves.

``gamedp solve GAME [POSITION]`` solves any other game (a built-in such as ``nim`` or ``cards``, or your own
``path/to/game.py``) from POSITION (default: its start) with the memo or compiled engine and saves every position
reachable from there (see :mod:`gamedp.saved_solution`); ``gamedp query`` and ``gamedp analyze`` then answer from
the file.
"""

from __future__ import annotations

import time
from typing import Any

import click

from gamedp.errors import GamedpError


def solve_saved(spec: str, words: tuple[str, ...], remoteness: bool, db: str | None, force: bool,
                as_json: bool) -> None:
    """Solve GAME from POSITION and save it, unless an intact save of the same solve is there already."""
    from gamedp.analysis import Analyst, solve_again, solving_engine
    from gamedp.cli.arguments import read_position_argument
    from gamedp.cli.common import keeps_remoteness, refuse_foreign, report
    from gamedp.database import DatabaseError, check_regular
    from gamedp.loader import load_game
    from gamedp.saved_identity import default_path
    from gamedp.saved_keys import position_text
    from gamedp.saved_solution import open_saved

    game = load_game(spec)
    start = read_position_argument(Analyst(game), words)
    path = default_path(game, db)
    check_regular(path)  # even with --force: only a regular file is ever replaced
    fix = solve_again(spec, path, game, db)
    what = f"{getattr(game, 'name', spec)} from {position_text(game, start)}"
    if force and not remoteness:
        remoteness = keeps_remoteness(path, lambda: open_saved(path, game, fix))
    if path.exists() and not force:
        refuse_foreign(path)
        try:
            with open_saved(path, game, fix) as saved:
                if saved.start_text == position_text(game, start) and (saved.has_remoteness or not remoteness):
                    saved.verify()
                    report(what, _Shown(saved, game), path, saved.stats, saved.has_remoteness, as_json,
                            already=True)
                    return
        except DatabaseError as e:
            if not e.damaged:  # another game's file, or a newer gamedp's: not ours to replace
                raise GamedpError(f"{e} (or --force to replace it)") from None
            click.echo(f"gamedp: {e}; solving again", err=True)
    began = time.perf_counter()
    solution = solving_engine(game, outcomes_only=not remoteness)
    solution.value(start)
    solved = time.perf_counter() - began
    from gamedp.progress import ProgressLine

    line = ProgressLine(f"saving {getattr(game, 'name', spec)}")
    try:
        stats = solution.save(path, start, outcomes_only=not remoteness, progress=line.update)
    finally:
        line.close()
    times = {"solve_seconds": round(solved, 3), "save_seconds": stats["seconds"],
             "seconds": round(solved + stats["seconds"], 3)}
    with open_saved(path, game, fix) as saved:
        report(what, _Shown(saved, game), path, {**stats, **times}, remoteness,
                as_json)


def query_saved(spec: str, positions: tuple[str, ...], db: str | None, as_json: bool) -> None:
    """Each POSITION's value, from GAME's save."""
    from gamedp.analysis import Analyst, open_for_game
    from gamedp.cli.common import print_answer
    from gamedp.loader import load_game

    game = load_game(spec)
    analyst = Analyst(game)
    with open_for_game(spec, game, db, required=True) as saved:
        for text in positions:
            print_answer(text, saved.value(analyst.read_position(text)), as_json)


class _Shown:
    """A save as ``gamedp solve``'s report shows a database: the game, its size, its positions by index."""

    def __init__(self, saved: Any, game: Any):
        self.game_id, self.variant, self.size = saved.saved_game["name"], {}, saved.size
        self.position, self.format_position = saved.position_at, game.format_position
