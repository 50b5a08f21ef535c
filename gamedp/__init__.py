"""gamedp: solve two-player games by dynamic programming, at compiled speed.

The public API, imported lazily so that ``import gamedp`` stays cheap:

>>> from gamedp import Game, Outcome, solve
>>> class Nim1(Game):                      # one heap, take 1-3; no move loses
...     def start(self): return 10
...     def moves(self, n): return range(1, min(3, n) + 1)
...     def do_move(self, n, k): return n - k
>>> solve(Nim1()).value(10)
Value(outcome=Outcome.WIN, remoteness=5, score=None)
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_EXPORTS = {
    "Outcome": "gamedp.values",
    "Value": "gamedp.values",
    "Analysis": "gamedp.values",
    "MoveValue": "gamedp.values",
    "WIN": "gamedp.values",
    "LOSE": "gamedp.values",
    "TIE": "gamedp.values",
    "DRAW": "gamedp.values",
    "Game": "gamedp.game",
    "solve": "gamedp.solvers.memo",
    "Solution": "gamedp.solvers.memo",
    "CompiledGame": "gamedp.compiled",
    "SearchRules": "gamedp.solvers.search_rules",
    "Word": "gamedp.words",
    "check_game": "gamedp.selfcheck",
    "load_game": "gamedp.loader",
    "GamedpError": "gamedp.errors",
    "show": "gamedp.jupyter",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'gamedp' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def _trust_numba_cache() -> None:
    # numba's own cache holds code that it runs: point it where gamedp's trust rules hold, before numba loads any
    from gamedp.kernel_cache import trust_numba_cache

    trust_numba_cache()


_trust_numba_cache()
