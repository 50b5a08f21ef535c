"""Impartial games: nimbers, sums, misère play and the built-in families, against plain brute force.

The oracles below are written from the rules alone (rows of pins as bit masks, heaps as tuples, recursion
with a plain dict cache), sharing no code with gamedp's solvers.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamedp.game import Game
from gamedp.games.impartial import family
from gamedp.games.impartial.grundy_game import GrundyGame
from gamedp.games.impartial.lasker import Lasker
from gamedp.games.impartial.nim import MisereNim, Nim
from gamedp.games.impartial.octal import Dawson, Kayles, Octal, TakeBreak, parse_octal
from gamedp.games.impartial.subtraction import Subtraction
from gamedp.games.impartial.wythoff import Wythoff, nimber_table, p_positions
from gamedp.solvers.grundy import (Nimbers, SumGame, misere_nim_wins, misere_outcome, misere_winning_moves, nimber,
                                   sum_nimber, sum_winning_moves)
from gamedp.solvers.memo import Solution
from gamedp.values import LOSE, WIN

# -- oracles ---------------------------------------------------------------------------------------------------


def plain_mex(values):
    v = 0
    while v in values:
        v += 1
    return v


def row_nimbers(n_max, knock):
    """G of a row of n pins, found on the row itself: a bit mask of standing pins, ``knock`` adjacent ones at a time.

    No heaps, no XOR: the nimber of every pin pattern is the mex of its children's, and G(n) is the full row.
    """
    cache = {}

    def g(mask):
        if mask not in cache:
            kids = set()
            for i in range(n_max):
                for w in knock:
                    block = ((1 << w) - 1) << i
                    if mask & block == block:
                        kids.add(g(mask & ~block))
            cache[mask] = plain_mex(kids)
        return cache[mask]

    return [g((1 << n) - 1) for n in range(n_max + 1)]


def heap_rules_nimbers(digits, n_max, unequal=False):
    """G(0..n_max) of a take-and-break code by its definition, splits as ordered pairs."""
    G = []
    for n in range(n_max + 1):
        options = set()
        for k, d in enumerate(digits):
            left = n - k
            if left < 0:
                continue
            if d & 1 and left == 0:
                options.add(0)
            if d & 2 and left >= 1:
                options.add(G[left])
            if d & 4:
                for a in range(1, left):
                    if not (unequal and 2 * a == left):
                        options.add(G[a] ^ G[left - a])
        G.append(plain_mex(options))
    return G


def heap_moves(digits, heaps, unequal=False):
    """Every position (sorted tuple) one move from ``heaps`` under a take-and-break code."""
    out = set()
    for i, n in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1:]
        for k, d in enumerate(digits):
            left = n - k
            if left < 0:
                continue
            results = []
            if d & 1 and left == 0:
                results.append(())
            if d & 2 and left >= 1:
                results.append((left,))
            if d & 4:
                results += [(a, left - a) for a in range(1, left) if not (unequal and 2 * a == left)]
            for r in results:
                out.add(tuple(sorted(rest + r)))
    return out


_outcomes: dict = {}


def heap_outcome(digits, heaps, misere, unequal=False):
    """True when the mover wins, by plain recursion over whole positions (no nimbers)."""
    known = _outcomes.setdefault((tuple(digits), unequal, misere), {})

    def wins(pos):
        if pos not in known:
            kids = heap_moves(digits, pos, unequal)
            known[pos] = misere if not kids else any(not wins(c) for c in kids)
        return known[pos]

    return wins(tuple(sorted(heaps)))


def subtraction_digits(amounts, n_max):
    digits = [0] * (n_max + 1)
    for k in amounts:
        if k <= n_max:
            digits[k] = 3
    return digits


# -- families: sequences against brute force -------------------------------------------------------------------


def test_kayles_and_dawson_match_rows_of_pins():
    assert list(Kayles().heap_sequence(14).values[:15]) == row_nimbers(14, (1, 2))
    assert list(Dawson().heap_sequence(14).values[:15]) == row_nimbers(14, (2,))


def test_published_periods_reproduced():
    kayles = Kayles().heap_sequence(0)
    assert (kayles.period, kayles.preperiod - 1) == (12, 70)  # last exceptional heap 70 (Guy & Smith)
    dawson = Dawson().heap_sequence(0)
    assert (dawson.period, dawson.preperiod - 1) == (34, 52)  # 0.07 heap 52 = Dawson's chess with 51 pawns


@pytest.mark.parametrize("game", [Kayles(), Dawson(), Octal("0.137"), Octal("4.07")])
def test_extrapolated_sequence_equals_full_mex(game):
    n = 3000
    fast = game.heap_sequence(n)
    slow = game.heap_sequence(n, extrapolate=False)
    assert fast.period is not None and fast.proven_at < 1000
    assert list(fast.values[:n + 1]) == list(slow.values[:n + 1])
    assert (fast.period, fast.preperiod) == (slow.period, slow.preperiod)


def random_code(rng):
    digits = [rng.choice((0, 0, 4))] + [rng.randrange(8) for _ in range(rng.randint(1, 4))]
    return "{}.{}".format(digits[0], "".join(map(str, digits[1:])))


def test_random_octal_codes_match_definition():
    rng = random.Random(7)
    for _ in range(25):
        code = random_code(rng)
        game = Octal(code)
        want = heap_rules_nimbers(parse_octal(code), 120)
        assert list(game.heap_sequence(120).values[:121]) == want, code


def test_compiled_kernel_matches_definition_both_paths():
    # Past 512 terms the kernel runs; Lasker's rules (4.333...) cross from the 64-bit mask path to the stamp path.
    rng = random.Random(11)
    codes = [random_code(rng) for _ in range(6)] + ["0.77", "0.07", "0.6", "4.7"]
    for code in codes:
        seq = TakeBreak(parse_octal(code)).sequence(700, extrapolate=False)
        assert list(seq.values[:701]) == heap_rules_nimbers(parse_octal(code), 700), code
    lasker_rules = TakeBreak(lambda limit: [4] + [3] * limit)
    assert list(lasker_rules.sequence(700).values) == heap_rules_nimbers([4] + [3] * 700, 700)


def test_period_claims_hold_on_random_codes():
    rng = random.Random(3)
    checked = 0
    for _ in range(40):
        code = random_code(rng)
        seq = Octal(code).heap_sequence(0)
        if seq.period is None or seq.proven_at > 400:
            continue
        checked += 1
        n = seq.proven_at + 2 * seq.period + 100
        full = heap_rules_nimbers(parse_octal(code), n)
        assert all(seq[i] == full[i] for i in range(n + 1)), code
        # the preperiod is the least one for this period
        p, n0 = seq.period, seq.preperiod
        assert n0 == 0 or full[n0 - 1] != full[n0 - 1 + p], code
    assert checked >= 10


@pytest.mark.parametrize("spec,amounts", [
    ("1,3,4", [1, 3, 4]), ("2,5,6", [2, 5, 6]), ("1,2,3", [1, 2, 3]), ("7", [7]),
    ("squares", [k * k for k in range(1, 40)]), ("powers:2", [2 ** i for i in range(12)]),
    ("powers:3", [3 ** i for i in range(8)]), ("fibonacci", [1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377]),
    ("allbut:1,2", [k for k in range(3, 500)]), ("allbut:2", [1] + list(range(3, 500))),
])
def test_subtraction_games_match_definition(spec, amounts):
    n = 400
    got = list(Subtraction(spec).heap_sequence(n).values[:n + 1])
    assert got == heap_rules_nimbers(subtraction_digits(amounts, n), n)


def test_subtraction_period_and_misere_judge_classic():
    game = Subtraction("1,3,4")
    seq = game.heap_sequence(0)
    assert (seq.period, seq.preperiod) == (7, 0)
    for n in range(40):
        # last to take wins -> G != 0; last to take loses -> plain misère recursion
        assert (game.nimber((n,)) != 0) == heap_outcome(subtraction_digits([1, 3, 4], 40), (n,), False)
        assert (game.misere_outcome((n,)) is WIN) == heap_outcome(subtraction_digits([1, 3, 4], 40), (n,), True)


def test_grundy_game_and_lasker_match_definition():
    n = 200
    assert list(GrundyGame().heap_sequence(n).values[:n + 1]) == heap_rules_nimbers([4], n, unequal=True)
    assert list(Lasker().heap_sequence(n).values) == heap_rules_nimbers([4] + [3] * n, n)


def test_grundy_game_kernel_path():
    n = 900
    assert list(GrundyGame().heap_sequence(n).values[:n + 1]) == heap_rules_nimbers([4], n, unequal=True)


def test_wythoff_table_and_p_positions():
    size = 25
    G = {}
    for a in range(size):
        for b in range(size):
            kids = {G[a - k, b] for k in range(1, a + 1)} | {G[a, b - k] for k in range(1, b + 1)}
            kids |= {G[a - k, b - k] for k in range(1, min(a, b) + 1)}
            G[a, b] = plain_mex(kids)
    table = nimber_table(size)
    assert all(table[a][b] == G[a, b] for a in range(size) for b in range(size))
    losing = sorted((a, b) for (a, b), v in G.items() if v == 0 and a <= b)
    assert losing == [pb for pb in p_positions(20) if pb[1] < size]


# -- positions: nimbers, winning moves, misère ------------------------------------------------------------------

FAMILY_RULES = {  # family -> (digits for heaps up to 30, unequal)
    "nim": ([0] + [3] * 30, False),
    "kayles": ([0, 7, 7], False),
    "dawson": ([0, 0, 7], False),
    "octal:0.137": ([0, 1, 3, 7], False),
    "subtraction:1,3,4": (subtraction_digits([1, 3, 4], 30), False),
    "grundy-game": ([4], True),
    "lasker": ([4] + [3] * 30, False),
}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(FAMILY_RULES)), st.lists(st.integers(0, 9), min_size=1, max_size=3))
def test_position_nimber_and_winning_moves_against_search(name, heaps):
    digits, unequal = FAMILY_RULES[name]
    game = family(name)
    position = game.parse_position(" ".join(map(str, heaps)))
    assert (game.nimber(position) != 0) == heap_outcome(digits, position, False, unequal)
    wins = {game.do_move(position, m) for m in game.winning_moves(position)}
    want = {c for c in heap_moves(digits, position, unequal) if not heap_outcome(digits, c, False, unequal)}
    assert wins == want
    # the same game searched by the generic mex solver
    assert Nimbers(game)(position) == game.nimber(position)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(FAMILY_RULES)), st.lists(st.integers(0, 7), min_size=1, max_size=3))
def test_misere_against_search(name, heaps):
    digits, unequal = FAMILY_RULES[name]
    game = family(name, misere=True)
    position = game.parse_position(" ".join(map(str, heaps)))
    assert (game.misere_outcome(position) is WIN) == heap_outcome(digits, position, True, unequal)
    wins = {game.do_move(position, m) for m in game.misere_winning_moves(position)}
    want = {c for c in heap_moves(digits, position, unequal) if not heap_outcome(digits, c, True, unequal)}
    assert wins == want


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=1, max_size=4))
def test_misere_nim_rule_against_search(heaps):
    want = heap_outcome([0] + [3] * 12, tuple(heaps), True)
    assert misere_nim_wins(heaps) == want
    game = MisereNim()
    position = game.parse_position(" ".join(map(str, heaps)))
    wins = {game.do_move(position, m) for m in game.misere_winning_moves(position)}
    assert wins == {c for c in heap_moves([0] + [3] * 12, position) if not heap_outcome([0] + [3] * 12, c, True)}


def test_nim_winning_moves_on_huge_heaps():
    game = Nim()
    position = (3, 10**30)
    [(h, (m,))] = game.winning_moves(position)
    assert (h, m) == (10**30, 3)


# -- sums of different games -------------------------------------------------------------------------------------


class TakeFrom(Game):
    """A Python-defined one-heap game: take an amount from a set (plain moves/do_move hooks)."""

    def __init__(self, amounts):
        self.amounts = amounts
        self.name = f"take{amounts}"

    def start(self):
        return 10

    def moves(self, n):
        return [k for k in self.amounts if k <= n]

    def do_move(self, n, k):
        return n - k


class KaylesRow(Game):
    """Kayles on one row of pins as a bit mask (children only), to mix a differently-shaped game into sums."""

    name = "kayles-row"

    def start(self):
        return 0b1111

    def children(self, mask):
        out = []
        for i in range(12):
            for w in (1, 2):
                block = ((1 << w) - 1) << i
                if mask & block == block:
                    out.append(mask & ~block)
        return out


def component_moves(kind, state):
    """The rules of each component kind, written again for the oracle."""
    if kind == "take13":
        return [state - k for k in (1, 3) if k <= state]
    if kind == "take245":
        return [state - k for k in (2, 4, 5) if k <= state]
    if kind == "row":
        return KaylesRow().children(state)
    a, b = state  # wythoff
    return ([(a - k, b) for k in range(1, a + 1)] + [(a, b - k) for k in range(1, b + 1)]
            + [(a - k, b - k) for k in range(1, min(a, b) + 1)])


def sum_wins(kinds, misere):
    """Whether the mover wins a position of the sum of games of these kinds, by a plain search of the sum; one
    table for every position asked, so a position's children cost little more than the position."""
    @lru_cache(maxsize=None)
    def wins(position):
        kids = [position[:i] + (c,) + position[i + 1:] for i, kind in enumerate(kinds)
                for c in component_moves(kind, position[i])]
        return misere if not kids else any(not wins(c) for c in kids)

    return lambda states: wins(tuple(states))


