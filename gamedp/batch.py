"""``gamedp value GAME``: positions read one a line from standard input, each answered as soon as it is read.

Every line is a position in the game's notation; the answer is one line ``POSITION<TAB>VALUE<TAB>REMOTENESS``
(``-`` for the remoteness with ``--outcomes-only``), or with ``--json`` one JSON object a line, adding the
positions the search explored and the seconds it took. A line that is not a position gets one error line on
stderr naming its line number, and the lines after it are still answered; the run then ends with exit status
2. Games that offer the exact-score search (:mod:`gamedp.solvers.score_search`) keep its table across the
lines; the others are answered by the engine ``analyze`` would use. A game read as move strings (Connect-Four)
takes an empty line as its start, as Pascal Pons' solver does, and answers it with an empty POSITION; its
answers can also be that solver's lines ``POSITION SCORE`` (``--format pons``).

This module imports neither click nor numpy, so that ``gamedp value connect4`` starts as fast as Python.

>>> import io
>>> from gamedp.games.connect4 import Connect4
>>> out, err = io.StringIO(), io.StringIO()
>>> game = Connect4(4, 4)
>>> answer_lines(score_reader(game, game.score_search()), io.StringIO("1\\n\\n12345\\n"), out, err)
1
>>> out.getvalue()
'1\\tTIE\\t15\\n\\tTIE\\t16\\n'
>>> print(err.getvalue(), end="")
gamedp: error: line 3: connect4 4x4: column 5 at move 5 is not a column of this board (1..4)
>>> out = io.StringIO()
>>> reader = score_reader(game, game.score_search(), scores=True)
>>> answer_lines(reader, io.StringIO("1 0\\n4444\\n"), out, err, scores=True), out.getvalue()
(0, '1 0\\n4444 0\\n')
"""

from __future__ import annotations

import re
import threading
import time
from typing import Any, Callable, Generator, Iterable, Iterator, TextIO, TypeVar

from gamedp.errors import GamedpError
from gamedp.values import Value

T = TypeVar("T")

#: What a batch answers a line with: its (value, positions explored, None where the engine does not count), or a
#: GamedpError saying what is wrong.
Reader = Callable[[str], tuple[Value, "int | None"]]


def answer_lines(read: Reader, lines: TextIO, out: TextIO, err: TextIO, *, as_json: bool = False,
                 threads: int = 1, stop: Callable[[], None] | None = None, scores: bool = False) -> int:
    """Answer every line of ``lines`` with ``read``; returns how many lines were refused.

    With ``threads`` above 1, that many lines are answered at once (``read`` must allow it), and the answers
    are still printed in the lines' order, each as soon as it and those before it are found; ``stop`` stops
    the lines being answered when the run is interrupted. A :class:`ScoreReader` whose game answers move
    strings in compiled code reads a stream's bytes (``lines.buffer``) a block at a time instead, and answers
    each block's lines in a few calls (:meth:`ScoreReader.answer_block`) rather than one by one; its threads
    take chunks of lines.

    With ``scores``, each answer is Pascal Pons' solver's line ``POSITION SCORE`` instead (``read`` must be a
    :func:`score_reader` made with ``scores``), and a line may be ``POSITION SCORE`` too, as the benchmark sets
    write them: the score it gives is checked (see :func:`_score_column`; such lines are answered one by one)."""
    if not as_json and isinstance(read, ScoreReader) and read.compiled and hasattr(lines, "buffer"):
        reader = read
        pace = [0.0]  # seconds a chunk took per byte, on average (0: none measured yet)

        def answer(chunk: tuple[int, bytes, int, int]) -> Iterable[tuple[bool, str]]:
            if threads == 1:  # a block a chunk, each answer printed as soon as found
                return reader.answer_block(*chunk, lines.encoding, lines.errors)
            started = time.thread_time()  # the work, not the waits for a core
            pieces = list(reader.answer_block(*chunk, lines.encoding, lines.errors))
            took = (time.thread_time() - started) / (chunk[3] - chunk[2])
            pace[0] = (pace[0] + took) / 2 if pace[0] else took
            return pieces

        return _in_order(_chunks(blocks(lines.buffer.read1), threads, pace), answer, threads, out, err, stop)
    return _in_order(enumerate(lines, 1), lambda numbered: _answer(read, *numbered, as_json, scores), threads,
                     out, err, stop)


