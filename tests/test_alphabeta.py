"""The pruned engines (alpha-beta with a transposition table) against the plain oracles and the full engine."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamedp import Game, Value, solve
from gamedp.games.connect4 import Connect4
from gamedp.games.tictactoe import TicTacToe
from gamedp.solvers.alphabeta import PrunedSolution, pruned_solution, value_of

from oracle import minimax, with_draws
from test_engine import GraphGame, as_tuple, graphs

BENCH_PEERS = Path(__file__).resolve().parent.parent / "bench" / "peers"


class NamedMovesGraph(GraphGame):
    """The graph game naming its moves (moves + do_move, no children of its own): the history is per move."""

    children = Game.children

    def __init__(self, children, leaf, *, misere=False, use_primitive=True, primitive_first=False,
                 hashable=True):
        super().__init__(children, leaf, misere=misere, use_primitive=use_primitive)
        self.primitive_first, self.hashable = primitive_first, hashable

    def moves(self, node):
        return [("to", c) if self.hashable else ["to", c] for c in self.kids[node]]

    def do_move(self, node, move):
        return move[1]


@settings(max_examples=400, deadline=None)
@given(graphs(cyclic=False), st.booleans(), st.booleans())
@pytest.mark.slow
def test_acyclic_values_match_minimax(graph, remoteness, misere):
    children, leaf = graph
    game = GraphGame(children, leaf, misere=misere, use_primitive=not misere)
    expected = solve(game)  # the full engine, itself checked against minimax in test_engine
    solution = PrunedSolution(game, remoteness=remoteness)  # one table shared by every query
    for node in random.Random(len(children)).sample(range(len(children)), len(children)):
        v = solution.value(node)
        assert v.outcome == expected.value(node).outcome
        if remoteness:
            assert as_tuple(v) == as_tuple(expected.value(node))
        if not misere:
            assert v.outcome.value == minimax(children, leaf, node)[0]


@settings(max_examples=300, deadline=None)
@given(graphs(cyclic=True), st.booleans(), st.booleans())
@pytest.mark.slow
def test_cycles_fall_back_to_the_full_engine(graph, remoteness, named_moves):
    children, leaf = graph
    expected = with_draws(children, leaf)
    solution = PrunedSolution((NamedMovesGraph if named_moves else GraphGame)(children, leaf), remoteness=remoteness)
    for node in range(len(children)):
        v = solution.value(node)
        assert v.outcome.value == expected[node][0]
        assert v.remoteness == (expected[node][1] if remoteness else None)


@settings(max_examples=300, deadline=None)
@given(graphs(cyclic=False, scored=True))
@pytest.mark.slow
def test_scored_games_are_valued_by_the_full_engine(graph):
    children, leaf = graph
    solution = PrunedSolution(GraphGame(children, leaf, scored=True), remoteness=True)
    for node in range(len(children)):
        assert as_tuple(solution.value(node)) == minimax(children, leaf, node)


def random_positions(game, count, seed):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        p = game.start()
        for _ in range(rng.randrange(12)):
            kids = list(game.children(p))
            if not kids:
                break
            p = rng.choice(kids)
        found.append(p)
    return found


@pytest.mark.parametrize("game", [TicTacToe(), Connect4(4, 3), Connect4(3, 4, 3), Connect4(4, 3, symmetry=False)],
                         ids=["tictactoe", "connect4-4x3", "connect3-3x4", "connect4-4x3-nosym"])
def test_random_positions_of_small_games_match_the_full_engine(game):
    full = solve(game)
    shared = PrunedSolution(game, remoteness=True)
    for p in random_positions(game, 60, seed=7):
        expected = full.value(p)
        assert shared.value(p) == expected
        assert value_of(game, p).outcome is expected.outcome  # a fresh table each time
        move = shared.best_move(p)
        if move is not None:
            assert full.value(game.do_move(p, move)).for_parent() == expected


def test_analyze_gives_every_move_its_exact_value():
    game = Connect4(4, 3)
    full, pruned = solve(game), pruned_solution(game, remoteness=True)
    for p in random_positions(game, 20, seed=3):
        assert pruned.analyze(p) == full.analyze(p)


def test_only_value_prunes():
    game = Connect4(4, 4)
    solution = PrunedSolution(game)
    assert str(solution.value(game.start())) == "TIE"  # 4x4 Connect-4 is a draw
    assert len(solution) < 161_029 // 4  # far fewer than the positions the full engine would value


@settings(max_examples=400, deadline=None)
@given(graphs(cyclic=False), st.booleans(), st.booleans(), st.booleans(), st.booleans())
@pytest.mark.slow
def test_games_naming_their_moves_match_minimax(graph, remoteness, misere, primitive_first, hashable):
    children, leaf = graph
    game = NamedMovesGraph(children, leaf, misere=misere, use_primitive=not misere, primitive_first=primitive_first,
                           hashable=hashable)
    expected = solve(game)
    solution = PrunedSolution(game, remoteness=remoteness)
    for node in random.Random(len(children)).sample(range(len(children)), len(children)):
        v = solution.value(node)
        assert as_tuple(v) == (as_tuple(expected.value(node)) if remoteness else (expected.value(node).outcome.value,
                                                                                  None))
        if not misere:
            assert v.outcome.value == minimax(children, leaf, node)[0]


class CountedGraph(NamedMovesGraph):
    def __init__(self, children, leaf):
        super().__init__(children, leaf)
        self.asked = []

    def primitive(self, node):
        self.asked.append(node)
        return super().primitive(node)


@settings(max_examples=300, deadline=None)
@given(graphs(cyclic=False), st.booleans())
@pytest.mark.slow
def test_primitive_is_asked_only_where_there_are_no_moves_and_once(graph, remoteness):
    # A game without primitive_first promises that an ended position has no moves, so its primitive (often its
    # most expensive hook, and tested again inside its moves) is needed only there, and a value once known is kept.
    children, leaf = graph
    game = CountedGraph(children, leaf)
    solution = PrunedSolution(game, remoteness=remoteness)
    for node in range(len(children)):
        solution.value(node)
    assert all(not children[n] for n in game.asked)
    assert len(game.asked) == len(set(game.asked))


@pytest.mark.parametrize("size, once", [((4, 3), False), ((4, 3), True), ((3, 4), False)],
                         ids=["4x3", "4x3-end-once", "3x4"])
def test_a_plainly_written_connect4_matches_the_full_engine(size, once):
    # the benchmark's Connect-4 written as a user would (a tuple of columns, the end tested again in moves), or
    # with its end given once (primitive_first), against the full engine's solution of the built-in Connect4 (its
    # own bitboard rules), each position carried over as its drawing
    spec = importlib.util.spec_from_file_location("plain_connect4", BENCH_PEERS / "plain_connect4.py")
    plain = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plain)
    width, height = size
    builtin = Connect4(width, height)
    full = solve(builtin)

    def expected(board: tuple) -> Value:
        rows = ("".join(".XO"[column[r]] if r < len(column) else "." for column in board)
                for r in reversed(range(height)))
        return full.value(builtin.parse_position("\n".join(rows)))

    game = (plain.PlainConnect4Once if once else plain.PlainConnect4)(*size)
    shared = PrunedSolution(game, remoteness=True)
    # positions from the game whose moves stop at a win, so that each can be drawn
    for p in random_positions(plain.PlainConnect4(*size), 40, seed=11):
        assert shared.value(p) == expected(p)
        assert value_of(game, p).outcome is expected(p).outcome


# -- the compiled engine ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def compiled_kernels():
    from numba import njit

    from test_analyze_games import take_134

    @njit(nogil=True)
    def loopy(n, out):  # a ring of 9 positions, each may step back one or jump to a dead end (9 + n % 2)
        out[0] = (n + 8) % 9 if n < 9 else 0
        out[1] = 9 + n % 2 if n < 9 else 0
        return 2 if n < 9 else 0

    @njit(nogil=True)
    def loopy_primitive(n):
        return 0 if n < 9 else 3 if n == 9 else 1

    return njit(nogil=True)(take_134), loopy, loopy_primitive


@pytest.mark.parametrize("board", [(4, 3, 4), (3, 4, 3), (4, 4, 4)])
@pytest.mark.slow
def test_compiled_random_positions_match_the_full_engine(board):
    from gamedp.solvers.compiled import solve_compiled
    from gamedp.solvers.compiled_alphabeta import CompiledPrunedSolution

    rules = Connect4(*board, symmetry=False)
    game = rules.compiled()
    full = solve_compiled(game)
    for remoteness in (False, True):
        shared = CompiledPrunedSolution(game, remoteness=remoteness)
        for p in random_positions(rules, 40, seed=sum(board)):
            expected = full.value(p)
            got = shared.value(p)
            assert got == (expected if remoteness else Value(expected.outcome))
    assert shared.analyze(game.start()) == full.analyze(game.start())


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.slow
def test_compiled_subtraction_game(compiled_kernels, misere):
    from gamedp.compiled import CompiledGame
    from gamedp.solvers.compiled import solve_compiled

    game = CompiledGame("take-1-3-4", start=60, children=compiled_kernels[0], max_children=3, misere=misere)
    full = solve_compiled(game)
    pruned = pruned_solution(game, remoteness=True)
    assert [pruned.value(n) for n in range(61)] == [full.value(n) for n in range(61)]


@pytest.mark.slow
def test_compiled_cycles_fall_back_to_the_full_engine(compiled_kernels):
    from gamedp.compiled import CompiledGame
    from gamedp.solvers.compiled import solve_compiled

    _, loopy, primitive = compiled_kernels
    game = CompiledGame("ring", start=0, children=loopy, max_children=2, primitive=primitive)
    full = solve_compiled(game)
    for remoteness in (False, True):
        pruned = pruned_solution(game, remoteness=remoteness)
        for n in range(11):
            v = full.value(n)
            assert pruned.value(n) == (v if remoteness else Value(v.outcome))


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.slow
def test_analyze_outcomes_only_uses_the_pruned_engine(compiled):
    from gamedp.analysis import Analyst

    rules = Connect4(4, 3, 3)  # three in a row: no exact-score search (Connect-Four's is for four)
    analyst = Analyst(rules.compiled() if compiled else rules, outcomes_only=True)
    full = solve(rules)
    for p in random_positions(rules, 10, seed=11):
        a = analyst.analyze(p)
        assert a.value.outcome is full.value(p).outcome and a.value.remoteness is None
        assert sorted(mv.value.outcome.name for mv in a.moves) == \
            sorted(full.value(c).for_parent().outcome.name for c in rules.children(p))
    assert type(analyst._engine()).__name__ == ("CompiledPrunedSolution" if compiled else "PrunedSolution")


@pytest.mark.parametrize("plain", [False, True], ids=["numba", "prebuilt"])
def test_compiled_pruned_search_grows_its_stack_and_table(plain):
    """A chain far deeper than the first stack (64 frames) and with more positions than the first table holds;
    by numba's search (an @njit kernel), and by the one built ahead of time (the same kernel, plain)."""
    from gamedp.compiled import CompiledGame
    from test_compiled import countdown

    n = 100_001
    solution = pruned_solution(CompiledGame("chain", n, countdown.py_func if plain else countdown, 1), remoteness=True)
    assert type(solution._search).__name__ == ("NativeSearch" if plain else "NumbaSearch")
    v = solution.value(n)
    assert (v.outcome.name, v.remoteness) == ("WIN", n)
    assert len(solution) == n + 1