def positions_below(kind, state):
    """A bound on the positions a component can reach: a sum's plain search visits at most their product."""
    if kind == "row":
        return 1 << bin(state).count("1")
    return (state[0] + 1) * (state[1] + 1) if kind == "wythoff" else state + 1


GAMES = {"take13": TakeFrom((1, 3)), "take245": TakeFrom((2, 4, 5)), "row": KaylesRow(), "wythoff": Wythoff()}
component = st.one_of(
    st.tuples(st.just("take13"), st.integers(0, 12)),
    st.tuples(st.just("take245"), st.integers(0, 12)),
    st.tuples(st.just("row"), st.integers(0, 2 ** 7 - 1)),
    st.tuples(st.just("wythoff"), st.tuples(st.integers(0, 4), st.integers(0, 4))),
)
#: Sums of up to three components, of at most 4,000 positions: two big rows and a Wythoff heap pair made a sum of
#: 400,000, searched in plain Python twice (seconds an example, half a minute for the test on an unlucky draw).
sums = st.lists(component, min_size=1, max_size=3).filter(
    lambda parts: math.prod(positions_below(kind, state) for kind, state in parts) <= 4000)


@settings(max_examples=80, deadline=None)
@given(sums)
@pytest.mark.slow
def test_xor_rule_against_direct_search_of_the_sum(parts):
    kinds = [k for k, _ in parts]
    components = [(GAMES[k], s) for k, s in parts]
    total = sum_nimber(components)
    wins = sum_wins(kinds, False)
    assert (total != 0) == wins([s for _, s in parts])
    # the sum as one game, searched by the memo solver, agrees too
    sum_game = SumGame([g for g, _ in components])
    outcome = Solution(sum_game, outcomes_only=True).value(tuple(s for _, s in parts)).outcome
    assert outcome is (WIN if total else LOSE)
    # winning moves: exactly the moves to a losing sum
    found = {(i, c) for i, _, c in sum_winning_moves(components)}
    states = [s for _, s in parts]
    want = {(i, c) for i, k in enumerate(kinds) for c in component_moves(k, states[i])
            if not wins(states[:i] + [c] + states[i + 1:])}
    assert found == want


