"""``check`` finds a game whose play never ends and a scored game with no score where play ends."""

from __future__ import annotations

from gamedp import Game
from gamedp.selfcheck import check_game


class Loop(Game):
    """Round and round five positions: no position ends the game."""

    name = "loop"

    def start(self):
        return 0

    def children(self, n):
        return [(n + 1) % 5]


class Trap(Game):
    """From 3 one may step into a pit (10 -> 11 -> 10 ...) that play never leaves, or count down to 0."""

    name = "trap"

    def start(self):
        return 3

    def children(self, n):
        if n >= 10:
            return [21 - n]
        return ([n - 1] if n else []) + ([10] if n == 3 else [])


class Up(Game):
    """Counts up for ever: no end, and no cycle to find."""

    name = "up"

    def start(self):
        return 0

    def children(self, n):
        return [n + 1, n + 2]


class NoScore(Game):
    """A scored game whose end is not scored."""

    name = "noscore"
    scored = True

    def start(self):
        return 3

    def children(self, n):
        return [n - 1] if n else []

    def primitive(self, n):
        return None


def test_play_that_never_ends_is_a_problem():
    report = check_game(Loop())
    assert not report.ok and "play never ends from position 0" in report.problem
    report = check_game(Trap())
    assert not report.ok and "play never ends from position 1" in report.problem


def test_a_walk_stopped_at_its_limit_says_so():
    report = check_game(Up(), max_positions=500)
    assert report.ok and not report.complete and not report.ends_seen
    assert "stopped at the limit" in str(report) and "play may never end" in str(report)


def test_a_scored_game_must_score_its_ends():
    report = check_game(NoScore())
    assert not report.ok and "position 0 has no moves but primitive() gives it no score" in report.problem
