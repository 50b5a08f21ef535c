"""How a game is described in Python.

Subclass :class:`Game` and give it a start position and its moves. Positions may be any hashable value.
Values are always from the side of the player to move, so a partizan game (where whose turn it is matters)
keeps the turn inside the position.

Required hooks: :meth:`Game.start`, and either :meth:`Game.moves` with :meth:`Game.do_move`, or
:meth:`Game.children` alone (faster, but then moves are named by the positions they lead to).
Optional hooks, each with a default that means "not offered", are grouped by capability (:mod:`gamedp.contract`
lists them, with what is turned off without them, and ``gamedp check`` reports and tests those a game gives):
the rules' own (:meth:`Game.primitive`, :meth:`Game.canonical`, :meth:`Game.key`), notation (the text hooks),
drawing, search hints, the game's own engines, databases and tiers, impartial games (:meth:`Game.split`,
``nimber``), partizan values (:meth:`Game.options`) and the exact-score search (``score_search``).

A subtraction game: take 1 or 2 stones; whoever cannot move loses.

>>> class TakeOneOrTwo(Game):
...     name = "take-1-2"
...     def start(self): return 7
...     def moves(self, n): return [k for k in (1, 2) if k <= n]
...     def do_move(self, n, k): return n - k
>>> from gamedp.solvers.memo import solve
>>> solve(TakeOneOrTwo()).value(7)
Value(outcome=Outcome.WIN, remoteness=5, score=None)
>>> solve(TakeOneOrTwo()).value(6).outcome
Outcome.LOSE
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Callable, Hashable, Iterable

from gamedp.errors import GameDefinitionError, GamedpError
from gamedp.values import LOSE, WIN, Outcome, Value, outcome_of_score

Position = Hashable
Move = Any


class Game:
    """Base class of Python-defined games. Override the hooks your game needs."""

    #: Short name, used in messages and databases.
    name: str = "game"
    #: Misère play: a player with no move *wins* (unless :meth:`primitive` says otherwise).
    misere: bool = False
    #: Scored games: :meth:`primitive` returns the mover's final margin (a number); the mover maximises it.
    scored: bool = False
    #: The end test given once: the engines ask :meth:`primitive` first and never ask a position it ends for its
    #: moves, so :meth:`moves` (or :meth:`children`) need not test for the end again. Faster for games whose end
    #: test is costly (see docs/contract.md, "Writing a game for speed").
    primitive_first: bool = False

    # -- rules -------------------------------------------------------------------------------------------
    def start(self) -> Position:
        """The initial position."""
        raise NotImplementedError(f"{type(self).__name__} must define start()")

    def moves(self, position: Position) -> Iterable[Move]:
        """The legal moves from ``position``."""
        raise NotImplementedError(f"{type(self).__name__} must define moves() and do_move(), or children()")

    def do_move(self, position: Position, move: Move) -> Position:
        """The position after ``move``; the other player is then to move."""
        raise NotImplementedError(f"{type(self).__name__} must define do_move()")

    def children(self, position: Position) -> Iterable[Position]:
        """Every position one move away. Override for speed; a generator lets the solver stop early."""
        do_move = self.do_move
        return [do_move(position, m) for m in self.moves(position)]

    def primitive(self, position: Position) -> Outcome | Any | None:
        """The value of a position that ends the game by rule, else ``None``.

        Return an :class:`Outcome` (or a number, the mover's margin, in scored games). A primitive position
        must have no moves, unless the game sets :attr:`primitive_first`. Positions with no moves and no primitive
        value are lost by the mover in normal play and won in misère play.
        """
        return None

    def canonical(self, position: Position) -> Position:
        """A representative of the positions equivalent to ``position`` (by symmetry). Must be idempotent."""
        return position

    def key(self, position: Position) -> Hashable:
        """What the memo table stores for ``position`` (default: the position itself)."""
        return position

    def split(self, position: Position) -> Iterable[Position]:
        """Impartial games: the independent parts of ``position`` (a move is a move in exactly one of them), each a
        position of this game; ``[]`` when no move is left. The Grundy solver then stores parts, and a
        position's nimber is the XOR of its parts' (see :mod:`gamedp.solvers.regions`). Default: no split."""
        return [position]

    def options(self, position: Position) -> tuple[Iterable[Position], Iterable[Position]]:
        """Partizan values (:mod:`gamedp.cgt`): (Left's options, Right's options) of ``position``, each side's as
        if it were to move; a turn the position keeps is not consulted. Left is the player who starts (the first
        of the game's two sides). Default: an impartial game (``impartial`` true) gives its :meth:`children` to
        both, so its value is its nimber; other games must define it."""
        if self.impartial:
            kids = list(self.children(position))
            return kids, kids
        raise GamedpError(f"{self.name}: the game gives no Left and Right options, so it has no partizan value; "
                          "a game defines options(position) for that (see gamedp.cgt)")

    # -- optional hooks, by capability: None means "not offered" (see gamedp.contract) -------------------
    # Notation
    notation: str | None = None
    """How a position is written, in words (``gamedp games``, error messages); None: the class docstring's first
    paragraph."""
    example: Callable[[], Position] | None = None
    """``example()``: a position to try the commands on (``gamedp games``); None: the start."""
    format_position_line: Callable[[Position], str] | None = None
    """``format_position_line(position)``: the position on one line that reads back as it (``analyze --json``,
    saves, ``solve``'s statistics); None: the drawing or ``str``, whichever reads back."""

    # Drawing
    draw_position: Callable[[Position], str] | None = None
    """``draw_position(position)``: an ``<svg>`` board for the web board and Jupyter; None: the built-in family's
    drawing, or the text."""
    move_cells: Callable[[Position, Move], list[str]] | None = None
    """``move_cells(position, move)``: the ``data-cell`` names of the drawing whose click makes ``move``; None:
    moves are made from the move list."""

    # Search hints
    ordered_children: Callable[[Position], Iterable[Position]] | None = None
    """``ordered_children(position)``: the children, best guesses first, for the pruned and depth-limited
    searches; None: :meth:`children` and a history of cut-offs."""
    heuristic: Callable[[Position], float] | None = None
    """``heuristic(position)``: an estimate in -1..1 for the player to move at a depth-limited search's horizon
    (``--depth``); None: the horizon scores 0."""
    memory_estimate: Callable[[Position], int] | None = None
    """``memory_estimate(position)``: bytes a memo search from ``position`` may need, so that one that cannot fit
    is refused up front; None: no such refusal."""
    work_estimate: Callable[[Position], int] | None = None
    """``work_estimate(position)``: steps a memo search may take, so that one of more than a couple of minutes is
    refused up front; None: no such refusal."""

    # The game's own engines
    analyze: Callable[[Position], Any] | None = None
    """``analyze(position)``: the game's own engine for a position's :class:`~gamedp.values.Analysis` (the card
    game's O(N^2) table); None: the general engines."""
    solution: Callable[[], Any] | None = None
    """``solution()``: the game's own solution object (with ``value`` and ``analyze``); None: the general
    engines."""

    # Databases and tiers
    tiered: Callable[[], Any] | None = None
    """``tiered()``: the same game as a :class:`~gamedp.tiers.TieredGame` (``gamedp solve`` solves it whole;
    ``gamedp check`` tests its tiers), or None; None: no strong solve in tiers."""
    saved_solution: Callable[..., Any] | None = None
    """``saved_solution(outcomes_only=False)``: values from the game's solved database when there is one (None:
    search); without the hook, the database of a tiered game is not used by analyze and play."""
    compiled: Callable[[], Any] | None = None
    """``compiled()``: the same rules as a :class:`~gamedp.compiled.CompiledGame`; None: no compiled search of
    the Python game."""

    # Impartial games
    impartial: bool = False
    """Both players have the same moves: values are nimbers, and :meth:`options` gives :meth:`children` to both."""
    nimber: Callable[[Position], int] | None = None
    """``nimber(position)``: the position's Grundy value, shown by ``analyze`` for it and every move; None: no
    nimbers shown."""
    heap_nimber: Callable[[int], int] | None = None
    """``heap_nimber(n)``: a heap family's sequence, for ``gamedp nimber`` (sums of heaps by XOR); None: no
    sequence."""

    # Partizan values
    player_names: tuple[str, str] | None = None
    """The two sides' names, Left first (``("Vertical", "Horizontal")``), in partizan values and drawings; None:
    Left and Right."""

    # Exact-score search
    score_search: Callable[[], Any] | None = None
    """``score_search()``: the rules of the exact-score search over a bounded table
    (:mod:`gamedp.solvers.score_search`), which answers positions too big for the other engines and makes
    ``gamedp book``'s opening book; None (or returning None): the other engines."""

    # Checking
    is_legal: Callable[[Position], bool] | None = None
    """``is_legal(position)``: whether a position can occur; ``gamedp check`` tests every position it reaches."""

    # -- text, for the front ends ----------------------------------------------------------------------
    def format_position(self, position: Position) -> str:
        """Default: :func:`gamedp.notation.format_plain` (``3 4 5`` for a tuple of ints, else ``str``)."""
        from gamedp.notation import format_plain

        return format_plain(position)

    def parse_position(self, text: str) -> Position:
        """Default: ``text`` read as a position of the start position's kind, when positions are ints, strings or
        tuples of them (:mod:`gamedp.notation`); other games must give their own."""
        from gamedp.notation import parse_like

        return parse_like(self.start(), text)

    def format_move(self, position: Position, move: Move) -> str:
        return str(move)

    def parse_move(self, position: Position, text: str) -> Move:
        """The legal move whose notation is ``text`` (spaces and case ignored)."""
        wanted = "".join(text.split()).lower()
        legal = list(self.move_list(position))
        for move, _ in legal:
            if "".join(self.format_move(position, move).split()).lower() == wanted:
                return move
        shown = ", ".join(self.format_move(position, m) for m, _ in legal) or "none"
        raise GamedpError(f"{text.strip()!r} is not a legal move here; legal moves: {shown}")

    # -- derived -------------------------------------------------------------------------------------------
    def move_list(self, position: Position, limit: int | None = None) -> list[tuple[Move, Position]]:
        """Every legal move with the position it leads to (children name themselves without moves()); with a
        ``limit``, at most ``limit + 1`` of them, so that a caller can tell there are too many without making all."""
        if self.primitive_first and self.primitive(position) is not None:  # its moves are never asked
            return []
        if overrides(self, "moves"):
            pairs = ((m, self.do_move(position, m)) for m in self.moves(position))
        else:
            pairs = ((c, c) for c in self.children(position))
        return list(pairs if limit is None else islice(pairs, limit + 1))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def overrides(game: Game, hook: str) -> bool:
    """Whether ``game`` defines its own ``hook`` (the solvers skip hooks left at their defaults)."""
    return getattr(type(game), hook) is not getattr(Game, hook)


def terminal_value(game: Game, primitive: Any, position: Position) -> Value:
    """Turn what :meth:`Game.primitive` returned into a :class:`Value` (remoteness 0)."""
    if game.scored:
        if isinstance(primitive, (bool, Outcome)) or not _is_number(primitive):
            raise GameDefinitionError(
                f"{game.name}: primitive({position!r}) returned {primitive!r}; a scored game's primitive must "
                "return the mover's margin as a number"
            )
        return Value(outcome_of_score(primitive), 0, primitive)
    if not isinstance(primitive, Outcome):
        raise GameDefinitionError(
            f"{game.name}: primitive({position!r}) returned {primitive!r}; return an Outcome (WIN, LOSE, TIE) "
            "or None, or set scored = True for numeric margins"
        )
    if primitive is Outcome.DRAW:
        raise GameDefinitionError(f"{game.name}: primitive({position!r}) returned DRAW; a DRAW is a cycle, not an end")
    return Value(primitive, 0)


def no_move_value(game: Game, position: Position) -> Value:
    """The value of a position with no moves and no primitive value."""
    if game.scored:
        raise GameDefinitionError(
            f"{game.name}: position {position!r} has no moves but primitive() gave no score; a scored game "
            "must score every position where play ends"
        )
    return Value(WIN if game.misere else LOSE, 0)


def _is_number(x: Any) -> bool:
    try:
        return x == x + 0 and (x > 0 or x <= 0)
    except TypeError:
        return False

