"""What the web board and Jupyter show of a position: the ``analyze --json`` record, plus its drawing.

:func:`position_record` is GamesmanUni's record (see :mod:`gamedp.gamesman`) with a few fields for drawing:
``game``, ``text`` (the game's own drawing in text), ``board`` (SVG, or ``None``: see
:mod:`gamedp.drawing`), and on each move ``cells``, the parts of the board that make it when clicked.

>>> from gamedp.cli.analyze import Analyst
>>> from gamedp.games.tictactoe import TicTacToe
>>> record = position_record(Analyst(TicTacToe()), "XX.OO....")
>>> record["positionValue"], record["remoteness"], record["moves"][0]["moveName"], record["moves"][0]["cells"]
('win', 1, '3', ['3'])
>>> record["board"][:4], record["text"].splitlines()[0]
('<svg', 'X X 3')
"""

from __future__ import annotations

from typing import Any

from gamedp.drawing import board_svg, move_cells
from gamedp.gamesman import gamesman_json


def position_record(analyst: Any, position: Any) -> dict:
    """Everything a board shows of ``position`` (an :class:`~gamedp.cli.analyze.Analyst`'s game), as JSON data."""
    analysis = analyst.analyze(position)
    doc = gamesman_json(analysis, lambda m: analyst.move_name(position, m), analyst.position_name,
                        nimber=analyst.nimber(position), child_values=analyst.child_values(analysis),
                        child_nimbers=analyst.child_nimbers(analysis))
    for entry, mv in zip(doc["moves"], analysis.moves):
        entry["cells"] = move_cells(analyst.rules, position, mv.move)
    return {"game": analyst.name, **doc, "text": analyst.draw(position), "board": board_svg(analyst.rules, position)}
