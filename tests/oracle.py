"""Plain oracles written from the definitions, sharing no code with the solvers.

A game here is an explicit graph: ``children[i]`` lists the nodes one move from node ``i`` and ``leaf[i]`` is
the mover's result at a node without children ("lose", "win", "tie" or a number in scored games).
"""

from __future__ import annotations

# Outcomes as plain strings, so that nothing from gamedp.values leaks in.


def minimax(children, leaf, node):
    """Acyclic games: (outcome, remoteness[, score]) by plain recursion, no memo.

    The mover prefers win > tie > lose; among wins the shortest, among ties the shortest, among losses the
    longest. Scored games compare the margin first.
    """
    kids = children[node]
    if not kids:
        return _leaf_value(leaf[node])
    options = []
    for c in kids:
        v = minimax(children, leaf, c)
        outcome = {"win": "lose", "lose": "win", "tie": "tie"}[v[0]]
        option = (outcome, v[1] + 1) + ((-v[2],) if len(v) == 3 else ())
        options.append(option)
    return max(options, key=_preference)


def _leaf_value(x):
    if isinstance(x, str):
        return (x, 0)
    return ("win" if x > 0 else "lose" if x < 0 else "tie", 0, x)


def _preference(v):
    rank = {"win": 2, "tie": 1, "lose": 0}[v[0]]
    r = v[1]
    key = (rank, r if v[0] == "lose" else -r)
    return key if len(v) == 2 else (v[2], *key)


def with_draws(children, leaf):
    """Any graph: {node: (outcome, remoteness or None)} by the bounded-horizon definition.

    WIN within d: some child is LOSE within d-1. LOSE within d: every child is WIN within d-1 (a leaf that
    loses is LOSE within 0). The remoteness is the least such d. Of the rest, TIE within d: some child is TIE
    within d-1 (or a tying leaf). Everything else never ends: draw.
    """
    n = len(children)
    win, lose, tie = {}, {}, {}
    for i in range(n):
        if not children[i]:
            {"win": win, "lose": lose, "tie": tie}[leaf[i]][i] = 0
    for d in range(1, 2 * n + 2):
        new_win, new_lose = {}, {}
        for i in range(n):
            if i in win or i in lose or not children[i]:
                continue
            if any(c in lose for c in children[i]):
                new_win[i] = d
            elif all(c in win for c in children[i]):
                new_lose[i] = d
        win.update(new_win)
        lose.update(new_lose)
    for d in range(1, 2 * n + 2):
        new_tie = {}
        for i in range(n):
            if i in win or i in lose or i in tie or not children[i]:
                continue
            if any(c in tie for c in children[i]):
                new_tie[i] = d
        tie.update(new_tie)
    result = {}
    for i in range(n):
        for name, table in (("win", win), ("lose", lose), ("tie", tie)):
            if i in table:
                result[i] = (name, table[i])
                break
        else:
            result[i] = ("draw", None)
    return result
