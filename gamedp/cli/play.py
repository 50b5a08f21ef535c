"""``gamedp play GAME [POSITION]``: a game in the terminal against the perfect opponent.

The computer plays the best move of the analysis (:mod:`gamedp.analysis`): it wins as fast as it can,
holds a tie or a draw, and when lost holds out as long as it can; among equal moves it takes the first one the
game lists, so a game is the same every time. Where the game's opening book keeps the best move (along a perfect
player's lines: ``gamedp book GAME --lines PLIES``), the computer plays it at once, searching nothing.

Commands at the prompt: a move in the game's notation (the legal ones are listed each turn), ``hint`` (every
move's value, best first; in a partizan game also the position's value, where it is found), ``undo`` (take back
your last move and the reply), ``help``, ``quit``.
Typed at a terminal, values are in colour and lines can be edited; with input piped in there is no colour and
each line read is echoed after its prompt, so the transcript reads like a session; the end of the input ends
the game.

With ``--depth D`` the opponent is a search D moves deep instead (:meth:`Analyst.judge`), for games too big to
solve: it plays perfectly wherever its search reaches the end or the game's database answers, and says what it
judged each move it makes; ``hint`` then shows every move's score by the same search.

A saved solve of the game (``gamedp solve GAME [POSITION]``; ``--db FILE`` names one) answers every position it
holds, as in ``analyze``: the opponent plays from it, and a ``--depth`` search takes its values as exact ends.

A long search shows how far it is: a progress line on a terminal, or one plain line on stderr every few seconds
when piped (a program at the prompt sees that it is alive). Ctrl-C ends the game, at the prompt or during a
search, and prints the moves so far and the command that goes on from there; the exit status is 130.
"""

from __future__ import annotations

import inspect
import sys
from dataclasses import dataclass
from typing import Any, TextIO

import click

from gamedp.analysis import Analyst, load_analyst
from gamedp.cli.arguments import (NumbersCommand, board_spec, depth_option, memory_option, position_argument,
                                  read_position_argument, saved_option, variant_option)
from gamedp.errors import GamedpError
from gamedp.values import Analysis, Value

HELP = """\
Type a move as listed under the board, or one of:
  hint   every move's value for you, best first (and a partizan game's value)
  undo   take back your last move (and the computer's reply)
  help   this text
  quit   stop the game"""
PROMPT = "your move> "


@dataclass
class _Turn:
    """What undo goes back to: a position where it was your turn, the points scored and the moves made before it."""

    position: Any
    margin: Any
    moves: int


