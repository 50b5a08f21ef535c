"""What the web board and Jupyter show of a position: the ``analyze --json`` record, plus its drawing.

:func:`position_record` is GamesmanUni's record (see :mod:`gamedp.gamesman`) with a few fields for drawing:
``game``, ``text`` (the game's own drawing in text), ``board`` (SVG, or ``None``: see
:mod:`gamedp.drawing`), and on each move ``cells``, the parts of the board that make it when clicked.

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


def position_record(analyst: Any, position: Any) -> dict:
    """Everything a board shows of ``position`` (an :class:`~gamedp.analysis.Analyst`'s game), as JSON data;
    with a search depth (``analyst.depth``), as :func:`judgement_json` gives it."""
    if analyst.depth is not None:
        judgement = analyst.judge(position)
        doc, moves = judgement_json(analyst, judgement), judgement.moves
    else:
        analysis = analyst.analyze(position)
        doc = gamesman_json(analysis, lambda m: analyst.move_name(position, m), analyst.position_name,
                            nimber=analyst.nimber(position), child_values=analyst.child_values(analysis),
                            child_nimbers=analyst.child_nimbers(analysis))
        doc.update(analyst.partizan_fields(position))
        moves = analysis.moves
    for entry, mv in zip(doc["moves"], moves):
        entry["cells"] = move_cells(analyst.rules, position, mv.move)
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
