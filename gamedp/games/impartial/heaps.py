"""Heap games: positions are heaps of stones, a move changes one heap into at most two others.

:class:`HeapGame` is the base of the built-in impartial families. A position is a sorted tuple of non-empty
heap sizes (the sum of one-heap games); the text notation is the sizes, ``"3 4 5"``, and a move is written
``"5 -> 2"`` (a heap of 5 becomes 2), ``"5 -> 1+2"`` (it splits) or ``"5 -> 0"`` (it goes). A family gives the
options of one heap and, for speed, the Grundy sequence of one heap; nimbers, winning moves and misère play
of whole positions follow here.

>>> from gamedp.games.impartial.nim import Nim
>>> nim = Nim()
>>> position = nim.parse_position("3 4 5")
>>> nim.nimber(position)
2
>>> [nim.format_move(position, m) for m in nim.winning_moves(position)]
['3 -> 1']
>>> nim.format_position(nim.do_move(position, (5, (1,))))
'1 3 4'
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from gamedp.errors import InputError, ResourceError
from gamedp.game import Game
from gamedp.memory import available_memory
from gamedp.solvers.memo import BYTES_PER_POSITION, WORK_LIMIT
from gamedp.values import LOSE, Outcome, nim_sum

Heaps = tuple[int, ...]
#: A move: the heap it takes from, and the heaps that heap becomes (empty: it is gone).
HeapMove = tuple[int, Heaps]

#: Memory per term of a Grundy sequence the kernels compute: the sequence, its extension by the period and the
#: index arrays that extension needs (as measured: docs/performance.md).
BYTES_PER_TERM = 16
#: The same where the terms are a list of Python integers (an 8-byte slot and, past 256, a 28-byte object each).
BYTES_PER_PYTHON_TERM = 40
#: Winning moves are listed one by one from a heap's options: beyond this size there are too many to list.
MOVE_LIST_LIMIT = 10**6
#: Misère play is searched position by position: beyond this many reachable positions it would not finish.
MISERE_SEARCH_LIMIT = 10**6
#: Counting reachable positions stops here: past it the answer is "far too many" either way.
COUNT_CAP = 10**10
#: A position costs the engine about as much as this many moves (its table entry, value and move list).
POSITION_STEPS = 4


@dataclass
class GrundySequence:
    """G(0), G(1), ... of one heap, and the period when one is proven.

    ``preperiod`` is the first heap of the periodic part: G(n + period) = G(n) for every n >= preperiod, so the
    last exceptional heap is ``preperiod - 1``. ``proven_at`` is the last heap the proof needed. Indexing past
    the computed terms works when the period is proven.
    """

    values: Sequence[int]
    period: int | None = None
    preperiod: int | None = None
    proven_at: int | None = None

    def __getitem__(self, n: int) -> int:
        if n < len(self.values):
            return int(self.values[n])
        if self.period is None:
            raise IndexError(f"G({n}) is past the {len(self.values)} computed terms and no period is proven")
        return int(self.values[self.preperiod + (n - self.preperiod) % self.period])

    def __len__(self) -> int:
        return len(self.values)


def check_terms(n: int, what: str = "a Grundy sequence", per_term: int = BYTES_PER_TERM) -> None:
    """Refuse, with a clear message, a sequence up to ``n`` that would not fit in memory."""
    need = (n + 1) * per_term
    available = available_memory()
    if need > available:
        raise ResourceError(f"{what} up to n = {n} needs about {need / 2**30:.1f} GiB of memory; "
                            f"this machine has {available / 2**30:.1f} GiB available")


_NUMBER = re.compile(r"[+-]?\d+")


def parse_heaps(text: str, what: str = "heap size") -> list[int]:
    """Heap sizes from text: integers separated by spaces, commas or ``+``; errors name the column.

    >>> parse_heaps("3, 4 +5")
    [3, 4, 5]
    >>> parse_heaps("3 -1")
    Traceback (most recent call last):
    ...
    gamedp.errors.InputError: position, line 1, column 3: a heap size cannot be negative: -1
    """
    sizes = []
    for m in re.finditer(r"[^\s,+]+", text):
        token = m.group()
        if not _NUMBER.fullmatch(token):
            raise InputError(f"a {what} is a whole number, not {token!r}", 1, m.start() + 1, "position")
        value = int(token)
        if value < 0:
            raise InputError(f"a {what} cannot be negative: {token}", 1, m.start() + 1, "position")
        sizes.append(value)
    if not sizes:
        raise InputError(f"give at least one {what}, e.g. '3 4 5'", 1, 1, "position")
    return sizes


class HeapGame(Game):
    """Base class of the heap families. Subclasses give :meth:`heap_options` and usually :meth:`heap_sequence`."""

    #: How the command line names the family (with its parameters, e.g. ``octal:0.137``).
    family: str = "heaps"
    #: The start position of analyze/play.
    default_heaps: Heaps = (3, 4, 5)
    #: Misère play follows the misère Nim rule (only Nim itself, of the built-in families).
    misere_nim_rule: bool = False
    #: A move may split a heap in two (then a position reaches far more positions).
    splits: bool = False

    def __init__(self, misere: bool = False, heaps: Iterable[int] | None = None):
        self.misere = misere
        self.name = ("misere-" if misere else "") + self.family
        self._heaps = tuple(sorted(h for h in (self.default_heaps if heaps is None else heaps) if h))
        self._sequence: GrundySequence | None = None
        self._misere_memo: Any = None

    @property
    def impartial(self) -> bool:
        """Front ends show nimbers of impartial games; under misère play a nimber does not decide the game."""
        return not self.misere

    # -- what a family gives -------------------------------------------------------------------------------
    def heap_options(self, n: int) -> Iterable[Heaps]:
        """What a heap of ``n`` can become in one move: tuples of non-empty heaps, each once."""
        raise NotImplementedError

    def heap_sequence(self, upto: int) -> GrundySequence:
        """G(0..upto) of one heap (at least those terms). The default is the plain mex over heap_options."""
        check_terms(upto, per_term=BYTES_PER_PYTHON_TERM)
        values: list[int] = []
        for n in range(upto + 1):
            values.append(_mex({nim_sum(values[h] for h in option) for option in self.heap_options(n)}))
        return GrundySequence(values)

    def heap_nimber(self, n: int) -> int:
        """G(n) of one heap, from the family's sequence (kept and extended as larger heaps are asked)."""
        seq = self._sequence
        if seq is None:  # the family's first sequence is where it looks for a period
            seq = self._sequence = self.heap_sequence(0)
        if n >= len(seq) and seq.period is None:
            seq = self._sequence = self.heap_sequence(max(n, 2 * len(seq)))
        return seq[n]

    # -- Game hooks -------------------------------------------------------------------------------------------
    def start(self) -> Heaps:
        return self._heaps

    def moves(self, position: Heaps) -> Iterable[HeapMove]:
        # made as they are asked for: a heap of a million has a million moves, of which a caller may want a few
        return ((h, option) for h in sorted(set(position)) for option in self.heap_options(h))

    def do_move(self, position: Heaps, move: HeapMove) -> Heaps:
        h, option = move
        rest = list(position)
        rest.remove(h)
        return tuple(sorted(rest + list(option)))

    def format_position(self, position: Heaps) -> str:
        return " ".join(map(str, position)) or "0"

    def parse_position(self, text: str) -> Heaps:
        return tuple(sorted(h for h in parse_heaps(text) if h))

    def format_move(self, position: Heaps, move: HeapMove) -> str:
        h, option = move
        return f"{h} -> {'+'.join(map(str, option)) or '0'}"

    # -- nimbers and winning moves --------------------------------------------------------------------------
    def nimber(self, position: Heaps) -> int:
        """The nimber of a position: the XOR of its heaps' nimbers (normal play)."""
        if position:
            self.heap_nimber(max(position))
        return nim_sum(self.heap_nimber(h) for h in position)

    def winning_moves(self, position: Heaps) -> list[HeapMove]:
        """The moves to a position of nimber 0 (normal play), each heap size once.

        A heap of nimber g must become worth g XOR total; below g that is always possible, and in games other
        than Nim a heap may also reach a larger value, so every heap is searched.
        """
        total = self.nimber(position)
        if total == 0:
            return []
        _check_move_list(position)
        moves = []
        for h in sorted(set(position)):
            target = self.heap_nimber(h) ^ total
            moves += [(h, option) for option in self.heap_options(h)
                      if nim_sum(self.heap_nimber(x) for x in option) == target]
        return moves

    def misere_outcome(self, position: Heaps) -> Outcome:
        """Who wins under misère play: the Nim rule where it holds, else a direct search of the sum."""
        if self.misere_nim_rule:
            from gamedp.solvers.grundy import misere_nim_wins

            return Outcome.WIN if misere_nim_wins(self.heap_nimber(h) for h in position) else LOSE
        self._check_search(position)
        return self._misere_solution().value(position).outcome

    def memory_estimate(self, position: Heaps) -> int:
        """Bytes the memo engine (analyze, play) needs to search ``position``: every position it can reach.

        >>> from gamedp.games.impartial.nim import Nim
        >>> Nim().memory_estimate((3, 4, 5)) == 48 * BYTES_PER_POSITION  # 0 <= a <= b <= c, a <= 3, b <= 4, c <= 5
        True
        """
        return reachable_bound(position, self.splits) * BYTES_PER_POSITION

    def work_estimate(self, position: Heaps) -> int:
        """A bound on the steps the memo engine takes to search ``position``: every position it can reach, each
        with its moves (no more than ``position`` has: heaps only shrink or split, and smaller heaps have no more
        options) and :data:`POSITION_STEPS`.

        >>> from gamedp.games.impartial.nim import Nim
        >>> Nim().work_estimate((3, 4, 5)), Nim().work_estimate((10**6,))
        (768, 1000005000004)
        """
        positions = reachable_bound(position, self.splits)
        if positions > WORK_LIMIT:  # far too many already: counting options of huge heaps could itself take long
            return positions
        return positions * (sum(self.option_count(h) for h in set(position)) + POSITION_STEPS)

    def option_count(self, n: int) -> int:
        """How many options a heap of ``n`` has (families with many override this with arithmetic)."""
        rules = getattr(self, "rules", None)
        return rules.option_count(n) if rules is not None else sum(1 for _ in self.heap_options(n))

    def _check_search(self, position: Heaps) -> None:
        """Refuse a misère search that would visit more than :data:`MISERE_SEARCH_LIMIT` positions."""
        if self.splits:  # every position reached is a partition of at most the stones there are now
            bound = _partitions_upto(sum(position), MISERE_SEARCH_LIMIT)
        else:  # heaps only shrink
            bound = 1
            for h in position:
                bound = min(bound * (h + 1), MISERE_SEARCH_LIMIT + 1)
        if bound > MISERE_SEARCH_LIMIT:
            raise ResourceError(
                f"misère {self.family} has no known theory for {self.format_position(position)}, and a direct "
                f"search would visit more than {MISERE_SEARCH_LIMIT:,} positions; try smaller heaps")

    def misere_winning_moves(self, position: Heaps) -> list[HeapMove]:
        """The winning moves under misère play."""
        if self.misere_outcome(position) is LOSE:
            return []
        _check_move_list(position)
        return [m for m in self.moves(position) if self.misere_outcome(self.do_move(position, m)) is LOSE]

    def _misere_solution(self) -> Any:
        from gamedp.solvers.memo import Solution

        if self._misere_memo is None:
            game = self if self.misere else copy.copy(self)
            game.misere = True
            self._misere_memo = Solution(game, outcomes_only=True)
        return self._misere_memo


