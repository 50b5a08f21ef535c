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

import hashlib
import os
import shutil
import struct
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any, NamedTuple

from gamedp.errors import GamedpError
from gamedp.progress import ProgressLine
from gamedp.solvers.book_positions import perfect_lines, positions_up_to
from gamedp.solvers.opening_book import write_book
from gamedp.solvers.score_search import ScoreSearch
from gamedp.solvers.worker_search import lent, search_for

#: Positions searched in one part: few enough that a part is soon done (and little is lost when a build stops),
#: enough that a cluster's round trips are few beside the searches (a 4-move 7x6 position takes 0.1-60 s).
PART_POSITIONS = 8


class Stopped(GamedpError):
    """A build stopped by Ctrl-C, its finished parts kept."""

    exit_status = 130


class Part(NamedTuple):
    """Some of the deepest positions, searched together and kept in ``path``."""

    name: str  # the game as the command line names it
    game: Any  # the game itself, for a worker to make its search
    memory: int | None
    positions: tuple
    keys: tuple
    path: str


def make_book(rules: Any, depth: int, path: str | os.PathLike, *, lines: int = 0, memory: int | None = None,
              force: bool = False, executor: Any = None) -> dict:
    """Value every position up to ``depth`` moves, and (``lines``) every move of the positions a perfect player
    meets in its first ``lines`` plies, as either side, against any replies; the searches run on ``executor``
    (default: this process). Writes the book to ``path`` and returns its statistics (``resumed``: the positions
    found by an earlier run of the same build)."""
    path = Path(path)
    refuse_to_replace(path, force)
    began = time.perf_counter()
    build = _Build(rules, parts_folder(path), memory, executor)
    positions = positions_up_to(rules, depth)
    build.search({k: p for k, p in positions.items() if rules.moves_made(p) == depth}, f"{depth} moves deep")
    for key, position in sorted(positions.items(), key=lambda kv: -rules.moves_made(kv[1])):
        if key not in build.scores:
            build.scores[key] = _best_move(rules, position, rules.children(position), build.scores, build.here)
    for player in (0, 1) if lines else ():
        _perfect_lines(build, player, lines)
    scores = build.scores
    reach = max(rules.moves_made(p) for p in build.valued.values())
    stats = {"positions": len(scores), "searched": build.searched, "resumed": build.resumed,
             "explored": build.explored, "search_seconds": round(build.seconds, 3),
             "seconds": round(time.perf_counter() - began, 3)}
    write_book(path, rules.book_id, rules.variant, depth, scores, stats, lines=lines, reach=reach)
    shutil.rmtree(build.folder, ignore_errors=True)
    return stats


def refuse_to_replace(path: Path, force: bool) -> None:
    """A book already at ``path`` is replaced only with ``force``."""
    if path.exists() and not force:
        raise GamedpError(f"{path} exists; give --force to replace it")


def _perfect_lines(build: _Build, player: int, plies: int) -> None:
    """Value the positions of ``player``'s perfect lines (:func:`~gamedp.solvers.book_positions.perfect_lines`):
    the replies searched, the player's positions the best of their moves."""
    rules = build.rules
    whose = "first" if player == 0 else "second"
    for step in perfect_lines(rules, player, plies, build.scores):
        if step.moves is None:
            build.search(step.new, f"the moves of the {whose} player, ply {step.ply + 1}")
            continue
        for key, position in step.new.items():
            build.scores[key] = _best_move(rules, position, step.moves[position], build.scores, build.here)
            build.valued[key] = position


class _Build:
    """What a build has found: the scores, by key, and the positions searched for them, in parts kept in
    ``folder`` (see the module's docstring)."""

    def __init__(self, rules: Any, folder: Path, memory: int | None, executor: Any):
        from gamedp.executors import LocalExecutor

        self.rules, self.folder, self.memory = rules, folder, memory
        self.executor = executor or LocalExecutor()
        self.scores: dict[int, int] = {}
        self.valued: dict[int, Any] = {}  # the positions of the scores
        self.searched = self.resumed = self.explored = 0
        self.seconds = 0.0
        #: this process's search: the parts when they run here, and the positions settled at once
        self.here = ScoreSearch(rules, memory=memory, progress=False, book=False)
        self._local = isinstance(self.executor, LocalExecutor)

    def search(self, positions: dict[int, Any], what: str) -> None:
        """Search those of ``positions`` (key -> position) not valued yet, in parts."""
        rules = self.rules
        self.valued.update(positions)
        keys = sorted(k for k in positions if k not in self.scores)
        parts = [self._part(tuple(keys[at:at + PART_POSITIONS]), positions)
                 for at in range(0, len(keys), PART_POSITIONS)]
        todo = [part for part in parts if not self._take(part, resumed=True)]
        self.searched += len(keys)
        if not todo:
            return
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        line = ProgressLine(f"book of {rules.name}: {what}")
        left = [sum(len(part.keys) for part in todo)]
        line.update(len(keys) - left[0], len(keys))

        def done(part: Part) -> None:
            if not self._take(part):
                raise GamedpError(f"the part {part.path} of the book was not written as it should have been; run "
                                  "the same command again")
            left[0] -= len(part.keys)
            line.update(len(keys) - left[0], len(keys))

        try:
            # the parts searched in this process share its table
            with lent(rules.book_game, self.memory, self.here) if self._local else nullcontext():
                self.executor.run(search_part, todo, done)
        except KeyboardInterrupt:
            raise Stopped(f"stopped: {len(self.scores):,} positions are valued, kept in {self.folder}; run the "
                          "same command again to go on") from None
        finally:
            line.close()

    def _part(self, keys: tuple, positions: dict[int, Any]) -> Part:
        # named by its positions, so that a build that stops finds it again, whatever it found before it
        name = hashlib.sha256(struct.pack(f"<{len(keys)}Q", *keys)).hexdigest()[:20]
        return Part(self.rules.book_game, self.rules.game, self.memory, tuple(positions[k] for k in keys), keys,
                    str(self.folder / f"part-{name}.gdb"))

    def _take(self, part: Part, resumed: bool = False) -> bool:
        """Add what ``part``'s file keeps; False where it keeps nothing of use (none yet, or damaged)."""
        kept = read_part(self.rules, part)
        if kept is None:
            return False
        self.scores.update(kept[0])
        self.explored += kept[1]["explored"]
        self.seconds += kept[1]["seconds"]
        self.resumed += len(kept[0]) if resumed else 0
        return True


def _best_move(rules: Any, position: Any, moves: list, scores: dict[int, int], search: ScoreSearch) -> int:
    """The score of a position whose children (``moves``: its moves and the positions they lead to) are valued:
    the best of their negations; searched instead where a move ends the game (the search settles such a position
    at once)."""
    best = None
    for _, child in moves:
        kept = scores.get(rules.book_key(child))
        if kept is None:
            return search.score(position)
        best = -kept if best is None else max(best, -kept)
    return search.score(position) if best is None else best


def parts_folder(book: Path) -> Path:
    """Where the parts of a build of ``book`` are kept until the book is written (a part is named by its
    positions, so a build of another depth uses the parts it shares with this one)."""
    return book.with_name(f"{book.name}.parts")


def search_part(part: Part) -> None:
    """Search ``part``'s positions and write their scores to its file (run by an executor, anywhere)."""
    search = search_for(part.name, part.game, part.memory)
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
