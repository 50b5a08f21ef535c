"""Why a position has its value, in plain sentences: the verdict, a perfect line, and for every other move the
opponent's best reply and how the game then ends.

Built on :class:`gamedp.analysis.Analyst`, so it explains any game the front ends know. Two games get their
own words: the card game counts the totals each first card leads to (why left beats right), and BLOCKGAME
names the pieces (the winning placement, and why each other placement loses).

>>> e = explain_cards([1, 2, 5, 2])
>>> print(e.text())  # doctest: +ELLIPSIS
The player to move takes 6 of the 10 points and the opponent 4, a margin of 2.
Perfect line: L (1), L (2), L (5), L (2).
Taking the left card (1) is best: with both playing perfectly from there you end with 6 against 4.
Taking the right card (2) is worse by 4: the opponent answers by taking the right card (5), and you end with 4 ...
>>> explain_cards([1, 2, 5, 2]).to_json()["moves"][0]["move"]
'L'
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Sequence

from gamedp.values import DRAW, LOSE, TIE, WIN, Analysis, Value


@dataclass
class MoveNote:
    move: str
    value: Value
    #: the opponent's best reply after this move (None when the opponent has no move)
    reply: str | None
    sentence: str


@dataclass
class Explanation:
    position: str
    value: Value
    verdict: str
    line: list[str]
    moves: list[MoveNote] = field(default_factory=list)

    def text(self) -> str:
        """The explanation as lines of text."""
        out = [self.verdict]
        out.append(f"Perfect line: {', '.join(self.line)}." if self.line else "No move is left: the game is over.")
        out += [note.sentence for note in self.moves]
        return "\n".join(out)

    def to_json(self) -> dict:
        return {"position": self.position, "value": self.value.to_json(), "verdict": self.verdict,
                "line": self.line,
                "moves": [{"move": n.move, "value": n.value.to_json(), "reply": n.reply, "sentence": n.sentence}
                          for n in self.moves]}


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def outcome_sentence(value: Value) -> str:
    """The value for the player to move, as a sentence.

    >>> outcome_sentence(Value(WIN, 3)), outcome_sentence(Value(LOSE, 0))
    ('The player to move wins: in 3 moves with perfect play.', 'The player to move loses: they have no move.')
    """
    r = value.remoteness
    if value.outcome is WIN:
        return "The player to move wins" + (f": in {_plural(r, 'move')} with perfect play." if r else ".")
    if value.outcome is LOSE:
        if r == 0:
            return "The player to move loses: they have no move."
        tail = f"; the longest they can hold out is {_plural(r, 'move')}" if r else ""
        return f"The player to move loses: every move has an answer that wins for the opponent{tail}."
    if value.outcome is TIE:
        return "With perfect play the game ends level."
    return "With perfect play the game never ends."


def explain(analyst: Any, position: Any, piece: Any = None) -> Explanation:
    """The explanation of ``position`` through ``analyst`` (a :class:`~gamedp.analysis.Analyst`).

    ``piece(position, move) -> str`` names a move in words (``placing a domino on d1-e1``); the default is
    ``playing`` and the move's notation.

    >>> from gamedp.analysis import Analyst
    >>> from gamedp.games.tictactoe import TicTacToe
    >>> analyst = Analyst(TicTacToe())
    >>> e = explain(analyst, analyst.read_position("XX. OO. ..."))
    >>> e.moves[0].sentence
    'Playing 3 is best: the game ends there, won.'
    """
    name = piece or (lambda p, m: f"playing {analyst.move_name(p, m)}")
    analysis: Analysis = analyst.analyze(position)
    line = [analyst.move_name(p, m) for p, m in analyst.line(position)]
    explanation = Explanation(analyst.position_name(position), analysis.value, outcome_sentence(analysis.value),
                              line)
    best = analysis.best
    for mv in analysis.moves:
        after = analyst.analyze(mv.child).best
        reply = None if after is None else name(mv.child, after.move)
        what = _capital(name(position, mv.move))
        losing = mv.value.outcome is LOSE
        if mv is best or mv.value == best.value:
            first = mv is best
            lead = ("holds out longest" if first else "holds out as long") if losing else \
                ("is best" if first else "is as good")
            sentence = f"{what} {lead}: " + _consequence(mv.value, reply)
        elif mv.value.outcome is WIN and best.value.outcome is WIN:
            sentence = (f"{what} also wins, but slower: in {_plural(mv.value.remoteness or 0, 'move')} instead "
                        f"of {best.value.remoteness}.")
        else:
            sentence = f"{what} {_verb(mv.value)}: " + _consequence(mv.value, reply)
        explanation.moves.append(MoveNote(analyst.move_name(position, mv.move), mv.value,
                                          None if after is None else analyst.move_name(mv.child, after.move),
                                          sentence))
    return explanation


def _consequence(value: Value, reply: str | None) -> str:
    """What follows a move of ``value`` (for its mover) when the opponent answers ``reply``."""
    r = value.remoteness
    if reply is None:
        ended = {WIN: "won", LOSE: "lost", TIE: "level"}.get(value.outcome, "drawn")
        return f"the game ends there, {ended}."
    if value.outcome is WIN:
        # without remoteness (values from nimbers) no answer is known to resist longest
        resists = "their longest resistance starts by" if r is not None else "for instance"
        return f"whatever the opponent answers ({resists} {reply}), you win" + \
            (f" in {_plural(r, 'move')}." if r else ".")
    if value.outcome is LOSE:
        if r == 2:
            return f"the opponent answers by {reply}, and you have no move left."
        later = f", {_plural(r - 1, 'move')} after yours" if r else ""
        return f"the opponent answers by {reply} and wins{later}."
    ending = "the game ends level" if value.outcome is TIE else "play goes on forever"
    return f"the opponent answers by {reply}, and with perfect play {ending}."


def _verb(value: Value) -> str:
    return {WIN: "wins", LOSE: "loses", TIE: "only ties", DRAW: "only draws"}[value.outcome]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- the card game: in totals ----------------------------------------------------------------------------------
CARD_ENDS = {"L": "the left card", "R": "the right card"}


def explain_cards(row: Sequence[int]) -> Explanation:
    """Why taking one end beats the other in Baekjoon 11062's game on ``row``, in final totals."""
    from gamedp.analysis import Analyst
    from gamedp.games.cards import Cards

    game = Cards(list(row))
    analyst = Analyst(game)
    start = game.start()
    total = sum(row)
    analysis = analyst.analyze(start)

    def card(p, move) -> str:
        taken = p.row[p.lo] if str(move) == "L" else p.row[p.hi - 1]
        return f"taking {CARD_ENDS[str(move)]} ({taken})"

    def totals(margin: int) -> str:
        return f"{(total + margin) // 2} against {(total - margin) // 2}"

    score = analysis.value.score
    verdict = (f"The player to move takes {(total + score) // 2} of the {total} points and the opponent "
               f"{(total - score) // 2}, a margin of {score}.")
    line = [f"{analyst.move_name(p, m)} ({p.row[p.lo] if str(m) == 'L' else p.row[p.hi - 1]})"
            for p, m in analyst.line(start)]
    explanation = Explanation(analyst.position_name(start), analysis.value, verdict, line)
    best = analysis.best
    for mv in analysis.moves:
        after = analyst.analyze(mv.child).best
        reply = None if after is None else card(mv.child, after.move)
        if mv is best:
            sentence = (f"{_capital(card(start, mv.move))} is best: with both playing perfectly from there you end "
                        f"with {totals(mv.value.score)}.")
        elif mv.value.score == best.value.score:
            sentence = f"{_capital(card(start, mv.move))} is as good: you also end with {totals(mv.value.score)}."
        else:
            answer = f"the opponent answers by {reply}, and " if reply else ""
            sentence = (f"{_capital(card(start, mv.move))} is worse by {best.value.score - mv.value.score}: "
                        f"{answer}you end with {totals(mv.value.score)}.")
        explanation.moves.append(MoveNote(str(mv.move), mv.value, after and str(after.move), sentence))
    return explanation


