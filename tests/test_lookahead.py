"""Depth-limited play against the full engine: perfect wherever the search reaches the end."""

from __future__ import annotations

import random

import pytest

from gamedp import solve
from gamedp.errors import GamedpError
from gamedp.games.connect4 import Connect4
from gamedp.games.tictactoe import TicTacToe
from gamedp.solvers.lookahead import Lookahead

from test_alphabeta import random_positions


@pytest.mark.parametrize("game", [TicTacToe(), Connect4(4, 3)], ids=["tictactoe", "connect4-4x3"])
def test_deep_enough_plays_perfectly(game):
    full = solve(game)
    player = Lookahead(game, depth=12)  # beyond every game's end: one table for every position asked
    for p in random_positions(game, 40, seed=5):
        move = player.best_move(p)
        if move is None:
            assert not full.analyze(p).moves
            continue
        assert full.value(game.do_move(p, move)).for_parent() == full.value(p)  # the quickest win, slowest loss
        assert player.proven == (full.value(p).outcome.name != "TIE")


def test_shallow_search_takes_a_win_and_blocks_a_threat():
    game = Connect4(7, 6)
    player = Lookahead(game, depth=2)
    win = game.parse_position("121212")  # X to move, three in column 1
    assert game.format_move(win, player.best_move(win)) == "1" and player.proven
    threat = game.parse_position("17273")  # X has columns 1-3 of the bottom row; O to move must take column 4
    assert game.format_move(threat, Lookahead(game, depth=2).best_move(threat)) == "4"


def test_depth_must_be_positive():
    with pytest.raises(GamedpError, match="at least 1"):
        Lookahead(TicTacToe(), depth=0)


def test_random_connect4_7x6_games_stay_legal():
    game = Connect4(7, 6)
    player = Lookahead(game, depth=3)
    rng = random.Random(1)
    p = game.start()
    while game.primitive(p) is None:
        move = player.best_move(p) if rng.random() < 0.5 else rng.choice(game.moves(p))
        assert move in game.moves(p)
        p = game.do_move(p, move)


# -- exact where proven, against Connect-4 written plainly from the rules (tests/test_tier_solver.py) ----------
def columns(game, key):
    """A Connect-4 position as the plain solver writes it: each column's stones from the bottom."""
    rows = game.cells(key)[::-1]
    return tuple("".join(row[c] for row in rows if row[c] != ".") for c in range(game.width))


def plain_value(plain, game, key):
    from gamedp.values import Outcome, Value

    outcome, remoteness = plain(columns(game, key))
    return Value(Outcome[outcome], remoteness)


@pytest.mark.parametrize("depth", [3, 6, 12])
def test_judged_moves_are_exact_wherever_proven(depth):
    from test_tier_solver import plain_solver

    game, plain = Connect4(4, 3), plain_solver(3, 4)
    player = Lookahead(game, depth=depth)
    proven = 0
    for p in random_positions(game, 30, seed=depth):
        judgement = player.judge(p)
        assert sorted(j.move for j in judgement.moves) == sorted(game.moves(p))
        for j in judgement.moves:
            truth = plain_value(plain, game, j.child).for_parent()
            if j.value is not None:
                proven += 1
                assert j.value.outcome is truth.outcome
                if truth.outcome.name != "TIE":
                    assert j.value.remoteness == truth.remoteness
        if judgement.value is not None:
            assert judgement.value.outcome is plain_value(plain, game, p).outcome
        if depth >= 12:  # beyond every end: all proven
            assert all(j.value is not None for j in judgement.moves)
    assert proven > 0


def test_known_values_make_a_shallow_search_perfect():
    from test_tier_solver import plain_solver

    game, plain = Connect4(4, 3), plain_solver(3, 4)
    player = Lookahead(game, depth=1, known=lambda p: plain_value(plain, game, p))
    for p in random_positions(game, 40, seed=9):
        move = player.best_move(p)
        if move is None:
            continue
        best, got = plain_value(plain, game, p), plain_value(plain, game, game.do_move(p, move)).for_parent()
        assert got.outcome is best.outcome and (best.outcome.name == "TIE" or got == best)
        assert player.proven == (best.outcome.name != "TIE")


