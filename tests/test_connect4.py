"""Connect-N's rules against a plain grid implementation written from the rules, and its notation."""

from __future__ import annotations

import random
import re

import pytest

from gamedp.errors import GamedpError
from gamedp.games.connect4 import Connect4
from gamedp.loader import load_game


def plain_line(grid: list[list[str | None]], width: int, height: int, connect: int, who: str) -> bool:
    for r in range(height):
        for c in range(width):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if all(0 <= r + dr * k < height and 0 <= c + dc * k < width and grid[r + dr * k][c + dc * k] == who
                       for k in range(connect)):
                    return True
    return False


@pytest.mark.parametrize("width,height,connect", [(4, 4, 4), (5, 4, 4), (4, 5, 3), (3, 3, 3), (7, 6, 4), (6, 5, 4),
                                                  (9, 6, 5), (2, 3, 2), (1, 5, 3), (8, 6, 4)])
@pytest.mark.slow
def test_random_games_follow_the_rules(width: int, height: int, connect: int) -> None:
    game, rng = Connect4(width, height, connect), random.Random(width * 100 + height * 10 + connect)
    for _ in range(60):
        key, grid, heights, turn, played = game.start(), [[None] * width for _ in range(height)], [0] * width, "X", ""
        while True:
            last = "O" if turn == "X" else "X"
            expected = ("LOSE" if plain_line(grid, width, height, connect, last)
                        else "TIE" if all(h == height for h in heights) else None)
            primitive = game.primitive(key)
            assert (primitive.name if primitive else None) == expected, played
            assert game.parse_position(game.format_position(key)) == key
            assert game.parse_position(game.format_position_line(key)) == key
            assert game.parse_position(played) == key
            moves = game.moves(key)
            assert moves == ([] if expected else [c for c in range(width) if heights[c] < height])
            assert game.move_list(key) == [(c, game.do_move(key, c)) for c in moves]  # its own, made faster
            mirrored = game.parse_position("".join(str(width - int(ch) + 1) for ch in played))
            assert game.canonical(key) == game.canonical(mirrored) == min(key, mirrored)
            if not moves:
                break
            column = rng.choice(moves)
            key = game.do_move(key, column)
            grid[heights[column]][column], heights[column], turn = turn, heights[column] + 1, last
            played += str(column + 1)


def test_position_count_of_4x4_is_the_published_one() -> None:
    game = Connect4(4, 4, symmetry=False)
    seen, frontier = {game.start()}, [game.start()]
    while frontier:
        frontier = [child for p in frontier for child in game.children(p) if child not in seen and not seen.add(child)]
    assert len(seen) == 161_029


@pytest.mark.parametrize("text,message", [
    ("5", "column 5 at move 1 is not a column"),
    ("11111", "column 1 at move 5 is full"),
    ("1212121" + "3", "the game is over before move 8"),
    ("X...\n....\n....\n....", "stone above an empty cell"),
    ("....\n....\n....\nXX..", "2 X and 0 O cannot happen"),
    ("X...\nXO..\nXO..\nXOO.", "the player to move already has 4 in a row"),
    ("....\nO...\nOOOX\nXXXX", "X has 4 in a row without their last stone"),
    ("..x.\n....\n", "is the columns played"),
])
def test_bad_positions_are_named(text: str, message: str) -> None:
    with pytest.raises(GamedpError, match=re.escape(message)):
        Connect4(4, 4).parse_position(text)


def test_loader_names_boards() -> None:
    assert load_game("connect4").label == "connect4 7x6"
    assert load_game("connect4:5x4:3").label == "connect4 5x4 connect 3"
    with pytest.raises(GamedpError, match="connect4:WxH"):
        load_game("connect4:5")
    with pytest.raises(GamedpError, match="too big"):
        load_game("connect4:9x7")
    # 8x7 fills a whole word: the score search takes it, the compiled engines (int64 keys) say so
    assert load_game("connect4:8x7").label == "connect4 8x7"
    with pytest.raises(GamedpError, match="score search"):
        load_game("connect4:8x7").compiled()


def test_compiled_rules_agree_with_python_rules() -> None:
    import numpy as np

    game = Connect4(5, 4, 3)
    compiled = game.compiled()
    out = np.empty(game.width + 1, dtype=np.int64)
    rng = random.Random(7)
    for _ in range(300):
        key = game.start()
        for _ in range(rng.randrange(20)):
            moves = game.moves(key)
            if not moves:
                break
            key = game.do_move(key, rng.choice(moves))
        n = compiled.children_kernel(np.int64(key), out)
        assert [int(c) for c in out[:n]] == [game.do_move(key, m) for m in game.moves(key)]
        assert compiled.primitive(key) == game.primitive(key)
