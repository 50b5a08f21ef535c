"""One position's search split over the workers of a real local Dask cluster (gamedp.solvers.split_search):
its answers are those of the search of one process, on Connect-Four and Domineering, and a worker killed in the
middle changes nothing but the time."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from command import gamedp, one_clear_error
from test_search_checkpoint import start
from gamedp.executors import DaskExecutor
from gamedp.games.connect4 import Connect4
from gamedp.games.placement import Domineering
from gamedp.solvers.score_search import ScoreSearch
from gamedp.solvers.split_search import SplitSearch
from gamedp.values import LOSE

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "k_in_a_row.py"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster():
    with DaskExecutor(workers=2) as executor:
        executor.start()
        yield executor


def random_position(rules, rng: random.Random, stones: int):
    position = rules.game.start()
    for _ in range(stones):
        kids = [child for _, child in rules.children(position) if rules.children(child)]
        if not kids:
            break
        position = rng.choice(kids)
    return position


def scores_agree(split, plain, rng, count: int, stones: range) -> None:
    """``split`` scores ``count`` random positions (of a number of stones in ``stones``) as ``plain`` does."""
    rules = plain.rules
    for _ in range(count):
        position = random_position(rules, rng, rng.randrange(stones.start, stones.stop))
        assert split.score(position) == plain.score(position), rules.game.format_position_line(position)


def test_connect4_scores_are_the_search_s_of_one_process(cluster):
    rules = Connect4(5, 4).score_search()
    plain = ScoreSearch(rules, progress=False, book=False)
    rng = random.Random(4)
    scores_agree(SplitSearch(rules, "connect4:5x4", cluster, plies=2), plain, rng, 6, range(6, 12))
    outcomes = SplitSearch(rules, "connect4:5x4", cluster, outcomes_only=True)
    for _ in range(4):
        position = random_position(rules, rng, rng.randrange(2, 8))
        assert outcomes.value(position).outcome is plain.outcome(position).outcome


def test_domineering_winners_are_the_search_s_of_one_process(cluster):
    game = Domineering(5, 5)
    rules = game.score_search()
    plain = ScoreSearch(rules, progress=False, book=False)
    split = SplitSearch(rules, "domineering:5x5", cluster)
    rng = random.Random(5)
    asked = 0
    for _ in range(8):
        position = random_position(rules, rng, rng.randrange(0, 4))
        assert split.value(position) == plain.value(position), game.format_position(position)
        asked += split.questions
    assert asked > 0  # not every position is settled by Domineering's bounds


def test_a_game_of_plain_hooks_is_split_too(cluster):
    spec = importlib.util.spec_from_file_location("k_in_a_row", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    rules = example.KInARow(5, 4, 4, gravity=True).score_search()
    plain = ScoreSearch(rules, progress=False, book=False)
    split = SplitSearch(rules, "k_in_a_row", cluster, plies=2)
    rng = random.Random(6)
    for _ in range(4):
        position = random_position(rules, rng, rng.randrange(2, 6))
        assert split.score(position) == plain.score(position), position


def test_the_split_explores_about_what_one_process_does(cluster):
    # The driver sees each position as the compiled search does (the moves it searches, in its order, and the
    # bounds its hooks give): a loss, every move of which must be refuted, is split without searching what the
    # search of one process never looks at (1.29M positions against 10K when the driver ordered moves itself). The
    # split's guesses while a worker waits cost a search this small 4-5x its positions (milliseconds): 10x is the
    # bound.
    game = Domineering(7, 6)
    rules = game.score_search()
    plain = ScoreSearch(rules, progress=False, book=False)
    assert plain.value(game.start()).outcome is LOSE
    split = SplitSearch(rules, "domineering:7x6", cluster, plies=2)
    assert split.value(game.start()).outcome is LOSE
    assert split.explored < 10 * plain.explored


def test_the_driver_searches_the_moves_the_search_would(cluster):
    rules = Connect4(7, 6).score_search()
    split = SplitSearch(rules, "connect4:7x6", cluster)
    assert split._view(rules.read_moves("11223"))[2] == [rules.read_moves("112234")]  # the one block
    low, high, kids = split._view(rules.read_moves("44556"))  # two threats to block: lost, no question
    assert not kids and low == high < 0
    assert split.score(rules.read_moves("44556")) == low and split.questions == 0


def test_a_worker_killed_in_the_middle_changes_nothing_but_the_time(cluster):
    game = Domineering(8, 8)
    rules = game.score_search()
    split = SplitSearch(rules, "domineering:8x8", cluster, memory=1 << 24)
    pids = list(cluster.client.run(os.getpid).values())
    done = threading.Event()
    killed_before_the_end = []

    def kill_one():
        while split.questions < 1 and not done.is_set():  # the first answered: the others are being searched
            time.sleep(0.01)
        os.kill(pids[0], signal.SIGKILL)
        killed_before_the_end.append(not done.is_set())

    killer = threading.Thread(target=kill_one)
    killer.start()
    answer = split.value(game.start())
    done.set()
    killer.join()
    assert killed_before_the_end == [True]
    assert answer == ScoreSearch(rules, progress=False, book=False).value(game.start())


def test_the_command_line_splits_each_line_over_the_workers():
    lines = "3344\n444\n1122\n"  # move strings, which one process answers in compiled code many at a time
    split = gamedp("value", "connect4:5x4", "--workers", "2", stdin=lines)
    alone = gamedp("value", "connect4:5x4", stdin=lines)
    assert split.returncode == alone.returncode == 0, (split.stderr, alone.stderr)
    assert split.stdout == alone.stdout and len(split.stdout.splitlines()) == 3


@pytest.mark.parametrize("args, said", [
    (("tictactoe", "--workers", "2"), ("--workers splits the search", "tictactoe")),
    (("connect4", "--workers", "2", "--threads", "2"), ("--threads and --workers cannot be used together",)),
    (("connect4", "--workers", "2", "--cluster", "127.0.0.1:1"), ("--workers and --cluster",)),
])
def test_the_command_line_says_what_cannot_be_split(args, said):
    one_clear_error(gamedp("value", *args, stdin="44\n"), *said)


def test_a_question_given_up_stops_its_worker_s_search(cluster):
    # Two long questions (the empty 7x6 board's sign: minutes each), one a worker, given up: the next question is
    # answered at once, not after them.
    from distributed import wait

    from gamedp.solvers.split_search import search_some

    game = Connect4(7, 6)
    position = game.score_search().read_moves("")
    long = [cluster.client.submit(search_some, "connect4:7x6", game, 1 << 22, [position], 0, pure=False)
            for _ in range(2)]
    time.sleep(1.0)
    for future in long:
        future.cancel()
    began = time.monotonic()
    quick = cluster.client.submit(search_some, "connect4:7x6", game, 1 << 22,
                                  [game.score_search().read_moves("4444443")], 0, pure=False)  # about a second
    wait([quick], timeout=60)
    assert quick.done() and time.monotonic() - began < 20


def test_the_workers_share_one_table(cluster):
    # Asked again, the position's questions are answered from the table whichever worker takes them: with a table
    # each, a question lands on the worker that did not prove it about half the time, and is proved again.
    game = Domineering(6, 6)
    rules = game.score_search()
    split = SplitSearch(rules, "domineering:6x6", cluster, plies=2, memory=16 << 20)
    first = split.value(game.start())
    searched = split.explored
    assert split.value(game.start()) == first == ScoreSearch(rules, progress=False, book=False).value(game.start())
    assert split.questions > 1 and split.explored * 10 < searched, (split.explored, searched)


def test_a_deep_split_answers_as_one_process(cluster):
    """Hundreds of questions at once, each waiting in a thread of the driver's: they sleep until answered or
    stopped (a split 4 plies deep of Domineering 8x8 once lost the cluster to threads polling their stops)."""
    rules = Connect4(5, 4).score_search()
    split = SplitSearch(rules, "connect4:5x4", cluster, plies=5)
    scores_agree(split, ScoreSearch(rules, progress=False, book=False), random.Random(9), 3, range(3, 6))
    assert split.questions > 50


def test_a_stop_wakes_the_questions_waiting_under_it():
    from gamedp.solvers import split_search

    class NeverAnswered:
        cancelled = False

        def add_done_callback(self, callback):
            self.callback = callback

        def cancel(self):
            self.cancelled = True

    future = NeverAnswered()
    executor = type("Executor", (), {"client": type("Client", (), {"submit": lambda *a, **k: future})()})()
    rules = Connect4(5, 4).score_search()
    search = SplitSearch(rules, "connect4:5x4", executor)
    stop = split_search._Stop()
    raised = []

    def ask():
        try:
            search._ask([rules.game.start()], 0, (stop,), 1)
        except split_search._Cancelled:
            raised.append("cancelled")

    waiting = threading.Thread(target=ask)
    waiting.start()
    time.sleep(0.3)
    assert waiting.is_alive()  # no answer, no stop: it waits
    stop.set()
    waiting.join(timeout=5)
    assert raised == ["cancelled"] and future.cancelled
    assert not stop._waking  # the question no longer listens


def test_a_task_of_several_moves_stops_at_the_first_that_decides():
    from gamedp.solvers.split_search import search_some

    game = Connect4(7, 6)
    rules = game.score_search()
    won = rules.read_moves("121212")  # the mover wins at once in column 2: score 18, at most 18
    long = rules.read_moves("")  # the empty board: minutes
    assert search_some("connect4:7x6", game, 1 << 22, [long, won, long], 100) == (0, 0)  # no score is above 100
    found, explored = search_some("connect4:7x6", game, 1 << 22, [won, long], 18)
    assert found == 0 and explored < 1000
    plain = ScoreSearch(Connect4(5, 4).score_search(), progress=False, book=False)
    rng = random.Random(12)
    for _ in range(20):
        positions = [random_position(plain.rules, rng, rng.randrange(4, 10)) for _ in range(rng.randrange(1, 4))]
        a = rng.randrange(-3, 4)
        found, explored = search_some("connect4:5x4", plain.rules.game, 1 << 22, positions, a)
        below = [plain.score(p) <= a for p in positions]
        assert found == (below.index(True) if any(below) else -1) and explored >= 0


def answering_at_once(found, tasks: list):
    """An executor whose client answers each task at once: ``found(positions)`` (the index of the first scoring at
    most the bound, -1 for none), each task's positions added to ``tasks``."""
    class Answered:
        def __init__(self, positions):
            self.positions = positions

        def add_done_callback(self, callback):
            callback(self)

        def result(self):
            return found(self.positions), len(self.positions)

    def submit(function, name, game, memory, positions, a, table, priority, pure):
        tasks.append(positions)
        return Answered(positions)

    return type("Executor", (), {"client": type("Client", (), {"submit": staticmethod(submit)})()})()


