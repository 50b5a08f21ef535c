"""Your own game on the exact-score search: its rules as five plain Python functions, no native code to write.

The score search (:mod:`gamedp.solvers.score_search`: null-window searches over a transposition table of
bounded size, ``gamedp value``, ``analyze``, :class:`~gamedp.solvers.score_search.ScoreSearch`) answers positions
far too big to solve whole. A game offers it through its optional ``score_search()`` hook; a game of your own
returns a :class:`SearchRules` there, made of five functions over a position held in two 64-bit words ``(a, b)``
and a tuple of parameters ``p`` (:mod:`gamedp.kernels.null_window` describes them at length):

- ``start(a, b, p) -> (settled, low, high)``: a position asked about; if ``settled``, ``low`` is its exact score
  (the game is over, or the mover wins at once), else ``low`` and ``high`` bound its score;
- ``moves(a, b, p) -> (moves, low, high)``: a position the search meets: the moves worth searching as a set of
  bits (one bit a move), and bounds on its score; no moves: ``low`` is its exact score (the search asks
  ``moves`` of every position it meets, so a position whose mover wins at once, or where the game is over,
  answers with no moves and its score);
- ``play(a, b, move, p) -> (a, b)``: the position after ``move`` (one bit of ``moves``), for the other player;
- ``order(a, b, move, p) -> int``: how promising ``move`` looks (higher first);
- ``key(a, b, p) -> int``: the position's key in the table (the same for positions known to be equal).

Three more hooks are optional:

- ``bound(a, b, p) -> (low, high)``: bounds on the score of a position the search meets that neither ``moves``'
  bounds nor the table settle, for a test that costs too much to run before the table is read (by default none);
- ``read(text, begin, end, p) -> (read, a, b)``: ``gamedp value``'s line ``text[begin:end]`` (a uint8 array of
  its bytes, spaces around the line taken off) as the position's two words, or ``read`` false where the line is
  not one it reads (the game's ``parse_position`` then reads it, and says what is wrong). With it, ``gamedp
  value`` answers a block of lines in one compiled call, at the speed of the built-in games;
- ``remoteness(a, b, score, p) -> int``: the plies to the end that ``score`` means (negative: none), instead of
  the rules' Python ``value``: compiled with the search, so that the compiled lines write it too.

A score is the mover's, a small integer (at most 63 either way), and a child's score is the negation of its
parent's view of it. The functions are written in the subset of Python numba compiles (integers, tuples, loops, and
64-bit words as :class:`~gamedp.words.Word`, which is ``numpy.uint64`` in the compiled hooks without importing
numpy; numpy's scalars work too); they may call other plain functions of their module. They are
compiled once per machine with the search into a library that later runs load without numba
(:mod:`gamedp.solvers.hooks_search`); a mistake in one is reported as one line naming it.

Besides, the rules say how a game position becomes its two words (``words``, by default the position is the
pair ``(a, b)`` itself) and what a score means (``value``, by default its sign: WIN, LOSE or TIE, without
remoteness, or with the ``remoteness`` hook's plies; ``read`` needs one of those two, not ``value``). examples/k_in_a_row.py is a whole game written this way (docs/howto/own-search.md builds it).

>>> def nothing(a, b, p): return True, 0, 0
>>> SearchRules(None, start=nothing, moves=nothing, play=None, order=None, key=None)
Traceback (most recent call last):
...
gamedp.errors.GamedpError: score_search: hook 'play' is missing; give SearchRules(play=a function play(a, b, move, p))
"""

from __future__ import annotations

import types
from typing import Any, Callable

from gamedp.errors import GamedpError
from gamedp.solvers.hooks_search import ARGUMENTS, OPTIONAL, hook_error
from gamedp.values import LOSE, TIE, WIN, Value

#: A move is one bit of a 64-bit word.
MOST_MOVES = 64


def sign_value(position: Any, score: int) -> Value:
    """What a score means by default: its sign (WIN, LOSE or TIE for the player to move), without remoteness."""
    return Value(WIN if score > 0 else LOSE if score < 0 else TIE)