#: Bytes read at a time: whatever has arrived, up to this (a line is answered once it has arrived whole).
BLOCK = 1 << 16
#: The least time a chunk of lines should take, where several threads share the lines (chunks are larger while
#: much of the block is left): short enough that the threads end together, long enough that taking a chunk and
#: printing its answers (tens of microseconds) costs little beside it.
CHUNK_SECONDS = 1e-4
#: The most time a chunk should take: its answers are printed only when it is done, so lines that take seconds
#: each (Connect-Four's hard openings) go a line a chunk, each answer printed as soon as it is found.
CHUNK_MOST_SECONDS = 0.05


def blocks(read: Callable[[int], bytes]) -> Iterator[bytes]:
    r"""The whole lines of a byte stream in blocks, each block as soon as ``read(n)`` has given its last line.
    A line ends at ``\n`` (``\r\n`` made ``\n``), the last one too; a lone ``\r`` is part of its line, as
    the line-by-line reading of ``--json`` takes it (a line number is then the one an editor shows).

    >>> reads = [b"12\r", b"\n3", b"4\r5", b""]
    >>> list(blocks(lambda size: reads.pop(0)))
    [b'12\n', b'34\r5\n']
    """
    begun: list[bytes] = []  # the line begun and not yet ended, as read: joined once, however long it grows
    while True:
        data = read(BLOCK)
        if not data:
            if begun:
                yield _unix(b"".join(begun) + b"\n")
            return
        whole = data.rfind(b"\n") + 1
        if not whole:
            begun.append(data)
            continue
        begun.append(data[:whole])
        yield _unix(b"".join(begun))
        begun = [data[whole:]] if whole < len(data) else []


def _unix(block: bytes) -> bytes:
    return block.replace(b"\r\n", b"\n") if b"\r" in block else block


def _chunks(blocks: Iterable[bytes], threads: int, pace: list[float]) -> Iterator[tuple[int, bytes, int, int]]:
    """The blocks' lines in chunks (the first line's number, the block, where the chunk begins and ends in it):
    a block a chunk for one thread; for several, chunks that shrink as the block is used up (a share of what is
    left, so that the threads end together), down to about CHUNK_SECONDS of work at ``pace[0]`` seconds a byte
    and never past CHUNK_MOST_SECONDS (a line while the pace is not known)."""
    number = 1
    for block in blocks:
        begin = 0
        while begin < len(block):
            if threads == 1:
                size = len(block)
            elif pace[0]:
                share = (len(block) - begin) // (2 * threads)
                size = max(min(share, int(CHUNK_MOST_SECONDS / pace[0])), int(CHUNK_SECONDS / pace[0]), 1)
            else:
                size = 1
            end = block.find(b"\n", begin + size - 1) + 1 or len(block)
            yield number, block, begin, end
            number += block.count(b"\n", begin, end)
            begin = end


def _in_order(units: Iterable[T], answer: Callable[[T], Iterable[tuple[bool, str]]], threads: int, out: TextIO,
              err: TextIO, stop: Callable[[], None] | None) -> int:
    """Print ``answer(unit)``'s pieces for every unit (see :func:`_answer`); returns how many were errors.

    With ``threads`` above 1, that many threads each take the next unit, answer it and print what is ready, so
    that the pieces still come in the units' order, each unit's as soon as it and those before it are done."""
    if threads == 1:  # each piece printed as soon as it is found
        return sum(_print([piece], out, err) for unit in units for piece in answer(unit))
    numbered = enumerate(units)
    taking = threading.Lock()  # one thread reads the next unit at a time
    printing = threading.Condition()  # over what follows
    ready: dict[int, list[tuple[bool, str]]] = {}
    written = refused = 0  # the next unit to print; the errors printed
    failed: list[BaseException] = []  # what went wrong in a thread (a broken pipe, say): raised here
    answering: set[threading.Thread] = set()  # the threads answering a unit now (not waiting for input)

    def work() -> None:
        nonlocal written, refused
        try:
            while not failed:
                with taking:
                    taken = next(numbered, None)
                if taken is None:
                    return
                number, unit = taken
                with printing:  # units answered but not yet printed stay few: memory stays flat
                    while number - written >= 2 * threads and not failed:
                        printing.wait()
                answering.add(threading.current_thread())
                try:
                    pieces = list(answer(unit))
                finally:
                    answering.discard(threading.current_thread())
                with printing:
                    ready[number] = pieces
                    while written in ready:
                        refused += _print(ready.pop(written), out, err)
                        written += 1
                    printing.notify_all()
        except BaseException as e:
            failed.append(e)
            with printing:
                printing.notify_all()

    # daemons: after Ctrl-C the run ends without waiting for a thread that waits for input
    workers = [threading.Thread(target=work, name=f"gamedp-value-{i}", daemon=True) for i in range(threads)]
    for worker in workers:
        worker.start()
    try:
        for worker in workers:
            worker.join()
    except BaseException:
        if stop is not None:
            stop()
            for worker in list(answering):  # stopped at once, each keeps what its search proved (a checkpoint)
                worker.join()
        raise
    if failed:
        raise failed[0]
    return refused