# -- BLOCKGAME: placements --------------------------------------------------------------------------------------
def explain_blockgame(board: str) -> Explanation:
    """Why a BLOCKGAME board is won or lost: the winning placement, and the answer to every other one.

    >>> e = explain_blockgame("..###\\n..###\\n#####\\n#####\\n#####")
    >>> print(e.text())
    The player to move wins: in 1 move with perfect play.
    Perfect line: a1-b1-a2.
    Placing an L-tromino on a1-b1-a2 is best: the game ends there, won.
    Placing an L-tromino on a1-b1-b2 is as good: the game ends there, won.
    Placing an L-tromino on a1-a2-b2 is as good: the game ends there, won.
    Placing an L-tromino on b1-a2-b2 is as good: the game ends there, won.
    Placing a domino on a1-b1 loses: the opponent answers by placing a domino on a2-b2, and you have no move left.
    Placing a domino on a1-a2 loses: the opponent answers by placing a domino on b1-b2, and you have no move left.
    Placing a domino on b1-b2 loses: the opponent answers by placing a domino on a1-a2, and you have no move left.
    Placing a domino on a2-b2 loses: the opponent answers by placing a domino on a1-b1, and you have no move left.
    """
    analyst = _blockgame_analyst()
    position = analyst.read_position(board)

    def piece(p, move) -> str:
        cells = analyst.move_name(p, move)
        kind = "an L-tromino" if cells.count("-") == 2 else "a domino"
        return f"placing {kind} on {cells}"

    return explain(analyst, position, piece)


@functools.lru_cache(maxsize=1)
def _blockgame_analyst() -> Any:
    """One for the process: its first analysis solves the whole table (about a second), later ones read it."""
    from gamedp.analysis import Analyst
    from gamedp.games.placement import Blockgame

    return Analyst(Blockgame())


# -- the grid game: one token ------------------------------------------------------------------------------------
def explain_grid(rows: Sequence[str], k: int, cell: tuple[int, int]) -> Explanation:
    """Why a token on 0-based ``cell`` of the grid game board ``rows`` (jumps up to ``k``) wins or loses.

    >>> print(explain_grid(["..", ".."], 1, (0, 0)).text())
    The player to move wins: in 1 move with perfect play.
    Perfect line: 1,1-2,2.
    Moving 1,1-2,2 is best: the game ends there, won.
    Moving 1,1-2,1 loses: the opponent answers by moving 2,1-2,2, and you have no move left.
    Moving 1,1-1,2 loses: the opponent answers by moving 1,2-2,2, and you have no move left.
    """
    from gamedp.analysis import Analyst
    from gamedp.games.grid import GridBoard, GridGame

    game = GridGame(GridBoard(list(rows), k=k), tokens=[cell])
    analyst = Analyst(game)
    return explain(analyst, game.start(), lambda p, m: f"moving {analyst.move_name(p, m)}")
