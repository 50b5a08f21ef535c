"""A self-test of a game description: the bugs people make most, found before they cost a wrong answer.

It walks the positions reachable from the start (breadth first, up to a limit) and checks that

- keys are hashable and stable (the same position gives an equal key and hash twice);
- move generation is deterministic, and ``moves``/``do_move`` agree with ``children`` where both are given;
- every child of a legal position is legal (``is_legal`` hook, notation round trip where the game has one);
- primitive positions have no moves (unless ``primitive_first``: then they are not asked) and give a valid
  terminal value;
- ``canonical`` is idempotent, and a position has the same value as its canonical form;
- a scored game scores every position where play ends;
- play can end: from every position reached some position that ends the game can be reached (when the walk
  stops at its limit first, the report says so, and whether any end was seen);
- the optional hooks the game gives (:mod:`gamedp.contract`), on the first positions reached: a one-line
  position reads back, ``ordered_children`` gives the children, ``heuristic`` is in -1..1, ``nimber`` is the
  mex of the children's (normal play), ``draw_position`` is an ``<svg>`` and ``move_cells`` names cells of it,
  and the ``example`` is a legal position that reads back.

The report names the capabilities the game offers (:func:`gamedp.contract.capabilities`).

The first inconsistency is reported in plain words, naming the position.

>>> from gamedp.games.tictactoe import TicTacToe
>>> report = check_game(TicTacToe())
>>> report.ok, report.offered()
(True, ['rules', 'notation', 'databases and tiers'])
>>> class Broken(TicTacToe):
...     def canonical(self, board): return board[::-1]      # not idempotent
>>> print(check_game(Broken()).problem)
canonical form is not idempotent: canonical('.........') = '.........' but canonical('X........') = '........X' and canonical('........X') = 'X........'
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from gamedp.errors import GamedpError
from gamedp.game import Game, overrides, terminal_value
from gamedp.progress import ProgressLine


@dataclass
class CheckReport:
    game: str
    positions: int
    problem: str | None = None
    complete: bool = True  # False when the limit stopped the walk
    ends_seen: bool = True  # whether any position reached ends the game
    #: capability -> the hooks of it the game gives (see gamedp.contract)
    capabilities: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.problem is None

    def offered(self) -> list[str]:
        """The capabilities the game offers."""
        return [name for name, hooks in self.capabilities.items() if hooks]

    def capability_lines(self) -> list[str]:
        """What the game offers, each capability with the hooks given, and the capabilities of which it gives no
        optional hook (docs/contract.md says what each turns on). Not "not offered": a game with moves has rules
        even when it gives none of the optional rules hooks."""
        offered = [f"{name} ({', '.join(hooks)})" for name, hooks in self.capabilities.items() if hooks]
        missing = [name for name, hooks in self.capabilities.items() if not hooks]
        return [f"offers: {'; '.join(offered) or 'nothing optional'}"] + (
            [f"optional hooks not given for: {', '.join(missing)}"] if missing else [])

    def __str__(self) -> str:
        scope = "all" if self.complete else "the first"
        if self.ok:
            stopped = "" if self.complete else (
                "; stopped at the limit (--limit)" + ("" if self.ends_seen else
                                                      ", and none of them ends the game: play may never end"))
            return f"{self.game}: ok ({scope} {self.positions} reachable positions checked{stopped})"
        return f"{self.game}: problem after {self.positions} positions: {self.problem}"


class _Inconsistent(Exception):
    pass


def check_game(game: Any, max_positions: int = 100_000) -> CheckReport:
    """Check ``game`` (a Game or CompiledGame) on up to ``max_positions`` reachable positions."""
    from gamedp.compiled import CompiledGame
    from gamedp.contract import capabilities

    if isinstance(game, CompiledGame):
        game = game.as_python_game()
    offered = capabilities(game)
    seen: dict[Any, Any] = {}
    #: key -> keys of its children, and the keys of positions that end the game
    edges: dict[Any, list] = {}
    ends: list = []
    progress = ProgressLine(f"checking {game.name}")
    try:
        start = game.start()
        _check_position(game, start, "the start position")
        if "example" in offered["notation"]:
            _check_position(game, game.example(), "the example position")
        queue = deque([start])
        seen[_key(game, start)] = start
        while queue and len(seen) < max_positions:
            if not len(edges) % 4096 and edges:
                progress.update(len(edges), max_positions)
            position = queue.popleft()
            kids = _check_moves(game, position)
            here = _key(game, position)
            edges[here] = [_key(game, child) for child in kids]
            if not kids:
                ends.append(here)
                _check_end(game, position)
            if len(edges) <= HOOK_CHECKS:
                _check_hooks(game, position, kids, offered, draw=len(edges) <= DRAWING_CHECKS)
            for child, k in zip(kids, edges[here]):
                if k not in seen:
                    seen[k] = child
                    queue.append(child)
        complete = not queue
        if complete:
            _check_play_ends(edges, ends, seen)
        _check_canonical_values(game, list(seen.values()), complete)
    except (_Inconsistent, GamedpError) as e:
        return CheckReport(game.name, len(seen), str(e), False, capabilities=offered)
    finally:
        progress.close()
    return CheckReport(game.name, len(seen), None, complete, bool(ends), offered)


#: The optional hooks are tested on this many positions of the walk (the first reached), the drawings on fewer.
HOOK_CHECKS = 2000
DRAWING_CHECKS = 50


def _check_hooks(game: Game, position: Any, kids: list, offered: dict[str, list[str]], draw: bool) -> None:
    """The optional hooks the game gives, at ``position`` (whose children are ``kids``); ``draw``: the drawing
    hooks too."""
    given = {hook for hooks in offered.values() for hook in hooks}
    if "format_position_line" in given and overrides(game, "parse_position"):
        text = game.format_position_line(position)
        try:
            back = game.parse_position(text)
        except GamedpError as e:
            raise _Inconsistent(f"position {position!r} is written on one line as {text!r}, which does not parse "
                                f"back: {e}") from None
        if back != position:
            raise _Inconsistent(f"position {position!r} is written on one line as {text!r}, which parses back as "
                                f"{back!r}")
    if "ordered_children" in given:
        ordered = list(game.ordered_children(position))
        if sorted(map(repr, ordered)) != sorted(map(repr, kids)):
            raise _Inconsistent(f"at {position!r}, ordered_children() gives {ordered!r} but children() gives "
                                f"{kids!r}; it must give the same children, in another order")
    if "heuristic" in given and kids:
        estimate = game.heuristic(position)
        if isinstance(estimate, bool) or not isinstance(estimate, (int, float)) or not -1 <= estimate <= 1:
            raise _Inconsistent(f"heuristic({position!r}) = {estimate!r}; an estimate is a number from -1 to 1")
    if "nimber" in given and game.impartial and not game.misere:
        nimber, theirs = game.nimber(position), {game.nimber(child) for child in kids}
        mex = next(n for n in range(len(theirs) + 1) if n not in theirs)
        if nimber != mex:
            raise _Inconsistent(f"nimber({position!r}) = {nimber!r}, but its children's nimbers are "
                                f"{sorted(theirs)}, whose mex is {mex}")
    if draw and "draw_position" in given:
        _check_drawing(game, position, "move_cells" in given)


def _check_drawing(game: Game, position: Any, cells: bool) -> None:
    """``draw_position`` gives an ``<svg>``; ``move_cells`` names, for every move, cells the drawing has."""
    drawing = game.draw_position(position)
    if not isinstance(drawing, str) or not drawing.lstrip().startswith("<svg"):
        raise _Inconsistent(f"draw_position({position!r}) does not give an <svg> drawing (it begins "
                            f"{str(drawing)[:40]!r})")
    if not cells:
        return
    for move, _ in game.move_list(position):
        named = game.move_cells(position, move)
        missing = [c for c in named if f'data-cell="{c}"' not in drawing]
        if not isinstance(named, list) or missing:
            raise _Inconsistent(f"move_cells({position!r}, {move!r}) = {named!r}, but the drawing has no "
                                f"data-cell {missing[0] if missing else named!r}; name cells of the drawing")


def _check_end(game: Game, position: Any) -> None:
    """A position without moves must have a value: a scored game must score it."""
    if game.primitive(position) is None and game.scored:
        raise _Inconsistent(f"position {position!r} has no moves but primitive() gives it no score; a scored game "
                            "must score every position where play ends")


def _check_play_ends(edges: dict, ends: list, seen: dict) -> None:
    """Every position must reach one that ends the game (else play from it never ends): backwards from the ends."""
    parents: dict[Any, list] = {}
    for k, kids in edges.items():
        for c in kids:
            parents.setdefault(c, []).append(k)
    reach, todo = set(ends), list(ends)
    while todo:
        for p in parents.get(todo.pop(), ()):
            if p not in reach:
                reach.add(p)
                todo.append(p)
    for k in edges:
        if k not in reach:
            raise _Inconsistent(f"play never ends from position {seen[k]!r}: no position where the game ends can "
                                "be reached from it (every line of play goes on forever)")


def _key(game: Game, position: Any) -> Any:
    try:
        k1, k2 = game.key(game.canonical(position)), game.key(game.canonical(position))
        if k1 != k2 or hash(k1) != hash(k2):
            raise _Inconsistent(f"key of position {position!r} is not stable: {k1!r} then {k2!r}")
    except TypeError as e:
        raise _Inconsistent(f"position {position!r} cannot be a table key ({e}); make positions hashable") from None
    return k1


def _check_position(game: Game, position: Any, what: str) -> None:
    is_legal = getattr(game, "is_legal", None)
    if is_legal is not None and not is_legal(position):
        raise _Inconsistent(f"{what} {position!r} is not legal (is_legal returned False)")
    if overrides(game, "parse_position") and overrides(game, "format_position"):
        text = game.format_position(position)
        try:
            back = game.parse_position(text)
        except GamedpError as e:
            raise _Inconsistent(f"{what} {position!r} is drawn as {text!r}, which does not parse back: {e}") from None
        if back != position:
            raise _Inconsistent(f"{what} {position!r} is drawn as {text!r}, which parses back as {back!r}")


def _check_moves(game: Game, position: Any) -> list:
    if getattr(game, "primitive_first", False) and game.primitive(position) is not None:  # never asked for its moves
        terminal_value(game, game.primitive(position), position)
        return []
    kids = list(game.children(position))
    if sorted(map(repr, kids)) != sorted(map(repr, game.children(position))):
        raise _Inconsistent(f"children of {position!r} differ between two calls: move generation is not deterministic")
    if overrides(game, "moves") and overrides(game, "children"):
        via_moves = [game.do_move(position, m) for m in game.moves(position)]
        if sorted(map(repr, via_moves)) != sorted(map(repr, kids)):
            raise _Inconsistent(f"at {position!r}, moves()+do_move() give {via_moves!r} but children() gives {kids!r}")
    p = game.primitive(position)
    if p is not None:
        terminal_value(game, p, position)
        if kids:
            raise _Inconsistent(f"position {position!r} is primitive ({p!r}) but has {len(kids)} moves, "
                                f"for example to {kids[0]!r}")
    for child in kids:
        _check_position(game, child, f"child of {position!r},")
    if overrides(game, "canonical"):
        c = game.canonical(position)
        if game.canonical(c) != c:
            raise _Inconsistent(f"canonical form is not idempotent: canonical({position!r}) = {c!r} "
                                f"and canonical({c!r}) = {game.canonical(c)!r}")
        for child in kids:
            cc = game.canonical(child)
            if game.canonical(cc) != cc:
                raise _Inconsistent(f"canonical form is not idempotent: canonical({position!r}) = {c!r} but "
                                    f"canonical({child!r}) = {cc!r} and canonical({cc!r}) = {game.canonical(cc)!r}")
    return kids


def _check_canonical_values(game: Game, positions: list, complete: bool) -> None:
    """A position and its canonical form must have equal values (solved without symmetry)."""
    if not overrides(game, "canonical") or not complete:
        return
    from gamedp.solvers.memo import Solution

    plain = Solution(game)
    plain.keyf = game.key if overrides(game, "key") else None  # solve without the symmetry under test
    for position in positions:
        c = game.canonical(position)
        if c == position:
            continue
        v, vc = plain.value(position), plain.value(c)
        if v != vc:
            raise _Inconsistent(f"position {position!r} is worth {v} but its canonical form {c!r} is worth {vc}: "
                                "canonical() maps positions to ones of another value, so it is not a symmetry")
