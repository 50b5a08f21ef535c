"""Building an opening book (:mod:`gamedp.solvers.opening_book`): every position within a number of moves of the
start, valued by the score search (:mod:`gamedp.solvers.score_search`) and written to the book's file, and the
positions a perfect player meets along its lines (:func:`~gamedp.solvers.book_positions.perfect_lines`), each
with its score and its best move.

Only the deepest positions are searched: each shallower one is the best of its moves (the negation of its
children's scores), or searched where one of its moves ends the game (it wins at once, or fills the board), which
the search settles without a search. The deepest positions are searched in *parts* of :data:`PART_POSITIONS`
each, on an executor (:mod:`gamedp.executors`: this process, or the workers of a Dask cluster, each keeping its
table from one part to the next), and each part's scores are written to a checksummed file of their own in a
folder beside the book as soon as they are found. A build that stops (Ctrl-C, a killed process, a lost
cluster) keeps its finished parts: the same command goes on from them, and the folder is removed once the book
is written.

Along the lines, the player's positions past the depth are searched in parts too; then the best move of each is
found, in parts of their own kept in the same way: its moves are tested in the game's order with a null-window
search each (a move is the best where the position it leads to scores at most the negated score: usually the
first tested), where the scores of its children are not known already.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import struct
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any, Callable, Literal, NamedTuple

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
    """Some positions searched together and kept in ``path``: their scores, or (a part of best moves, whose
    ``scores`` are given) the index of each one's best move among its moves."""

    name: str  # the game as the command line names it
    game: Any  # the game itself, for a worker to make its search
    memory: int | None
    positions: tuple
    keys: tuple
    path: str
    scores: tuple = ()  # a part of best moves: each position's score,
    known: tuple = ()  # and the scores of its moves' positions known already (None where not), in their order


def make_book(rules: Any, depth: int, path: str | os.PathLike, *, lines: int = 0, memory: int | None = None,
              force: bool = False, executor: Any = None) -> dict:
    """Value every position up to ``depth`` moves, and (``lines``) the positions a perfect player meets in its
    first ``lines`` plies, as either side, against any replies, with their best moves; the searches run on
    ``executor`` (default: this process). Writes the book to ``path`` and returns its statistics (``resumed``:
    the positions found by an earlier run of the same build; ``tested``: the null-window searches of the best
    moves, ``tested_explored`` and ``tested_seconds`` what they took)."""
    path = Path(path)
    refuse_to_replace(path, force)
    began = time.perf_counter()
    build = _Build(rules, parts_folder(path), memory, executor)
    positions = positions_up_to(rules, depth)
    build.search({k: p for k, p in positions.items() if rules.moves_made(p) == depth}, f"{depth} moves deep")
    for key, position in sorted(positions.items(), key=lambda kv: -rules.moves_made(kv[1])):
        if key not in build.scores:
            build.scores[key] = _best_of(rules, position, rules.children(position), build.scores, build.here)
    reach = max(rules.moves_made(p) for p in positions.values())
    for player in (0, 1) if lines else ():
        reach = max(reach, _perfect_lines(build, player, lines))
    scores = build.scores
    stats = {"positions": len(scores), "searched": build.searched, "resumed": build.resumed,
             "explored": build.explored, "search_seconds": round(build.seconds, 3), "best_moves": len(build.best),
             "tested": build.tested, "tested_explored": build.tested_explored,
             "tested_seconds": round(build.tested_seconds, 3), "seconds": round(time.perf_counter() - began, 3)}
    write_book(path, rules.book_id, rules.variant, depth, scores, stats, lines=lines, reach=reach, best=build.best)
    shutil.rmtree(build.folder, ignore_errors=True)
    return stats


def refuse_to_replace(path: Path, force: bool) -> None:
    """A book already at ``path`` is replaced only with ``force``."""
    if path.exists() and not force:
        raise GamedpError(f"{path} exists; give --force to replace it")


def _perfect_lines(build: _Build, player: int, plies: int) -> int:
    """Value the positions of ``player``'s perfect lines (:func:`~gamedp.solvers.book_positions.perfect_lines`):
    the player's positions searched, then their best moves tested; returns the moves made at the deepest
    position they hold."""
    whose = "first" if player == 0 else "second"
    reach = 0
    for step in perfect_lines(build.rules, player, plies, build.scores, build.best):
        build.search(step.new, f"the {whose} player's positions {step.ply} moves deep")
        if step.best:
            reach = step.ply + 1  # the position the best move leads to
            build.find_best(step.best, f"the {whose} player's best moves {step.ply} moves deep")
    return reach


