"""Building an opening book (:mod:`gamedp.solvers.opening_book`): every position within a number of moves of the
start, valued by the score search (:mod:`gamedp.solvers.score_search`) and written to the book's file.

Only the deepest positions are searched: each shallower one is the best of its moves (the negation of its
children's scores), or searched where one of its moves ends the game (it wins at once, or fills the board), which
the search settles without a search. The deepest positions are searched in *parts* of :data:`PART_POSITIONS`
each, on an executor (:mod:`gamedp.executors`: this process, or the workers of a Dask cluster, each keeping its
table from one part to the next), and each part's scores are written to a checksummed file of their own in a
folder beside the book as soon as they are found. A build that stops (Ctrl-C, a killed process, a lost
cluster) keeps its finished parts: the same command goes on from them, and the folder is removed once the book
is written.
"""

from __future__ import annotations

import os
import shutil
import struct
import time
from pathlib import Path
from typing import Any, NamedTuple

from gamedp.errors import GamedpError
from gamedp.progress import ProgressLine
from gamedp.solvers.opening_book import write_book
from gamedp.solvers.score_search import ScoreSearch

#: Positions searched in one part: few enough that a part is soon done (and little is lost when a build stops),
#: enough that a cluster's round trips are few beside the searches (a 4-move 7x6 position takes 0.1-60 s).
PART_POSITIONS = 8


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


class Stopped(GamedpError):
    """A build stopped by Ctrl-C, its finished parts kept."""

    exit_status = 130


class Part(NamedTuple):
    """Some of the deepest positions, searched together and kept in ``path``."""

    game: str  # the game as the command line names it (a worker loads it by that name)
    memory: int | None
    positions: tuple
    keys: tuple
    path: str


def make_book(rules: Any, depth: int, path: str | os.PathLike, *, memory: int | None = None,
              force: bool = False, executor: Any = None) -> dict:
    """Value every position up to ``depth`` moves, searching the deepest ones on ``executor`` (default: this
    process), and write the book to ``path``; returns its statistics (``resumed``: the positions found by an
    earlier run of the same build)."""
    from gamedp.executors import LocalExecutor

    path = Path(path)
    if path.exists() and not force:
        raise GamedpError(f"{path} exists; give --force to replace it")
    executor = executor or LocalExecutor()
    positions = positions_up_to(rules, depth)
    deepest = sorted(key for key, position in positions.items() if rules.moves_made(position) == depth)
    folder = parts_folder(path, depth)
    parts = [Part(rules.book_game, memory, tuple(positions[k] for k in keys), tuple(keys),
                  str(folder / f"part-{i:06d}.gdb"))
             for i, keys in enumerate(deepest[at:at + PART_POSITIONS] for at in range(0, len(deepest),
                                                                                        PART_POSITIONS))]
    began = time.perf_counter()
    scores: dict[int, int] = {}
    found = {"explored": 0, "seconds": 0.0}
    todo = []
    for part in parts:
        kept = read_part(rules, part)
        if kept is None:
            todo.append(part)
        else:
            scores.update(kept[0])
            found["explored"] += kept[1]["explored"]
            found["seconds"] += kept[1]["seconds"]
    resumed = len(scores)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    line = ProgressLine(f"book of {rules.name}, {depth} moves deep")
    line.update(len(scores), len(deepest))
    search = ScoreSearch(rules, memory=memory, progress=False, book=False)
    if isinstance(executor, LocalExecutor):  # the parts searched here share this process's table
        _searches[(rules.book_game, memory)] = search

    def done(part: Part) -> None:
        kept = read_part(rules, part)
        if kept is None:
            raise GamedpError(f"the part {part.path} of the book was not written as it should have been; run the "
                              "same command again")
        scores.update(kept[0])
        found["explored"] += kept[1]["explored"]
        found["seconds"] += kept[1]["seconds"]
        line.update(len(scores), len(deepest))

    try:
        executor.run(search_part, todo, done)
    except KeyboardInterrupt:
        line.close()
        raise Stopped(f"stopped: {len(scores):,} of the {len(deepest):,} positions {depth} moves deep are kept in "
                      f"{folder}; run the same command again to go on") from None
    finally:
        line.close()
        _searches.pop((rules.book_game, memory), None)
    for key, position in sorted(positions.items(), key=lambda kv: -rules.moves_made(kv[1])):
        if key not in scores:
            scores[key] = _best_move(rules, position, scores, search)
    stats = {"positions": len(scores), "searched": len(deepest), "resumed": resumed, "explored": found["explored"],
             "search_seconds": round(found["seconds"], 3), "seconds": round(time.perf_counter() - began, 3)}
    write_book(path, rules.book_id, rules.variant, depth, scores, stats)
    shutil.rmtree(folder, ignore_errors=True)
    return stats


