"""`gamedp value connect4`'s compiled lines (gamedp.batch.answer_lines reading a stream's bytes, the kernel
connect4_search.answer_lines): the same output, in the same order, as the lines answered one by one in Python,
however the input arrives (in blocks, split mid-line, one line at a time through a pipe) and with two threads."""

from __future__ import annotations

import io
import os
import random
import queue
import subprocess
import sys
import threading
import time

import pytest
from command import GAMEDP

from gamedp.batch import answer_lines, score_reader
from gamedp.errors import GamedpError
from gamedp.games.connect4 import Connect4
from gamedp.solvers import score_search
from test_score_search import benchmark_sample


@pytest.fixture
def long_searches_early(monkeypatch):
    """Searches past a few thousand positions left to the Python path (with its growing table and helpers), so
    that samples mix both paths."""
    monkeypatch.setattr(score_search, "QUICK", 1 << 12)
    monkeypatch.setattr(score_search, "FIRST_SLOTS", score_search.MIN_SLOTS)


def mixed_text() -> str:
    """Benchmark lines of every difficulty, with bad lines, other notations and stray spaces among them."""
    game = Connect4()
    easy = [m for m, _ in benchmark_sample("Test_L3_R1", 40)]
    middle = [m for m, _ in benchmark_sample("Test_L2_R1", 20) + benchmark_sample("Test_L2_R2", 6)]
    drawn = game.format_position_line(game.parse_position(easy[3]))
    # (an empty line, or one of spaces, is the empty board: minutes of search on 7x6)
    odd = ["0", "12345678", "1111111", "12121213", "1212121", "x", "44" * 22, drawn, f"  {easy[5]}\t", "4" * 60,
           "\t8 ", "٣"]
    lines = []
    for i, line in enumerate(easy + middle):
        lines.append(line)
        if i % 5 == 2 and odd:
            lines.append(odd.pop())
    return "\r\n".join(lines[:30]) + "\n" + "\n".join(lines[30:])  # the last line without a newline


def one_by_one(text: str, **options) -> str:
    """The output of the lines answered one by one (a text stream without bytes beneath: the Python path)."""
    game = Connect4()
    reader = score_reader(game, game.score_search(), progress=False, **options)
    both = io.StringIO()
    answer_lines(reader, io.StringIO(text, newline=None), both, both)
    return both.getvalue()


class Trickle(io.RawIOBase):
    """Bytes handed over at most ``size`` at a time, as a pipe may."""

    def __init__(self, data: bytes, size: int):
        self.data, self.size = data, size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        part, self.data = self.data[:min(self.size, len(buffer))], self.data[min(self.size, len(buffer)):]
        buffer[:len(part)] = part
        return len(part)


def compiled(text: str, size: int | None = None, threads: int = 1, **options) -> tuple[str, int, int]:
    """The output through the compiled lines (stdout and stderr as one stream, to keep their order), the errors
    counted, and how many compiled calls answered lines."""
    game = Connect4()
    reader = score_reader(game, game.score_search(), progress=False, threads=threads, **options)
    assert reader.compiled
    calls = []
    search_lines = reader.search.answer_lines
    reader.search.answer_lines = lambda *args: calls.append(search_lines(*args)) or calls[-1]
    data = text.encode()
    raw = io.BufferedReader(Trickle(data, size or len(data) + 1))
    both = io.StringIO()
    refused = answer_lines(reader, io.TextIOWrapper(raw, encoding="utf-8"), both, both, threads=threads,
                           stop=reader.stop)
    return both.getvalue(), refused, sum(1 for _, _, answers in calls if answers)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("size", [None, 1, 7, 100])
def test_compiled_lines_print_what_the_lines_one_by_one_print(size, threads, long_searches_early):
    text = mixed_text()
    expected = one_by_one(text)
    got, refused, calls = compiled(text, size, threads)
    assert got == expected
    assert refused == expected.count("gamedp: error: line ") == 9
    answered = expected.count("\tWIN\t") + expected.count("\tLOSE\t") + expected.count("\tTIE\t")
    assert 0 < calls <= answered
    if size is None and threads == 1:  # every line at hand: many answered in one call
        assert calls < answered // 2


