"""The compiled engine against the plain oracles, on thousands of random graphs behind one kernel."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from gamedp.compiled import PRIMITIVE_WIN, CompiledGame
from gamedp.errors import GameDefinitionError
from gamedp.solvers.compiled import solve_compiled

from oracle import minimax, with_draws

GRAPHS, NODES = 500, 16
_rng = np.random.default_rng(20261129)
SIZES = _rng.integers(1, 10, GRAPHS)
ACYCLIC = np.arange(GRAPHS) % 2 == 0
# ADJ[g * 16 + node] = [count, child, child, child] (children are node numbers within graph g)
ADJ = np.zeros((GRAPHS * NODES, 4), np.int64)
LEAF = _rng.integers(1, 4, GRAPHS * NODES)  # primitive code of a childless node: 1 lose, 2 win, 3 tie
for g in range(GRAPHS):
    for node in range(SIZES[g]):
        low = node + 1 if ACYCLIC[g] else 0
        if low < SIZES[g]:
            k = _rng.integers(0, 4)
            ADJ[g * NODES + node, 0] = k
            ADJ[g * NODES + node, 1:1 + k] = _rng.integers(low, SIZES[g], k)


@njit(nogil=True)
def graph_children(pos, out):
    g = pos // 16
    n = ADJ[pos, 0]
    for j in range(n):
        out[j] = g * 16 + ADJ[pos, 1 + j]
    return n


@njit(nogil=True)
def graph_primitive(pos):
    return LEAF[pos] if ADJ[pos, 0] == 0 else 0


def _graph(g):
    size = SIZES[g]
    children = [[int(c) for c in ADJ[g * NODES + i, 1:1 + ADJ[g * NODES + i, 0]]] for i in range(size)]
    leaf = [{1: "lose", 2: "win", 3: "tie"}[int(LEAF[g * NODES + i])] for i in range(size)]
    return children, leaf


@pytest.mark.parametrize("outcomes_only", [False, True])
@pytest.mark.parametrize("bounded", [True, False], ids=["dense", "hash"])  # outcomes only and dense: packed
@pytest.mark.slow
def test_compiled_matches_oracles_on_random_graphs(outcomes_only, bounded):
    checked = 0
    for g in range(GRAPHS):
        game = CompiledGame("graphs", g * NODES, graph_children, 3, primitive=graph_primitive,
                            num_positions=GRAPHS * NODES if bounded else None)
        solution = solve_compiled(game, outcomes_only=outcomes_only)
        children, leaf = _graph(g)
        expected = ({i: minimax(children, leaf, i) for i in range(len(children))} if ACYCLIC[g]
                    else with_draws(children, leaf))
        for node in range(len(children)):
            v = solution.value(g * NODES + node)
            assert v.outcome.value == expected[node][0], (g, node)
            if not outcomes_only:
                assert v.remoteness == expected[node][1], (g, node)
            checked += 1
    assert checked > 2_000  # the graphs really walked (2,486 positions)


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.slow
def test_compiled_normal_and_misere_play(misere):
    for g in range(0, GRAPHS, 3):
        game = CompiledGame("graphs", g * NODES, graph_children, 3, misere=misere)
        solution = solve_compiled(game)
        children, _ = _graph(g)
        leaf = ["win" if misere else "lose"] * len(children)
        expected = with_draws(children, leaf)
        for node in range(len(children)):
            v = solution.value(g * NODES + node)
            assert (v.outcome.value, v.remoteness) == expected[node], (g, node)


@njit(nogil=True)
def countdown(n, out):
    if n == 0:
        return 0
    out[0] = n - 1
    return 1


def test_compiled_deep_chain_grows_its_stack_and_table():
    n = 300_000
    solution = solve_compiled(CompiledGame("chain", n, countdown, 1))
    v = solution.value(n)
    assert (v.outcome.value, v.remoteness) == ("lose" if n % 2 == 0 else "win", n)
    assert len(solution) == n + 1


@njit(nogil=True)
def escapes(n, out):
    out[0] = n + 10
    return 1 if n < 5 else 0


@njit(nogil=True)
def too_many(n, out):
    for j in range(3):
        out[j] = j
    return 3 if n == 7 else 0


@njit(nogil=True)
def prim_everywhere(n):
    return PRIMITIVE_WIN


def test_kernel_mistakes_are_named():
    with pytest.raises(GameDefinitionError, match=r"position 0 has a child 10 out of range.*below num_positions=8"):
        solve_compiled(CompiledGame("escape", 0, escapes, 1, num_positions=8))
    with pytest.raises(GameDefinitionError, match=r"position 7 has 3 children, more than max_children=2"):
        solve_compiled(CompiledGame("many", 7, too_many, 2))
    with pytest.raises(GameDefinitionError, match=r"position 0 is primitive but has 1 moves"):
        solve_compiled(CompiledGame("prim", 0, escapes, 1, primitive=prim_everywhere))
    with pytest.raises(GameDefinitionError, match=r"start position 9 is outside 0..7"):
        CompiledGame("start", 9, escapes, 1, num_positions=8)



def test_a_kernel_that_does_not_compile_shows_numbas_whole_message(tmp_path, monkeypatch):
    # The kernel lives in a file of its own, as a user's would: the message must name its line and the types.
    (tmp_path / "badkernel.py").write_text(
        "from numba import njit\n\n\n@njit(nogil=True)\ndef children(n, out):\n    x = [1, 'a']\n"
        "    out[0] = n + x\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    from badkernel import children

    with pytest.raises(GameDefinitionError) as failure:
        solve_compiled(CompiledGame("bad", 0, children, 1))
    message = str(failure.value)
    assert message.startswith("the children kernel does not compile as")
    assert 'badkernel.py", line 7' in message and "out[0] = n + x" in message
    assert "add(int64, LiteralList" in message  # the types numba could not add