def _best_move(rules: Any, position: Any, scores: dict[int, int], search: ScoreSearch) -> int:
    """The score of a position whose children are valued: the best of their negations; searched instead where a
    move ends the game (the search settles such a position at once)."""
    best = None
    for _, child in rules.children(position):
        kept = scores.get(rules.book_key(child))
        if kept is None:
            return search.score(position)
        best = -kept if best is None else max(best, -kept)
    return search.score(position) if best is None else best


def parts_folder(book: Path, depth: int) -> Path:
    """Where the parts of a build of ``book`` to ``depth`` moves are kept until the book is written."""
    return book.with_name(f"{book.name}.depth{depth}.parts")


#: Each process's searches, by game and table bound: a worker keeps its table from one part to the next.
_searches: dict[tuple[str, int | None], ScoreSearch] = {}


def search_part(part: Part) -> None:
    """Search ``part``'s positions and write their scores to its file (run by an executor, anywhere)."""
    search = _searches.get((part.game, part.memory))
    if search is None:
        from gamedp.loader import load_game
        from gamedp.solvers.score_search import score_rules

        search = _searches[(part.game, part.memory)] = \
            ScoreSearch(score_rules(load_game(part.game)), memory=part.memory, progress=False, book=False)
    began = time.perf_counter()
    explored = 0
    scores = []
    for position in part.positions:
        scores.append(search.score(position))
        explored += search.explored
    rules = search.rules
    from gamedp.database import write_container

    meta = {"game_id": rules.book_id + "-part", "variant": dict(rules.variant), "size": len(scores),
            "stats": {"explored": explored, "seconds": round(time.perf_counter() - began, 3)}}
    write_container(part.path, meta, [("keys", struct.pack(f"<{len(scores)}Q", *part.keys)),
                                      ("scores", struct.pack(f"<{len(scores)}b", *scores))])


def read_part(rules: Any, part: Part) -> tuple[dict[int, int], dict] | None:
    """The scores ``part``'s file keeps and its statistics, or None where there is no such file, or it is
    damaged or holds other positions (the part is then searched again). Another user's file is refused."""
    from gamedp.database import Container, DatabaseError

    if not os.path.exists(part.path):
        return None
    fix = f"remove {Path(part.path).parent} to build the book afresh"
    try:
        with Container(part.path, fix=fix, mapped=False) as container:
            meta = container.meta
            container.verify()
            keys = container.section("keys").cast("Q").tolist()
            scores = container.section("scores").cast("b").tolist()
    except DatabaseError as e:
        if not e.damaged:  # not this user's alone, or not a file: never trusted, never replaced
            raise
        return None
    if meta.get("game_id") != rules.book_id + "-part" or meta.get("variant") != dict(rules.variant) or \
            tuple(keys) != part.keys or len(scores) != len(keys):
        return None
    bound = [rules.score_bound(p) for p in part.positions]
    if any(abs(s) > b for s, b in zip(scores, bound)):
        return None
    stats = meta.get("stats", {})
    return dict(zip(keys, scores)), {"explored": int(stats.get("explored", 0)),
                                     "seconds": float(stats.get("seconds", 0.0))}
