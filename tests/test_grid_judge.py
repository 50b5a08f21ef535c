"""``gamedp judge gridgame`` (Baekjoon 28218): official samples byte for byte, random inputs against a brute force
from the rules, the fast and the plain reader agreeing, and every kind of bad input through the real command."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import data
import pytest
from command import gamedp, gamedp_within

from gamedp.errors import InputError
from gamedp.judge import gridgame
from judge_paths import assert_paths_agree

# The official samples, written out as a reader sees them (checked equal to the copies in examples/ below).
SAMPLES = [
    (b"2 2 0\n.#\n..\n2\n1 1\n2 1\n", b"Second\nFirst\n"),
    (b"2 2 1\n..\n..\n1\n1 1\n", b"First\n"),
    (b"3 4 0\n....\n.#..\n....\n1\n3 2\n", b"Second\n"),
]


@pytest.mark.parametrize("given, expected", SAMPLES)
def test_official_samples_byte_for_byte(given, expected):
    result = gamedp("judge", "gridgame", stdin=given)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected


def test_inline_samples_match_the_official_ones():
    for i, (given, expected) in enumerate(SAMPLES, 1):
        assert (data.SAMPLES / f"gridgame-sample{i}.in").read_bytes() == given
        assert (data.SAMPLES / f"gridgame-sample{i}.out").read_bytes() == expected


_BRUTE_MEMO: dict[tuple[tuple[str, ...], int, int, int], bool] = {}


def brute_first_wins(rows: list[str], k: int, x: int, y: int) -> bool:
    """The rules, plainly: down 1, right 1, or down-right 1..k onto an open cell; no move loses."""
    n, m = len(rows), len(rows[0])

    def wins(r, c):
        key = (tuple(rows), k, r, c)
        if key not in _BRUTE_MEMO:
            steps = [(1, 0), (0, 1)] + [(j, j) for j in range(1, k + 1)]
            children = [(r + a, c + b) for a, b in steps if r + a < n and c + b < m and rows[r + a][c + b] == "."]
            _BRUTE_MEMO[key] = any(not wins(*child) for child in children)
        return _BRUTE_MEMO[key]

    return wins(x - 1, y - 1)


def random_input(rng: random.Random, max_side: int = 9) -> tuple[str, list[str], int, list[tuple[int, int]]]:
    n, m = rng.randint(1, max_side), rng.randint(1, max_side)
    density = rng.choice([0.0, 0.15, 0.4])
    rows = ["".join("#" if rng.random() < density else "." for _ in range(m)) for _ in range(n)]
    rows[-1] = rows[-1][:-1] + "."
    k = rng.randint(0, min(n, m) - 1)
    open_cells = [(r + 1, c + 1) for r in range(n) for c in range(m) if rows[r][c] == "."]
    queries = [rng.choice(open_cells) for _ in range(rng.randint(0, 6))]
    text = f"{n} {m} {k}\n" + "".join(row + "\n" for row in rows) + f"{len(queries)}\n"
    text += "".join(f"{x} {y}\n" for x, y in queries)
    return text, rows, k, queries


def test_random_inputs_against_the_rules():
    rng = random.Random(28218)
    for _ in range(2000):
        text, rows, k, queries = random_input(rng)
        expected = "".join("First\n" if brute_first_wins(rows, k, x, y) else "Second\n" for x, y in queries)
        assert gridgame.run(text) == expected, text
        assert gridgame.run(text.encode()) == expected


def mutate(text: str, rng: random.Random) -> str:
    """The text with one small slip: a character changed, dropped or added."""
    at = rng.randrange(len(text) + 1)
    char = rng.choice(".#\n 0123456789x\r")
    kind = rng.randrange(3)
    return text[:at] + (char if kind != 1 else "") + text[at + (kind != 0):]


def test_native_and_checked_paths_agree():
    """On random well-formed inputs, and on slips of them (see judge_paths)."""
    rng = random.Random(5)
    texts = (random_input(rng)[0] for _ in range(1200))
    cases = (((mutate(text, rng) if t % 2 else text).encode(), t % 2 == 0) for t, text in enumerate(texts))
    accepted, refused = assert_paths_agree(cases, gridgame._native_run, gridgame.checked_run)
    assert accepted > 600 and refused > 200


def queries_on_one_line(text: str) -> str:
    lines = text.split("\n")
    n = int(lines[0].split()[0])
    return "\n".join(lines[:n + 1]) + "\n" + "  ".join(lines[n + 1:])


@pytest.mark.parametrize("variant", [
    lambda t: t.replace("\n", "\r\n"),                       # Windows line ends
    lambda t: t.replace("\n", "  \n", 3),                     # trailing spaces on the first lines
    lambda t: t.rstrip("\n"),                                 # no final newline
    lambda t: queries_on_one_line(t),
])
def test_layout_variants_give_the_same_answers(variant):
    rng = random.Random(9)
    for _ in range(100):
        text, *_ = random_input(rng)
        assert gridgame.run(variant(text)) == gridgame.run(text)


def test_unreachable_cells_and_the_corner_query_are_answered():
    # (1, 2) cannot move at all (its right and lower neighbours are walls, K = 0): its mover loses.
    text = "2 3 0\n..#\n.#.\n3\n1 2\n2 3\n1 1\n"
    assert gridgame.run(text) == "Second\nSecond\nFirst\n"


def test_judge_path_imports_neither_numpy_nor_numba():
    from gamedp.native import load_native

    assert load_native("gamedp.kernels.gridgame_judge") is not None  # built into the cache if needed
    code = ("import sys\n"
            "from gamedp.judge import gridgame\n"
            "assert gridgame.run('2 2 1\\n..\\n..\\n1\\n1 1\\n') == 'First\\n'\n"
            "print('numpy' in sys.modules, 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["False", "False"], out.stderr


BAD = [
    ("", "line 1:", "empty"),
    ("2 2\n..\n..\n1\n1 1\n", "line 1:", "N M K"),
    ("2 x 1\n..\n..\n1\n1 1\n", "line 1, column 3:", "expected M in digits 0-9"),
    ("2 2 \u0661\n..\n..\n1\n1 1\n", "line 1, column 5:", "expected K in digits 0-9"),   # Arabic-Indic 1
    ("2 2 1\n..\n..\n1\n1 \u00b2\n", "line 5, column 3:", "expected the column of query 1"),  # superscript 2
    ("2 2 1\n..\n..\n" + "9" * 5000 + "\n", "line 4, column 1:", "5000 digits; at most 18"),
    ("9" * 5000 + " 2 1\n..\n..\n1\n1 1\n", "line 1, column 1:", "5000 digits"),
    ("0 2 0\n1\n1 1\n", "line 1:", "at least 1"),
    ("2 2 2\n..\n..\n1\n1 1\n", "line 1, column 5:", "K = 2 is out of range"),
    ("3 3 1\n...\n...\n", "line 4:", "ended before row 3"),
    ("2 3 1\n...\n..\n1\n1 1\n", "line 3:", "row 2 has 2 cells; expected M = 3"),
    ("2 3 1\n....\n...\n1\n1 1\n", "line 2:", "row 1 has 4 cells"),
    ("2 2 1\n.x\n..\n1\n1 1\n", "line 2, column 2:", "'x' is not a cell"),
    ("2 2 1\n..\n.#\n1\n1 1\n", "line 3, column 2:", "(2, 2) is '#'"),
    ("2 2 1\n..\n..\n", "line 4:", "ended before Q"),
    ("2 2 1\n..\n..\nq\n", "line 4, column 1:", "expected Q"),
    ("2 2 1\n..\n..\n2\n1 1\n", "line 6:", "ended before the row of query 2 of 2"),
    ("2 2 1\n..\n..\n1\n1\n", "line 6:", "ended before the column of query 1"),
    ("2 2 1\n..\n..\n1\n1 -1\n", "line 5, column 3:", "expected the column of query 1"),
    ("2 2 1\n..\n..\n1\n3 1\n", "line 5:", "(3, 1) is off the board"),
    ("2 2 1\n..\n..\n1\n1 0\n", "line 5:", "(1, 0) is off the board"),
    ("2 2 1\n.#\n..\n1\n1 2\n", "line 5:", "on a '#' cell"),
    ("2 2 1\n..\n..\n1\n1 1\n2 2\n", "line 6, column 1:", "unexpected '2' after the 1 queries"),
]


@pytest.mark.parametrize("text, where, words", BAD)
@pytest.mark.slow
def test_bad_input_one_line_exit_2(text, where, words):
    result = gamedp("judge", "gridgame", stdin=text.encode())
    err = result.stderr.decode()
    assert result.returncode == 2, err
    assert result.stdout == b""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"gamedp: error: input, {where}") and words in err, err


@pytest.mark.parametrize("text, where, words", BAD)
def test_bad_input_in_process(text, where, words):
    with pytest.raises(InputError) as caught:
        gridgame.run(text)
    assert str(caught.value).startswith(f"input, {where}") and words in str(caught.value)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the peak memory is read from Linux's /proc")
def test_a_big_board_costs_little_more_memory_than_its_input(tmp_path):
    """The native judge solves the board a row at a time and answers each query with its row: beside the input it
    makes nothing the size of the board (a table of N * M bytes was 9 MB of page faults on 3000 x 3000)."""
    # The peak of this process's memory (VmHWM: ru_maxrss would count the memory of the test's process too, which
    # a child inherits across exec on Linux).
    code = ("import sys\n"
            "from gamedp.cli.entry import main\n"
            "try:\n    main(['judge', 'gridgame'])\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])\n")

    def peak_kib(n: int) -> int:
        board = tmp_path / f"{n}.in"  # a file, read at once (a pipe is read in growing pieces)
        board.write_bytes(f"{n} {n} {n - 1}\n".encode() + (b"." * n + b"\n") * n + f"2\n1 1\n{n} {n - 1}\n".encode())
        with board.open("rb") as given:
            result = subprocess.run([sys.executable, "-c", code], stdin=given, capture_output=True, timeout=120)
        assert result.stdout == b"First\nFirst\n", result.stderr  # a jump to the goal; a step to it
        return int(result.stderr)

    small, big = peak_kib(3), peak_kib(3000)
    assert (big - small) * 1024 < 1.5 * 3000 * 3000, (small, big)


@pytest.mark.parametrize("head", [b"1000000000 1 0\n", b"3000000000 3 0\n...\n", b"100000 100000 0\n" + b"." * 5000])
def test_a_header_the_input_does_not_back_allocates_nothing(head):
    """N * M comes from the header; a board the input does not hold must be refused before any buffer that
    size is made (here under a 600 MB address-space limit, far below N * M)."""
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (600 << 20, 600 << 20))\n"
            "from gamedp.cli.entry import main\n"
            "main(['judge', 'gridgame'])\n")
    result = subprocess.run([sys.executable, "-c", code], input=head, capture_output=True, timeout=60)
    err = result.stderr.decode()
    assert result.returncode == 2 and err.count("\n") == 1, err
    assert err.startswith("gamedp: error: input, line ") and "row " in err, err


def test_a_first_line_without_end_is_refused_when_a_first_line_could_have_ended():
    """1.5 GB of zero bytes were read whole, then copied as text: now the reading stops once the first line is
    longer than 'N M K' could be, in 300 MB of address space."""
    r = gamedp_within(300 << 20, "judge", "gridgame", stdin=bytes(100 << 20))
    assert r.returncode == 2 and b"line 1: the line is longer than" in r.stderr, r.stderr[-300:]


@pytest.mark.parametrize("head, line", [(b"1", 1), (b"2 2 5", 1), (b"x y z", 1), (b"2 2 0\n.#\n..\n1\n1 1", 6)])
def test_the_input_is_read_no_further_than_its_counts(head, line):
    """A wrong first line, or text after the Q queries, is refused where it starts, the rest unread (a valid
    board and query, then 100 MB of '1' lines, took 3.2 GB and 39 s)."""
    r = gamedp_within(300 << 20, "judge", "gridgame", stdin=head + b"\n" + b"1\n" * (50 << 20))
    assert r.returncode == 2 and r.stderr.startswith(b"gamedp: error: input, line %d" % line), r.stderr[-300:]
    assert r.stderr.count(b"\n") == 1


def test_words_are_counted_as_split_counts_them():
    """The judge counts the queries' words without making them (gridgame._words): as bytes.split() would."""
    rng = random.Random(28218)
    for _ in range(2000):
        block = bytes(rng.choice(b" \t\n\r\x0b\x0c\x00\x1c\x85\xa012x#.") for _ in range(rng.randrange(40)))
        assert gridgame._words(block) == len(block.split()), block
