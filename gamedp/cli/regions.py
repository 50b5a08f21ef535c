"""Placement boards in ``gamedp nimber`` and ``gamedp grundy``: nimbers by sums of regions (Cram, BLOCKGAME).

``gamedp nimber cram 5x7`` (an empty board) or a drawn board (rows of ``.``/``#`` separated by ``/`` or spaces, or
``-`` to read them from standard input); ``gamedp grundy cram --boards 3..7x3..9``: every empty rectangle in range.
The region table is read from and written back to the database directory (or ``--table PATH``).
"""

from __future__ import annotations

import json
import re
import sys
import time
from typing import Any

import click

from gamedp.errors import GamedpError, InputError

#: the placement families these commands take, and the one that has no nimbers
FAMILIES = ("cram", "blockgame")
PARTIZAN = ("domineering",)
_RANGE = r"(\d+)(?:\.\.(\d+))?"


def handles(family: str) -> bool:
    """Whether ``family`` is a placement game (answered here rather than by the heap families)."""
    return family.strip().lower() in FAMILIES + PARTIZAN


def rules_for(family: str, rows: int, cols: int) -> Any:
    from gamedp.games.placement import Blockgame, Cram

    name = family.strip().lower()
    if name in PARTIZAN:
        raise GamedpError(f"{name} is partizan (each player has their own pieces): it has no nimbers and no split "
                          f"into regions; use gamedp solve or analyze, or one of {', '.join(FAMILIES)}")
    return (Cram if name == "cram" else Blockgame)(rows, cols).rules


def parse_size(text: str, what: str = "board") -> tuple[int, int]:
    """``RxC`` as (rows, cols).

    >>> parse_size("5x7")
    (5, 7)
    """
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not m:
        raise InputError(f"a {what} size is ROWSxCOLS, like 5x7, not {text.strip()!r}", source=what)
    return int(m.group(1)), int(m.group(2))


def parse_boards(text: str) -> list[tuple[int, int]]:
    """``R1..R2xC1..C2`` (either side may be one number) as the board sizes in range, smallest first.

    >>> parse_boards("2..3x4"), parse_boards("3x3..4")
    ([(2, 4), (3, 4)], [(3, 3), (3, 4)])
    """
    m = re.fullmatch(rf"\s*{_RANGE}\s*[xX]\s*{_RANGE}\s*", text)
    if not m:
        raise InputError(f"--boards takes ROWSxCOLS with ranges like 3..7x3..9, not {text.strip()!r}",
                         source="--boards")
    r1, r2, c1, c2 = (int(g) if g else None for g in m.groups())
    r2, c2 = r2 or r1, c2 or c1
    if r1 < 1 or c1 < 1 or r2 < r1 or c2 < c1:
        raise InputError(f"ranges go from 1 upwards, low..high: {text.strip()!r}", source="--boards")
    return sorted(((r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)), key=lambda rc: (rc[0] * rc[1], rc))


def parse_drawing(text: str) -> tuple[int, int, int]:
    """(rows, cols, board) of a drawn board: rows of ``.`` (empty) and ``#`` (filled) separated by ``/``, spaces
    or new lines.

    >>> parse_drawing("..#/...")
    (2, 3, 4)
    """
    from gamedp.games.placement_rows import parse_row

    rows = [r for r in re.split(r"[/\s]+", text.strip()) if r]
    if not rows or any(ch.isdigit() for ch in text):
        raise InputError(f"a board is ROWSxCOLS (an empty board, like 5x7) or rows of '.' and '#' separated by "
                         f"'/', not {text.strip()!r}", source="board")
    cols = len(rows[0])
    board = 0
    for r, row in enumerate(rows):
        board |= parse_row(row, cols, r + 1, "board") << (r * cols)
    return len(rows), cols, board


class _Status:
    """A live line on a terminal (regions solved so far, table size); nothing when stderr is not one."""

    def __init__(self, enabled: bool):
        self.bar = None
        if enabled:
            from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

            self.bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                                transient=True, console=_stderr_console())
            self.task = self.bar.add_task("")
            self.bar.start()
        self.what = ""

    def board(self, what: str) -> None:
        self.what = what
        if self.bar is not None:
            self.bar.update(self.task, description=f"{what}: solving")

    def __call__(self, solved: int, table: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, description=f"{self.what}: {solved:,} regions solved, {table:,} in the table")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)


def _solver(rules: Any, table: str | None, memory: float | None, status: _Status):
    from gamedp.solvers.regions import RegionSolver

    return RegionSolver(rules, table=table or True, progress=status,
                        memory=None if memory is None else int(memory * 2**30))