class _Build:
    """What a build has found: the scores, by key, and the positions searched for them, in parts kept in
    ``folder`` (see the module's docstring)."""

    def __init__(self, rules: Any, folder: Path, memory: int | None, executor: Any):
        from gamedp.executors import LocalExecutor

        self.rules, self.folder, self.memory = rules, folder, memory
        self.executor = executor or LocalExecutor()
        self.scores: dict[int, int] = {}
        self.best: dict[int, int] = {}  # line key -> the index of the best move in the position's moves
        self.searched = self.resumed = self.explored = self.tested = self.tested_explored = 0
        self.seconds = self.tested_seconds = 0.0
        #: this process's search: the parts when they run here, and the positions settled at once
        self.here = ScoreSearch(rules, memory=memory, progress=False, book=False)
        self._local = isinstance(self.executor, LocalExecutor)

    def search(self, positions: dict[int, Any], what: str) -> None:
        """Search those of ``positions`` (key -> position) not valued yet, in parts."""
        keys = sorted(k for k in positions if k not in self.scores)
        self.searched += len(keys)
        self._run([self._part(tuple(keys[at:at + PART_POSITIONS]), positions)
                   for at in range(0, len(keys), PART_POSITIONS)], search_part, self._take, what)

    def find_best(self, positions: dict[int, tuple[Any, list]], what: str) -> None:
        """Find the best move of each of ``positions`` (line key -> the position and its moves), its score known,
        in parts."""
        rules, keys = self.rules, sorted(positions)
        parts = []
        for at in range(0, len(keys), PART_POSITIONS):
            mine = keys[at:at + PART_POSITIONS]
            part = self._part(tuple(mine), {k: positions[k][0] for k in mine}, "best")
            parts.append(part._replace(
                scores=tuple(self.scores[rules.book_key(positions[k][0])] for k in mine),
                known=tuple(tuple(self.scores.get(rules.book_key(child)) for _, child in positions[k][1])
                            for k in mine)))
        self._run(parts, best_part, self._take_best, what)

    def _run(self, parts: list[Part], fn: Callable[[Part], None], take: Callable[..., bool], what: str) -> None:
        """Run ``fn`` on those of ``parts`` that ``take`` does not find kept already, on the executor."""
        todo = [part for part in parts if not take(part, resumed=True)]
        if not todo:
            return
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        line = ProgressLine(f"book of {self.rules.name}: {what}")
        total = sum(len(part.keys) for part in parts)
        left = [sum(len(part.keys) for part in todo)]
        line.update(total - left[0], total)

        def done(part: Part) -> None:
            if not take(part):
                raise GamedpError(f"the part {part.path} of the book was not written as it should have been; run "
                                  "the same command again")
            left[0] -= len(part.keys)
            line.update(total - left[0], total)

        try:
            # the parts searched in this process share its table
            with lent(self.rules.book_game, self.memory, self.here) if self._local else nullcontext():
                self.executor.run(fn, todo, done)
        except KeyboardInterrupt:
            raise self.stopped() from None
        finally:
            line.close()

    def stopped(self) -> Stopped:
        """What a build stopped by Ctrl-C says (its finished parts are kept)."""
        return Stopped(f"stopped: {len(self.scores):,} positions are valued, kept in {self.folder}; run the same "
                       "command again to go on")

    def _part(self, keys: tuple, positions: dict[int, Any], kind: str = "part") -> Part:
        # named by its positions, so that a build that stops finds it again, whatever it found before it
        name = hashlib.sha256(struct.pack(f"<{len(keys)}Q", *keys)).hexdigest()[:20]
        return Part(self.rules.book_game, self.rules.game, self.memory, tuple(positions[k] for k in keys), keys,
                    str(self.folder / f"{kind}-{name}.gdb"))

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

    def _take_best(self, part: Part, resumed: bool = False) -> bool:
        """Add the best moves ``part``'s file keeps; False where it keeps nothing of use."""
        kept = read_best(self.rules, part)
        if kept is None:
            return False
        self.best.update(kept[0])
        self.tested += kept[1]["tested"]
        self.tested_explored += kept[1]["explored"]
        self.tested_seconds += kept[1]["seconds"]
        return True


