"""``gamedp solve``, ``query`` and ``analyze`` for games without an index space: saved solves.

``gamedp solve GAME [POSITION]`` solves any other game (a built-in such as ``nim`` or ``cards``, or your own
``path/to/game.py``) from POSITION (default: its start) with the memo or compiled engine and saves every position
reachable from there (see :mod:`gamedp.saved_solution`); ``gamedp query`` and ``gamedp analyze`` then answer from
the file.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from gamedp.errors import GamedpError


def refuse_options(game: str, given: bool) -> None:
    """Options that only indexed games take, given for another game: a clear error."""
    if given:
        from gamedp.games.indexed import indexed_names

        raise GamedpError(f"-V, --workers, --cluster and --scheduler-file are for the indexed games "
                          f"({', '.join(indexed_names())}); give {game}'s parameters in its name (octal:0.137)")


def _fix(spec: str, path: Path, game: Any, db: str | None) -> str:
    from gamedp.saved_solution import default_path

    where = "" if db is None or path == default_path(game) else f" --db {path}"
    return f"solve again: gamedp solve {spec}{where}"


def solve_saved(spec: str, words: tuple[str, ...], remoteness: bool, db: str | None, force: bool,
                as_json: bool) -> None:
    """Solve GAME from POSITION and save it, unless an intact save of the same solve is there already."""
    from gamedp.cli.analyze import Analyst, read_position_argument
    from gamedp.cli.solve import _report, keeps_remoteness, refuse_foreign
    from gamedp.database import DatabaseError, check_regular
    from gamedp.loader import load_game
    from gamedp.saved_solution import default_path, open_saved, position_text

    game = load_game(spec)
    start = read_position_argument(Analyst(game), words)
    path = default_path(game, db)
    check_regular(path)  # even with --force: only a regular file is ever replaced
    fix = _fix(spec, path, game, db)
    what = f"{getattr(game, 'name', spec)} from {position_text(game, start)}"
    if force and not remoteness:
        remoteness = keeps_remoteness(path, lambda: open_saved(path, game, fix))
    if path.exists() and not force:
        refuse_foreign(path)
        try:
            with open_saved(path, game, fix) as saved:
                if saved.start_text == position_text(game, start) and (saved.has_remoteness or not remoteness):
                    saved.verify()
                    _report(what, _Shown(saved, game), path, saved.stats, saved.has_remoteness, as_json,
                            already=True)
                    return
        except DatabaseError as e:
            if not e.damaged:  # another game's file, or a newer gamedp's: not ours to replace
                raise GamedpError(f"{e} (or --force to replace it)") from None
            click.echo(f"gamedp: {e}; solving again", err=True)
    began = time.perf_counter()
    solution = _engine(game, outcomes_only=not remoteness)
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
        _report(what, _Shown(saved, game), path, {**stats, **times}, remoteness,
                as_json)


def _engine(game: Any, outcomes_only: bool) -> Any:
    from gamedp.compiled import CompiledGame

    if isinstance(game, CompiledGame) and hasattr(game.children_kernel, "overloads"):
        from gamedp.solvers.compiled import CompiledSolution

        return CompiledSolution(game)  # the full search: what is saved is everything reachable anyway
    from gamedp.solvers.memo import Solution

    return Solution(game.as_python_game() if isinstance(game, CompiledGame) else game, outcomes_only=outcomes_only)


def open_for_game(spec: str, game: Any, db: str | None, required: bool, remoteness: bool = False,
                  warn: bool = True) -> Any:
    """GAME's save (at ``db``, else the default place), or ``None`` when there is none and none is ``required``.

    A save that is there but cannot be used (damaged, stale, another game's) is an error when ``required``, else
    a one-line warning (unless not to ``warn``: it was given already), and the caller answers by searching; so is
    one without the ``remoteness`` asked for.
    """
    from gamedp.database import DatabaseError
    from gamedp.saved_solution import default_path, open_saved

    path = default_path(game, db)
    if not path.exists():
        if required:
            raise GamedpError(f"no saved solve of {getattr(game, 'name', spec)} at {path}; create it with: "
                              f"gamedp solve {spec}{'' if db is None else f' --db {path}'}")
        return None
    try:
        saved = open_saved(path, game, _fix(spec, path, game, db))
    except DatabaseError as e:
        if required:
            raise
        if warn:
            click.echo(f"gamedp: not answering from {path}: {e}", err=True)
        return None
    if remoteness and not saved.has_remoteness and not required:
        saved.close()  # solved for outcomes only: the search gives what is asked
        return None
    return saved


def query_saved(spec: str, positions: tuple[str, ...], db: str | None, as_json: bool) -> None:
    """Each POSITION's value, from GAME's save."""
    from gamedp.cli.analyze import Analyst
    from gamedp.cli.query import print_answer
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
