"""Saved solves: round trips on Python and compiled games, answers equal to the live engines', damaged, foreign,
stale and tampered files refused with one clear line."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from command import gamedp
from hypothesis import HealthCheck, given, settings
from numba import njit

from gamedp import GamedpError
from gamedp.compiled import CompiledGame
from gamedp.database import DatabaseError, Reader, write_database
from gamedp.game import Game
from gamedp.games.cards import Cards
from gamedp.games.impartial.nim import MisereNim, Nim
from gamedp.games.tictactoe import TicTacToe
from gamedp.loader import load_game
from gamedp.saved_solution import SavedSolution, open_saved
from gamedp.saved_writer import reachable
from gamedp.solvers.compiled import CompiledSolution
from gamedp.solvers.memo import Solution
from gamedp.values import DRAW
from test_analyze_games import take_134 as plain_take_134
from test_database import one_clear_error
from test_engine import Chain, GraphGame, graphs

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
take_134 = njit(nogil=True)(plain_take_134)


@njit(nogil=True)
def step_either_way(n, out):
    """A token on 0..9 steps one square either way: play never has to end (every value is a DRAW)."""
    count = 0
    if n > 0:
        out[count] = n - 1
        count += 1
    if n < 9:
        out[count] = n + 1
        count += 1
    return count


class Pile(Game):
    """Take 1 or 2 from a heap; positions are frozensets holding the heap, written as '#' per stone (notation)."""

    name = "pile"

    def start(self):
        return frozenset([7])

    def children(self, position):
        (n,) = position
        return [frozenset([n - k]) for k in (1, 2) if k <= n]

    def format_position(self, position):
        (n,) = position
        return "#" * n or "-"

    def parse_position(self, text):
        text = text.strip()
        if text != "-" and set(text) - {"#"}:
            raise GamedpError("a pile is written as # per stone, or - when empty")
        return frozenset([text.count("#")])


class KeyedPile(Pile):
    """The memo table keyed by the heap alone: the save then walks the game (its table holds keys, not positions)."""

    def key(self, position):
        (n,) = position
        return n


class Spread(Game):
    """Take 1, 2 or 3 from a heap of 40, the heap kept as heap * 10**12 (integers too sparse for a bitmap)."""

    name = "spread"

    def start(self):
        return 40 * 10**12

    def children(self, position):
        n = position // 10**12
        return [(n - k) * 10**12 for k in (1, 2, 3) if k <= n]


def same_answers(saved: SavedSolution, live, positions) -> None:
    for p in positions:
        assert saved.value(p) == live.value(p), p
        assert saved.analyze(p) == live.analyze(p), p


def save_and_check(game, tmp_path, live, start=None, sample: int | None = None, **options) -> SavedSolution:
    path = tmp_path / "saved.gdb"
    stats = live.save(path, start, **options)
    saved = open_saved(path, game)
    positions = list(saved.positions())
    assert stats["positions"] == len(positions) == len(set(positions))
    rules = game.as_python_game() if isinstance(game, CompiledGame) else game
    assert set(positions) == set(reachable(rules, game.start() if start is None else start))
    if sample is not None:
        positions = random.Random(7).sample(positions, min(sample, len(positions)))
    same_answers(saved, live, positions)
    return saved


@pytest.mark.parametrize("game, encoding", [(TicTacToe(), "literal"), (Nim(), "literal"), (MisereNim(), "literal"),
                                            (Cards(), "notation"), (Pile(), "notation"),
                                            (KeyedPile(), "notation"),
                                            (load_game(str(EXAMPLES / "my_game.py")), "literal"),
                                            (load_game("connect4:4x3"), "bitmap"), (Spread(), "int64")])
@pytest.mark.parametrize("outcomes_only", [False, True])
def test_python_games_round_trip_and_answer_as_the_live_engine(tmp_path, game, encoding, outcomes_only):
    live = Solution(game, outcomes_only=outcomes_only)
    saved = save_and_check(game, tmp_path, live, sample=300)
    assert saved.encoding == encoding
    assert saved.has_remoteness == (not live.outcomes_only)
    # positions reached from the board, not just saved ones: every symmetric form answers (tic-tac-toe)
    rng = random.Random(1)
    for _ in range(50):
        p = game.start()
        while rng.random() < 0.8 and game.move_list(p):
            p = rng.choice(game.move_list(p))[1]
        assert saved.value(p) == live.value(p)
    saved.close()


def test_the_tictactoe_save_holds_every_reachable_board_up_to_symmetry(tmp_path):
    saved = save_and_check(TicTacToe(), tmp_path, Solution(TicTacToe()))
    assert len(saved) == 765  # the well-known count of essentially different boards
    assert saved.value(".........") == Solution(TicTacToe()).value(".........")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(graph=graphs(cyclic=True))
def test_random_cyclic_graphs_round_trip_with_their_draws(tmp_path, graph):
    game = GraphGame(*graph)
    save_and_check(game, tmp_path, Solution(game)).close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(graph=graphs(cyclic=False, scored=True))
def test_random_scored_graphs_keep_their_scores(tmp_path, graph):
    game = GraphGame(*graph, scored=True)
    saved = save_and_check(game, tmp_path, Solution(game))
    assert saved._score == "<q"
    saved.close()


@pytest.mark.slow
def test_a_long_chain_keeps_remoteness_past_one_byte(tmp_path):
    game = Chain(70_000)
    saved = save_and_check(game, tmp_path, Solution(game), sample=200)
    assert saved._width[0] == "u32" and saved.value(0).remoteness == 70_000
    assert saved.encoding == "bitmap" and 70_001 not in saved and -1 not in saved


@pytest.mark.parametrize("bounded", [True, False])
@pytest.mark.parametrize("outcomes_only", [False, True])
@pytest.mark.slow
def test_compiled_games_round_trip_from_their_table(tmp_path, bounded, outcomes_only):
    game = CompiledGame("take134", start=200, children=take_134, max_children=3,
                        num_positions=201 if bounded else None)
    live = CompiledSolution(game, outcomes_only=outcomes_only)
    saved = save_and_check(game, tmp_path, live, start=150)  # from another start than the game's
    assert len(saved) == 151 and saved.encoding == "bitmap"  # 0..150: a bit each beats 8 bytes each
    assert 170 not in saved
    with pytest.raises(GamedpError, match="is not in the saved solve"):
        saved.value(170)
    saved.close()


def test_a_compiled_solution_asked_about_other_positions_saves_only_what_its_start_reaches(tmp_path):
    game = CompiledGame("take134", start=20, children=take_134, max_children=3)
    live = CompiledSolution(game)
    live.value(90)  # the table now holds 0..90
    assert len(save_and_check(game, tmp_path, live)) == 21


def test_a_compiled_game_with_cycles_is_saved_from_its_python_form(tmp_path):
    game = CompiledGame("steps", start=4, children=step_either_way, max_children=2, num_positions=10)
    live = CompiledSolution(game)
    saved = save_and_check(game, tmp_path, live)
    assert len(saved) == 10 and {saved.value(n).outcome for n in range(10)} == {DRAW}


@pytest.mark.slow
def test_the_compiled_blockgame_example_answers_as_its_compiled_search(tmp_path):
    game = load_game(str(EXAMPLES / "blockgame_compiled.py"))  # the loader lets it import the file beside it
    board = game.parse_position("##### #.... #.... ..#.. .....")
    saved = save_and_check(game, tmp_path, CompiledSolution(game), start=board, sample=200)
    assert len(saved) > 1000


def test_positions_that_cannot_be_written_back_are_refused(tmp_path):
    class NoNotation(Pile):
        parse_position = Game.parse_position

    class Lossy(Pile):
        def format_position(self, position):
            return "#"

    with pytest.raises(GamedpError, match="no parse_position"):
        Solution(NoNotation()).save(tmp_path / "a.gdb")
    with pytest.raises(GamedpError, match="which parse_position reads as"):
        Solution(Lossy()).save(tmp_path / "b.gdb")
    assert not list(tmp_path.iterdir())


def test_another_game_or_variant_is_refused(tmp_path):
    path = tmp_path / "nim.gdb"
    Solution(Nim()).save(path)
    with pytest.raises(DatabaseError, match="not of this misere-nim"):
        open_saved(path, MisereNim())
    toads = load_game(str(EXAMPLES / "my_game.py"))
    Solution(toads).save(path)
    with pytest.raises(DatabaseError, match="another variant"):
        open_saved(path, type(toads)("TT..FF"))
    with pytest.raises(DatabaseError, match="not a saved solve"):
        write_database(path, "tictactoe", {}, 8, outcomes=bytes(1), outcome_bits=1)
        open_saved(path, Nim())
    Solution(Nim()).save(path)
    with pytest.raises(DatabaseError, match="saved solve of nim, not a database of an indexed game"):
        Reader(path, "tictactoe", {})


SMALL_BUILTINS = ["cards", "cards-discard2", "cards-upto3", "cram", "dawson", "domineering", "grid", "grundy-game",
                  "kayles", "lasker", "misere-nim", "nim", "octal:0.137", "octal:0.07", "subtraction", "tictactoe",
                  "wythoff", "connect4:4x3", "connect4:3x4", str(EXAMPLES / "my_game.py")]


def test_a_game_is_the_same_game_after_use_and_its_variants_are_told_apart():
    from gamedp.analysis import Analyst
    from gamedp.games.grid import GridGame
    from gamedp.saved_identity import identity

    seen = {}
    for name in SMALL_BUILTINS:
        game = load_game(name)
        before = identity(game)
        Analyst(game).analyze(game.start())  # the game's own engines fill in their tables
        assert identity(game) == before == identity(load_game(name)), name
        assert before not in seen.values(), name
        seen[name] = before
    board = GridGame().board
    other = GridGame(type(board)(["...", ".#.", "..."], 1))
    assert identity(other)["variant"] != seen["grid"]["variant"]


def test_every_flipped_byte_is_caught(tmp_path):
    path = tmp_path / "pile.gdb"
    Solution(Pile()).save(path)
    good = path.read_bytes()
    for at in range(len(good)):
        damaged = bytearray(good)
        damaged[at] ^= 1 << (at % 8)
        path.write_bytes(bytes(damaged))
        with pytest.raises(DatabaseError):
            with SavedSolution(path) as saved:
                saved.verify()
                raise AssertionError(f"a flipped byte at {at} went unnoticed")
    path.write_bytes(good[:-3])
    with pytest.raises(DatabaseError, match="truncated"):
        SavedSolution(path)


@pytest.mark.parametrize("change, phrase", [
    (lambda meta: meta.update(size=meta["size"] + 1), "section of the wrong size"),
    (lambda meta: meta["encoding"].update(positions="pickle"), "unknown key encoding 'pickle'"),
    (lambda meta: meta["encoding"].update(remoteness="u64"), "unknown remoteness width"),
    (lambda meta: meta["game"].update(source="0" * 64), "another version of pile"),
    (lambda meta: meta["game"].update(variant="{}", name="nim"), "saved solve of nim"),
    (lambda meta: meta.update(kind="index"), "not a saved solve"),
    (lambda meta: meta.pop("encoding"), "unreadable metadata"),
])
def test_a_tampered_file_with_good_checksums_is_refused(tmp_path, change, phrase):
    from gamedp.database import Container, write_container

    path = tmp_path / "pile.gdb"
    Solution(Pile()).save(path)
    with Container(path) as original:
        meta = {k: v for k, v in original.meta.items() if k not in ("sections", "block_size")}
        sections = [(s["name"], bytes(original.section(s["name"]))) for s in original.meta["sections"]]
    change(meta)
    write_container(path, meta, sections)  # checksums made anew: only the checks of meaning are left
    with pytest.raises(DatabaseError, match=phrase.replace("(", r"\(")):
        open_saved(path, Pile())


# -- the command line ----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_solve_query_and_analyze_a_game_file(tmp_path):
    game_file = tmp_path / "toads.py"
    shutil.copy(EXAMPLES / "my_game.py", game_file)
    db = tmp_path / "db"
    solved = gamedp("solve", str(game_file), "-r", "--json", db_dir=db)
    assert solved.returncode == 0, solved.stderr
    stats = json.loads(solved.stdout)
    assert stats["positions"] == 48 and not stats["already_solved"] and stats["encoding"] == "literal"
    again = gamedp("solve", str(game_file), "-r", "--json", db_dir=db)
    assert json.loads(again.stdout)["already_solved"]

    game = load_game(str(game_file))
    live = Solution(game)
    positions = list(open_saved(stats["database"], game).positions())
    texts = [str(p) for p in random.Random(3).sample(positions, 12)]
    query = gamedp("query", str(game_file), "--json", *texts, db_dir=db)
    assert query.returncode == 0, query.stderr
    for line, text in zip(query.stdout.splitlines(), texts):
        assert json.loads(line) == {"position": text, **live.value(text).to_json()}
    for text in texts[:4]:  # the same record from the save as from a search (--db elsewhere: no save there)
        from_file = gamedp("analyze", str(game_file), text, "--json", "--db", stats["database"], db_dir=db)
        searched = gamedp("analyze", str(game_file), text, "--json", db_dir=tmp_path / "empty")
        assert from_file.returncode == 0, from_file.stderr
        assert json.loads(from_file.stdout) == json.loads(searched.stdout)

    game_file.write_text(game_file.read_text() + "\n# edited\n")
    one_clear_error(gamedp("query", str(game_file), texts[0], db_dir=db), "another version of toads-and-frogs",
                    "(toads.py) changed since", f"gamedp solve {game_file}")
    stale = gamedp("analyze", str(game_file), texts[0], db_dir=db)  # not from the stale file: by search
    assert stale.returncode == 0 and "not answering from" in stale.stderr
    resolved = gamedp("solve", str(game_file), db_dir=db)
    assert resolved.returncode == 0 and "changed since" in resolved.stderr


def test_solve_a_builtin_from_a_position_and_answer_without_numba(tmp_path):
    solved = gamedp("solve", "nim", "3", "4", "5", "-r", db_dir=tmp_path)
    assert solved.returncode == 0, solved.stderr
    assert "nim from 3 4 5: 48 positions solved" in solved.stdout and "longest win: remoteness 11" in solved.stdout
    code = ("import sys; from gamedp.cli.main import main\n"
            "try: main(['query', 'nim', '3 4 5', '1 2 3'])\n"
            "finally: print('numba' in sys.modules, 'numpy' in sys.modules)")
    query = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                           env={**os.environ, "GAMEDP_DB_DIR": str(tmp_path)})
    assert query.stdout.splitlines() == ["3 4 5: WIN in 11", "1 2 3: LOSE in 6", "False False"], query.stderr
    one_clear_error(gamedp("query", "nim", "3 4 6", db_dir=tmp_path), "'3 4 6' is not in the saved solve",
                    "reachable from 3 4 5")


@pytest.mark.slow
def test_solving_the_compiled_example_from_a_board(tmp_path):
    board = "##### ##### ##.## ...#. ....#"
    solved = gamedp("solve", str(EXAMPLES / "blockgame_compiled.py"), board, "--json", db_dir=tmp_path)
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["positions"] == 80
    query = gamedp("query", str(EXAMPLES / "blockgame_compiled.py"), board, db_dir=tmp_path)
    assert query.stdout.strip() == f"{board}: WIN"


@pytest.mark.slow
def test_command_line_errors_are_one_clear_line(tmp_path):
    one_clear_error(gamedp("query", "nim", "3 4 5", db_dir=tmp_path), "no saved solve of nim", "gamedp solve nim")
    one_clear_error(gamedp("solve", "nim", "-V", "n=3", db_dir=tmp_path), "-V", "indexed games")
    one_clear_error(gamedp("solve", "tictactoe", "X........", db_dir=tmp_path), "POSITION is for the other games")
    one_clear_error(gamedp("solve", "nim", "3", "x", db_dir=tmp_path), "column 3", "whole number")
    one_clear_error(gamedp("analyze", "nim", "--db", str(tmp_path / "none.gdb"), db_dir=tmp_path),
                    "no saved solve of nim")
    assert gamedp("solve", "nim", "2 2", "--db", str(tmp_path / "n.gdb"), db_dir=tmp_path).returncode == 0
    one_clear_error(gamedp("solve", "misere-nim", "2 2", "--db", str(tmp_path / "n.gdb"), db_dir=tmp_path),
                    "saved solve of nim", "--force")
    one_clear_error(gamedp("query", "tictactoe", ".........", "--db", str(tmp_path / "n.gdb"), db_dir=tmp_path),
                    "saved solve of nim, not a database of an indexed game")
    (tmp_path / "notes.txt").write_text("mine")
    one_clear_error(gamedp("solve", "nim", "--db", str(tmp_path / "notes.txt"), db_dir=tmp_path),
                    "not a gamedp database", "refusing to overwrite")
    damaged = bytearray((tmp_path / "n.gdb").read_bytes())
    damaged[-1] ^= 4
    (tmp_path / "n.gdb").write_bytes(bytes(damaged))
    one_clear_error(gamedp("query", "nim", "2 2", "--db", str(tmp_path / "n.gdb"), db_dir=tmp_path),
                    "damaged", "gamedp solve nim")
    fixed = gamedp("solve", "nim", "2 2", "--db", str(tmp_path / "n.gdb"), db_dir=tmp_path)
    assert fixed.returncode == 0 and "damaged" in fixed.stderr


def restate(path: Path, remoteness: int) -> None:
    """Rewrite every remoteness in the save at ``path`` as ``remoteness`` (checksums made anew): answers that no
    search gives, so a front end shows them only if it read them from the file."""
    from gamedp.database import Container, write_container

    with Container(path) as original:
        meta = {k: v for k, v in original.meta.items() if k not in ("sections", "block_size")}
        sections = [(s["name"], bytes(original.section(s["name"]))) for s in original.meta["sections"]]
    assert meta["encoding"]["remoteness"] == "u8"
    write_container(path, meta, [(name, bytes([remoteness]) * len(data) if name == "remoteness" else data)
                                 for name, data in sections])


def test_a_depth_limited_search_takes_the_saves_values_as_ends(tmp_path):
    """analyze --depth 1 from a save: every move's value is the save's (restated, so no search could give it)."""
    solved = gamedp("solve", "nim", "2 3", "-r", "--json", db_dir=tmp_path)
    restate(Path(json.loads(solved.stdout)["database"]), 40)
    out = gamedp("analyze", "nim", "2 3", "--depth", "1", "--json", db_dir=tmp_path)
    assert out.returncode == 0, out.stderr
    moves = json.loads(out.stdout)["moves"]
    assert len(moves) == 5 and {(m["value"], m["remoteness"]) for m in moves} == {("win", 41), ("lose", 41)}
    searched = gamedp("analyze", "nim", "2 3", "--depth", "1", "--json", db_dir=tmp_path / "none")
    assert all(m["value"] is None or m["remoteness"] < 6 for m in json.loads(searched.stdout)["moves"])
