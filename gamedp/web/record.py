"""What the web board and Jupyter show of a position: the ``analyze --json`` record, plus its drawing.

:func:`position_record` is GamesmanUni's record (see :mod:`gamedp.gamesman`) with a few fields for drawing:
``game``, ``text`` (the game's own drawing in text), ``board`` (SVG, or ``None``: see
:mod:`gamedp.drawing`), and on each move ``cells``, the parts of the board that make it when clicked.
:func:`board_record` is the same without a value: what the board shows at once, while the values are searched
(each move's as :func:`move_entry` gives it, as it is found).

>>> from gamedp.analysis import Analyst
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


def position_record(analyst: Any, position: Any, analysis: Any = None) -> dict:
    """Everything a board shows of ``position`` (an :class:`~gamedp.analysis.Analyst`'s game), as JSON data, from
    its ``analysis`` if it is made already; with a search depth (``analyst.depth``), as :func:`judgement_json`
    gives it."""
    if analyst.depth is not None:
        judgement = analyst.judge(position)
        doc, moves = judgement_json(analyst, judgement), judgement.moves
    else:
        analysis = analysis or analyst.analyze(position)
        doc = gamesman_json(analysis, lambda m: analyst.move_name(position, m), analyst.position_name,
                            nimber=analyst.nimber(position), child_values=analyst.child_values(analysis),
                            child_nimbers=analyst.child_nimbers(analysis))
        doc.update(analyst.partizan_fields(position))
        moves = analysis.moves
    for entry, mv in zip(doc["moves"], moves):
        entry["cells"] = move_cells(analyst.rules, position, mv.move)
    return _drawn(analyst, position, doc)


def board_record(analyst: Any, position: Any) -> dict:
    """What a board shows of ``position`` before any value is known: :func:`position_record` without the values
    (each move's ``move``, ``moveName``, ``position`` and ``cells``, in the game's order), at once.

    >>> from gamedp.analysis import Analyst
    >>> from gamedp.games.tictactoe import TicTacToe
    >>> record = board_record(Analyst(TicTacToe()), "XX.OO....")
    >>> "positionValue" in record, record["moves"][0]
    (False, {'move': '3', 'moveName': '3', 'position': 'XXXOO....', 'cells': ['3']})
    """
    moves = []
    for move, child in analyst.rules.move_list(position):
        name = analyst.move_name(position, move)
        moves.append({"move": name, "moveName": name, "position": analyst.position_name(child),
                      "cells": move_cells(analyst.rules, position, move)})
    return _drawn(analyst, position, {"position": analyst.position_name(position), "moves": moves})


def move_entry(analyst: Any, position: Any, move: Any, child: Any, value: Any) -> dict:
    """A move's entry in :func:`position_record` but ``deltaRemoteness`` (which needs every move), from the value
    of the position it leads to (``value``, for the player to move there: see :meth:`Analyst.values_as_proved`).

    >>> from gamedp.analysis import Analyst
    >>> from gamedp.games.tictactoe import TicTacToe
    >>> analyst = Analyst(TicTacToe())
    >>> move_entry(analyst, "XX.OO....", 2, "XXXOO....", analyst.value("XXXOO...."))
    {'move': '3', 'moveName': '3', 'moveValue': 'win', 'position': 'XXXOO....', 'positionValue': 'lose', 'remoteness': 0}
    """
    from gamedp.gamesman import value_fields

    name = analyst.move_name(position, move)
    return {"move": name, "moveName": name, "moveValue": value.for_parent().outcome.value,
            "position": analyst.position_name(child), **value_fields(value, analyst.nimber(child))}


def _drawn(analyst: Any, position: Any, doc: dict) -> dict:
    return {"game": analyst.name, **doc, "text": analyst.draw(position), "board": board_svg(analyst.rules, position)}


def judgement_json(analyst: Any, judgement: Any) -> dict:
    """A depth-limited search's view of a position (a :class:`~gamedp.solvers.lookahead.Judgement`) in the shape
    of :func:`~gamedp.gamesman.gamesman_json`, plus ``depth``: a value the search did not prove is ``null``
    (``positionValue``, ``moveValue``; its remoteness -100), and its estimate (-1..1, for the player to move or
    the player making the move) is ``estimate`` or ``moveEstimate``; both are ``null`` where proven.

    >>> from gamedp.analysis import Analyst
    >>> from gamedp.games.tictactoe import TicTacToe
    >>> analyst = Analyst(TicTacToe(), depth=2)
    >>> doc = judgement_json(analyst, analyst.judge(analyst.read_position("XX.OO....")))
    >>> doc["positionValue"], doc["remoteness"], doc["estimate"], doc["depth"]
    ('win', 1, None, 2)
    >>> [(m["moveName"], m["moveValue"], m["moveEstimate"], m["positionValue"]) for m in doc["moves"]][:3]
    [('3', 'win', None, 'lose'), ('6', None, 0.0, None), ('7', 'lose', None, 'win')]
    """
    from gamedp.gamesman import REMOTENESS_UNKNOWN, child_value, delta_remoteness, value_fields
    from gamedp.solvers.lookahead import SCALE

    def fields(value: Any, score: int | None) -> dict:
        if value is not None:
            return {**value_fields(value), "estimate": None}
        return {"positionValue": None, "remoteness": REMOTENESS_UNKNOWN,
                "estimate": None if score is None else score / SCALE}

    position = judgement.position
    best = judgement.best
    doc = {"position": analyst.position_name(position), "depth": judgement.depth,
           **fields(judgement.value, None if best is None else best.score)}
    values = [j.value for j in judgement.moves]
    doc["moves"] = []
    for j, value, delta in zip(judgement.moves, values, delta_remoteness(values)):
        name = analyst.move_name(position, j.move)
        mover = fields(value, j.score)
        there = fields(None if value is None else child_value(value), None)  # for the player to move there
        doc["moves"].append({"move": name, "moveName": name,
                             "moveValue": mover["positionValue"], "moveEstimate": mover["estimate"],
                             "deltaRemoteness": delta, "position": analyst.position_name(j.child),
                             "positionValue": there["positionValue"], "remoteness": there["remoteness"]})
    return doc