@pytest.mark.parametrize("busy, first_alone", [(0, False), (2, True)])
def test_a_node_s_last_ply_is_asked_in_a_few_tasks_all_at_once_while_a_worker_waits(busy, first_alone):
    from gamedp.solvers import split_search

    tasks = []
    executor = answering_at_once(lambda positions: -1, tasks)  # none scores at most a: every task is needed
    rules = Domineering(8, 8).score_search()
    search = SplitSearch(rules, "domineering:8x8", executor)
    search._slots, search._busy = 2, busy
    kids = search._view(rules.game.start())[2]
    assert len(kids) > 20
    assert not search._some_asked(kids, 0, (split_search._Stop(),), 1)
    asked = [len(task) for task in tasks]
    assert sum(asked) == len(kids) and len(asked) <= 1 + split_search.TASKS_PER_WORKER * 2
    assert (asked[0] == 1) == first_alone, asked
    assert search._busy == busy  # every task counted while asked, and no more
    assert all(search._known[(tuple(rules.arguments(kid)), 0)] for kid in kids)  # each move known above 0


def test_a_task_s_answer_is_known_for_each_of_its_moves():
    # a task answers with the index of the first of its moves scoring at most the bound: those before it score
    # above it, that one not, those after are not known
    from gamedp.solvers import split_search

    tasks = []
    executor = answering_at_once(lambda positions: 1 if len(positions) > 1 else -1, tasks)
    rules = Domineering(8, 8).score_search()
    search = SplitSearch(rules, "domineering:8x8", executor)
    search._slots = 2
    kids = search._view(rules.game.start())[2]
    assert search._some_asked(kids, 0, (split_search._Stop(),), 1)
    known = {words: above for (words, a), above in search._known.items() if a == 0}
    assert any(len(task) > 1 for task in tasks) and search._busy == 0
    for task in tasks:
        words = [tuple(rules.arguments(kid)) for kid in task]
        if len(task) > 1:
            assert known[words[0]] is True and known[words[1]] is False
            assert not any(w in known for w in words[2:])
        else:
            assert known[words[0]] is True