@settings(max_examples=60, deadline=None)
@given(sums)
def test_misere_sum_against_direct_search(parts):
    kinds = [k for k, _ in parts]
    components = [(GAMES[k], s) for k, s in parts]
    states = [s for _, s in parts]
    wins = sum_wins(kinds, True)
    assert (misere_outcome(components) is WIN) == wins(states)
    found = {(i, c) for i, _, c in misere_winning_moves(components)}
    want = {(i, c) for i, k in enumerate(kinds) for c in component_moves(k, states[i])
            if not wins(states[:i] + [c] + states[i + 1:])}
    assert found == want


@pytest.mark.slow
def test_nimbers_of_compiled_game_dense_and_generic():
    import numba

    from gamedp.compiled import CompiledGame

    @numba.njit(cache=True)
    def take_235(n, out):
        count = 0
        for k in (2, 3, 5):
            if k <= n:
                out[count] = n - k
                count += 1
        return count

    want = heap_rules_nimbers(subtraction_digits([2, 3, 5], 300), 300)
    dense = Nimbers(CompiledGame("take-2-3-5", 300, take_235, 3, num_positions=301))
    generic = Nimbers(CompiledGame("take-2-3-5", 300, take_235, 3))
    assert [dense(n) for n in range(301)] == want
    assert [generic(n) for n in range(0, 301, 7)] == want[::7]
    assert nimber(CompiledGame("take-2-3-5", 300, take_235, 3, num_positions=301)) == want[300]


