"""Judge adapters: one thin module per judge problem.

Each module exposes ``run(text: str | bytes) -> str``: the judge's whole input in (bytes are read as UTF-8),
its exact output out, raising :class:`gamedp.errors.InputError` (with the line number) on malformed input.
"""

from __future__ import annotations


class Problem:
    """A judge problem: its adapter module, the built-in game it is about, and where it is set.

    A plain class: typing's NamedTuple would add ~3 ms to every judge run, which is timed whole-process."""

    __slots__ = ("module", "game", "title")

    def __init__(self, module: str, game: str, title: str):
        self.module, self.game, self.title = module, game, title


#: problem name -> its adapter and game
JUDGES: dict[str, Problem] = {
    "blockgame": Problem("gamedp.judge.blockgame", "blockgame", "algospot BLOCKGAME"),
    "cardgame": Problem("gamedp.judge.cardgame", "cards", "Baekjoon 11062"),
    "gridgame": Problem("gamedp.judge.gridgame", "grid", "Baekjoon 28218"),
}


def answer(problem: str, text: str | bytes) -> str:
    """``problem``'s exact output for its whole input ``text``."""
    import importlib

    return importlib.import_module(JUDGES[problem].module).run(text)