def not_dask_s() -> list[str]:
    """The threads of this process but those Dask starts for itself at its first use of a kind (callbacks, offload),
    and keeps."""
    return [t.name for t in threading.enumerate() if not t.name.startswith("Dask-")]


def test_ctrl_c_in_the_driver_stops_every_question_under_it(cluster):
    import _thread

    rules = Connect4(7, 6).score_search()
    split = SplitSearch(rules, "connect4", cluster, book=False)
    threads = len(not_dask_s())
    threading.Timer(1.5, _thread.interrupt_main).start()  # Ctrl-C comes to the main thread, where score() runs
    with pytest.raises(KeyboardInterrupt):
        split.value(rules.read_moves("4453"))  # about 10 CPU s
    assert split._busy == 0
    deadline = time.monotonic() + 10
    while len(not_dask_s()) > threads and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(not_dask_s()) <= threads, not_dask_s()
    plain = ScoreSearch(rules, progress=False, book=False)
    assert split.value(rules.read_moves("4444443")) == plain.value(rules.read_moves("4444443"))


# -- stop and resume ---------------------------------------------------------------------------------------------
def kept_explored(path: Path) -> int:
    """The positions explored that the checkpoint at ``path`` holds (0 while it is being replaced)."""
    from gamedp.database import Container

    try:
        with Container(path) as container:
            return int(container.meta["explored"])
    except Exception:
        return 0


