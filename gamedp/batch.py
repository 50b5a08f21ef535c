"""``gamedp value GAME``: positions read one a line from standard input, each answered as soon as it is read.

Every line is a position in the game's notation; the answer is one line ``POSITION<TAB>VALUE<TAB>REMOTENESS``
(``-`` for the remoteness with ``--outcomes-only``), or with ``--json`` one JSON object a line, adding the
positions the search explored and the seconds it took. A line that is not a position gets one error line on
stderr naming its line number, and the lines after it are still answered; the run then ends with exit status
2. Games that offer the exact-score search (:mod:`gamedp.solvers.score_search`) keep its table across the
lines; the others are answered by the engine ``analyze`` would use.

This module imports neither click nor numpy, so that ``gamedp value connect4`` starts as fast as Python.

>>> import io
>>> from gamedp.games.connect4 import Connect4
>>> out, err = io.StringIO(), io.StringIO()
>>> game = Connect4(4, 4)
>>> answer_lines(score_reader(game, game.score_search()), io.StringIO("1\\n\\n12345\\n"), out, err)
2
>>> out.getvalue()
'1\\tTIE\\t15\\n'
>>> print(err.getvalue(), end="")
gamedp: error: line 2: the line is empty; write a position (connect4 4x4: the columns played, e.g. 4453, or the board drawn)
gamedp: error: line 3: connect4 4x4: column 5 at move 5 is not a column of this board (1..4)
"""

from __future__ import annotations

import json
import time
from typing import Any, Callable, TextIO

from gamedp.errors import GamedpError
from gamedp.values import Value

#: What a batch answers a line with: its (value, positions explored, None where the engine does not count), or a
#: GamedpError saying what is wrong.
Reader = Callable[[str], tuple[Value, "int | None"]]


def answer_lines(read: Reader, lines: TextIO, out: TextIO, err: TextIO, *, as_json: bool = False) -> int:
    """Answer every line of ``lines`` with ``read``; returns how many lines were refused."""
    refused = 0
    for number, line in enumerate(lines, 1):
        text = line.strip()
        started = time.perf_counter() if as_json else 0.0
        try:
            value, explored = read(text)
        except GamedpError as e:
            refused += 1
            err.write(f"gamedp: error: line {number}: {e}\n")
            err.flush()
            continue
        remoteness = "-" if value.remoteness is None else str(value.remoteness)
        if as_json:
            out.write(json.dumps({"line": number, "position": text, "value": value.outcome.name,
                                  "remoteness": value.remoteness, "explored": explored,
                                  "seconds": round(time.perf_counter() - started, 6)}) + "\n")
        else:
            out.write(f"{text}\t{value.outcome.name}\t{remoteness}\n")
        out.flush()
    return refused


def empty_line(game: Any) -> GamedpError:
    notation = getattr(game, "notation", None) or "its notation: see `gamedp games`"
    return GamedpError(f"the line is empty; write a position ({getattr(game, 'label', game.name)}: {notation})")


def score_reader(game: Any, rules: Any, *, memory: int | None = None, outcomes_only: bool = False,
                 progress: bool = True) -> Reader:
    """A reader for a game with the exact-score search (``rules``, what its hook gave): one table for every
    line."""
    from gamedp.solvers.score_search import ScoreSearch

    search = ScoreSearch(rules, memory=memory, outcomes_only=outcomes_only, progress=progress)
    read_moves = getattr(rules, "read_moves", game.parse_position)

    def read(text: str) -> tuple[Value, int | None]:
        if not text:
            raise empty_line(game)
        value = search.value(read_moves(text))
        return value, search.explored

    return read


def analyst_reader(analyst: Any) -> Reader:
    """A reader for any other game: the engine ``analyze`` uses, one for every line."""

    def read(text: str) -> tuple[Value, int | None]:
        if not text:
            raise empty_line(analyst.game)
        return analyst.value(analyst.read_position(text)), None

    return read


def fast_value(spec: str) -> int:
    """``gamedp value GAME`` with no options, for a game with the exact-score search: the answers without
    importing the command line's libraries. Returns the exit status, or -1 when GAME takes the full path."""
    import sys

    from gamedp.loader import load_game

    try:
        game = load_game(spec)
    except GamedpError:
        return -1
    from gamedp.solvers.score_search import score_rules

    rules = score_rules(game)
    if rules is None:
        return -1
    refused = answer_lines(score_reader(game, rules), sys.stdin, sys.stdout, sys.stderr)
    return 2 if refused else 0
