"""The memo and retrograde engines against plain oracles on thousands of random game graphs."""

from __future__ import annotations

import pytest
from command import gamedp
from hypothesis import given, settings
from hypothesis import strategies as st

from gamedp import Game, Outcome, Value, solve
from gamedp.errors import GameDefinitionError
from gamedp.games.tictactoe import TicTacToe
from gamedp.solvers.retrograde import retrograde

from oracle import minimax, with_draws


class GraphGame(Game):
    """An explicit graph: nodes 0..n-1, start 0; leaves carry their result as a primitive value."""

    def __init__(self, children, leaf, *, scored=False, misere=False, use_primitive=True):
        self.kids, self.leaf = children, leaf
        self.scored, self.misere, self.use_primitive = scored, misere, use_primitive
        self.name = "graph"

    def start(self):
        return 0

    def children(self, node):
        return self.kids[node]

    def primitive(self, node):
        if self.kids[node] or not self.use_primitive:
            return None
        x = self.leaf[node]
        return x if self.scored else Outcome(x)


def as_tuple(value):
    t = (value.outcome.value, value.remoteness)
    return t if value.score is None else (*t, value.score)


@st.composite
def graphs(draw, cyclic: bool, scored: bool = False, max_nodes: int = 9):
    n = draw(st.integers(1, max_nodes))
    children = []
    for i in range(n):
        targets = range(n) if cyclic else range(i + 1, n)
        kids = draw(st.lists(st.sampled_from(list(targets)), max_size=3)) if len(targets) else []
        children.append(kids)
    if scored:
        leaf = [draw(st.integers(-3, 3)) for _ in range(n)]
    else:
        leaf = [draw(st.sampled_from(["win", "lose", "tie"])) for _ in range(n)]
    return children, leaf


@settings(max_examples=500, deadline=None)
@given(graphs(cyclic=False))
@pytest.mark.slow
def test_acyclic_full_values_match_minimax(graph):
    children, leaf = graph
    solution = solve(GraphGame(children, leaf))
    for node in range(len(children)):
        assert as_tuple(solution.value(node)) == minimax(children, leaf, node)


@settings(max_examples=500, deadline=None)
@given(graphs(cyclic=False))
@pytest.mark.slow
def test_acyclic_outcomes_only_match_minimax(graph):
    children, leaf = graph
    solution = solve(GraphGame(children, leaf), outcomes_only=True)
    for node in range(len(children)):
        assert solution.value(node).outcome.value == minimax(children, leaf, node)[0]


@settings(max_examples=500, deadline=None)
@given(graphs(cyclic=False, scored=True))
@pytest.mark.slow
def test_scored_values_match_minimax(graph):
    children, leaf = graph
    solution = solve(GraphGame(children, leaf, scored=True))
    for node in range(len(children)):
        assert as_tuple(solution.value(node)) == minimax(children, leaf, node)


@settings(max_examples=800, deadline=None)
@given(graphs(cyclic=True), st.booleans())
@pytest.mark.slow
def test_cyclic_values_match_bounded_horizon_definition(graph, outcomes_only):
    children, leaf = graph
    expected = with_draws(children, leaf)
    solution = solve(GraphGame(children, leaf), outcomes_only=outcomes_only)
    for node in range(len(children)):
        v = solution.value(node)
        assert v.outcome.value == expected[node][0]
        if not outcomes_only:
            assert v.remoteness == expected[node][1]


@settings(max_examples=500, deadline=None)
@given(graphs(cyclic=True), st.booleans())
@pytest.mark.slow
def test_normal_and_misere_play_without_primitives(graph, misere):
    children, _ = graph
    leaf = ["win" if misere else "lose"] * len(children)  # what "no move" means in each convention
    expected = with_draws(children, leaf)
    solution = solve(GraphGame(children, leaf, misere=misere, use_primitive=False))
    for node in range(len(children)):
        v = solution.value(node)
        assert (v.outcome.value, v.remoteness) == expected[node]


@settings(max_examples=300, deadline=None)
@given(graphs(cyclic=True))
@pytest.mark.slow
def test_retrograde_alone_matches_definition(graph):
    children, leaf = graph
    expected = with_draws(children, leaf)
    values = retrograde(GraphGame(children, leaf), 0, {}, None)
    for node, v in values.items():
        assert (v.outcome.value, v.remoteness) == expected[node]


@settings(max_examples=300, deadline=None)
@given(graphs(cyclic=False))
@pytest.mark.slow
def test_analysis_ranks_moves_and_line_follows_best(graph):
    children, leaf = graph
    solution = solve(GraphGame(children, leaf))
    analysis = solution.analyze(0)
    ranks = [mv.value.rank() for mv in analysis.moves]
    assert ranks == sorted(ranks, reverse=True)
    if analysis.moves:
        assert analysis.moves[0].value == analysis.value
    line = solution.line(0)
    assert len(line) == solution.value(0).remoteness
    assert not children[line[-1][1] if line else 0]


