"""Judge adapters: one thin module per judge problem.

Each module exposes ``run(text: str | bytes | BinaryIO) -> str``: the judge's input in (bytes are read as UTF-8;
a stream is read only as far as the input's own counts take it), its exact output out, raising
:class:`gamedp.errors.InputError` (with the line number) on malformed input.
"""

from __future__ import annotations

import io

from gamedp.errors import InputError

TYPE_CHECKING = False  # typing's own flag, and typing, would add ~3 ms to every judge run
if TYPE_CHECKING:
    from typing import BinaryIO, Iterator


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


def answer(problem: str, text: str | bytes | BinaryIO) -> str:
    """``problem``'s exact output for its input ``text`` (a stream is read as far as the input needs)."""
    import importlib

    return importlib.import_module(JUDGES[problem].module).run(text)


def byte_stream(text: str | bytes | BinaryIO) -> BinaryIO:
    """A judge's input as a stream of bytes (text as UTF-8)."""
    if isinstance(text, str):
        return io.BytesIO(text.encode("utf-8", "surrogateescape"))
    return io.BytesIO(text) if isinstance(text, (bytes, bytearray, memoryview)) else text


def numbered_lines(stream: BinaryIO, longest: int, source: str = "input") -> Iterator[tuple[int, bytes]]:
    """The stream's lines (``\\n`` included) with their 1-based numbers, read as they are asked for; a line of
    more than ``longest`` bytes, which no input of the problem holds, is refused once that much of it is read
    (so a stream of gigabytes without a newline costs no more than ``longest``)."""
    number = 0
    while True:
        line = stream.readline(longest + 1)
        if not line:
            return
        number += 1
        if len(line) > longest and not line.endswith(b"\n"):
            raise InputError(f"the line is longer than {longest:,} bytes, more than any line of this input holds",
                             number, source=source)
        yield number, line