def _check_move_list(position: Heaps) -> None:
    if position and max(position) > MOVE_LIST_LIMIT:
        raise ResourceError(f"a heap of {max(position)} has too many moves to list them one by one "
                            f"(at most heaps of {MOVE_LIST_LIMIT:,})")


def reachable_bound(position: Heaps, splits: bool, cap: int = COUNT_CAP) -> int:
    """How many positions a search from ``position`` can reach (capped at ``cap``).

    Without splits a heap only shrinks: the positions are the sorted tuples below ``position`` term by term,
    counted exactly (every smaller size, as in Nim; other families reach fewer). With splits, every partition of
    at most the stones there are.
    """
    if splits:
        return _partitions_upto(sum(position), cap)
    product = 1
    for h in position:
        product = min(product * (h + 1), cap)
    if product >= cap or not position or max(position) > 10**5:
        return product
    # ways[v]: sorted tuples of the heaps so far whose last term is v
    ways = [1] + [0] * max(position)
    for h in sorted(position):
        running, new = 0, [0] * len(ways)
        for v in range(h + 1):
            running += ways[v]
            new[v] = running
        ways = new
    return min(sum(ways), cap)


def _partitions_upto(n: int, cap: int) -> int:
    """The number of partitions of 0..n into positive parts (a bound on the positions one heap reaches), capped."""
    if n > 500:  # p(n) alone passes any useful cap long before this
        return cap + 1
    ways = [1] + [0] * n
    for part in range(1, n + 1):
        for total in range(part, n + 1):
            ways[total] += ways[total - part]
    return min(sum(ways), cap + 1)


def _mex(values: set[int]) -> int:
    v = 0
    while v in values:
        v += 1
    return v
