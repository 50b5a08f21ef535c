"""Positions and their analyses as pictures in a Jupyter notebook: ``gamedp.show(game, position)``.

The object :func:`show` returns draws itself: ``_repr_html_`` gives the board (SVG, as the web board draws it),
the position's value and every move in its value's colour (win green, tie yellow, lose red, draw blue; darker
when sooner); ``_repr_svg_`` gives the board alone. It holds the record ``gamedp serve``'s API returns.

In a script, :func:`show` prints the position as text too (a notebook or the ``>>>`` prompt shows what it
returns instead):

>>> shown = show("tictactoe", "XX.OO....")
X X 3
O O 6
7 8 9
X to move
WIN in 1
>>> shown.record["positionValue"], shown.record["moves"][0]["moveName"]
('win', '3')
>>> html = shown._repr_html_()
>>> "<svg" in html and "WIN in 1" in html and value_colour("win", 1) in html
True
>>> value_colour("lose", 0), value_colour("tie", 20)
('hsl(0, 70%, 24%)', 'hsl(48, 90%, 66%)')
"""

from __future__ import annotations

import sys
from html import escape
from typing import Any

#: hue and saturation of each value's colour; the page (gamedp/web/static/app.js) uses the same
HUES = {"win": (130, 65), "tie": (48, 90), "lose": (0, 70), "draw": (210, 70)}


def value_colour(value: str, remoteness: int) -> str:
    """The colour of a value (``win``, ``tie``, ``lose``, ``draw``): darker the sooner the game ends."""
    hue, saturation = HUES[value]
    steps = 8 if remoteness < 0 else min(remoteness, 12)
    return f"hsl({hue}, {saturation}%, {24 + steps * 3.5:g}%)"


def value_words(value: str, remoteness: int, winby: int | None = None) -> str:
    """``WIN in 3``, ``DRAW``, ``LOSE in 2 by 4``."""
    words = value.upper() + (f" in {remoteness}" if remoteness >= 0 and value != "draw" else "")
    return words + ("" if winby is None else f" by {winby}")


class Shown:
    """A position of a game with its analysis, drawn in a notebook (HTML) or as the board alone (SVG)."""

    def __init__(self, record: dict):
        #: the record ``gamedp serve`` answers with: ``analyze --json``'s fields, ``board`` and ``text``
        self.record = record

    def _repr_svg_(self) -> str | None:
        return self.record["board"]

    def _repr_html_(self) -> str:
        r = self.record
        board = r["board"] or f"<pre>{escape(r['text'])}</pre>"
        value = value_words(r["positionValue"], r["remoteness"], r.get("winby"))
        rows = []
        for move in r["moves"]:
            remoteness = move["remoteness"] + 1 if move["remoteness"] >= 0 else move["remoteness"]
            colour = value_colour(move["moveValue"], remoteness)
            ink = "#222" if move["moveValue"] == "tie" else "#fff"
            rows.append(f'<tr><td>{escape(move["moveName"])}</td><td style="background:{colour};color:{ink};'
                        f'padding:0 .5em">{value_words(move["moveValue"], remoteness)}</td></tr>')
        moves = f"<table>{''.join(rows)}</table>" if rows else "<p>no moves: the game is over</p>"
        return (f'<div style="display:flex;gap:1.5em;align-items:flex-start"><div>{board}</div><div>'
                f'<p><b>{escape(r["game"])}</b>: {value} for the player to move</p>{moves}</div></div>')

    def __repr__(self) -> str:
        return f"{self.record['text']}\n{value_words(self.record['positionValue'], self.record['remoteness'])}"


def show(game: Any, position: Any = None) -> Shown:
    """``position`` of ``game`` (its start if not given), analysed, to display in a notebook.

    ``game`` is a game object or a name as the command line takes it (``"tictactoe"``, ``"path/to/game.py"``);
    ``position`` is a position, or text in the game's notation. In a script (neither IPython nor the ``>>>``
    prompt, which show what it returns) it prints the board as text, its value and whose move it is.
    """
    from gamedp.analysis import Analyst
    from gamedp.loader import load_game
    from gamedp.web.record import position_record

    analyst = Analyst(load_game(game) if isinstance(game, str) else game)
    if position is None:
        position = analyst.start()
    elif isinstance(position, str):
        position = analyst.read_position(position)
    shown = Shown(position_record(analyst, position))
    if not _displayed():
        print(repr(shown))
    return shown


def _displayed() -> bool:
    """Whether what :func:`show` returns will be shown anyway: in IPython (a notebook, its shell) or at the
    interactive prompt. A script drops it, so there :func:`show` prints it."""
    ipython = sys.modules.get("IPython")
    return hasattr(sys, "ps1") or (ipython is not None and ipython.get_ipython() is not None)