def wait_until_kept(tmp_path: Path, process: subprocess.Popen, least: float) -> None:
    """Wait (two minutes at most) until a checkpoint in ``tmp_path`` holds at least ``least`` positions explored,
    ``process`` still running."""
    deadline = time.monotonic() + 120
    while not any(kept_explored(path) >= least for path in tmp_path.glob("*.resume")):
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.01)


def test_a_split_search_killed_goes_on_from_its_driver_s_answers(tmp_path):
    line = "44535\n"  # 2-5 s of one core
    options = ("value", "connect4", "--json", "--no-book", "--workers", "2")
    fresh = gamedp(*options, stdin=line, db_dir=tmp_path / "fresh", env={"GAMEDP_CHECKPOINT_SECONDS": "0"})
    assert fresh.returncode == 0, fresh.stderr
    whole = json.loads(fresh.stdout)
    # the driver and its workers killed together, as a crash of the machine would, once the checkpoint holds a
    # good share of the search
    process = start(tmp_path, *options, stdin=line, seconds="0.1", start_new_session=True)
    # the kept count grows by whole tasks: 76-88% of the positions at the end
    wait_until_kept(tmp_path, process, random.uniform(0.3, 0.6) * whole["explored"])
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate()
    again = gamedp(*options, stdin=line, db_dir=tmp_path, env={"GAMEDP_CHECKPOINT_SECONDS": "0.1"})
    assert again.returncode == 0 and "gamedp: resuming from " in again.stderr, again.stderr
    resumed = json.loads(again.stdout)
    assert (resumed["value"], resumed["remoteness"]) == (whole["value"], whole["remoteness"])
    assert resumed["explored"] < whole["explored"]
    assert not list(tmp_path.glob("*.resume")), "the checkpoint outlives the answer"


