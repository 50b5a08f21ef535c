"""The memory guard: refusals up front with the bytes needed, searches stopped before memory runs out,
``ulimit -v`` honoured, and estimates checked against measured peaks."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from command import gamedp

from gamedp.errors import ResourceError
from gamedp.memory import AVAILABLE_ENV
from gamedp.game import Game
from gamedp.solvers.memo import Solution


@pytest.mark.parametrize("args", [["analyze", "wythoff", "100000", "100000"], ["play", "wythoff", "100000", "100000"]])
def test_huge_searches_are_refused_up_front_with_the_bytes_needed(args):
    r = gamedp(*args)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "needs about" in r.stderr and "bytes of memory" in r.stderr and "are available" in r.stderr


@pytest.mark.parametrize("verb", ["analyze", "play"])
def test_a_huge_heap_is_valued_through_its_nimber_without_making_its_moves(verb):
    """A heap of 10^9 has 10^9 moves: they are made only as far as the analysis lists them (its memory once grew
    with them, to 17 GB)."""
    r = subprocess.run([sys.executable, "-c", "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, "
                        "(2 << 30, 2 << 30)); from gamedp.cli.entry import main; sys.argv[0] = 'gamedp'; "
                        f"main(['{verb}', 'nim', '1000000000', '3'])"], capture_output=True, text=True, timeout=120,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "WIN" in r.stderr and "nimber is 1000000003" in r.stderr and "100,000 moves" in r.stderr


@pytest.mark.parametrize("args", [["analyze", "subtraction:squares", "100000"], ["analyze", "wythoff", "1000", "1000"]])
@pytest.mark.slow
def test_searches_of_hours_of_impartial_games_are_answered_through_their_nimbers(args):
    r = gamedp(*args)
    assert r.returncode == 0, r.stderr
    assert "remoteness not computed: valued through nimbers" in r.stdout and "takes up to" not in r.stderr


@pytest.mark.parametrize("verb", ["analyze", "play"])
def test_a_position_with_too_many_moves_to_list_is_one_line_with_its_value(verb):
    r = gamedp(verb, "nim", "1000000", timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "WIN" in r.stderr and "nimber is 1000000" in r.stderr and "100,000 moves" in r.stderr


def test_a_huge_wythoff_search_is_refused_with_the_bytes_needed():
    r = gamedp("analyze", "wythoff", "1000000", "1000000")
    assert r.returncode == 2 and "needs about" in r.stderr and "bytes of memory" in r.stderr, r.stderr


def test_heap_option_counts_match_the_options_listed():
    from gamedp.games.impartial import family

    for name in ["nim", "kayles", "dawson", "octal:4.07", "octal:0.137", "subtraction:1,3,4", "subtraction:squares",
                 "subtraction:fibonacci", "subtraction:powers:3", "subtraction:allbut:2,5", "grundy-game", "lasker"]:
        game = family(name)
        for n in range(60):
            assert game.option_count(n) == len(list(game.heap_options(n))), (name, n)


@pytest.mark.parametrize("name, position", [("nim", (30,)), ("nim", (3, 9, 14)), ("subtraction:1,2,3", (500,)),
                                            ("subtraction:squares", (300,)), ("kayles", (9, 12)),
                                            ("lasker", (7, 8))])
def test_the_work_estimate_bounds_the_moves_a_search_looks_at(name, position):
    from gamedp.games.impartial import family
    from gamedp.games.impartial.heaps import POSITION_STEPS

    game = family(name)
    rules, moves = game.children, []
    game.children = lambda p: moves.append(len(kids := rules(p))) or kids  # counts the moves the engine takes
    solution = Solution(game)
    solution.value(position)
    steps = sum(moves) + POSITION_STEPS * len(solution.table)
    assert steps <= game.work_estimate(position) <= 40 * steps, (steps, game.work_estimate(position))


@pytest.mark.parametrize("args", [["nimber", "grundy-game", "1000000"], ["grundy", "grundy-game", "--upto", "1e7"],
                                  ["grundy", "kayles", "--upto", "1e7", "--no-extrapolate"],
                                  ["nimber", "subtraction:squares", "100000000"],
                                  ["grundy", "subtraction:squares", "--upto", "1e8"],
                                  ["grundy", "subtraction:allbut:2", "--upto", "1e8"],
                                  ["nimber", "wythoff", "20000", "20000"], ["grundy", "wythoff", "--upto", "10000"],
                                  ["grundy", "octal:0.16", "--upto", "1e8"]])  # no period found: refused midway
@pytest.mark.slow
def test_sequences_of_hours_are_refused(args):
    # The steps are refused whatever the memory; with the machine's own figure, a big table's memory could be
    # refused first (Wythoff's 20000 x 20000 needs 14.9 GiB): a machine with 1 TiB free is asked instead.
    r = gamedp(*args, env={AVAILABLE_ENV: str(1 << 40)})
    assert r.returncode == 2 and "mex steps" in r.stderr and "keep heaps" in r.stderr, r.stderr


def value_under_2_gib(game: str, lines: str) -> subprocess.CompletedProcess:
    """``gamedp value GAME`` with ``lines`` on its input, in 2 GiB of address space."""
    return subprocess.run([sys.executable, "-c", "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, "
                           "(2 << 30, 2 << 30)); from gamedp.cli.entry import main; sys.argv[0] = 'gamedp'; "
                           f"main(['value', '{game}'])"], input=lines, capture_output=True, text=True, timeout=60)


def test_value_refuses_each_line_analyze_would_refuse():
    """Each line is estimated as analyze's position is (Wythoff's 100000 100000 needs some 850 GB: value once
    began the search, 9.5 GB in 30 s); the lines around it are answered."""
    r = value_under_2_gib("wythoff", "3 4\n100000 100000\n5 5\n")
    assert r.returncode == 2 and r.stdout == "3 4\tWIN\t3\n5 5\tWIN\t1\n", r.stdout
    assert r.stderr.startswith("gamedp: error: line 2: searching wythoff from 100000 100000 needs about ")
    assert r.stderr.count("\n") == 1 and "--depth" not in r.stderr, r.stderr  # value has no --depth


@pytest.mark.parametrize("game, line, outcome, small", [("kayles", "100000", "WIN", "3\tWIN\t3"),
                                                        ("nim", "1000000 1000000", "LOSE", "3\tWIN\t1")])
def test_value_values_a_huge_impartial_line_through_nimbers_as_analyze_does(game, line, outcome, small):
    """As analyze does: no search of hours or gigabytes (kayles 100000 took 5.3 GB; nim 1000000 1000000 ran past
    30 s), the nimber's outcome without remoteness."""
    r = value_under_2_gib(game, line + "\n3\n")
    assert r.returncode == 0 and r.stdout == f"{line}\t{outcome}\t-\n{small}\n", (r.stdout, r.stderr)