class SearchRules:
    """A game's rules for the exact-score search, as five plain functions and up to three optional ones (the
    hooks, see the module's text).

    ``game`` is the game these rules search (its moves and name serve ``analyze``); ``parameters`` is the tuple
    ``p`` every hook is given (numbers, words, or tuples of them: compiled into the search as constants);
    ``words(position) -> (a, b)`` a game position as
    the search's two words, non-negative and below 2^64; ``value(position, score) -> Value`` what a score
    means (or the ``remoteness`` hook); ``history`` turns on the history heuristic (moves that refuted other positions first, among moves the
    ``order`` hook ranks equal).
    """

    #: The hooks fold symmetric positions themselves (``key``): the search is given no symmetry of its own.
    symmetric = False
    #: The search keeps room for a move per bit of ``moves``: no hook can give more moves than it has room for.
    max_moves = MOST_MOVES

    def __init__(self, game: Any, *, start: Callable | None = None, moves: Callable | None = None,
                 play: Callable | None = None, order: Callable | None = None, key: Callable | None = None,
                 bound: Callable | None = None, read: Callable | None = None, remoteness: Callable | None = None,
                 parameters: tuple = (),
                 words: Callable[[Any], tuple[int, int]] | None = None,
                 value: Callable[[Any, int], Value] | None = None, history: bool = False):
        given = {"start": start, "moves": moves, "play": play, "order": order, "key": key, "bound": bound,
                 "read": read, "remoteness": remoteness}
        for name, hook in list(given.items()):
            arguments = ", ".join(ARGUMENTS[name])
            if hook is None and name in OPTIONAL:
                del given[name]
                continue
            if hook is None:
                raise GamedpError(f"score_search: hook {name!r} is missing; give SearchRules({name}=a function "
                                  f"{name}({arguments}))")
            if not isinstance(hook, types.FunctionType):
                raise hook_error(name, hook, f"it is a {type(hook).__name__}, not a plain Python function "
                                             f"{name}({arguments}) (def, without @njit: gamedp compiles it)")
            if hook.__code__.co_argcount != len(ARGUMENTS[name]):
                raise hook_error(name, hook, f"it takes {hook.__code__.co_argcount} arguments; write it as "
                                             f"{name}({arguments})")
        if value is not None and remoteness is not None:
            raise GamedpError("score_search: give what a score means once: value=, a Python function of the position, "
                              "or remoteness=, a hook compiled with the search, not both")
        if value is not None and read is not None:
            raise GamedpError("score_search: the read hook's lines are answered in compiled code, which cannot call "
                              "value=; give remoteness=a function remoteness(a, b, score, p) instead")
        if not isinstance(parameters, tuple):
            raise GamedpError(f"score_search: parameters must be a tuple (the hooks' p), not a "
                              f"{type(parameters).__name__}")
        self.game = game
        self.name: str = getattr(game, "name", "your game")
        #: the hooks by name
        self.hooks: dict[str, types.FunctionType] = given  # type: ignore[assignment]
        self.parameters, self.history = parameters, history
        self._words, self._value = words, value
        self._library: Any = None
        #: ``gamedp value``'s compiled answers to many lines (see ScoreSearch.answer_lines): with the read hook only
        self.answer_lines: Callable[..., int] | None = self._answer_lines if read is not None else None

    def library(self) -> Any:
        """The compiled search (built once per machine, see :mod:`gamedp.solvers.hooks_search`)."""
        if self._library is None:
            from gamedp.solvers.hooks_search import load_search

            self._library = load_search(self)
        return self._library

    def arguments(self, position: Any) -> tuple[int, ...]:
        """The position's two words, as the compiled search takes them (signed 64-bit integers)."""
        from gamedp.solvers.score_search import signed

        a, b = self._words(position) if self._words is not None else position
        for word in (a, b):
            if not 0 <= word < 1 << 64:
                raise GamedpError(f"{self.name}: position {position!r} gives the word {word!r}; the search takes "
                                  "two integers from 0 to 2^64 - 1")
        return signed(a), signed(b)

    def value(self, position: Any, score: int) -> Value:
        if self._value is not None:
            return self._value(position, score)
        if "remoteness" not in self.hooks:
            return sign_value(position, score)
        plies = self.library().remoteness(*self.arguments(position), score)
        return Value(sign_value(position, score).outcome, plies if plies >= 0 else None)

    def _answer_lines(self, text: bytes, begin: int, end: int, outcomes_only: bool, quick: int, table: Any,
                      slots: int, searcher: Any, out: Any, done: Any) -> int:
        """``gamedp value``'s answers to the lines of ``text[begin:end]`` that the read hook reads, compiled
        (see :meth:`gamedp.solvers.score_search.ScoreSearch.answer_lines`)."""
        return self.library().answer_lines(text, begin, end, int(outcomes_only), quick, table, slots,
                                           searcher.frames, searcher.counters, searcher.watch, out, len(out), done)

    def children(self, position: Any) -> list[tuple[Any, Any]]:
        return self.game.move_list(position)