# -- the Connect-Four estimate at the horizon: the opening right -------------------------------------------------
def test_depth_8_opens_in_the_centre_the_only_winning_move():
    """Column 4 is the start's only winning move (the published solve); the search ranks it first, alone."""
    game = Connect4(7, 6)
    first, second = Lookahead(game, depth=8).judge(game.start()).moves[:2]
    assert game.format_move(game.start(), first.move) == "4" and first.score > second.score


# Opening positions of the benchmark sets (tests/fixtures/connect4-positions) that the mover wins, each with the
# moves that win it, found by the exact search (test_the_winning_moves_are_the_exact_search_s below checks them);
# the wins lie beyond 8 moves, so the estimate, not a proven end, must choose among the moves.
OPENINGS = [("Test_L1_R1", "32163126", "3"), ("Test_L1_R1", "62535726", "125"), ("Test_L1_R1", "564347", "456"),
            ("Test_L1_R1", "25233766", "2357"), ("Test_L1_R2", "366776", "4")]


@pytest.mark.parametrize("fixture,moves,winning", OPENINGS, ids=[o[1] for o in OPENINGS])
def test_depth_8_chooses_a_winning_move_in_opening_positions(fixture, moves, winning):
    game = Connect4(7, 6)
    p = game.parse_position(moves)
    judgement = Lookahead(game, depth=8).judge(p)
    assert game.format_move(p, judgement.moves[0].move) in winning
    assert judgement.value is None  # chosen by the estimate: no end proven within the horizon


@pytest.mark.slow  # the exact search of every move (1-10 s a position)
@pytest.mark.parametrize("fixture,moves,winning", OPENINGS, ids=[o[1] for o in OPENINGS])
def test_the_winning_moves_are_the_exact_search_s(fixture, moves, winning):
    from pathlib import Path

    from gamedp.solvers.score_search import ScoreSearch

    game = Connect4(7, 6)
    listed = dict(line.split() for line in (Path(__file__).parent / "fixtures" / "connect4-positions" / fixture)
                  .read_text().splitlines())
    search = ScoreSearch(game.score_search(), memory=256 << 20, progress=False, book=False)
    p = game.parse_position(moves)
    scores = {game.format_move(p, m): -search.score(c) for m, c in game.move_list(p)}
    assert max(scores.values()) == int(listed[moves]) > 0
    assert "".join(m for m, s in scores.items() if s > 0) == winning


def test_the_estimate_never_outranks_a_proven_end():
    """Every proven win ranks above every estimate and every proven loss below, and estimates stay in -1..1."""
    game = Connect4(7, 6)
    player = Lookahead(game, depth=3)
    seen = set()
    for p in random_positions(game, 40, seed=3):
        assert -1 <= game.heuristic(p) <= 1
        ranks = [2 if j.value and j.value.outcome.name == "WIN" else 0 if j.value and j.value.outcome.name == "LOSE"
                 else 1 for j in player.judge(p).moves]
        assert ranks == sorted(ranks, reverse=True)
        seen.update(ranks)
    assert seen == {0, 1, 2}  # positions with proven wins, proven losses and estimates among their moves


@pytest.mark.parametrize("size", [(4, 4, 3), (5, 4, 4), (6, 5, 4), (9, 6, 5), (8, 7, 4)])
def test_the_estimate_is_an_estimate_on_every_board(size):
    game = Connect4(*size)
    for p in random_positions(game, 20, seed=1):
        if game.primitive(p) is None:
            assert -1 <= game.heuristic(p) <= 1


def test_domineering_s_mobility_heuristic_beats_none_at_the_same_depth():
    """Two moves deep on 7 x 7 (too big for the search to see the end from the opening), the player judging the
    horizon by Domineering's heuristic against one judging it 0, each side in turn, after two random moves."""
    from gamedp.games.placement import Domineering

    won = 0
    for seed in range(8):
        game = Domineering(7, 7)
        rng = random.Random(seed)
        position = rng.choice(game.move_list(rng.choice(game.move_list(game.start()))[1]))[1]
        smart = Lookahead(game, 2)
        players = [smart, Lookahead(game, 2, heuristic=lambda p: 0.0)]
        if seed % 2:
            players.reverse()
        turn = 0
        while moves := dict(game.move_list(position)):
            position = moves[players[turn % 2].best_move(position)]
            turn += 1
        loser = players[turn % 2]  # the player to move with no move
        won += loser is not smart
    assert won >= 7, won
