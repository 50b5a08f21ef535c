"""Small games of a user's own, written the ways a user might, for the analyze/play tests.

The command line loads them from this file (``tests/test_analyze_games.py:NAME``), as it would a user's file.
Each kind exercises one path of the front ends:

- ``CardRow``: a scored game whose moves score points and which brings its own ``analyze`` (the convention for
  a game with a faster engine of its own); ``CardRowTally`` is the same game written for the memo engine, the
  running margin inside the position;
- ``Chase``: a game with cycles and DRAWs, moves named by the positions they lead to (``children`` only);
- ``TAKE_134``: a compiled game (a plain function stands in for the numba kernel), positions are integers;
- ``Kayles``: an impartial game (``impartial = True``) with its own ``nimber(position)``;
- ``TableTake``: a game that brings its own ``solution()`` (a table made once), the other engine convention;
- ``Countdown``: a game far too big to solve from its start, analysed near its end.

The tests at the bottom (and in test_analyze.py) hold these descriptions to plain brute force, so the front-end
tests can trust them. No hypothesis here: the tests load this file while a hypothesis test runs.
"""

from __future__ import annotations

from functools import lru_cache


from gamedp.compiled import CompiledGame
from gamedp.errors import GamedpError
from gamedp.game import Game
from gamedp.values import Analysis, MoveValue, Value, outcome_of_score


def _parse_cards(text: str) -> tuple[int, ...]:
    try:
        cards = tuple(int(t) for t in text.replace(",", " ").split())
    except ValueError:
        raise GamedpError(f"a card row is numbers separated by spaces, like '3 1 2', not {text.strip()!r}") from None
    if not cards or min(cards) < 1:
        raise GamedpError("a card row needs at least one card, each worth 1 or more")
    return cards


class CardRow(Game):
    """Take the leftmost (L) or rightmost (R) card; the mover maximises their total minus the other's."""

    name = "cardrow"
    scored = True

    def start(self) -> tuple[int, ...]:
        return (3, 9, 1, 2, 7, 4)

    def moves(self, cards):
        return ["L", "R"] if len(cards) > 1 else ["L"] if cards else []

    def do_move(self, cards, side):
        return cards[1:] if side == "L" else cards[:-1]

    def primitive(self, cards):
        return 0 if not cards else None

    def analyze(self, cards) -> Analysis:
        value = Value(outcome_of_score(_best_margin(cards)), len(cards), _best_margin(cards))
        moves = []
        for side in self.moves(cards):
            child = self.do_move(cards, side)
            taken = cards[0] if side == "L" else cards[-1]
            score = taken - _best_margin(child)
            moves.append(MoveValue(side, child, Value(outcome_of_score(score), len(cards), score)))
        return Analysis(cards, value, tuple(moves))

    def format_position(self, cards):
        return " ".join(map(str, cards))

    def parse_position(self, text):
        return _parse_cards(text)


@lru_cache(maxsize=None)
def _best_margin(cards: tuple[int, ...]) -> int:
    if not cards:
        return 0
    return max(cards[0] - _best_margin(cards[1:]), cards[-1] - _best_margin(cards[:-1]))


class CardRowTally(Game):
    """The same card game for the memo engine: a position is (cards, the mover's points minus the other's)."""

    name = "cardrow-tally"
    scored = True

    def start(self):
        return (CardRow().start(), 0)

    def moves(self, position):
        return CardRow().moves(position[0])

    def do_move(self, position, side):
        cards, margin = position
        taken = cards[0] if side == "L" else cards[-1]
        return CardRow().do_move(cards, side), -(margin + taken)

    def primitive(self, position):
        return position[1] if not position[0] else None

    def format_position(self, position):
        cards, margin = position
        return f"{' '.join(map(str, cards))}\n(you lead by {margin})" if cards else f"(you lead by {margin})"

    def parse_position(self, text):
        return _parse_cards(text.splitlines()[0] if text.strip() else text), 0


#: Chase: a token on a small directed graph; move it along an arrow; whoever cannot move loses.
#: 0 -> 1 -> 2 -> 0 is a cycle nobody can leave safely, so 0, 1 and 2 are DRAWs; 3 wins by moving to 5.
CHASE_ARROWS = {0: [1], 1: [2, 4], 2: [0], 3: [0, 5], 4: [5], 5: []}