def test_tictactoe_known_facts():
    plain = solve(TicTacToe(symmetry=False))
    assert plain.value(TicTacToe().start()).outcome is Outcome.TIE
    assert len(plain) == 5478  # every legal position is reachable
    assert len(solve(TicTacToe())) == 765  # essentially different positions


def test_tictactoe_symmetry_keeps_values():
    plain, sym = solve(TicTacToe(symmetry=False)), solve(TicTacToe())
    for board in list(plain.table)[::7]:
        assert plain.value(board) == sym.value(board)


class Chain(Game):
    """0 -> 1 -> ... -> n: far deeper than Python's recursion limit."""

    def __init__(self, n):
        self.n = n

    def start(self):
        return 0

    def children(self, i):
        return [i + 1] if i < self.n else []


@pytest.mark.parametrize("outcomes_only", [False, True])
@pytest.mark.slow
def test_a_chain_of_300000_moves_has_no_recursion_limit(outcomes_only):
    n = 300_001  # 300 times Python's recursion limit; odd, so the first player wins
    v = solve(Chain(n), outcomes_only=outcomes_only).value(0)
    assert v.outcome is (Outcome.WIN if n % 2 else Outcome.LOSE)
    if not outcomes_only:
        assert v.remoteness == n


def test_move_from_primitive_position_is_named():
    class Bad(Game):
        def start(self):
            return "s"

        def children(self, p):
            return ["t"] if p == "s" else []

        def primitive(self, p):
            return Outcome.WIN if p == "s" else None

    with pytest.raises(GameDefinitionError, match="position 's' is primitive"):
        solve(Bad())


def test_unhashable_position_is_named():
    class Lists(Game):
        def start(self):
            return (0,)

        def children(self, p):
            return [[1, 2]] if p == (0,) else []

    with pytest.raises(GameDefinitionError, match=r"position \[1, 2\] cannot be a table key"):
        solve(Lists())
    with pytest.raises(GameDefinitionError, match=r"cannot be a table key"):
        solve(Lists(), outcomes_only=True)


def test_scored_game_with_a_cycle_is_refused():
    game = GraphGame([[1], [0, 2], []], [0, 0, 5], scored=True)
    with pytest.raises(GameDefinitionError, match="must always end"):
        solve(game)


def test_bad_primitive_value_is_explained():
    class NumberInUnscoredGame(GraphGame):
        def primitive(self, node):
            return None if self.kids[node] else 7

    with pytest.raises(GameDefinitionError, match="primitive\\(1\\) returned 7; return an Outcome"):
        solve(NumberInUnscoredGame([[1], []], ["win", "win"]))


def test_draw_line_stops_when_a_position_repeats():
    game = GraphGame([[1], [0]], ["tie", "tie"])
    solution = solve(game)
    assert solution.value(0).outcome is Outcome.DRAW
    assert len(solution.line(0)) == 2


@pytest.mark.slow
def test_cli_check_builtin_and_bad_specs(tmp_path):
    ok = gamedp("check", "tictactoe")
    assert ok.returncode == 0 and "ok" in ok.stdout
    bad = tmp_path / "broken.py"
    bad.write_text(
        "from gamedp import Game, Outcome\n"
        "class Broken(Game):\n"
        "    def start(self): return 0\n"
        "    def children(self, p): return [p + 1] if p < 3 else []\n"
        "    def primitive(self, p): return Outcome.WIN if p == 2 else None\n")
    found = gamedp("check", str(bad))
    assert found.returncode == 1 and "position 2 is primitive" in found.stdout
    for spec in ["nosuchgame", "nosuchmodule:x", str(tmp_path / "missing.py")]:
        r = gamedp("check", spec)
        assert r.returncode == 2 and r.stderr.startswith("gamedp: error:") and "Traceback" not in r.stderr
    syntax = tmp_path / "syntax.py"
    syntax.write_text("def f(:\n")
    r = gamedp("check", str(syntax))
    assert r.returncode == 2 and "line 1" in r.stderr and "Traceback" not in r.stderr


def test_primitive_first_never_asks_an_ended_position_for_moves():
    from gamedp.games.connect4 import Connect4
    from gamedp.selfcheck import check_game

    class EndTestOnce(Connect4):
        primitive_first = True

        def moves(self, key):  # no end test here: primitive() is asked first
            return [c for c in range(self.width) if self.column_height(key, c) < self.height]

        def children(self, key):
            return [self.do_move(key, c) for c in self.moves(key)]

    plain, once = Connect4(4, 3), EndTestOnce(4, 3)
    full, fast = solve(plain), solve(once)
    for p in [plain.start(), plain.parse_position("1212"), plain.parse_position("1122334")]:
        assert fast.value(p) == full.value(p)
        assert fast.analyze(p) == full.analyze(p)
    assert solve(once, outcomes_only=True).value(once.start()) == Value(Outcome.TIE)
    assert check_game(once).ok