class Match:
    """One game between a person (reading ``source``) and the perfect opponent."""

    def __init__(self, analyst: Analyst, position: Any, *, human_first: bool, hints: bool, source: TextIO,
                 typed: bool, color: bool):
        from gamedp.render import console

        self.analyst = analyst
        self.position = position
        self.human_to_move = human_first
        self.hints = hints
        self.source = source
        self.typed = typed  # read from a person at a terminal (line editing), not piped in (echoed)
        self.out = console(color=color)
        #: points scored by moves so far, from your side (scored games whose moves score)
        self.margin: Any = 0
        self.history: list[_Turn] = []
        #: the names of the moves made so far (both sides), for the game so far when it is interrupted
        self.moves: list[str] = []
        self._pending: Any = None  # the score of the move just made, settled when its child is valued

    def run(self) -> None:
        out = self.out
        opponent = "the perfect opponent" if self.analyst.depth is None else \
            f"a search {self.analyst.depth} moves deep"
        out.print(f"{self.analyst.name}: you against {opponent}. "
                  f"{'You move' if self.human_to_move else 'The computer moves'} first. Type 'help' for commands.")
        while True:
            if not self.human_to_move and (kept := self.analyst.book_move(self.position)) is not None:
                out.print(f"The computer plays {self.analyst.move_name(self.position, kept[0])}.")
                self._play(*kept)  # the search's games score nothing by a move itself: no points to add
                continue
            analysis = self._analyze()
            if not analysis.moves:
                self._finish(analysis)
                return
            if not self.human_to_move:
                best = analysis.best
                judged = "" if self.analyst.depth is None else f" ({best})"
                out.print(f"The computer plays {self.analyst.move_name(self.position, best.move)}{judged}.")
                self._play(best.move, best.child, best.value)
                continue
            if not self._human_turn(analysis):
                return

    # -- turns ---------------------------------------------------------------------------------------------
    def _human_turn(self, analysis: Analysis) -> bool:
        """Read commands until a move is made (True) or the person stops (False)."""
        self._show_board()
        if self.hints:
            self._hint(analysis)
        while True:
            text = self._read()
            if text is None:
                self.out.print("Input ended; the game is left unfinished.")
                return False
            command = text.strip().lower()
            if not command:
                continue
            if command == "quit":
                self.out.print("Bye.")
                return False
            if command == "help":
                self.out.print(HELP)
                rules = type(self.analyst.game).__doc__  # the game's own, not one inherited from Game
                if rules:
                    self.out.print(f"\n{self.analyst.name}: {inspect.cleandoc(rules)}")
            elif command == "hint":
                self._hint(analysis)
            elif command == "undo":
                if not self.history:
                    self.out.print("Nothing to undo: you have not moved yet.")
                    continue
                turn = self.history.pop()
                self.position, self.margin, self._pending = turn.position, turn.margin, None
                del self.moves[turn.moves:]
                self.out.print("Taken back.")
                return True
            else:
                try:
                    move = self.analyst.read_move(self.position, text)
                except GamedpError as e:
                    self.out.print(f"{str(e).rstrip('.')}. Try again (or 'help').")
                    continue
                self.history.append(_Turn(self.position, self.margin, len(self.moves)))
                played = next(mv for mv in analysis.moves if mv.move == move)
                self._play(played.move, played.child, played.value)
                return True

    def _play(self, move: Any, child: Any, value: Value | None = None) -> None:
        """Make ``move`` (to ``child``), whose ``value`` for its mover settles the points it scores, if known."""
        self.moves.append(self.analyst.move_name(self.position, move))
        self._pending = None if value is None else value.score
        self.position = child
        self.human_to_move = not self.human_to_move

    def _analyze(self) -> Analysis:
        if self.analyst.depth is not None:  # only the best move is searched; hint searches the others
            return self.analyst.judge(self.position, every=False)
        analysis = self.analyst.analyze(self.position)
        if self._pending is not None and analysis.value.score is not None:
            # What the last move scored by itself: its value to the mover plus what the position it reached is
            # worth to the other side (0 unless moves score, as taking a card does; else the score is in the position).
            points = self._pending + analysis.value.score
            self.margin += -points if self.human_to_move else points
            self._pending = None
        return analysis

    # -- drawing -------------------------------------------------------------------------------------------
    def _show_board(self) -> None:
        out = self.out
        out.print()
        out.print(self.analyst.draw(self.position))
        # In the game's own order, not best first: the list must not give the answer away.
        names = [self.analyst.move_name(self.position, m) for m, _ in self.analyst.rules.move_list(self.position)]
        out.print("Your moves: " + ", ".join(names))

    def _hint(self, analysis: Analysis) -> None:
        from gamedp.render import analysis_lines, judgement_lines

        def name(move: Any) -> str:
            return self.analyst.move_name(self.position, move)

        if self.analyst.depth is not None:
            for text in judgement_lines(self.analyst.judge(self.position), name, mover="you"):
                self.out.print(text)
            return
        for text in analysis_lines(analysis, name,
                                   nimber=self.analyst.nimber(self.position),
                                   child_nimbers=self.analyst.child_nimbers(analysis), mover="you"):
            self.out.print(text)
        partizan = self.analyst.partizan_line(self.position)
        if partizan is not None:
            self.out.print(partizan, markup=False)

    def _finish(self, analysis: Analysis) -> None:
        from gamedp.render import result_text

        out = self.out
        out.print()
        out.print(self.analyst.draw(self.position))
        value = analysis.value
        outcome = value.outcome if self.human_to_move else value.outcome.flipped()
        margin = None
        if value.score is not None:
            from gamedp.values import outcome_of_score

            margin = self.margin + (value.score if self.human_to_move else -value.score)
            outcome = outcome_of_score(margin)
        out.print("Game over. ", result_text(outcome, margin), sep="")

    def _read(self) -> str | None:
        if self.typed:
            try:
                import readline  # noqa: F401  (line editing and history for input(), where the platform has it)
            except ImportError:
                pass
            try:
                return input(PROMPT)
            except EOFError:
                self.out.print()
                return None
        self.out.print(PROMPT, end="")
        sys.stdout.flush()
        line = self.source.readline()
        if not line:
            self.out.print()
            return None
        line = line.rstrip("\r\n")
        self.out.print(line)  # echoed, so a piped transcript shows what was played
        return line


@click.command(cls=NumbersCommand)
@click.argument("game")
@position_argument
@variant_option
@click.option("--first", type=click.Choice(["human", "computer"]), default="human", show_default=True,
              help="Who makes the first move from POSITION.")
@click.option("--hints", is_flag=True, help="Show every move's value at each of your turns.")
@click.option("--outcomes-only", is_flag=True,
              help="Solve win/lose/tie only (faster on big games); the computer then wins, but not fastest.")
@saved_option
@depth_option
@memory_option
def play(game: str, position: tuple[str, ...], variant: tuple[str, ...], first: str, hints: bool, outcomes_only: bool,
         db: str | None, depth: int | None, memory: int | None) -> None:
    """Play GAME against the perfect opponent, from POSITION (the game's notation; default: the start).

    GAME is a built-in name, module:attribute, or path/to/file.py[:attribute]. Type moves as listed under the
    board; 'hint' shows every move's value, 'undo' takes your last move back, 'quit' stops. Moves can be piped
    in, one per line.
    """
    if position == ("-",):
        raise GamedpError("play reads moves from standard input, so POSITION cannot be '-'; pass the position "
                          "as an argument (quote it if it has several lines)")
    from gamedp.progress import report_when_piped

    report_when_piped()
    spec = board_spec(game, variant)
    analyst = load_analyst(spec, "play", db=db, outcomes_only=outcomes_only, depth=depth, memory=memory)
    start = read_position_argument(analyst, position)
    typed = sys.stdin.isatty()
    match = Match(analyst, start, human_first=first == "human", hints=hints, source=sys.stdin, typed=typed,
                  color=typed and sys.stdout.isatty())
    try:
        match.run()
    except KeyboardInterrupt:
        _so_far(match, spec, start)
        raise  # gamedp: interrupted, exit status 130


def _so_far(match: Match, spec: str, start: Any) -> None:
    """The game so far, when Ctrl-C ends it: its moves, and the command that plays on from where it stopped."""
    import shlex

    analyst = match.analyst
    first = "human" if match.human_to_move else "computer"
    where = "the start" if start == analyst.start() else shlex.quote(analyst.position_name(start))
    at = [] if match.position == analyst.start() else [analyst.position_name(match.position)]
    command = shlex.join(["gamedp", "play", spec, *at, "--first", first])
    print(f"\nInterrupted. The game so far, from {where}: {', '.join(match.moves) or 'no moves'}.\n"
          f"To play on: {command}", flush=True)