def test_a_test_can_fix_the_memory_the_machine_has_available():
    """What refuses a big request must not depend on the machine's free memory at the time: a test fixes it."""
    r = gamedp("nimber", "wythoff", "20000", "20000", env={AVAILABLE_ENV: str(3 << 30)})
    assert r.returncode == 2 and "this machine has 3.0 GiB available" in r.stderr, r.stderr


def peak_bytes(*args: str) -> int:
    """The peak resident memory of one whole `gamedp` run, as /usr/bin/time reports it (a child forked from this
    big test process would inherit its peak)."""
    return peak_of([sys.executable, "-m", "gamedp", *args])


def peak_of(command: list[str]) -> int:
    r = subprocess.run(["/usr/bin/time", "-f", "%M", *command], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return int(r.stderr.split()[-1]) * 1024


def search_peak_bytes(heaps: tuple[int, ...]) -> int:
    """The peak of a process that analyses ``heaps`` of nim by the memoised search, the engine the estimate is for
    (the command line values so big a sum through its nimbers)."""
    return peak_of([sys.executable, "-c", "from gamedp.games.impartial.nim import Nim; from gamedp.solvers.memo "
                    f"import Solution; Solution(Nim()).analyze({heaps!r})"])


@pytest.mark.skipif(not os.path.exists("/usr/bin/time"), reason="needs /usr/bin/time")
@pytest.mark.slow
def test_the_estimate_is_within_ten_percent_of_the_measured_peak():
    from gamedp.games.impartial.nim import Nim

    grew = search_peak_bytes((30, 45, 60)) - search_peak_bytes((1, 2))
    estimate = Nim().memory_estimate((30, 45, 60))
    assert abs(estimate - grew) <= 0.1 * grew, (estimate, grew)


@pytest.mark.skipif(not os.path.exists("/usr/bin/time"), reason="needs /usr/bin/time")
@pytest.mark.parametrize("family, per_term", [("kayles", "BYTES_PER_TERM"), ("lasker", "BYTES_PER_PYTHON_TERM")])
def test_a_sequence_estimate_is_within_ten_percent_of_the_measured_peak(family, per_term):
    import gamedp.games.impartial.heaps as heaps

    terms = 2_000_000
    grew = (peak_bytes("grundy", family, "--upto", str(terms), "--bare")
            - peak_bytes("grundy", family, "--upto", "10000", "--bare"))
    estimate = terms * getattr(heaps, per_term)
    assert abs(estimate - grew) <= 0.1 * grew, (estimate, grew)


LIMITED = textwrap.dedent('''
    import resource
    from gamedp.memory import available_memory, _statm, MemoryGuard, RESERVE
    size = _statm()[0]
    resource.setrlimit(resource.RLIMIT_AS, (size + RESERVE // 2, resource.RLIM_INFINITY))
    print(available_memory() <= RESERVE // 2)
    try:
        MemoryGuard("searching nim").check(65536)
    except Exception as e:
        print(type(e).__name__, e)
''')


def test_the_guard_honours_ulimit_v():
    r = subprocess.run([sys.executable, "-c", LIMITED], capture_output=True, text=True, timeout=60)
    first, second = r.stdout.splitlines()
    assert first == "True"
    assert second.startswith("ResourceError searching nim stopped after 65,536 positions") and "ulimit -v" in second


class Chain(Game):
    """Counts down by one: a long chain of positions, cheap per position."""

    name = "chain"

    def start(self):
        return 200_000

    def children(self, n):
        return [n - 1] if n else []


@pytest.mark.parametrize("outcomes_only", [False, True])
def test_a_growing_search_stops_with_a_clear_message(monkeypatch, outcomes_only):
    import gamedp.memory

    monkeypatch.setattr(gamedp.memory, "available_memory", lambda: 0)
    with pytest.raises(ResourceError, match=r"searching chain stopped after 65,5\d\d positions"):
        Solution(Chain(), outcomes_only=outcomes_only).value(200_000)