def test_ctrl_c_keeps_a_split_search_and_the_same_command_goes_on(tmp_path):
    line = "44535\n"
    options = ("value", "connect4", "--no-book", "--workers", "2")
    process = start(tmp_path, *options, stdin=line, seconds="0.1", start_new_session=True)
    wait_until_kept(tmp_path, process, 1)  # questions answered
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: to the driver and its workers
    out, err = process.communicate(timeout=60)
    kept = list(tmp_path.glob("*.resume"))
    lines = [line for line in err.splitlines() if line]
    assert process.returncode == 130 and out == "" and len(kept) == 1, (process.returncode, err)
    assert lines[-2].startswith(f"gamedp: stopped; what the search proved is kept in {kept[0]} (bounds "), err
    assert lines[-1] == "gamedp: interrupted" and "Traceback" not in err, err
    again = gamedp(*options, stdin=line, db_dir=tmp_path)
    alone = gamedp("value", "connect4", "--no-book", stdin=line, db_dir=tmp_path / "alone")
    assert again.returncode == 0 and again.stdout == alone.stdout, again.stderr
    assert again.stderr.startswith(f"gamedp: resuming from {kept[0]} ("), again.stderr
    assert not kept[0].exists()


def test_a_damaged_split_checkpoint_is_refused_in_one_line_and_fresh_replaces_it(tmp_path):
    from gamedp.solvers.search_checkpoint import Keeping

    game = Domineering(6, 6)
    rules = game.score_search()
    checkpoint = Keeping("", directory=tmp_path).checkpoint(rules, rules.arguments(game.start()), "outcome split",
                                                            table=False)
    checkpoint.path.write_bytes(b"GAMEDPDB" + bytes(100))
    line = "." * 36 + "\n"
    one_clear_error(gamedp("value", "domineering:6x6", "--workers", "2", stdin=line, db_dir=tmp_path),
                    str(checkpoint.path), "start afresh with: gamedp value domineering:6x6 --workers 2 --fresh")
    answered = gamedp("value", "domineering:6x6", "--workers", "2", "--fresh", stdin=line, db_dir=tmp_path)
    alone = gamedp("value", "domineering:6x6", stdin=line, db_dir=tmp_path / "alone")
    assert answered.returncode == 0 and answered.stdout == alone.stdout, answered.stderr
    assert not checkpoint.path.exists()


def test_a_long_split_says_how_far_it_is(cluster, capsys, monkeypatch):
    import re

    from gamedp import progress

    monkeypatch.setattr(progress, "_piped_every", 0.2)  # plain lines when piped, as a front end may ask for
    rules = Connect4(7, 6).score_search()
    split = SplitSearch(rules, "connect4", cluster, book=False)
    began = time.monotonic()
    assert split.value(rules.read_moves("4453")) == ScoreSearch(rules, progress=False, book=False).value(
        rules.read_moves("4453"))  # about 10 CPU s
    said = capsys.readouterr().err.splitlines()
    line = r"gamedp: searching connect4: score between -?\d+ and -?\d+: [\d,]+ positions, [\d.]+ s"
    assert said and all(re.fullmatch(line, s) for s in said), (said, time.monotonic() - began)


@pytest.mark.parametrize("game, position", [("connect4:5x4", "32"), ("domineering:6x6", "." * 36)])
def test_analyze_split_over_the_workers_values_every_move_as_one_process(game, position):
    split = gamedp("analyze", game, position, "--workers", "2", "--json")
    alone = gamedp("analyze", game, position, "--json")
    assert split.returncode == alone.returncode == 0, (split.stderr, alone.stderr)
    assert json.loads(split.stdout) == json.loads(alone.stdout)
    assert len(json.loads(split.stdout)["moves"]) > 1


@pytest.mark.parametrize("args, said", [
    (("tictactoe", ".........", "--workers", "2"), ("--workers splits the search", "tictactoe")),
    (("connect4", "44", "--workers", "2", "--depth", "4"), ("--depth and --workers cannot be used together",)),
    (("connect4", "44", "--workers", "2", "--threads", "2"), ("--threads and --workers",)),
])
def test_analyze_says_what_cannot_be_split(args, said):
    one_clear_error(gamedp("analyze", *args), *said)