def nimber_command(family: str, position: tuple[str, ...], as_json: bool, table: str | None,
                   memory: float | None, misere: bool = False) -> None:
    """``gamedp nimber cram 5x7``: the nimber, outcome and winning moves of one placement board (with ``misere``,
    its misère outcome and winning moves)."""
    text = " ".join(position)
    if text.strip() == "-":
        text = sys.stdin.read()
    size = re.fullmatch(r"\s*\d+\s*[xX]\s*\d+\s*", text)
    rows, cols, board = (*parse_size(text), 0) if size else parse_drawing(text)
    rules = rules_for(family, rows, cols)
    if misere:
        if table is not None or memory is not None:
            raise GamedpError("--table and --memory are the region table's, which misère play has none of (its "
                              "boards are searched whole); leave them out with --misere")
        _misere_board(rules, board, as_json)
        return
    status = _Status(sys.stderr.isatty() and not as_json)
    t0 = time.perf_counter()
    solver = _solver(rules, table, memory, status)
    try:
        status.board(f"{rules.name} {rows} x {cols}")
        value = solver.nimber(board)
        wins = solver.winning_moves(board)
    finally:
        status.close()
        solver.save()
    seconds = time.perf_counter() - t0
    parts = solver.parts(board)
    answer = {"family": rules.name, "rows": rows, "cols": cols, "position": rules.draw(board).splitlines()[1:],
              "misere": False, "nimber": value, "outcome": "win" if value else "lose", "regions": len(parts),
              "winning_moves": [rules.move_name(m) for m in wins], "regions_solved": solver.solved,
              "table_size": len(solver), "table": str(solver.path), "seconds": round(seconds, 3)}
    if as_json:
        click.echo(json.dumps(answer))
        return
    click.echo(rules.draw(board))
    click.echo(f"{rules.name} {rows} x {cols}: nimber {value} ({len(parts)} region{'s' * (len(parts) != 1)})")
    click.echo(f"outcome: {answer['outcome'].upper()} for the player to move (normal play)")
    click.echo(f"winning moves: {', '.join(answer['winning_moves']) or 'none'}")
    click.echo(f"{solver.solved:,} regions solved in {seconds:.2f} s; region table: {solver.path} "
               f"({len(solver):,} regions)")


def _misere_board(rules: Any, board: int, as_json: bool) -> None:
    """``gamedp nimber cram 3x4 --misere``: who wins one board under misère play, and by which placements."""
    from gamedp.games.placement import misere_play

    t0 = time.perf_counter()
    wins, moves, searched = misere_play(rules, board)
    seconds = time.perf_counter() - t0
    answer = {"family": rules.name, "rows": rules.rows, "cols": rules.cols,
              "position": rules.draw(board).splitlines()[1:], "misere": True, "outcome": "win" if wins else "lose",
              "winning_moves": [rules.move_name(m) for m in moves], "positions_searched": searched,
              "seconds": round(seconds, 3)}
    if as_json:
        click.echo(json.dumps(answer))
        return
    click.echo(rules.draw(board))
    click.echo(f"{rules.name} {rules.rows} x {rules.cols}: no nimber under misère play (misère values do not add "
               "over regions); the whole board searched")
    click.echo(f"outcome: {answer['outcome'].upper()} for the player to move (misère play)")
    click.echo(f"winning moves: {', '.join(answer['winning_moves']) or 'none'}")
    click.echo(f"{searched:,} positions searched in {seconds:.2f} s")


def grundy_command(family: str, boards_text: str | None, as_json: bool, table: str | None,
                   memory: float | None, outcome_only: bool = False, by_search: bool = False) -> None:
    """``gamedp grundy cram --boards 3..7x3..9``: the Grundy value of every empty rectangle in range (only win or
    lose with ``outcome_only``; found by outcome searches with ``by_search``)."""
    if boards_text is None:
        raise GamedpError(f"{family} is a placement game: give the boards, like --boards 3..7x3..9")
    sizes = parse_boards(boards_text)
    # every board's rules first, so that a bad size fails before any work
    all_rules = [rules_for(family, r, c) for r, c in sizes]
    status = _Status(sys.stderr.isatty() and not as_json)
    solver = None
    rows_out = []
    try:
        for rules in all_rules:
            if solver is None:
                solver = _solver(rules, table, memory, status)
            else:
                solver = solver.for_board(rules)
            what = f"{rules.name} {rules.rows} x {rules.cols}"
            status.board(what)
            before = solver.solved
            t0 = time.perf_counter()
            value = None if outcome_only else solver.nimber_by_search(0) if by_search else solver.nimber(0)
            won = solver.wins(0) if outcome_only else bool(value)
            entry = {"rows": rules.rows, "cols": rules.cols, "nimber": value, "outcome": "win" if won else "lose",
                     "seconds": round(time.perf_counter() - t0, 3), "regions_solved": solver.solved - before,
                     "table_size": len(solver)}
            rows_out.append(entry)
            if not as_json:
                if len(rows_out) == 1:
                    click.echo(f"{rules.name}: Grundy values of empty boards; region table {solver.path}")
                    click.echo(f"{'board':>7} {'nimber':>7} {'outcome':>8} {'seconds':>9} {'regions solved':>15}")
                click.echo(f"{rules.rows:>3} x {rules.cols:<3}{'-' if value is None else value:>6} "
                           f"{entry['outcome'].upper():>8} "
                           f"{entry['seconds']:>9.2f} {entry['regions_solved']:>15,}")
    finally:
        status.close()
        if solver is not None:
            solver.save()
    if as_json:
        click.echo(json.dumps({"family": all_rules[0].name, "table": str(solver.path), "boards": rows_out}))
