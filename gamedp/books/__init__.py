"""The opening books shipped with gamedp, in compact form (:mod:`gamedp.solvers.compact_book`), in this folder.

Each file is listed here with the SHA-256 of its whole self: a file whose digest differs is refused, never used.
``docs/howto/opening-book.md`` says how each was built, so that anyone can build it again and compare.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from gamedp.database_location import SUFFIX, file_name

#: file name -> the SHA-256 (hex) of the file as shipped
SHIPPED: dict[str, str] = {
    # gamedp book connect4 --depth 4 --lines 8 --compact connect4-book_height6_width7.book
    "connect4-book_height6_width7.book": "e9020a2bdd111043e4f685815fb22b092802e2771368cbbe9d08bd054114b645",
}

# where the files are; a test points it at a folder of its own
_FOLDER = Path(__file__).parent


def shipped_name(book_id: str, variant: Mapping[str, Any]) -> str:
    """The file name of a game's book as gamedp ships it.

    >>> shipped_name("connect4-book", {"width": 7, "height": 6})
    'connect4-book_height6_width7.book'
    """
    return file_name(book_id, variant).removesuffix(SUFFIX) + ".book"


def shipped(book_id: str, variant: Mapping[str, Any]) -> tuple[Path, str] | None:
    """The path of a game's shipped book and the SHA-256 it must have, or None where gamedp ships none (this is
    all a run without a book reads: the reader's module is imported only for a book)."""
    name = shipped_name(book_id, variant)
    digest = SHIPPED.get(name)
    return None if digest is None else (_FOLDER / name, digest)
