"""Judge adapters: one thin module per judge problem.

Each module exposes ``run(text: str | bytes) -> str``: the judge's whole input in (bytes are read as UTF-8),
its exact output out, raising :class:`gamedp.errors.InputError` (with the line number) on malformed input.
"""

from __future__ import annotations

#: problem name -> module
JUDGES: dict[str, str] = {
    "blockgame": "gamedp.judge.blockgame",
    "cardgame": "gamedp.judge.cardgame",
    "gridgame": "gamedp.judge.gridgame",
}


def answer(problem: str, text: str | bytes) -> str:
    """``problem``'s exact output for its whole input ``text``."""
    import importlib

    return importlib.import_module(JUDGES[problem]).run(text)