def _answer(read: Reader, number: int, line: str, as_json: bool, scores: bool = False) -> list[tuple[bool, str]]:
    """Line ``number``'s answer: [(False, the line to print)] or [(True, the error line)]; with ``scores``, a
    score the line gave that is not the position's adds an error line after the answer."""
    text = line.strip()
    started = time.perf_counter() if as_json else 0.0
    try:
        given = None
        if scores:
            text, given = _score_column(text)
        value, explored = read(text)
    except GamedpError as e:
        return [(True, f"gamedp: error: line {number}: {e}\n")]
    if as_json:
        import json

        return [(False, json.dumps({"line": number, "position": text, "value": value.outcome.name,
                                    "remoteness": value.remoteness, "explored": explored,
                                    "seconds": round(time.perf_counter() - started, 6)}) + "\n")]
    if scores:
        answer = [(False, f"{text} {value.score}\n")]
        if given is not None and given != value.score:
            answer.append((True, f"gamedp: error: line {number}: {text or 'the empty board'} scores {value.score}, "
                                 f"not {given} as the line says\n"))
        return answer
    remoteness = "-" if value.remoteness is None else str(value.remoteness)
    return [(False, f"{text}\t{value.outcome.name}\t{remoteness}\n")]


def _score_column(text: str) -> tuple[str, int | None]:
    """A line of a benchmark set, ``POSITION SCORE``, or a position alone, as (the position, the score or None).

    >>> _score_column("4453 -3"), _score_column("4453"), _score_column("")
    (('4453', -3), ('4453', None), ('', None))
    """
    fields = text.split()
    if len(fields) < 2:
        return text, None
    digits = fields[1][1:] if fields[1][0] in "+-" else fields[1]
    if len(fields) == 2 and digits.isdigit() and digits.isascii():
        return fields[0], int(fields[1])
    raise GamedpError(f"{text!r} is not POSITION or POSITION SCORE (a score is a whole number, e.g. 4453 -3)")


def _print(pieces: Iterable[tuple[bool, str]], out: TextIO, err: TextIO) -> int:
    """Print answers of :func:`_answer`, each stream flushed before the other is written and at the end;
    returns how many were errors."""
    refused = 0
    last = None
    for error, text in pieces:
        stream = err if error else out
        if last is not None and last is not stream:
            last.flush()
        stream.write(text)
        last = stream
        refused += error
    if last is not None:
        last.flush()
    return refused


def empty_line(game: Any) -> GamedpError:
    notation = getattr(game, "notation", None) or "its notation: see `gamedp games`"
    return GamedpError(f"the line is empty; write a position ({getattr(game, 'label', game.name)}: {notation})")


def score_reader(game: Any, rules: Any, *, memory: int | None = None, outcomes_only: bool = False,
                 progress: bool = True, threads: int = 1, scores: bool = False, keeping: Any = None,
                 book: bool = True) -> ScoreReader:
    """A reader for a game with the exact-score search (``rules``, what its hook gave): one table for every
    line, searched by up to ``threads`` lines at once; with ``scores``, its values carry the benchmark sets'
    score (the sign alone with ``outcomes_only``), which ``rules`` must offer (see :func:`benchmark_scores`);
    ``keeping`` keeps a long line's search in a checkpoint (:mod:`gamedp.solvers.search_checkpoint`); without
    ``book``, no line is answered from an opening book."""
    from gamedp.solvers.score_search import ScoreSearch

    # several lines' progress at once would garble the terminal's one progress line
    search = ScoreSearch(rules, memory=memory, outcomes_only=outcomes_only, progress=progress and threads == 1,
                         threads=threads, keeping=keeping, book=None if book else False)
    return ScoreReader(game, search, getattr(rules, "read_moves", None), scores)


def benchmark_scores(rules: Any) -> bool:
    """Whether the search's scores (``rules``, a game's score-search hook, or None) are those of the benchmark
    sets and of Pascal Pons' solver, so that ``gamedp value --format pons`` can write them."""
    return bool(getattr(rules, "benchmark_scores", False))


