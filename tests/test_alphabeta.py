"""The pruned engines (alpha-beta with a transposition table) against the plain oracles and the full engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamedp import solve
from gamedp.games.connect4 import Connect4
from gamedp.games.tictactoe import TicTacToe
from gamedp.solvers.alphabeta import PrunedSolution, pruned_solution, value_of

from oracle import minimax, with_draws
from test_engine import GraphGame, as_tuple, graphs


@settings(max_examples=1500, deadline=None)
@given(graphs(cyclic=False), st.booleans(), st.booleans())
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


@settings(max_examples=800, deadline=None)
@given(graphs(cyclic=True), st.booleans())
def test_cycles_fall_back_to_the_full_engine(graph, remoteness):
    children, leaf = graph
    expected = with_draws(children, leaf)
    solution = PrunedSolution(GraphGame(children, leaf), remoteness=remoteness)
    for node in range(len(children)):
        v = solution.value(node)
        assert v.outcome.value == expected[node][0]
        assert v.remoteness == (expected[node][1] if remoteness else None)


@settings(max_examples=300, deadline=None)
@given(graphs(cyclic=False, scored=True))
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
