"""One position's search split over the workers of a real local Dask cluster (gamedp.solvers.split_search):
its answers are those of the search of one process, on Connect-Four and Domineering, and a worker killed in the
middle changes nothing but the time."""

from __future__ import annotations

import os
import random
import signal
import threading
import time

import pytest

from gamedp.executors import DaskExecutor
from gamedp.games.connect4 import Connect4
from gamedp.games.placement import Domineering
from gamedp.solvers.score_search import ScoreSearch
from gamedp.solvers.split_search import SplitSearch

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster():
    with DaskExecutor(workers=2) as executor:
        executor.start()
        yield executor


def random_position(rules, rng: random.Random, stones: int):
    position = rules.game.start()
    for _ in range(stones):
        kids = [child for _, child in rules.children(position) if rules.children(child)]
        if not kids:
            break
        position = rng.choice(kids)
    return position


def test_connect4_scores_are_the_search_s_of_one_process(cluster):
    rules = Connect4(5, 4).score_search()
    plain = ScoreSearch(rules, progress=False, book=False)
    split = SplitSearch(rules, "connect4:5x4", cluster, plies=2)
    rng = random.Random(4)
    for _ in range(6):
        position = random_position(rules, rng, rng.randrange(6, 12))
        assert split.score(position) == plain.score(position), rules.game.format_position_line(position)
    outcomes = SplitSearch(rules, "connect4:5x4", cluster, outcomes_only=True)
    for _ in range(4):
        position = random_position(rules, rng, rng.randrange(2, 8))
        assert outcomes.value(position).outcome is plain.outcome(position).outcome


def test_domineering_winners_are_the_search_s_of_one_process(cluster):
    game = Domineering(5, 5)
    rules = game.score_search()
    plain = ScoreSearch(rules, progress=False, book=False)
    split = SplitSearch(rules, "domineering:5x5", cluster)
    rng = random.Random(5)
    for _ in range(8):
        position = random_position(rules, rng, rng.randrange(0, 4))
        assert split.value(position) == plain.value(position), game.format_position(position)
        assert split.questions > 0


def test_a_worker_killed_in_the_middle_changes_nothing_but_the_time(cluster):
    game = Domineering(6, 6)
    rules = game.score_search()
    split = SplitSearch(rules, "domineering:6x6", cluster, memory=1 << 22)
    pids = list(cluster.client.run(os.getpid).values())

    def kill_one():
        time.sleep(1.0)
        os.kill(pids[0], signal.SIGKILL)

    killer = threading.Thread(target=kill_one)
    killer.start()
    answer = split.value(game.start())
    killer.join()
    assert answer == ScoreSearch(rules, progress=False, book=False).value(game.start())