def test_cycles_and_misere_games_are_refused():
    class Loop(Game):
        name = "loop"

        def start(self):
            return 0

        def children(self, n):
            return [(n + 1) % 3]

    with pytest.raises(Exception, match="reached from itself"):
        nimber(Loop())
    with pytest.raises(Exception, match="normal play"):
        Nimbers(family("kayles", misere=True))


def test_notation_round_trip():
    game = family("kayles")
    position = game.parse_position("7, 3 + 0")
    assert position == (3, 7) and game.format_position(position) == "3 7"
    for move in game.moves(position):
        assert game.parse_move(position, game.format_move(position, move)) == move
    wythoff = Wythoff()
    assert wythoff.parse_move((4, 9), "4 7") == (4, 7)


def test_a_long_sequence_is_computed_in_pieces_with_progress(monkeypatch):
    import gamedp.games.impartial.octal as octal
    import gamedp.progress

    rules = TakeBreak(parse_octal("4.07"))
    whole = list(rules._compute([0], 3000))
    seen = []
    monkeypatch.setattr(octal, "PROGRESS_STEPS", 10_000)
    monkeypatch.setattr(gamedp.progress.ProgressLine, "update", lambda self, done, total=None: seen.append(done))
    assert list(rules._compute([0], 3000)) == whole
    assert len(seen) == octal.PROGRESS_PIECES and seen == sorted(seen) and seen[-1] == 3000