def test_outcomes_only_alike(long_searches_early):
    text = mixed_text()
    got, _, _ = compiled(text, 64, 2, outcomes_only=True)
    assert got == one_by_one(text, outcomes_only=True) and "\tWIN\t-\n" in got


@pytest.mark.parametrize("threads", ["1", "2"])
def test_a_line_is_answered_as_soon_as_it_arrives_through_a_pipe(threads):
    """One line at a time, as a program talking to gamedp would send them: each answer (or error) comes back
    before the next line is sent."""
    process = subprocess.Popen([*GAMEDP, "value", "connect4", "--threads", threads], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    got: queue.Queue[tuple[str, str]] = queue.Queue()

    def relay(name: str) -> None:
        for line in getattr(process, name):
            got.put((name, line))

    for name in ("stdout", "stderr"):
        threading.Thread(target=relay, args=(name,), daemon=True).start()
    try:
        lines = [m for m, _ in benchmark_sample("Test_L3_R1", 4)]
        for number, line in enumerate([lines[0], "9", lines[1], lines[2] + "\r", lines[3]], 1):
            process.stdin.write(line + "\n")
            process.stdin.flush()
            stream, answer = got.get(timeout=120)  # the first waits for the kernels' build, at most
            if line == "9":
                assert stream == "stderr" and answer.startswith(f"gamedp: error: line {number}: "), answer
            else:
                assert stream == "stdout" and answer.split("\t")[0] == line.strip(), answer
        process.stdin.close()
        assert process.wait(timeout=60) == 2
    finally:
        process.kill()


def random_games(game: Connect4, count: int, seed: int) -> list[str]:
    """Move strings of random games cut at random lengths past the middle (or at their end), one in eight then
    spoilt by a move off the board, into a full column or after the end."""
    rng = random.Random(seed)
    cells = game.width * game.height
    lines = []
    for _ in range(count):
        moves = ""
        while len(moves) < rng.randint(cells // 2, cells):
            free = [c for c in range(1, game.width + 1) if moves.count(str(c)) < game.height]
            if not free:
                break
            moves += str(rng.choice(free))
            try:
                game.parse_position(moves + str(free[0]))
            except GamedpError:  # the game is over (its last move is still a position)
                break
        if rng.random() < 1 / 8:
            moves += str(rng.choice([game.width + 1, *range(1, game.width + 1)]))
        lines.append(moves)
    return lines


@pytest.mark.parametrize("width, height, symmetry", [(5, 4, True), (6, 5, False), (8, 7, True)])
def test_other_boards_alike(width, height, symmetry):
    game = Connect4(width, height, symmetry=symmetry)
    text = "".join(line + "\n" for line in random_games(game, 150, width))
    got = []
    for compiled_lines in (True, False):
        reader = score_reader(game, game.score_search(), progress=False, outcomes_only=width == 8)
        assert reader.compiled
        both = io.StringIO()
        stream = io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8") if compiled_lines else \
            io.StringIO(text)
        answer_lines(reader, stream, both, both)
        got.append(both.getvalue())
    assert got[0] == got[1]
    assert 5 < got[0].count("gamedp: error: line ") < 30 and got[0].count("\n") == 150


def test_chunks_of_slow_lines_are_a_line_each_so_that_each_answer_is_printed_when_found():
    """Lines that are taken a chunk at a time by several threads: a chunk's answers are printed when it is done,
    so slow lines go one a chunk, and quick ones in chunks big enough to cost little to take."""
    from gamedp.batch import CHUNK_MOST_SECONDS, CHUNK_SECONDS, _chunks

    block = b"".join(b"%d\n" % n for n in range(1000, 10000))  # 5 bytes a line
    unknown = next(_chunks([block], 2, [0.0]))  # the pace not yet measured
    assert unknown[2:] == (0, 5)
    slow = list(_chunks([block], 2, [1.0 / 5]))  # a second a line
    assert all(end - begin == 5 for _, _, begin, end in slow) and len(slow) == 9000
    quick = [end - begin for _, _, begin, end in _chunks([block], 2, [1e-6 / 5])]  # a microsecond a line
    assert sum(quick) == len(block) and quick[0] <= CHUNK_MOST_SECONDS / 1e-6 * 5 + 5
    assert min(quick[:-1]) >= CHUNK_SECONDS / 1e-6 * 5 - 5  # a line less, for the rounding
    numbers = [number for number, *_ in _chunks([block], 2, [1e-6 / 5])]
    assert numbers[0] == 1 and numbers[1] == 1 + quick[0] // 5


def test_a_short_value_run_loads_neither_dataclasses_nor_the_database_and_leaves_its_objects_to_the_exit(
        tmp_path):
    """Short batches of `gamedp value connect4` are mostly start-up: the run imports no dataclasses (nor inspect,
    which it imports: the values are records of gamedp's own), and without an opening book neither the database
    module nor json; once answered it freezes what its imports made (the interpreter's last garbage collection
    walked it all)."""
    code = ("import gc, sys\nimport gamedp.books\ngamedp.books.SHIPPED.clear()\nfrom gamedp.cli.entry import main\n"
            "try:\n    main(['value', 'connect4'])\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write(' '.join(sys.modules) + ' frozen=%d' % gc.get_freeze_count())\n")
    done = subprocess.run([sys.executable, "-c", code], input="5554224333234511764415115\n", capture_output=True,
                          text=True, timeout=300, env={**os.environ, "GAMEDP_DB_DIR": str(tmp_path)})  # no book
    assert done.stdout == "5554224333234511764415115\tWIN\t11\n", done.stderr
    *modules, frozen = done.stderr.split()
    assert not {"dataclasses", "inspect", "json", "gamedp.database", "click", "numpy", "numba"} & set(modules)
    assert int(frozen.partition("=")[2]) > 1000


#: a 7x6 position searched in milliseconds, lost for the player to move (End-Easy's first line)
QUICK = "2252576253462244111563365343671351441"


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs sched_setaffinity")
@pytest.mark.parametrize("args", [["value", "connect4", "--threads", "3"], ["value", "connect4", "--json", "--threads", "3"],
                                  ["analyze", "connect4", QUICK, "--threads", "3"]])
def test_threads_beyond_the_cores_are_reduced_to_them_with_a_note(args):
    """More threads than cores only take turns on them (64 on 2 cores took 7 times as long): a process allowed
    one core searches in one thread, and says so."""
    one_core = min(os.sched_getaffinity(0))
    r = subprocess.run([*GAMEDP, *args], input=QUICK + "\n", capture_output=True, text=True, timeout=120,
                       preexec_fn=lambda: os.sched_setaffinity(0, {one_core}))
    assert r.returncode == 0 and "LOSE" in r.stdout, r.stderr
    assert r.stderr.count("--threads 3 is more than the 1 core this process may use; searching in 1 thread") == 1, \
        r.stderr


def test_threads_up_to_the_cores_are_kept(monkeypatch):
    from gamedp.cores import usable_threads

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert [usable_threads(n) for n in (1, 2, 64)] == [1, 2, 2]


def test_a_long_line_is_gathered_once_not_copied_at_every_read():
    """100 MB on one line took 93 s when each read was added to what was read before (and 300 MB past 300 s)."""
    from gamedp.batch import BLOCK, blocks

    chunk = b"x" * BLOCK
    reads = iter([chunk] * 500 + [b"\n", b""])  # 33 MB
    started = time.perf_counter()
    got = list(blocks(lambda size: next(reads)))
    assert time.perf_counter() - started < 0.5
    assert len(got) == 1 and len(got[0]) == 500 * BLOCK + 1


@pytest.mark.parametrize("json", [False, True])
def test_a_lone_carriage_return_is_part_of_its_line(json):
    """Lines end at a newline, as an editor counts them: a lone \\r does not start another (it made two answers
    of one line, and every later line's number one more, unless --json read it)."""
    position = benchmark_sample("Test_L3_R1", 1)[0][0]
    r = subprocess.run([*GAMEDP, "value", "connect4", *(["--json"] if json else [])], text=True, timeout=120,
                       input=f"{position}\r{position}\n{position}\r\n", capture_output=True)
    assert r.returncode == 2 and r.stderr.startswith("gamedp: error: line 1: ") and r.stderr.count("\n") == 1
    answers = r.stdout.splitlines()
    assert len(answers) == 1 and (f'"line": 2, "position": "{position}"' in answers[0] if json
                                  else answers[0].startswith(f"{position}\t")), r.stdout