def _best_of(rules: Any, position: Any, moves: list, scores: dict[int, int], search: ScoreSearch) -> int:
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
    _write(part, search.rules, "part", {"explored": explored, "seconds": round(time.perf_counter() - began, 3)},
           ("scores", struct.pack(f"<{len(scores)}b", *scores)))


def best_part(part: Part) -> None:
    """Find the best move of each of ``part``'s positions (the first of the best, in the game's order: the first
    whose position scores at most the negated score, known already or tested by a null-window search) and write
    their indices to its file (run by an executor, anywhere)."""
    search = search_for(part.name, part.game, part.memory)
    rules = search.rules
    began = time.perf_counter()
    tested = explored = 0
    best = []
    for position, score, known in zip(part.positions, part.scores, part.known):
        most = -score
        for index, (_, child) in enumerate(rules.children(position)):
            kept = known[index]
            if kept is None:
                kept = search.score(child, most, most + 1)
                tested += 1
                explored += search.explored
            if kept <= most:
                best.append(index)
                break
        else:  # one move has the position's score, by the score's definition
            raise AssertionError(f"no move keeps the score {score} of position {position!r} of {part.path}")
    _write(part, rules, "best",
           {"tested": tested, "explored": explored, "seconds": round(time.perf_counter() - began, 3)},
           ("best", bytes(best)))


def _write(part: Part, rules: Any, kind: str, stats: dict, found: tuple[str, bytes]) -> None:
    from gamedp.database import write_container

    meta = {"game_id": f"{rules.book_id}-{kind}", "variant": dict(rules.variant), "size": len(part.keys),
            "stats": stats}
    write_container(part.path, meta, [("keys", struct.pack(f"<{len(part.keys)}Q", *part.keys)), found])


def read_part(rules: Any, part: Part) -> tuple[dict[int, int], dict] | None:
    """The scores ``part``'s file keeps and its statistics, or None where there is no such file, or it is
    damaged or holds other positions (the part is then searched again). Another user's file is refused."""
    kept = _read(rules, part, "part", "scores", "b")
    if kept is None:
        return None
    scores, stats = kept
    if any(abs(s) > rules.score_bound(p) for s, p in zip(scores, part.positions)):
        return None
    return dict(zip(part.keys, scores)), {"explored": int(stats.get("explored", 0)),
                                          "seconds": float(stats.get("seconds", 0.0))}


def read_best(rules: Any, part: Part) -> tuple[dict[int, int], dict] | None:
    """The best moves (line key -> the move's index) a part of best moves keeps and its statistics, or None as
    :func:`read_part` says."""
    kept = _read(rules, part, "best", "best", "B")
    if kept is None:
        return None
    best, stats = kept
    if any(index >= len(rules.children(p)) for index, p in zip(best, part.positions)):
        return None
    return dict(zip(part.keys, best)), {name: (float if name == "seconds" else int)(stats.get(name, 0))
                                        for name in ("tested", "explored", "seconds")}


def _read(rules: Any, part: Part, kind: str, name: str, code: Literal["b", "B"]) -> tuple[list[int], dict] | None:
    """The values of ``part``'s section ``name`` (of struct ``code``) and its statistics, where its file is whole
    and of ``kind`` for this game and these positions; None otherwise."""
    from gamedp.database import Container, DatabaseError

    if not os.path.exists(part.path):
        return None
    fix = f"remove {Path(part.path).parent} to build the book afresh"
    try:
        with Container(part.path, fix=fix, mapped=False) as container:
            meta = container.meta
            container.verify()
            keys = container.section("keys").cast("Q").tolist()
            values = container.section(name).cast(code).tolist()
    except DatabaseError as e:
        if not e.damaged:  # not this user's alone, or not a file: never trusted, never replaced
            raise
        return None
    if meta.get("game_id") != f"{rules.book_id}-{kind}" or meta.get("variant") != dict(rules.variant) or \
            tuple(keys) != part.keys or len(values) != len(keys):
        return None
    return values, meta.get("stats", {})