class Chase(Game):
    name = "chase"

    def start(self):
        return 0

    def children(self, node):
        return CHASE_ARROWS[node]

    def format_position(self, node):
        return f"token on node {node}; arrows: " + ", ".join(f"{a}->{b}" for a in CHASE_ARROWS for b in CHASE_ARROWS[a])

    def parse_position(self, text):
        if text.strip() not in {str(n) for n in CHASE_ARROWS}:
            raise GamedpError(f"a chase position is a node number 0-{len(CHASE_ARROWS) - 1}")
        return int(text)


def take_134(n, out):
    """Take 1, 3 or 4 stones: the children kernel of a compiled game, run here as plain Python."""
    count = 0
    for k in (1, 3, 4):
        if k <= n:
            out[count] = n - k
            count += 1
    return count


TAKE_134 = CompiledGame("take134", start=12, children=take_134, max_children=3)


class Kayles(Game):
    """A row of pins ``I`` and gaps ``.``; knock down one pin ("3") or two neighbours ("3-4"); last pin wins."""

    name = "pins"
    impartial = True

    def start(self):
        return "I" * 8

    def moves(self, row):
        return [(i,) for i, c in enumerate(row) if c == "I"] + \
            [(i, i + 1) for i in range(len(row) - 1) if row[i:i + 2] == "II"]

    def do_move(self, row, move):
        return "".join("." if i in move else c for i, c in enumerate(row))

    def nimber(self, row):
        result = 0
        for group in row.split("."):
            result ^= _group_nimber(len(group))
        return result

    def format_position(self, row):
        return row

    def parse_position(self, text):
        row = text.strip().upper()
        if not row or set(row) - set("I."):
            raise GamedpError(f"a row of pins is 'I' and '.', not {text.strip()!r}")
        return row

    def format_move(self, row, move):
        return "-".join(str(i + 1) for i in move)


@lru_cache(maxsize=None)
def _group_nimber(n: int) -> int:
    reachable = {_group_nimber(a) ^ _group_nimber(n - k - a) for k in (1, 2) for a in range(n - k + 1)}
    return min(set(range(len(reachable) + 1)) - reachable)


class TableTake(Game):
    """Take 1, 3 or 4 stones, with a ``solution()`` of its own: a table of every heap up to the start, made once."""

    name = "table-take"
    solutions_made = 0

    def start(self):
        return 30

    def moves(self, n):
        return [k for k in (1, 3, 4) if k <= n]

    def do_move(self, n, k):
        return n - k

    def parse_position(self, text):
        return int(text)

    def solution(self):
        TableTake.solutions_made += 1
        return _TakeTable(self, self.start())


class _TakeTable:
    def __init__(self, game: TableTake, size: int):
        self.game = game
        self.values = []
        for n in range(size + 1):
            options = [self.values[n - k].for_parent() for k in game.moves(n)]
            self.values.append(max(options, key=Value.rank) if options else Value(outcome_of_score(-1), 0))

    def value(self, n):
        return self.values[n]

    def analyze(self, n):
        moves = tuple(MoveValue(k, n - k, self.values[n - k].for_parent()) for k in self.game.moves(n))
        return Analysis(n, self.values[n], moves)


class Countdown(Game):
    """Take 1 or 2 from a number in the billions; counts the positions whose moves were asked."""

    name = "countdown"
    visited: set = set()

    def start(self):
        return 10 ** 9

    def moves(self, n):
        Countdown.visited.add(n)
        return [k for k in (1, 2) if k <= n]

    def do_move(self, n, k):
        return n - k

    def parse_position(self, text):
        return int(text)


# -- the descriptions against brute force --------------------------------------------------------------------
def plain_take_134_loses(n: int) -> bool:
    """Whether the mover loses with n stones, by plain recursion: every move leaves the other a win."""
    return all(not plain_take_134_loses(n - k) for k in (1, 3, 4) if k <= n)


def test_chase_and_take_134_agree_with_their_rules():
    from gamedp.solvers.memo import solve

    chase = solve(Chase(), 3)
    # worked out by hand from CHASE_ARROWS (see there)
    assert [chase.value(n).outcome.name for n in range(6)] == ["DRAW", "DRAW", "DRAW", "WIN", "WIN", "LOSE"]
    take = solve(TAKE_134.as_python_game(), 20)
    assert [take.value(n).outcome.name == "LOSE" for n in range(21)] == [plain_take_134_loses(n) for n in range(21)]