class ScoreReader:
    """A :data:`Reader` over a :class:`~gamedp.solvers.score_search.ScoreSearch` (``search``), which may be
    called from several threads at once; ``stop()`` stops the lines being searched.

    ``read_moves`` reads the game's move strings (the empty one is the start), or None: the game's notation,
    where an empty line is refused. With ``scores``, each value carries its score."""

    def __init__(self, game: Any, search: Any, read_moves: Callable[[str], Any] | None, scores: bool = False):
        self.game, self.search, self.scores = game, search, scores
        self.read_moves = read_moves or self._read_position
        self.stop: Callable[[], None] = search.stop
        #: whether the game answers move strings in compiled code (a search split over a cluster searches line
        #: by line)
        self.compiled = getattr(search.rules, "answer_lines", None) is not None and hasattr(search, "answer_lines")
        #: the lines short enough to be a position of the opening book (a move string of at most its reach), which
        #: the compiled code does not read: those are answered line by line (None: no book)
        self._in_book = None if search.book is None else \
            re.compile(rb"^[^\n]{0,%d}\n" % search.book.reach, re.MULTILINE)

    def answer_block(self, number: int, block: bytes, begin: int, end: int, encoding: str,
                     errors: str) -> Iterator[tuple[bool, str]]:
        """The answers to the lines of ``block[begin:end]`` (the first is line ``number``), as :func:`_answer`
        gives them: those of plain move strings found by the compiled code many at a time, the other lines
        (long searches, other notations, errors) each by this reader."""
        from gamedp.solvers.score_search import LEFT

        while begin < end:
            short = self._in_book and self._in_book.search(block, begin, end)
            upto = short.start() if short else end  # the lines before it go to the compiled code
            while begin < upto:
                status, at, text = self.search.answer_lines(block, begin, upto)
                if text:
                    yield False, self._scored(text) if self.scores else text
                number += block.count(b"\n", begin, at)
                begin = at
                if status == LEFT:
                    begin = yield from self._one(number, block, at, encoding, errors)
                    number += 1
            if short:
                begin = yield from self._one(number, block, begin, encoding, errors)
                number += 1

    def _one(self, number: int, block: bytes, begin: int, encoding: str,
             errors: str) -> Generator[tuple[bool, str], None, int]:
        """Answer the line of ``block`` that begins at ``begin`` (line ``number``) by itself; returns where the
        next one begins."""
        stop = block.index(b"\n", begin)
        yield from _answer(self, number, block[begin:stop].decode(encoding, errors), False, self.scores)
        return stop + 1

    def _read_position(self, text: str) -> Any:
        if not text:
            raise empty_line(self.game)
        return self.game.parse_position(text)

    def _scored(self, text: str) -> str:
        """The compiled answers ``text`` (lines ``MOVES<TAB>VALUE<TAB>REMOTENESS`` of plain move strings, each
        move a stone) as Pons' solver's lines ``MOVES SCORE``."""
        from gamedp.values import Outcome

        lines = []
        for line in text.splitlines():
            moves, outcome, remoteness = line.split("\t")
            value = Value(Outcome[outcome], None if remoteness == "-" else int(remoteness))
            lines.append(f"{moves} {self.search.rules.score_of(len(moves), value)}\n")
        return "".join(lines)

    def __call__(self, text: str) -> tuple[Value, int | None]:
        position = self.read_moves(text)
        value = self.search.value(position)
        if self.scores:
            rules = self.search.rules
            value = Value(value.outcome, value.remoteness, rules.score_of(rules.moves_made(position), value))
        return value, self.search.explored


def analyst_reader(analyst: Any) -> Reader:
    """A reader for any other game: the engine ``analyze`` uses, one for every line."""

    def read(text: str) -> tuple[Value, int | None]:
        if not text:
            raise empty_line(analyst.game)
        return analyst.value_alone(analyst.read_position(text)), None

    return read


def fast_value(spec: str, threads: int = 1, scores: bool = False) -> int:
    """``gamedp value GAME [--threads N] [--format tab|pons]`` (``scores``: pons), for a game with the
    exact-score search: the answers without importing the command line's libraries. Returns the exit status,
    or -1 when GAME takes the full path (which also says why a game refuses ``--format pons``)."""
    import sys

    from gamedp.loader import load_game

    try:
        game = load_game(spec)
    except GamedpError:
        return -1
    from gamedp.solvers.score_search import score_rules

    rules = score_rules(game)
    if rules is None or scores and not benchmark_scores(rules):
        return -1
    from gamedp.cores import usable_threads

    from gamedp.solvers.search_checkpoint import Keeping, command_afresh, interrupt_on_sigterm

    threads = usable_threads(threads)
    interrupt_on_sigterm()
    reader = score_reader(game, rules, threads=threads, scores=scores, keeping=Keeping(command_afresh()))
    refused = answer_lines(reader, sys.stdin, sys.stdout, sys.stderr, threads=threads, stop=reader.stop,
                           scores=scores)
    return 2 if refused else 0
