"""A newcomer's databases: no suggestion of a solve that is then refused, no remoteness dropped by --force
unsaid, no silent search where a database lacks what was asked."""

from __future__ import annotations

import pytest
from command import gamedp


@pytest.fixture(autouse=True)
def databases_of_its_own(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEDP_DB_DIR", str(tmp_path / "db"))


def test_query_never_suggests_a_solve_that_would_be_refused():
    from gamedp.games.indexed import table_spec
    from gamedp.memory import available_memory
    from gamedp.solvers.tier_solver import memory_need

    if memory_need(table_spec("connect4"), remoteness=False) <= available_memory():
        pytest.skip("this machine could solve connect4 7x6 whole")
    asked = gamedp("query", "connect4", "4453")
    assert asked.returncode == 2 and asked.stderr.count("\n") == 1, asked.stderr
    assert "gamedp solve connect4" not in asked.stderr.replace("gamedp solve connect4:", "")
    assert "gamedp analyze connect4 " in asked.stderr  # the way that answers a position of the full board
    small = gamedp("query", "connect4", "-V", "width=4", "-V", "height=3", "4")
    assert "create it with: gamedp solve connect4 -V" in small.stderr  # a solve that will run is still offered


def test_solve_force_keeps_the_remoteness_the_database_had(tmp_path):
    db = str(tmp_path / "t.gdb")
    assert gamedp("solve", "tictactoe", "-r", "--db", db).returncode == 0
    again = gamedp("solve", "tictactoe", "--force", "--db", db)
    assert again.returncode == 0, again.stderr
    assert "remoteness" in again.stderr
    assert " in " in gamedp("query", "tictactoe", "--db", db, "XX.OO....").stdout  # "WIN in 1": still there
    saved = str(tmp_path / "n.gdb")
    assert gamedp("solve", "nim", "2", "3", "-r", "--db", saved).returncode == 0
    again = gamedp("solve", "nim", "2", "3", "--force", "--db", saved)
    assert again.returncode == 0 and "remoteness" in again.stderr, again.stderr
    assert " in " in gamedp("query", "nim", "--db", saved, "2 3").stdout


def test_analyze_says_when_the_database_lacks_remoteness():
    assert gamedp("solve", "connect4", "-V", "width=4", "-V", "height=3").returncode == 0
    out = gamedp("analyze", "connect4:4x3", "4")
    assert out.returncode == 0, out.stderr
    assert "remoteness" in out.stderr and "-r" in out.stderr
    assert "remoteness" not in gamedp("analyze", "connect4:4x3", "4", "--outcomes-only").stderr
