"""Drawing values and analyses in the terminal: one look for ``analyze``, ``play``'s hints, and plain text when piped.

Colour is only a help: every word that matters is also in the text, so a transcript without colour
(piped, ``NO_COLOR``) reads the same.

>>> from gamedp.values import Analysis, MoveValue, Value, WIN, LOSE
>>> print(value_text(Value(WIN, 3, 2), nimber=1).plain)
WIN in 3, score +2, nimber *1
>>> a = Analysis(5, Value(WIN, 1), (MoveValue(2, 3, Value(WIN, 1)), MoveValue(1, 4, Value(LOSE, 4))))
>>> for line in analysis_lines(a, move_name=str): print(line.plain)
WIN in 1 for the player to move
2 moves, best first:
  2  WIN in 1
  1  LOSE in 4
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Sequence

from rich.console import Console
from rich.text import Text

from gamedp.values import DRAW, LOSE, TIE, WIN, Analysis, MoveValue, Outcome, Value

STYLES = {WIN: "bold green", LOSE: "bold red", TIE: "bold yellow", DRAW: "bold cyan"}


def console(color: bool, stderr: bool = False) -> Console:
    """A rich console that writes plain text (no colour, no wrapping of boards) unless ``color``."""
    return Console(
        file=sys.stderr if stderr else sys.stdout,
        color_system="auto" if color else None,
        force_terminal=color or None,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=True,
    )


def value_text(value: Value, nimber: int | None = None) -> Text:
    """``WIN in 3``, ``LOSE in 4, score -2``, ``DRAW``, ``LOSE in 0, nimber *0``: the outcome in its colour."""
    text = Text()
    text.append(value.outcome.name, style=STYLES[value.outcome])
    if value.remoteness is not None:
        text.append(f" in {value.remoteness}")
    if value.score is not None:
        text.append(f", score {signed(value.score)}")
    if nimber is not None:
        text.append(f", nimber *{nimber}")
    return text


def signed(number: Any) -> str:
    """A margin with its sign: ``+3``, ``0``, ``-1``."""
    return f"+{number}" if number > 0 else str(number)


def analysis_lines(
    analysis: Analysis,
    move_name: Callable[[Any], str],
    *,
    nimber: int | None = None,
    child_nimbers: Sequence[int | None] | None = None,
    mover: str = "the player to move",
) -> list[Text]:
    """The position's value, then every move (in the analysis' order, best first) with its value for the mover.

    ``child_nimbers`` (one per move, in the analysis' order) adds the nimber each move leads to: in an impartial
    game the winning moves are the ones to ``*0``.
    """
    moves: list[tuple[MoveValue, int | None]] = list(zip(analysis.moves, child_nimbers or [None] * len(analysis.moves)))
    lines = [value_text(analysis.value) + f" for {mover}" + ("" if nimber is None else f", nimber *{nimber}")]
    if not moves:
        lines.append(Text("no moves: the game is over"))
        return lines
    lines.append(Text(f"{len(moves)} move{'s' if len(moves) != 1 else ''}, best first:"))
    names = [move_name(mv.move) for mv, _ in moves]
    width = max(map(len, names))
    values = [value_text(mv.value) for mv, _ in moves]
    value_width = max(len(v) for v in values)
    for name, value, (_, child_nimber) in zip(names, values, moves):
        line = Text(f"  {name.ljust(width)}  ") + value
        if child_nimber is not None:
            line.append(" " * (value_width - len(value)) + f"  -> *{child_nimber}")
        lines.append(line)
    return lines


def result_text(outcome: Outcome, margin: Any = None) -> Text:
    """The end of a game for the person playing: ``You win.``, ``You lose by 3.``, ``It is a tie.``"""
    if outcome is TIE:
        return Text("It is a tie.", style=STYLES[TIE])
    word = {WIN: "win", LOSE: "lose", DRAW: "draw"}[outcome]
    by = "" if margin is None or margin == 0 else f" by {abs(margin)}"
    return Text(f"You {word}{by}.", style=STYLES[outcome])


def judgement_lines(judgement: Any, move_name: Callable[[Any], str], mover: str = "the player to move") -> list[Text]:
    """A depth-limited search's view (:class:`~gamedp.solvers.lookahead.Judgement`): the position's value where
    proven, else its estimate, then every move's, best first.

    >>> from gamedp.solvers.lookahead import END, SCALE, Judged, Judgement
    >>> j = Judgement(7, (Judged(1, 8, SCALE // 10), Judged(2, 9, -(END - 2))), 6, None)
    >>> for line in judgement_lines(j, move_name=str): print(line.plain)
    estimate +0.10 for the player to move (a search 6 moves deep)
    2 moves, best first:
      1  estimate +0.10
      2  LOSE in 2
    """
    if not judgement.moves:
        return [value_text(judgement.value) + f" for {mover}", Text("no moves: the game is over")]
    best = judgement.best
    how = "proven by " if judgement.value is not None else ""
    depth = f"{judgement.depth} move{'' if judgement.depth == 1 else 's'} deep"
    lines = [_judged_text(best) + f" for {mover} ({how}a search {depth})"]
    lines.append(Text(f"{len(judgement.moves)} move{'s' if len(judgement.moves) != 1 else ''}, best first:"))
    names = [move_name(j.move) for j in judgement.moves]
    width = max(map(len, names))
    for name, j in zip(names, judgement.moves):
        lines.append(Text(f"  {name.ljust(width)}  ") + _judged_text(j))
    return lines


def _judged_text(judged: Any) -> Text:
    """A move's value in its colour where the search proved it, else its estimate as plain text."""
    value = judged.value
    return value_text(value) if value is not None else Text(str(judged))
