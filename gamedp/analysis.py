"""Engine choice: which engine values a game's positions, and the game's text as the front ends read and write it.

:class:`Analyst` is the one view of a game that every front end (``gamedp analyze``, ``play``, ``serve``,
``explain``, the web board, :mod:`gamedp.jupyter`, :mod:`gamedp.explain`) shares: its text notation and an engine
that values positions on demand; :func:`load_analyst` makes it for each of them the same way, and
:func:`solving_engine` picks the engine that ``gamedp solve`` saves from. A saved solve
(:mod:`gamedp.saved_solution`), when given, answers every position it holds; the others go to an engine, in this
order:

1. the game's own ``analyze(position) -> Analysis``, if it has one (a fast built-in solver);
2. else the game's own ``solution()``, an object with ``analyze(position) -> Analysis`` (and, if it can,
   ``value(position) -> Value``), made once, when the first position is asked;
   else the game's ``saved_solution(outcomes_only)``, when it gives one: its values read from the database
   ``gamedp solve`` made for it (:mod:`gamedp.solvers.database_answers`; connect4);
3. else the game's exact-score search, if it offers one (``score_search()``, :mod:`gamedp.solvers.score_search`:
   null-window searches over a table of bounded size, ``--memory``; connect4), answering any position;
4. else, when only outcomes are asked, the pruned engine (:mod:`gamedp.solvers.alphabeta`: alpha-beta, each move's
   exact outcome by its own search, one transposition table for all);
5. else the memo engine (:class:`gamedp.solvers.memo.Solution`), which searches lazily from the positions
   asked about, so a big game is only solved below the position on the board.

Impartial games (``impartial = True``) that offer ``nimber(position)`` also show nimbers.

With a search depth (``--depth D``), games too big to solve are judged instead by a depth-limited search
(:mod:`gamedp.solvers.lookahead`): :meth:`Analyst.judge` scores each move by the ends the search reaches,
the game's ``heuristic`` at its horizon, and the saved solve given or else the game's solved database where
there is one (``gamedp solve`` made it: every position it answers is exact), then the game's opening book
(``gamedp book`` made it: exact for every position it holds).

What a game gives the front ends, beyond its rules: ``parse_position`` for what people type, and a
``format_position`` whose drawing ``parse_position`` reads back (else ``str(position)`` must read back: the JSON
and ``--line`` name positions that way); ``format_move`` names moves (``parse_move`` reads them; the default
matches ``format_move``, ignoring case and spaces). Errors in text are raised as :class:`GamedpError` with a
message saying what was expected. In scored games a move may score points itself (its value to the mover is
then the points plus the negated value of the position it leads to): the front ends read the points off.

>>> from gamedp.games.tictactoe import TicTacToe
>>> analyst = Analyst(TicTacToe())
>>> board = analyst.read_position("XX. OO. ...")
>>> a = analyst.analyze(board)
>>> str(a.value), analyst.move_name(board, a.moves[0].move)
('WIN in 1', '3')
>>> analyst.position_name(board)
'XX.OO....'
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Iterator

from gamedp.errors import GamedpError
from gamedp.values import Analysis, Value

#: The longest search (in steps, about a move looked at each: a second or so) made for remoteness where nimbers
#: would value the position at once
QUICK_STEPS = 200_000


#: the most positions ``analyze`` searches for a partizan value before leaving it out
VALUE_POSITIONS = 100_000
#: the most new regions of a Domineering board ``analyze`` values for its partizan value (about 0.4 s: every
#: board up to 4 x 5; valuing a board by its positions would take seconds to give up on 5 x 5)
VALUE_REGIONS = 2_500


class Analyst:
    """A game as the front ends see it: text in and out, and values from the best engine it offers."""

    def __init__(self, game: Any, *, outcomes_only: bool = False, depth: int | None = None, saved: Any = None,
                 saved_only: bool = False, too_big: str | None = None, memory: int | None = None,
                 threads: int = 1, keeping: Any = None, executor: Any = None, spec: str | None = None):
        from gamedp.compiled import CompiledGame

        self.game = game
        #: the rules as a Python game (moves and their notation); compiled games name moves by their children
        self.rules = game.as_python_game() if isinstance(game, CompiledGame) else game
        self.name: str = getattr(game, "name", type(game).__name__)
        self.outcomes_only = outcomes_only
        self.scored = bool(getattr(game, "scored", False))
        own_nimber = getattr(game, "nimber", None)
        self._nimber = own_nimber if getattr(game, "impartial", False) and callable(own_nimber) else None
        #: the exact-score search's rules, where the game offers it: a bounded table (``memory`` bytes at most);
        #: a game offers it for positions its own analysis cannot reach, so it comes first
        from gamedp.solvers.score_search import score_rules

        self._score_rules = score_rules(game)
        self._values: Any = None  # partizan values (gamedp.cgt.search.Values), one memo for every position asked
        own_analyze = getattr(game, "analyze", None)
        self._own_analyze = own_analyze if callable(own_analyze) and self._score_rules is None else None
        self._solution: Any = None
        self._estimated = False  # whether the first position's search was found to fit
        #: a saved solve (gamedp.saved_solution) answers first: every position it holds, or all (``saved_only``)
        self.saved, self._saved_only = saved, saved_only
        #: the depth of a depth-limited search (None: values are exact, from a whole search)
        self.depth = depth
        self._lookahead: Any = None
        if depth is not None:  # made now, so that a game it cannot search (a scored one) is refused up front
            from gamedp.solvers.lookahead import Lookahead

            self._lookahead = Lookahead(self.rules, depth, known=self._known_values())
        #: what the refusal of a search too big to finish adds: the way out the front end offers (``--depth``)
        self._too_big = too_big
        self.memory = memory
        #: the threads of the exact-score search
        self.threads = threads
        #: how the exact-score search keeps a long search (a gamedp.solvers.search_checkpoint.Keeping), or None
        self.keeping = keeping
        #: the Dask cluster (a gamedp.executors executor) the exact-score search is split over, or None; ``spec``:
        #: the game as its workers load it
        self.executor, self._spec = executor, spec or self.name
        #: what the values leave out, to say beside them (None: nothing)
        self.note: str | None = None

    # -- values --------------------------------------------------------------------------------------------
    def analyze(self, position: Any) -> Analysis:
        """The position's value and every legal move's value, best first."""
        if self._from_saved(position):
            return self.saved.analyze(position)
        self._refuse_unless_fits(position)
        analysis = self._own_analyze(position) if self._own_analyze else self._engine().analyze(position)
        # A game's own engine may list moves in any order; the front ends promise best first (stable on ties).
        moves = tuple(sorted(analysis.moves, key=lambda mv: mv.value.rank(), reverse=True))
        return Analysis(analysis.position, analysis.value, moves)

    def book_move(self, position: Any) -> tuple[Any, Any] | None:
        """The best move of ``position`` (the first of the best, as :meth:`analyze`'s first) and the position it
        leads to, where the exact-score search's opening book keeps it (the positions a perfect player meets
        along the book's lines), searching nothing; None elsewhere, and in a depth-limited search."""
        rules: Any = self._score_rules  # a book's hooks are optional ones of ScoreRules
        if rules is None or self.depth is not None:
            return None
        book = getattr(self._engine(), "book", None)  # the search's (a saved solve answers without one)
        if book is None or rules.moves_made(position) >= book.reach:  # past its lines: no need to read them
            return None
        index = book.best_move(rules.line_key(position))
        return None if index is None else rules.children(position)[index]

    def values_as_proved(self, position: Any) -> Iterator[tuple[Any, Any, Value]]:
        """Each legal move of ``position`` with the position it leads to and that position's value, one at a time
        as each is found, so that a board fills them in meanwhile (refused up front as :meth:`analyze` refuses).
        Nothing where a move's value does not follow from its position's alone: in scored games (a move may score
        points itself) and in a depth-limited search (which judges the moves together)."""
        if self.scored or self.depth is not None:
            return
        if not self._from_saved(position):
            self._refuse_unless_fits(position)
        for move, child in self.rules.move_list(position):
            yield move, child, self.value(child)

    def analyze_from(self, position: Any, values: dict[Any, Value]) -> Analysis:
        """:meth:`analyze` of a position whose moves' positions are valued already (``values``, by
        :meth:`values_as_proved`): its value is its best move's, so nothing is searched again."""
        from gamedp.values import analysis_of

        children = self.rules.move_list(position)
        if not children:
            return self.analyze(position)
        moves = analysis_of(position, values[children[0][1]], children, values.__getitem__).moves  # best first
        return Analysis(position, moves[0].value, moves)

    def stop(self) -> bool:
        """Stop the search under way in another thread, where its engine can (the exact-score search: the query
        raises KeyboardInterrupt; :meth:`resume` once it has); False where it cannot (a search in Python)."""
        stop = getattr(self._solution, "stop", None)
        if stop is None:
            return False
        stop()
        return True

    def resume(self) -> None:
        """Value positions again after :meth:`stop`, once the stopped search has returned."""
        resume = getattr(self._solution, "resume", None)
        if resume is not None:
            resume()

    def judge(self, position: Any, every: bool = True) -> Any:
        """The moves of ``position`` scored by the search ``depth`` moves deep, best first (a
        :class:`~gamedp.solvers.lookahead.Judgement`; ``every=False``: only the best move is searched)."""
        if self._lookahead is None:
            raise GamedpError("judging moves needs a search depth (--depth D)")
        return self._lookahead.judge(position, every)

    def _known_values(self) -> Any:
        """A lookup of exact values for the depth-limited search: the saved solve given, else the game's solved
        database, if there is one (its ``saved_solution`` hook); then the game's opening book, where ``gamedp
        book`` made one; positions none of them holds are searched."""
        from gamedp.solvers.opening_book import book_values

        if self.saved is not None:
            stored = self.saved.known
        else:
            saved = getattr(self.game, "saved_solution", None)
            solved = saved(True) if callable(saved) else None  # values without remoteness are exact ends too
            stored = None if solved is None else solved.known
        book = None if self._score_rules is None else book_values(self._score_rules)
        if stored is None or book is None:
            return stored or book

        def known(position: Any) -> Value | None:
            value = stored(position)
            return book(position) if value is None else value

        return known

    def value(self, position: Any) -> Value:
        if self._from_saved(position):
            return self.saved.value(position)
        if self._own_analyze:
            return self._own_analyze(position).value
        engine = self._engine()
        return engine.value(position) if hasattr(engine, "value") else engine.analyze(position).value

    def value_alone(self, position: Any) -> Value:
        """The value of a position asked on its own (``gamedp value``'s lines are not below one another, as the
        positions after ``analyze``'s first are): refused up front, or valued through nimbers, as ``analyze``
        refuses or values its first position."""
        if self._from_saved(position) or self._own_analyze:
            return self.value(position)
        self._estimated, self.note = False, None
        self._refuse_unless_fits(position)
        if self.note is not None:
            from gamedp.solvers.by_nimbers import NimberSolution

            return NimberSolution(self.rules).value(position)
        return self.value(position)

    def _from_saved(self, position: Any) -> bool:
        return self.saved is not None and (self._saved_only or position in self.saved)

    def partizan_value(self, position: Any) -> Any:
        """The position's partizan value (:mod:`gamedp.cgt`) where the game gives Left's and Right's options and
        is not impartial (whose nimber says as much), if it is found within :data:`VALUE_POSITIONS`; else None."""
        from gamedp.game import Game, overrides

        if not isinstance(self.rules, Game) or getattr(self.rules, "impartial", False) \
                or not overrides(self.rules, "options"):
            return None
        from gamedp.errors import ResourceError
        from gamedp.games.placement import Domineering

        try:
            if isinstance(self.rules, Domineering):  # by its regions, each valued once up to symmetry
                from gamedp.cgt import domineering

                rules = self.rules.rules
                return domineering.value_within((rules.rows, rules.cols, ~position & rules.full), VALUE_REGIONS)
            if self._values is None:
                from gamedp.cgt.search import Values

                self._values = Values(self.rules, most=VALUE_POSITIONS)
            return self._values.value(position)
        except (ResourceError, RecursionError):
            return None

    def partizan_fields(self, position: Any) -> dict[str, str]:
        """``partizanValue`` (the value in CGSuite's notation) and ``partizanLeft`` (the player who is Left, where
        the game names its players), as ``analyze --json`` and the web board show them; empty where the value is
        not known (see :meth:`partizan_value`)."""
        value = self.partizan_value(position)
        if value is None:
            return {}
        names = getattr(self.rules, "player_names", None)
        return {"partizanValue": str(value), **({"partizanLeft": names[0]} if names else {})}

    def partizan_line(self, position: Any) -> str | None:
        """``partizan value: {2|-1/2} (Left: Vertical)``, or None where the value is not known."""
        fields = self.partizan_fields(position)
        if not fields:
            return None
        left = fields.get("partizanLeft")
        return f"partizan value: {fields['partizanValue']}" + (f" (Left: {left})" if left else "")

    def nimber(self, position: Any) -> int | None:
        """The position's nimber where the game offers one, else ``None``."""
        return None if self._nimber is None else int(self._nimber(position))

    def child_nimbers(self, analysis: Analysis) -> list[int | None] | None:
        """The nimbers of the positions the moves lead to, where the game offers nimbers."""
        return None if self._nimber is None else [self.nimber(mv.child) for mv in analysis.moves]

    def child_values(self, analysis: Analysis) -> list[Value] | None:
        """The values of the positions the moves lead to, where they cannot be read off the moves.

        Only scored games need this: there a move may score points itself (a card taken), so the child's score is
        not just the move's negated.
        """
        return [self.value(mv.child) for mv in analysis.moves] if self.scored else None

    def line(self, position: Any, limit: int = 500) -> list[tuple[Any, Any]]:
        """A perfect line of play from ``position``: (position before, move) pairs, until the end or a repetition."""
        seen = {position}
        line: list[tuple[Any, Any]] = []
        while len(line) < limit:
            best = self.analyze(position).best
            if best is None:
                break
            line.append((position, best.move))
            position = best.child
            if position in seen:
                break
            seen.add(position)
        return line

    def _refuse_unless_fits(self, position: Any) -> None:
        """A game that can say what a search from ``position`` needs is refused up front: its bytes
        (``memory_estimate``) against the memory available, its steps (``work_estimate``, about a move looked at each)
        against ``WORK_LIMIT``, a search of minutes. An impartial game with nimbers is instead valued through them
        (:mod:`gamedp.solvers.by_nimbers`: no remoteness) where the search would take more than ``QUICK_STEPS``.

        Only the first position is estimated: the front ends then ask about positions below it.
        """
        if self._estimated or self._own_analyze is not None or self._score_rules is not None:
            return
        from gamedp.errors import ResourceError
        from gamedp.memory import available_memory, refuse_unless_fits
        from gamedp.solvers.memo import WORK_LIMIT

        what = f"searching {self.name} from {self.position_name(position)}"
        estimate = getattr(self.game, "memory_estimate", None)
        work = getattr(self.game, "work_estimate", None)
        try:
            need = estimate(position) if callable(estimate) else 0
            steps = work(position) if callable(work) else 0
            if (steps > QUICK_STEPS or need > available_memory()) and self._nimber_known(position):
                self.note = (f"remoteness not computed: valued through nimbers (a nimber of 0 loses), as a search "
                             f"for remoteness would take up to {steps:,} steps")
            else:
                if need > available_memory():
                    refuse_unless_fits(need, what)
                if steps > WORK_LIMIT:
                    raise ResourceError(f"{what} takes up to {steps:.1e} steps (a move looked at is one), more "
                                        f"than the {WORK_LIMIT:,} a search does in a couple of minutes; try a "
                                        "smaller position")
        except ResourceError as e:
            if self.scored or self._too_big is None:  # depth-limited search is for win/lose/tie games
                raise
            raise ResourceError(f"{e}; {self._too_big}") from None
        self._estimated = True

    def _nimber_known(self, position: Any) -> bool:
        """Whether the game's nimbers can value ``position`` instead of a search (their own tables may be too big)."""
        from gamedp.errors import ResourceError

        if self._nimber is None or self.depth is not None:
            return False
        try:
            self._nimber(position)
        except ResourceError:
            return False
        return True

    def _engine(self) -> Any:
        if self._solution is None:
            from gamedp.compiled import CompiledGame

            own = getattr(self.game, "solution", None)
            saved = getattr(self.game, "saved_solution", None)
            if callable(own):
                self._solution = own()
            elif callable(saved) and (stored := self._stored(saved)) is not None:
                self._solution = stored
            elif self.note is not None:
                from gamedp.solvers.by_nimbers import NimberSolution

                self._solution = NimberSolution(self.rules)
            elif self._score_rules is not None and self.executor is not None:
                from gamedp.solvers.split_search import SplitSearch

                self._solution = SplitSearch(self._score_rules, self._spec, self.executor, memory=self.memory,
                                             outcomes_only=self.outcomes_only, keeping=self.keeping)
            elif self._score_rules is not None:
                # Any position of a board too big to solve whole: exact scores, in a table of bounded size.
                from gamedp.cores import usable_threads
                from gamedp.solvers.score_search import ScoreSearch

                self._solution = ScoreSearch(self._score_rules, memory=self.memory, outcomes_only=self.outcomes_only,
                                             threads=usable_threads(self.threads), keeping=self.keeping)
            elif self.outcomes_only and not self.scored:
                # Outcomes only: every move's exact outcome by pruned searches sharing one table, far less
                # than valuing every position below (remoteness gains little from pruning: the memo engine).
                from gamedp.solvers.alphabeta import pruned_solution

                self._solution = pruned_solution(self.game)
            elif isinstance(self.game, CompiledGame) and hasattr(self.game.children_kernel, "overloads"):
                # numba kernels (a plain function may stand in for one): the compiled search, no Python per position
                from gamedp.solvers.compiled import CompiledSolution

                self._solution = CompiledSolution(self.game, outcomes_only=self.outcomes_only)
            else:
                from gamedp.solvers.memo import Solution

                self._solution = Solution(self.rules, outcomes_only=self.outcomes_only)
        return self._solution

    def _stored(self, saved: Any) -> Any:
        """The game's database as an engine (its ``saved_solution`` hook), or None; a database that lacks the
        remoteness asked for is said so once, since the search that answers instead may take a while."""
        stored = saved(self.outcomes_only)
        if stored is None and not self.outcomes_only and saved(True) is not None:
            _warn(f"the database of {self.name} stores no remoteness (solved without -r), so positions are "
                  "searched; solve it again with -r to store it, or answer from it with --outcomes-only")
        return stored

    # -- text ----------------------------------------------------------------------------------------------
    def start(self) -> Any:
        return self.game.start()

    def read_position(self, text: str) -> Any:
        """The position written as ``text`` in the game's notation; a clear error otherwise."""
        try:
            return self.game.parse_position(text)
        except GamedpError:
            raise
        except Exception as e:  # a user's own parser failing still means the position was not understood
            raise GamedpError(f"cannot read {text.strip()!r} as a {self.name} position: {type(e).__name__}: {e}") \
                from None

    def draw(self, position: Any) -> str:
        """The position as the game draws it (a board, several lines)."""
        return self.game.format_position(position)

    def position_name(self, position: Any) -> str:
        """The position on one line, in a notation that :meth:`read_position` reads back (for JSON and commands).

        A game's own ``format_position_line`` when it has one; else the first of these that reads back as the
        same position: the game's drawing if it is one line, ``str(position)``, the drawing with its spaces and
        line breaks taken out; failing all, the drawing itself.
        """
        own = getattr(self.game, "format_position_line", None)
        if callable(own):
            return own(position)
        drawn = self.draw(position)
        candidates = [drawn, str(position), "".join(drawn.split())]
        for text in candidates if "\n" not in drawn.strip() else candidates[1:]:
            try:
                if self.game.parse_position(text) == position:
                    return text
            except Exception:  # only probing which notation reads back; a failure just rules this one out
                continue
        return drawn

    def move_name(self, position: Any, move: Any) -> str:
        return self.rules.format_move(position, move)

    def read_move(self, position: Any, text: str) -> Any:
        """The legal move written as ``text``; a :class:`GamedpError` listing the legal moves otherwise."""
        legal = [move for move, _ in self.rules.move_list(position)]
        try:
            move = self.rules.parse_move(position, text)
        except GamedpError:
            raise
        except Exception:  # a user's own move parser failing means the text names no legal move
            move = None
        if move is None or move not in legal:
            shown = ", ".join(self.move_name(position, m) for m in legal) or "none"
            raise GamedpError(f"{text.strip()!r} is not a legal move here; legal moves: {shown}")
        return move


def load_analyst(spec: str, command: str, *, db: str | None = None, outcomes_only: bool = False,
                 depth: int | None = None, warn: bool = True, memory: int | None = None,
                 threads: int = 1, keeping: Any = None, executor: Any = None) -> Analyst:
    """GAME (``spec``, as the command line names it) as ``analyze``, ``play``, ``serve`` and ``explain`` see it.

    Its saved solve (:func:`open_for_game`: ``db``, else the default place) answers every
    position it holds and the engines the others; with ``db``, the save must be there and usable and answers
    alone (a depth-limited search still searches what it lacks); a save that cannot be used is a warning
    (``warn=False``: already given) and the engines answer. A search too big to finish is refused with the way
    out ``command`` offers.
    """
    import shlex

    from gamedp.loader import load_game
    from gamedp.solvers.score_search import score_rules

    game = load_game(spec)
    if threads != 1 and score_rules(game) is None:
        raise GamedpError(f"--threads shares the search of a game searched one position at a time; {spec} is "
                          "solved by an engine that runs in one thread (leave --threads out)")
    if executor is not None and score_rules(game) is None:
        raise GamedpError(f"--workers splits the search of a game searched one position at a time; {spec} is "
                          "solved by an engine that keeps every position it meets (leave --workers out)")
    # A depth-limited search takes exact values without remoteness as ends too.
    saved = open_for_game(spec, game, db, required=db is not None, remoteness=not outcomes_only and depth is None,
                          warn=warn)
    name = shlex.quote(spec)
    too_big = {
        "serve": f"gamedp serve {name} --depth D serves it by a search D moves deep (e.g. --depth 8)",
        "explain": "explain shows why each move has its exact value, which a search this big cannot give; "
                   f"gamedp analyze {name} POSITION --depth D judges every move by a search D moves deep "
                   "(e.g. --depth 8)",
        "value": None,  # exact values only
    }.get(command, f"{command} searches only D moves deep with --depth D (e.g. --depth 8)")
    return Analyst(game, outcomes_only=outcomes_only, depth=depth, saved=saved, saved_only=db is not None,
                   too_big=too_big, memory=memory, threads=threads, keeping=keeping, executor=executor, spec=spec)


def solve_again(spec: str, path: Path, game: Any, db: str | None) -> str:
    """The command that makes GAME's save at ``path`` again (``db``: where the user asked for it)."""
    from gamedp.saved_identity import default_path

    where = "" if db is None or path == default_path(game) else f" --db {path}"
    return f"solve again: gamedp solve {spec}{where}"


def solving_engine(game: Any, outcomes_only: bool) -> Any:
    """The engine that solves ``game`` whole for a save: the compiled search where the game has numba kernels,
    else the memo engine."""
    from gamedp.compiled import CompiledGame

    if isinstance(game, CompiledGame) and hasattr(game.children_kernel, "overloads"):
        from gamedp.solvers.compiled import CompiledSolution

        return CompiledSolution(game)  # the full search: what is saved is everything reachable anyway
    from gamedp.solvers.memo import Solution

    return Solution(game.as_python_game() if isinstance(game, CompiledGame) else game, outcomes_only=outcomes_only)


def open_for_game(spec: str, game: Any, db: str | None, required: bool, remoteness: bool = False,
                  warn: bool = True) -> Any:
    """GAME's save (at ``db``, else the default place), or ``None`` when there is none and none is ``required``.

    A save that is there but cannot be used (damaged, stale, another game's) is an error when ``required``, else
    a one-line warning (unless not to ``warn``: it was given already), and the caller answers by searching; so is
    one without the ``remoteness`` asked for.
    """
    from gamedp.database import DatabaseError
    from gamedp.saved_identity import default_path
    from gamedp.saved_solution import open_saved

    path = default_path(game, db)
    if not path.exists():
        if required:
            raise GamedpError(f"no saved solve of {getattr(game, 'name', spec)} at {path}; create it with: "
                              f"gamedp solve {spec}{'' if db is None else f' --db {path}'}")
        return None
    try:
        saved = open_saved(path, game, solve_again(spec, path, game, db))
    except DatabaseError as e:
        if required:
            raise
        if warn:
            _warn(f"not answering from {path}: {e}")
        return None
    if remoteness and not saved.has_remoteness and not required:
        saved.close()  # solved for outcomes only: the search gives what is asked
        return None
    return saved


def _warn(text: str) -> None:
    """A one-line warning on standard error: the answer still comes, from another engine."""
    print(f"gamedp: {text}", file=sys.stderr)
