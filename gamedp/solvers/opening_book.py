"""An opening book of gamedp's own: the exact score of every position up to a number of moves, found by the score
search (:mod:`gamedp.solvers.score_search`) and kept in gamedp's checksummed file format
(:func:`gamedp.database.write_container`).

The first moves are the slow ones to search (the 7x6 Connect-Four start takes minutes), and the ones a game
against the program, or the web board, asks about every time. ``gamedp book connect4 --depth N`` finds them
once (:mod:`gamedp.solvers.book_builder` searches them); the score search then answers from the book whatever
it holds. Positions are kept under their key up to
symmetry (a position and its mirror image are one entry).

File: the container's metadata names ``game_id`` (the game's book id, e.g. ``connect4-book``), its ``variant``,
the ``depth`` (every position up to it is held), ``lines`` (the plies of a perfect player's lines held past it)
and ``reach`` (no position held is deeper); section ``keys`` holds the keys in increasing order (u64, little-endian), ``scores`` one
signed byte per key.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.book"
>>> write_book(path, "tiny-book", {"n": 3}, 2, {5: -1, 2: 3, 9: 0})
>>> book = OpeningBook(path, "tiny-book", {"n": 3})
>>> book.score(2, 5), book.score(9, 5), book.score(4, 5), len(book), book.depth
(3, 0, None, 3, 2)
"""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

# A value run looks for a book at each start and rarely finds one: the database module is read only for one.
from gamedp.database_location import default_path
from gamedp.values import Value

if TYPE_CHECKING:  # read only where no book of the user's own is found
    from gamedp.solvers.compact_book import CompactBook


class OpeningBook:
    """A book read from ``path``, checked whole (its checksums, its game and variant) when opened."""

    def __init__(self, path: str | os.PathLike, book_id: str, variant: Mapping[str, Any], game: str = "GAME"):
        from gamedp.database import Container, DatabaseError

        self.path = Path(path)
        self._remake = remake = f"make it again with: gamedp book {game} --depth N --force"
        # read whole, not mapped: a book is small, and read from for as long as a game is played or served
        with Container(self.path, fix=remake, mapped=False) as container:
            meta = container.meta
            if meta.get("game_id") != book_id or meta.get("variant") != dict(variant):
                raise DatabaseError(f"{self.path} is the book of {meta.get('game_id')} {meta.get('variant')}, not "
                                    f"of {book_id} {dict(variant)}")
            container.verify()
            keys, scores = (container.section(name) if container.has(name) else None for name in ("keys", "scores"))
        if keys is None or scores is None or len(keys) != 8 * len(scores):
            raise DatabaseError(f"{self.path} is damaged (a section of keys, 8 bytes each, and one of as many scores "
                                f"expected); {remake}", damaged=True)
        self.keys, self.scores = keys.cast("Q"), scores.cast("b")
        #: every position up to this many moves is in the book
        self.depth: int = meta.get("depth", 0)
        #: the plies of a perfect player's lines held past it
        self.lines: int = meta.get("lines", 0)
        #: and none past this many
        self.reach: int = meta.get("reach", self.depth)

    def __len__(self) -> int:
        return len(self.keys)

    def score(self, key: int, most: int) -> int | None:
        """The score kept for ``key``, or None if the book does not hold it. A score past ``most`` either way
        (the most the position can have) is refused as damage, never answered."""
        keys, lo, hi = self.keys, 0, len(self.keys)
        while lo < hi:
            mid = (lo + hi) // 2
            if keys[mid] < key:
                lo = mid + 1
            else:
                hi = mid
        if lo == len(keys) or keys[lo] != key:
            return None
        kept = self.scores[lo]
        if abs(kept) > most:
            from gamedp.database import DatabaseError

            raise DatabaseError(f"the book {self.path} gives a position the score {kept}, past the most ({most} "
                                f"either way) a position of its moves can have: it is damaged; {self._remake}",
                                damaged=True)
        return kept

    def close(self) -> None:
        self.keys.release()
        self.scores.release()


def write_book(path: str | os.PathLike, book_id: str, variant: Mapping[str, Any], depth: int,
               scores: Mapping[int, int], stats: dict | None = None, lines: int = 0, reach: int | None = None) -> None:
    """Write ``scores`` (key -> score) as a book of every position up to ``depth`` moves (and of the moves of a
    perfect player's first ``lines`` plies), whose deepest positions are ``reach`` moves deep, atomically."""
    from gamedp.database import write_container

    keys = sorted(scores)
    meta = {"game_id": book_id, "variant": dict(variant), "depth": depth, "lines": lines,
            "reach": depth if reach is None else reach, "size": len(keys), "stats": stats or {}}
    write_container(path, meta, [("keys", struct.pack(f"<{len(keys)}Q", *keys)),
                                 ("scores", struct.pack(f"<{len(keys)}b", *(scores[k] for k in keys)))])


def book_path(rules: Any, db: str | os.PathLike | None = None) -> Path:
    """Where the book of ``rules``' game is kept: ``db`` if given, else beside gamedp's databases."""
    return default_path(rules.book_id, rules.variant, db)


def find_book(rules: Any) -> OpeningBook | CompactBook | None:
    """The book of ``rules``' game: the user's own at its usual place (made on purpose, so it comes first), else
    the one shipped with gamedp (:mod:`gamedp.books`), else None (a damaged one is an error)."""
    if getattr(rules, "book_id", None) is None:
        return None
    path = book_path(rules)
    if path.exists():
        return OpeningBook(path, rules.book_id, rules.variant, rules.book_game)
    from gamedp.books import shipped

    found = shipped(rules.book_id, rules.variant)
    if found is None:
        return None
    from gamedp.solvers.compact_book import CompactBook

    return CompactBook(found[0], rules, sha256=found[1])


def book_values(rules: Any) -> Callable[[Any], Value | None] | None:
    """The exact values of the positions the book of ``rules``' game (:func:`find_book`) holds (None for the others), for a search
    that takes them as ends (:mod:`gamedp.solvers.lookahead`); None where the game has no book."""
    book = find_book(rules)
    if book is None:
        return None

    def known(position: Any) -> Value | None:
        if rules.moves_made(position) > book.reach:  # past the book: no need to look
            return None
        score = book.score(rules.book_key(position), rules.score_bound(position))
        return None if score is None else rules.value(position, score)

    return known
