"""analyze, play and query on Connect-Four 4x4 answer from the database when there is one (else they search),
and the answers are the search's."""

from __future__ import annotations

import json
import random

import pytest
from command import gamedp

from gamedp.analysis import Analyst
from gamedp.database import Reader
from gamedp.games.connect4 import Connect4
from gamedp.solvers.memo import Solution
from gamedp.solvers.database_answers import SavedSolution
from gamedp.solvers.tier_solver import solve_tiered


@pytest.fixture(scope="module")
def db_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("c4db")
    game = Connect4(4, 4).tiered()
    solve_tiered(game, "connect4", folder / "connect4_connect4_height4_width4.gdb", remoteness=True)
    assert (folder / "connect4_connect4_height4_width4.gdb").exists()  # where `gamedp solve` puts it
    return folder


def random_positions(game: Connect4, count: int, seed: int = 7) -> list[int]:
    """Positions of random play, 5 to 12 stones (searching those is quick), each once."""
    rng, found = random.Random(seed), {}
    while len(found) < count:
        key = game.start()
        for _ in range(rng.randint(5, 12)):
            moves = game.moves(key) if game.primitive(key) is None else []
            if not moves:
                break
            key = game.do_move(key, rng.choice(moves))
        found[key] = None
    return list(found)


def test_analyst_answers_from_the_database_as_the_search_does(db_dir, monkeypatch):
    monkeypatch.setenv("GAMEDP_DB_DIR", str(db_dir))
    game = Connect4(4, 4)
    analyst = Analyst(game)
    search = Solution(game)
    for key in random_positions(game, 150):
        saved, searched = analyst.analyze(key), search.analyze(key)
        assert saved.value == searched.value, game.format_position(key)
        assert sorted((m.move, m.value) for m in saved.moves) == sorted((m.move, m.value) for m in searched.moves)
    assert isinstance(analyst._engine(), SavedSolution)
    assert str(analyst.value(game.start())) == "TIE in 16"


def test_without_remoteness_only_an_outcomes_analysis_uses_the_database(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEDP_DB_DIR", str(tmp_path))
    game = Connect4(4, 4)
    assert not isinstance(Analyst(game)._engine(), SavedSolution)  # no database: a search
    solve_tiered(game.tiered(), "connect4", tmp_path / "connect4_connect4_height4_width4.gdb")
    assert not isinstance(Analyst(game)._engine(), SavedSolution)  # a database, but no remoteness to show
    outcomes = Analyst(game, outcomes_only=True)
    assert isinstance(outcomes._engine(), SavedSolution)
    key = game.parse_position("1213")
    assert outcomes.value(key).outcome == Solution(game).value(key).outcome


@pytest.mark.slow
def test_command_line_answers_are_the_same_with_and_without_the_database(db_dir, tmp_path):
    for position in ("", "12", "2233"):
        with_db = gamedp("analyze", "connect4:4x4", position, "--json", db_dir=db_dir)
        without = gamedp("analyze", "connect4:4x4", position, "--json", db_dir=tmp_path)
        assert with_db.returncode == 0 and without.returncode == 0, (with_db.stderr, without.stderr)
        assert json.loads(with_db.stdout) == json.loads(without.stdout)
    query = gamedp("query", "connect4", "-V", "width=4", "-V", "height=4", "2233", db_dir=db_dir)
    board = Connect4(4, 4)
    expected = Solution(board).value(board.parse_position("2233"))
    assert query.returncode == 0 and query.stdout.strip() == f"2233: {expected}"
    played = gamedp("play", "connect4:4x4", db_dir=db_dir, stdin="1\n1\n1\nquit\n")
    assert played.returncode == 0 and not played.stderr, played


def test_a_damaged_database_is_refused_with_the_fix(db_dir, tmp_path):
    broken = tmp_path / "connect4_connect4_height4_width4.gdb"
    data = bytearray((db_dir / broken.name).read_bytes())
    with Reader(db_dir / broken.name) as db:  # the outcomes' first block, which holds the start's tier
        data[db._data + db._sections["outcomes"]["offset"]] ^= 0xFF
    broken.write_bytes(bytes(data))
    proc = gamedp("analyze", "connect4:4x4", "", db_dir=tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith("gamedp: error: ") and "damaged" in proc.stderr, proc.stderr
