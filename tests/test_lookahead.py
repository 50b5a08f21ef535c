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
