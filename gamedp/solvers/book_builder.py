"""Building an opening book (:mod:`gamedp.solvers.opening_book`): every position within a number of moves of the
start, valued by the score search (:mod:`gamedp.solvers.score_search`) and written to the book's file.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from gamedp.errors import GamedpError
from gamedp.progress import ProgressLine
from gamedp.solvers.opening_book import write_book
from gamedp.solvers.score_search import ScoreSearch


def positions_up_to(rules: Any, depth: int) -> dict[int, Any]:
    """Every position within ``depth`` moves of the start that the game goes on from, one per key."""
    start = rules.game.start()
    found = {rules.book_key(start): start}
    layer = [rules.children(start)]  # the moves of each position found last, asked once
    for _ in range(depth):
        following = []
        for moves in layer:
            for _, child in moves:
                key = rules.book_key(child)
                if key not in found and (below := rules.children(child)):
                    found[key] = child
                    following.append(below)
        layer = following
    return found


def make_book(rules: Any, depth: int, path: str | os.PathLike, *, memory: int | None = None,
              force: bool = False) -> dict:
    """Search every position up to ``depth`` moves and write the book to ``path``; returns its statistics."""
    path = Path(path)
    if path.exists() and not force:
        raise GamedpError(f"{path} exists; give --force to replace it")
    positions = positions_up_to(rules, depth)
    search = ScoreSearch(rules, memory=memory, progress=False, book=False)
    line = ProgressLine(f"book of {rules.name}, {depth} moves deep")
    began = time.perf_counter()
    scores, explored = {}, 0
    try:
        # deepest first: the searches of the shallow positions then find their children's bounds in the table
        for done, (key, position) in enumerate(sorted(positions.items(), key=lambda kv: -rules.moves_made(kv[1]))):
            scores[key] = search.score(position)
            explored += search.explored
            line.update(done + 1, len(positions))
    finally:
        line.close()
    stats = {"positions": len(scores), "explored": explored, "seconds": round(time.perf_counter() - began, 3)}
    write_book(path, rules.book_id, rules.variant, depth, scores, stats)
    return stats
