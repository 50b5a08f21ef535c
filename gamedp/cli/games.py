"""``gamedp games``: every built-in game, with its notation and an example position to pass to the commands."""

from __future__ import annotations

import inspect
import json
import re
from typing import Any

import click


def describe(name: str, game: Any) -> dict:
    """A game's name, rules and notation (its class's ``notation``, else its docstring's first paragraph) and
    an example position as the commands read it: the game's own ``example()`` (one they answer quickly, where
    the start is too big to search), else its start."""
    from gamedp.analysis import Analyst

    doc = inspect.getdoc(type(game)) or ""
    notation = plain(getattr(game, "notation", None) or " ".join(doc.split("\n\n")[0].split()))
    example = game.example() if callable(getattr(game, "example", None)) else game.start()
    return {"name": name, "notation": notation, "example": Analyst(game).position_name(example)}


def plain(text: str) -> str:
    """Docstring markup as a reader of a terminal wants it: literals and cross-references as their words.

    >>> plain('``"3 5"``, see :class:`~gamedp.games.nim.Nim` and :meth:`Game.start`')
    '"3 5", see Nim and Game.start'
    """
    text = re.sub(r":\w+:`(~?)([^`]+)`", lambda m: m.group(2).split(".")[-1] if m.group(1) else m.group(2), text)
    return re.sub(r"``(.+?)``", lambda m: m.group(1), text)


@click.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game.")
def games(as_json: bool) -> None:
    """List every built-in game: its name, its rules and notation, and an example position.

    Pass the example to analyze or play (quote it where it has spaces), e.g. gamedp analyze nim 3 4 5. Games
    that take parameters are listed with them (connect4:WxH[:K], octal:CODE, subtraction:SET, domineering:RxC):
    a board is named either way, connect4:5x4 or connect4 -V width=5 -V height=4.
    """
    from gamedp.games.registry import GAMES
    from gamedp.loader import load_game

    for name, known in GAMES.items():
        entry = {**describe(name, load_game(name)), "description": known.description,
                 "parameters": dict(known.parameters), "form": known.form, "solved_whole": known.tiered is not None,
                 "compiled": known.compiled}
        if as_json:
            click.echo(json.dumps(entry))
            continue
        if "\n" in entry["example"]:
            drawing = "\n".join("      " + line for line in entry["example"].splitlines())
            click.echo(f"{name}: {entry['notation']}\n    example (quote its lines as one argument):\n{drawing}")
        else:
            click.echo(f"{name}: {entry['notation']}\n    example: gamedp analyze {name} {entry['example']}")
        if known.form:
            options = " ".join(f"-V {k}={v}" for k, v in known.parameters.items())
            click.echo(f"    boards: {name}:{known.form}, or {name} {options} (the defaults)")
