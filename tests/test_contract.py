"""The game contract (issue 28): every optional hook is declared on Game and grouped by capability in
gamedp.contract; the hooks the code looks up by name are all among them; `gamedp check` reports what a game
offers and catches the usual mistakes in the optional hooks it gives."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import gamedp
from gamedp.cli.main import cli
from gamedp.contract import CAPABILITIES, capabilities
from gamedp.game import Game
from gamedp.games.connect4 import Connect4
from gamedp.games.impartial.nim import Nim
from gamedp.selfcheck import check_game

HOOKS = {hook for c in CAPABILITIES for hook in c.hooks}
#: looked up by name on other things than a Game: a tiered game's hooks, a placement board's rules, the name
NOT_GAME_HOOKS = {"name", "rules", "compiled_functions", "shard_values", "tier_reach"}
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_every_hook_is_declared_on_game_with_a_default_meaning_not_offered():
    plain = type("Plain", (Game,), {"start": lambda self: 0, "children": lambda self, p: []})()
    for hook in HOOKS:
        assert hasattr(Game, hook), hook
    assert capabilities(plain) == {c.name: [] for c in CAPABILITIES}


def test_every_hook_the_package_looks_up_by_name_is_in_the_contract():
    found = set()
    for path in Path(gamedp.__file__).parent.rglob("*.py"):
        text = path.read_text()
        found |= set(re.findall(r'(?:getattr|hasattr)\((?:game|self\.game|loaded|analyst\.rules), "([a-z]\w*)"', text))
    assert found and found - NOT_GAME_HOOKS <= HOOKS, sorted(found - NOT_GAME_HOOKS - HOOKS)


@pytest.mark.slow
def test_check_reports_the_capabilities_offered_and_what_is_off_without_the_others():
    result = CliRunner().invoke(cli, ["check", str(EXAMPLES / "my_game.py"), "--json"])
    offered = json.loads(result.output)["capabilities"]
    assert offered["drawing"] == ["draw_position", "move_cells"] and offered["search hints"] == []
    text = CliRunner().invoke(cli, ["check", "connect4:4x4", "--limit", "200"]).output
    assert "; search hints (ordered_children, heuristic, memory_estimate);" in text
    assert "optional hooks not given for: drawing, own engines, impartial, partizan values, checking" in text
    moves_only = type("MovesOnly", (Game,), {"start": lambda self: 3, "moves": lambda self, n: [1, 2][:n],
                                             "do_move": lambda self, n, k: n - k})()
    lines = check_game(moves_only).capability_lines()
    assert lines[1].startswith("optional hooks not given for: rules, notation, drawing, "), lines
    assert capabilities(Nim())["impartial"] == ["impartial", "nimber", "heap_nimber"]


class Small(Connect4):
    def __init__(self):
        super().__init__(4, 3, 3)


class HeuristicOutOfRange(Small):
    def heuristic(self, key):
        return 2.0


class OrderedLosesAChild(Small):
    def ordered_children(self, key):
        return super().ordered_children(key)[1:]


class LineDoesNotReadBack(Small):
    def format_position_line(self, key):
        return "?" + super().format_position_line(key)


class WrongNimber(Nim):
    def nimber(self, position):
        return sum(position)


class NotADrawing(Small):
    def draw_position(self, key):
        return self.format_position(key)


class CellsNotDrawn(Small):
    def draw_position(self, key):
        return '<svg><rect data-cell="a"/></svg>'

    def move_cells(self, key, column):
        return [f"c{column}"]


class IllegalExample(Small):
    def example(self):
        return self.do_move(self.start(), 0)

    def is_legal(self, key):
        return key != self.example()


@pytest.mark.parametrize("game, problem", [
    (HeuristicOutOfRange(), "an estimate is a number from -1 to 1"),
    (OrderedLosesAChild(), "it must give the same children"),
    (LineDoesNotReadBack(), "written on one line as '?"),
    (WrongNimber(heaps=(1, 2)), "whose mex is"),
    (NotADrawing(), "does not give an <svg> drawing"),
    (CellsNotDrawn(), "the drawing has no data-cell 'c"),
    (IllegalExample(), "the example position"),
])
def test_check_catches_a_broken_optional_hook(game, problem):
    report = check_game(game, max_positions=500)
    assert not report.ok and problem in report.problem, report.problem


def test_the_builtin_games_pass_the_checks_of_their_optional_hooks():
    from gamedp.games.registry import GAMES
    from gamedp.loader import load_game

    for name in GAMES:
        report = check_game(load_game("connect4:4x3" if name == "connect4" else name), max_positions=300)
        assert report.ok, (name, report.problem)
