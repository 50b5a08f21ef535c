"""Domineering on boards of 128 to 256 cells (gamedp.kernels.domineering_big_search over gamedp.kernels.null_window):
who wins, against a plain game-tree search written from the rules (tests/test_domineering_search.py) on boards
with few empty cells, both sides to move; against the wide search on the boards both take (the same rules, so
the same answers and about the same positions explored); and through value, analyze, play and the API."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from command import gamedp, one_clear_error
from test_domineering_wide import PUBLISHED, matches_a_plain_search

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))  # its positions after random dominoes
from bench_domineering_big import placed

from gamedp.games.domineering_scores import BigDomineeringScores, WideDomineeringScores
from gamedp.games.placement import Domineering, domineering
from gamedp.solvers.score_search import ScoreSearch
from gamedp.values import WIN


@pytest.mark.parametrize("rows, cols", [(12, 12), (16, 16), (8, 16), (16, 8), (5, 26), (26, 5), (6, 30), (30, 6),
                                        (11, 12), (30, 8), (9, 15)])
@pytest.mark.slow
def test_boards_past_127_cells_match_a_plain_search(rows, cols):
    assert isinstance(Domineering(rows, cols).score_search(), BigDomineeringScores)  # the game's own choice
    matches_a_plain_search((BigDomineeringScores,), rows, cols, 10, (8, 22), rows * 100 + cols)


@pytest.mark.parametrize("rows, cols", [(3, 4), (5, 5), (4, 7), (9, 9), (4, 30), (11, 11)])
def test_the_big_search_agrees_with_the_wide_one_and_the_plain_one_where_both_reach(rows, cols):
    matches_a_plain_search((BigDomineeringScores, WideDomineeringScores), rows, cols, 15,
                           (4, min(rows * cols, 20) + 1), rows * 10 + cols)


@pytest.mark.parametrize("rows, cols, horizontal", [(6, 6, 0), (7, 6, 1), (8, 7, 0), (6, 8, 0), (9, 4, 1)])
@pytest.mark.slow
def test_the_big_search_explores_what_the_wide_one_does(rows, cols, horizontal):
    """Both count Bullock's bounds and order moves alike, line by line or over 128 bits: the same winner after
    about the same positions (their keys hash differently, so their tables lose different entries)."""
    game = Domineering(rows, cols)
    start = game.start() | horizontal << rows * cols
    searches = [ScoreSearch(rules(game), progress=False, memory=64 << 20)
                for rules in (WideDomineeringScores, BigDomineeringScores)]
    outcomes = [search.value(start).outcome for search in searches]
    wide, big = (search.explored for search in searches)
    assert outcomes[0] is outcomes[1]
    assert 0.95 < big / wide < 1.05, (wide, big)


@pytest.mark.parametrize("shape", sorted(PUBLISHED))
def test_published_winners_through_the_big_path(shape):
    game = Domineering(*shape)
    assert ScoreSearch(BigDomineeringScores(game), progress=False).value(game.start()).outcome is PUBLISHED[shape]


def test_the_words_the_searches_keep_besides_their_frames_are_the_kernels():
    from gamedp.kernels import domineering_big_search, domineering_wide_search

    assert BigDomineeringScores.arena_words == domineering_big_search.ARENA_WORDS
    assert WideDomineeringScores.arena_words == domineering_wide_search.SCRATCH_WORDS


def one_line(game: Domineering, position: int) -> str:
    rules = game.rules
    board = "".join("#" if position >> i & 1 else "." for i in range(rules.n))
    return f"{board} {'H' if game.player(position) else 'V'}"


@pytest.mark.slow
def test_value_analyze_and_play_take_a_16_by_16_board():
    game = domineering(16, 16)
    position = placed(16, 16, 100, 3)
    search = ScoreSearch(game.score_search(), progress=False)
    expected = search.value(position).outcome.name
    out = gamedp("value", "domineering:16x16", "--json", stdin=one_line(game, position) + "\n")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["value"] == expected
    analysis = gamedp("analyze", "domineering:16x16", "--json", "-", stdin=one_line(game, position))
    assert analysis.returncode == 0, analysis.stderr
    moves = json.loads(analysis.stdout)["moves"]
    children = {game.format_move(position, move): child for move, child in game.move_list(position)}
    assert {m["moveName"] for m in moves} == set(children)
    for m in moves[:4]:  # each move's value is the child's, for the player who made it
        assert m["moveValue"] == ("lose" if search.value(children[m["moveName"]]).outcome is WIN else "win")
    assert json.loads(analysis.stdout)["positionValue"] == expected.lower()
    first = moves[0]["moveName"]
    played = gamedp("play", "domineering:16x16", one_line(game, position), stdin=f"{first}\nquit\n")
    assert played.returncode == 0 and "The computer plays" in played.stdout, played.stderr


def test_a_cluster_is_refused_for_boards_past_127_cells_before_it_starts():
    game = domineering(12, 12)
    line = one_line(game, placed(12, 12, 50, 1))
    one_clear_error(gamedp("value", "domineering:12x12", "--workers", "2", stdin=line + "\n"), "--workers",
                    "one process", "--threads")
