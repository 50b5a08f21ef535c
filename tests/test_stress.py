"""gamedp stress: runs under limits, verdicts, inputs within the problems' limits, shrinking, and the bundled
wrong solutions found and shrunk."""

from __future__ import annotations

import json
import random
import os
import shlex
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamedp.cli.main import main
from gamedp.errors import GamedpError
from gamedp.judge import answer
from gamedp.stress.problems import MAX_SIZE, PROBLEMS, grid_reachable
from gamedp.stress.run import run_program
from gamedp.stress.verdict import Kind, judge_run

FIXTURES = Path(__file__).parent / "fixtures" / "stress"
REFERENCE = Path(__file__).parent.parent / "bench" / "reference"
PY = sys.executable


def stress(capsys, *args: str) -> tuple[int, dict]:
    """Run ``gamedp stress --json ARGS``; its exit status and JSON report."""
    with pytest.raises(SystemExit) as ended:
        main(["stress", "--json", *args])
        raise SystemExit(0)
    out = capsys.readouterr().out
    return ended.value.code, json.loads(out) if out.strip() else {}


# -- running a program ------------------------------------------------------------------------------------------
def test_run_reports_exit_code_signal_and_stderr():
    run = run_program([PY, "-c", "import sys; print('x', file=sys.stderr); sys.exit(3)"], b"", 5, 256)
    assert (run.exit_code, run.signal, run.stderr_head()) == (3, None, "x")
    run = run_program(["sh", "-c", "kill -SEGV $$"], b"", 5, 256)
    assert run.signal == 11 and "SIGSEGV" in run.ending()


def test_run_stops_a_cpu_hog_at_the_limit():
    run = run_program([PY, "-c", "while True: pass"], b"", 0.3, 256)
    assert run.killed and run.timed_out and run.cpu_seconds >= 0.3
    assert judge_run(run, "").kind is Kind.TIME


def test_run_stops_a_sleeper_by_wall_clock():
    run = run_program(["sleep", "30"], b"", 0.1, 256)
    assert run.killed and run.wall_seconds < 10


def test_memory_limit_is_enforced_and_reported():
    run = run_program([PY, "-c", "x = bytearray(200 << 20)"], b"", 5, 64)
    verdict = judge_run(run, "")
    assert verdict.kind is Kind.MEMORY and "MemoryError" in verdict.summary()
    touch = "import time; x = bytearray(40 << 20); x[::4096] = b'1' * len(x[::4096]); time.sleep(0.3)"
    run = run_program([PY, "-c", touch], b"", 5, 256)
    assert run.peak_rss_mb >= 40 and judge_run(run, "").kind is Kind.ACCEPTED


def test_big_input_and_output_pass_through_the_pipes():
    data = b"7\n" * 300_000
    run = run_program([PY, "-c", "import sys; sys.stdout.write(sys.stdin.read())"], data, 5, 256)
    assert run.stdout == data


def test_output_that_is_not_text():
    run = run_program([PY, "-c", "import sys; sys.stdout.buffer.write(b'\\x00\\xff')"], b"", 5, 256)
    assert judge_run(run, "1\n").kind is Kind.NOT_TEXT


def test_missing_program_is_a_usage_error():
    with pytest.raises(GamedpError, match="no such program"):
        run_program(["/nonexistent/solution"], b"", 1, 64)


# -- inputs ------------------------------------------------------------------------------------------------------
def reachable_by_search(rows: list[str], k: int) -> set[tuple[int, int]]:
    """Every open cell from which (N, M) can be reached, by plain search backwards from the goal."""
    n, m = len(rows), len(rows[0])
    seen = {(n - 1, m - 1)} if rows[-1][-1] == "." else set()
    frontier = list(seen)
    while frontier:
        r, c = frontier.pop()
        sources = [(r - 1, c), (r, c - 1)] + [(r - d, c - d) for d in range(1, k + 1)]
        for a, b in sources:
            if a >= 0 and b >= 0 and rows[a][b] == "." and (a, b) not in seen:
                seen.add((a, b))
                frontier.append((a, b))
    return seen


def test_grid_reachability_agrees_with_plain_search():
    rng = random.Random(5)
    for _ in range(300):
        n, m = rng.randint(1, 7), rng.randint(1, 7)
        k = rng.randint(0, max(0, min(n, m) - 1))
        rows = ["".join(rng.choice(".#.") for _ in range(m)) for _ in range(n)]
        rows[-1] = rows[-1][:-1] + "."
        fast = grid_reachable(rows, k)
        assert {(r, c) for r in range(n) for c in range(m) if fast[r][c]} == reachable_by_search(rows, k)


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_generated_inputs_are_valid_and_span_the_limits(name):
    problem = PROBLEMS[name]
    rng = random.Random(11)
    for size in (1, 2, 5, 30, MAX_SIZE):
        value = problem.generate(random.Random(rng.getrandbits(32)), size)
        text = problem.render(value)
        expected = answer(name, text)  # the judge parses it strictly: a malformed input raises
        if problem.answer is not None:
            assert problem.answer(value) == expected
        if name == "gridgame":
            head, *rows = text.split("\n")
            n, m, k = map(int, head.split())
            assert 2 <= n <= 300 and 2 <= m <= 300 and 0 <= k <= min(n, m) - 1
            rows = rows[:n]
            assert len(reachable_by_search(rows, k)) == sum(row.count(".") for row in rows)
            assert len(value.queries) <= 300
        elif name == "cardgame":
            assert len(value) >= 1 and all(1 <= len(c) <= 1000 and all(1 <= v <= 10000 for v in c) for c in value)
        else:
            assert 1 <= len(value) <= 50


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_every_simplification_stays_a_valid_input(name):
    problem = PROBLEMS[name]
    value = problem.generate(random.Random(3), 8)
    for step in problem.passes:
        for count, candidate in enumerate(step(value)):
            answer(name, problem.render(candidate))
            if name == "gridgame":
                assert len(reachable_by_search(list(candidate.rows), candidate.k)) == \
                    sum(row.count(".") for row in candidate.rows)
            if count > 40:
                break


# -- the bundled wrong solutions -------------------------------------------------------------------------------
@pytest.mark.slow
def test_leaky_card_memo_shrinks_to_two_one_card_cases(capsys, tmp_path):
    saved = tmp_path / "fail.in"
    code, report = stress(capsys, "cardgame", "--seed", "1", "--save", str(saved), "--",
                          PY, str(FIXTURES / "cardgame_leaky_memo.py"))
    failure = report["failure"]
    assert code == 1 and failure["kind"] == "wrong answer"
    assert failure["size"] == "2 cases, N <= 1, values <= 2"
    assert saved.read_text() == failure["input"]
    assert failure["first_difference"][0] == 2 and "case 2" in failure["explanation"]


def test_grid_k_off_by_one_shrinks_to_the_two_by_two_board(capsys, tmp_path):
    code, report = stress(capsys, "gridgame", "--seed", "1", "--save", str(tmp_path / "f"), "--",
                          PY, str(FIXTURES / "gridgame_k_off_by_one.py"))
    failure = report["failure"]
    assert code == 1 and failure["input"] == "2 2 1\n..\n..\n1\n1 1\n"
    assert failure["expected"] == "First\n" and failure["received"].strip() == "Second"
    assert "Moving 1,1-2,2 is best" in failure["explanation"]


def test_list_memo_over_the_memory_limit(capsys, tmp_path):
    code, report = stress(capsys, "blockgame", "--seed", "1", "--save", str(tmp_path / "f"), "--",
                          PY, str(FIXTURES / "blockgame_list_memo.py"))
    failure = report["failure"]
    assert code == 1 and failure["kind"] == "memory limit exceeded"
    assert failure["size"].startswith("1 board") and "MemoryError" in failure["run"]["stderr"]


def test_correct_solution_passes(capsys, tmp_path):
    code, report = stress(capsys, "gridgame", "--trials", "12", "--seed", "2", "--save", str(tmp_path / "f"), "--",
                          PY, str(REFERENCE / "gridgame_plain.py"))
    assert code == 0 and report["passed"] and report["trials"] == 12


# -- bad input ------------------------------------------------------------------------------------------------------
def test_usage_errors_exit_2(capsys):
    for args in (["nosuch", "--", "x"], ["cardgame"], ["cardgame", "--", "/nonexistent/prog"],
                 ["--generator", "g.py", "--", "x"], ["cardgame", "--reference", "x", "--", "y"]):
        with pytest.raises(SystemExit) as ended:
            main(["stress", *args])
        assert ended.value.code == 2
        assert capsys.readouterr().err.startswith("gamedp: error: ")


def test_crash_is_reported_with_exit_code_and_stderr(capsys, tmp_path):
    code, report = stress(capsys, "cardgame", "--seed", "1", "--save", str(tmp_path / "f"), "--",
                          PY, "-c", "import sys; sys.stdin.read(); sys.exit('boom')")
    run = report["failure"]["run"]
    assert code == 1 and report["failure"]["kind"] == "runtime error"
    assert run["exit_code"] == 1 and run["stderr"] == "boom"


GENERATOR = """
def generate(rng, size):
    n = rng.randint(1, size)
    return f"{n}\\n" + " ".join(str(rng.randint(-size, size)) for _ in range(n)) + "\\n"
"""


@pytest.mark.slow
def test_generator_mode_shrinks_through_the_size(capsys, tmp_path):
    gen = tmp_path / "gen.py"
    gen.write_text(GENERATOR)
    gen.chmod(0o644)
    ref = tmp_path / "ref.py"
    ref.write_text("input(); print(max(map(int, input().split())))\n")
    bad = tmp_path / "bad.py"
    bad.write_text("n = int(input()); xs = sorted(map(int, input().split())); print(xs[-1] if n < 3 else xs[-2])\n")
    code, report = stress(capsys, "--generator", str(gen), "--reference", f"{PY} {ref}", "--seed", "4",
                          "--save", str(tmp_path / "f"), "--", PY, str(bad))
    assert code == 1 and report["failure"]["kind"] == "wrong answer"
    assert report["failure"]["input"].startswith("3\n")  # the smallest size at which it can fail


def test_generator_that_raises(capsys, tmp_path):
    gen = tmp_path / "gen.py"
    gen.write_text("def generate(rng, size):\n    raise ValueError('oops')\n")
    gen.chmod(0o644)
    with pytest.raises(SystemExit) as ended:
        main(["stress", "--generator", str(gen), "--reference", "cat", "--", "cat"])
    assert ended.value.code == 2
    assert "raised ValueError: oops" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["generate", "loading"])
def test_a_generator_that_exits_is_an_error_not_a_pass(capsys, tmp_path, where):
    gen = tmp_path / "gen.py"
    exits = "import sys\n" + ("def generate(rng, size):\n    sys.exit(0)\n" if where == "generate" else
                              "sys.exit(0)\ndef generate(rng, size):\n    return '1\\n'\n")
    gen.write_text(exits)
    with pytest.raises(SystemExit) as ended:
        main(["stress", "--generator", str(gen), "--reference", "cat", "--", "cat"])
    captured = capsys.readouterr()
    assert ended.value.code == 2 and captured.out == "" and captured.err.count("\n") == 1, captured
    assert captured.err.startswith("gamedp: error: ") and "called sys.exit(0)" in captured.err


def test_generator_others_can_write_is_refused(capsys, tmp_path):
    gen = tmp_path / "gen.py"
    gen.write_text(GENERATOR)
    gen.chmod(0o666)
    with pytest.raises(SystemExit) as ended:
        main(["stress", "--generator", str(gen), "--reference", "cat", "--", "cat"])
    assert ended.value.code == 2 and "other users can change it" in capsys.readouterr().err


# -- the slower claims: too slow, and a C++ wrong solution --------------------------------------------------------
@pytest.mark.slow
def test_exponential_card_solution_times_out_and_shrinks(capsys, tmp_path):
    code, report = stress(capsys, "cardgame", "--seed", "1", "--time", "0.3", "--shrink-time", "6",
                          "--save", str(tmp_path / "f"), "--", PY, str(FIXTURES / "cardgame_no_memo.py"))
    failure = report["failure"]
    assert code == 1 and failure["kind"] == "time limit exceeded"
    assert failure["size"].startswith("1 case, N <= ")
    assert failure["run"]["cpu_seconds"] > 0.3


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_blockgame_missing_l_orientation_shrinks(capsys, tmp_path):
    exe = tmp_path / "missing_l"
    subprocess.run(["g++", "-O2", "-o", str(exe), str(FIXTURES / "blockgame_missing_l.cpp")], check=True)
    code, report = stress(capsys, "blockgame", "--seed", "1", "--shrink-time", "6", "--save", str(tmp_path / "f"),
                          "--", str(exe))
    failure = report["failure"]
    assert code == 1 and failure["kind"] == "wrong answer" and failure["size"].startswith("1 board")
    assert "L-tromino" in failure["explanation"]


def test_a_board_too_large_to_explain_says_so():
    from gamedp.stress.problems import GridInput, grid_explain

    big = GridInput(tuple("." * 300 for _ in range(300)), 299, ((0, 0),))
    assert "too large to explain" in grid_explain(big, 1)
    assert grid_explain(GridInput(("..", ".."), 1, ((0, 0),)), 1).startswith("query 1 (1, 1), K = 1:\nThe player")


def test_a_big_gamedp_process_does_not_make_a_small_program_look_big():
    # ru_maxrss counts what the child shared with its parent between fork and exec; the report must not.
    ballast = bytearray(300 << 20)
    ballast[::4096] = b"1" * len(ballast[::4096])
    run = run_program([PY, "-c", "print(1)"], b"", 5, 64)
    assert run.peak_rss_mb < 64 and judge_run(run, "1\n").kind is Kind.ACCEPTED
    del ballast


def test_a_program_under_test_does_not_inherit_gamedps_numba_locators(monkeypatch):
    """gamedp tells numba (in its own process) to find its cache through gamedp's locators; a program under test
    may use another Python, without gamedp, whose numba would fail to import them."""
    from gamedp.kernel_cache import NUMBA_LOCATORS

    monkeypatch.setenv("NUMBA_CACHE_LOCATOR_CLASSES", NUMBA_LOCATORS)
    show = "import os; print(os.environ.get('NUMBA_CACHE_LOCATOR_CLASSES'))"
    assert run_program([PY, "-c", show], b"", 5, 256).stdout == b"None\n"
    monkeypatch.setenv("NUMBA_CACHE_LOCATOR_CLASSES", "mine.Locator")  # the user's own: theirs to pass on
    assert run_program([PY, "-c", show], b"", 5, 256).stdout == b"mine.Locator\n"


# -- where the failing input is saved: a new numbered file, or a named one gamedp saved; never anything else ---------
CRASH = [PY, "-c", "import sys; sys.stdin.read(); sys.exit('boom')"]


def stress_saving(capsys, *extra: str, program: list[str] = CRASH, problem: tuple[str, ...] = ("cardgame",)
                  ) -> tuple[int, dict, str]:
    with pytest.raises(SystemExit) as ended:
        main(["stress", "--json", *problem, "--seed", "1", "--shrink-time", "0", *extra, "--", *program])
        raise SystemExit(0)
    captured = capsys.readouterr()
    return ended.value.code, json.loads(captured.out) if captured.out.strip() else {}, captured.err


@pytest.mark.parametrize("make, kind", [
    (lambda p: os.mkfifo(p), "a FIFO (named pipe)"),
    (lambda p: p.mkdir(), "a directory"),
    (lambda p: ((p.parent / "target").write_text("keep\n"), p.symlink_to(p.parent / "target")), "a symbolic link"),
    (lambda p: p.symlink_to("/dev/null"), "a symbolic link"),
], ids=["fifo", "directory", "link to a file", "link to a device"])
def test_save_refuses_anything_but_a_regular_file(capsys, tmp_path, make, kind):
    path = tmp_path / "fail.in"
    make(path)
    before = path.lstat()
    code, report, err = stress_saving(capsys, "--save", str(path))
    assert code == 2 and report == {} and err.count("\n") == 1
    assert err.startswith(f"gamedp: error: --save {path} is {kind}, not a regular file")
    after = path.lstat()
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    if (tmp_path / "target").exists():
        assert (tmp_path / "target").read_text() == "keep\n"


def test_save_never_replaces_a_file_gamedp_did_not_write(capsys, tmp_path):
    path = tmp_path / "fail.in"
    path.write_text("my notes\n")
    code, report, err = stress_saving(capsys, "--save", str(path))
    assert code == 2 and path.read_text() == "my notes\n" and err.count("\n") == 1
    assert err.startswith(f"gamedp: error: --save {path}: a file is there that gamedp did not save")


def test_a_rerun_replaces_the_file_it_saved_until_someone_changes_it(capsys, tmp_path):
    """The fix-and-retest loop: the same --save again and again, failing or passing; a file edited in between,
    or put in its place, is the person's and is kept."""
    path = tmp_path / "fail.in"
    code, report, err = stress_saving(capsys, "--save", str(path))
    assert code == 1 and path.read_text() == report["failure"]["input"] and report["failure"]["saved"] == str(path)
    assert stat.S_ISREG(path.lstat().st_mode)
    code, report, err = stress_saving(capsys, "--save", str(path), "--seed", "2")
    assert code == 1 and path.read_text() == report["failure"]["input"], err
    kept = path.read_text()
    code, report, err = stress_saving(capsys, "--save", str(path), "--trials", "3",
                                      program=[PY, str(REFERENCE / "cardgame_plain.py")])
    assert code == 0 and report["passed"] and path.read_text() == kept  # a pass leaves the last failure there
    for change in (lambda saved: path.write_text(saved + "1\n1\n"),                      # edited where it is
                   lambda saved: (path.unlink(), time.sleep(0.05), path.write_text(saved)),  # put back: another file
                   lambda saved: os.truncate(path, 0)):
        path.unlink(missing_ok=True)
        code, report, err = stress_saving(capsys, "--save", str(path))
        change(path.read_text())
        mine = path.read_text()
        code, report, err = stress_saving(capsys, "--save", str(path))
        assert code == 2 and path.read_text() == mine, err
        assert err.startswith(f"gamedp: error: --save {path}: a file is there that gamedp did not save")


def test_a_forged_or_foreign_record_is_not_trusted(capsys, tmp_path):
    path = tmp_path / "fail.in"
    stress_saving(capsys, "--save", str(path))
    record = tmp_path / ".gamedp-stress.json"
    target = tmp_path / "elsewhere.json"
    record.rename(target)
    record.symlink_to(target)  # a link to a record that would say yes
    code, report, err = stress_saving(capsys, "--save", str(path))
    assert code == 2 and "gamedp did not save" in err and record.is_symlink()


def test_by_default_each_failure_gets_a_new_numbered_file(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gamedp-stress-cardgame-2.in").write_text("mine\n")   # the person's, in gamedp's names
    (tmp_path / "gamedp-stress-cardgame-4.in").symlink_to("/dev/null")
    (tmp_path / "gamedp-stress-cardgame-x.in").write_text("mine too\n")
    saved = []
    for seed in ("1", "2"):
        code, report, err = stress_saving(capsys, "--seed", seed)
        assert code == 1, err
        saved.append(report["failure"]["saved"])
        assert Path(saved[-1]).read_text() == report["failure"]["input"]
    assert saved == ["gamedp-stress-cardgame-5.in", "gamedp-stress-cardgame-6.in"]
    assert (tmp_path / "gamedp-stress-cardgame-2.in").read_text() == "mine\n"
    assert os.readlink(tmp_path / "gamedp-stress-cardgame-4.in") == "/dev/null"
    with pytest.raises(SystemExit):
        main(["stress", "cardgame", "--seed", "1", "--shrink-time", "0", "--", *CRASH])
    last = capsys.readouterr().out.rstrip("\n").split("\n")[-1]
    assert last == f"input saved to gamedp-stress-cardgame-7.in; run it again: {shlex.join(CRASH)} < " \
                   "gamedp-stress-cardgame-7.in"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temporary file left


def test_a_generator_names_its_numbered_files(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    gen = tmp_path / "my gen.py"
    gen.write_text("def generate(rng, size):\n    return f'{size}\\n'\n")
    code, report, err = stress_saving(capsys, "--generator", str(gen), "--reference", f"{PY} -c 'print(1)'",
                                      problem=())
    assert code == 1 and report["failure"]["saved"] == "gamedp-stress-my_gen-1.in", err


def test_a_file_that_appears_while_stress_runs_is_not_replaced(capsys, tmp_path):
    """The program under test itself writes where the input is to be saved: that file is kept."""
    path = tmp_path / "fail.in"
    writes = f"import sys; sys.stdin.read(); open({str(path)!r}, 'w').write('theirs'); sys.exit('boom')"
    with pytest.raises(SystemExit) as ended:
        main(["stress", "cardgame", "--seed", "1", "--shrink-time", "0", "--save", str(path), "--", PY, "-c", writes])
    err = capsys.readouterr().err
    assert ended.value.code == 2 and path.read_text() == "theirs"
    assert err.startswith(f"gamedp: error: --save {path}: a file is there") and err.count("\n") == 1


# -- programs that fight back -------------------------------------------------------------------------------------
def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("ends", ["exits", "is killed"])
def test_a_child_in_a_session_of_its_own_does_not_outlive_the_run(ends):
    """A program whose child calls setsid (out of the program's session and process group) leaves nothing
    running, whether the program ends by itself or is stopped at the time limit."""
    tail = "" if ends == "exits" else "; time.sleep(60)"
    code = ("import os, sys, time\npid = os.fork()\nif pid == 0:\n    os.setsid(); time.sleep(60); os._exit(0)\n"
            f"print(pid, flush=True){tail}")
    run = run_program([PY, "-c", code], b"", 0.5, 256)
    grandchild = int(run.stdout.split()[0])
    deadline = time.monotonic() + 5
    while alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(grandchild)


def report_on(capsys, tmp_path, code: str) -> tuple[int, str]:
    """gamedp stress's exit status and text report on the program ``python -c code``."""
    with pytest.raises(SystemExit) as ended:
        main(["stress", "cardgame", "--seed", "1", "--shrink-time", "0", "--save", str(tmp_path / "f"), "--",
              PY, "-c", code])
    return ended.value.code, capsys.readouterr().out


def test_output_past_the_limit_is_reported_as_such_and_shown_in_a_few_lines(capsys, tmp_path, monkeypatch):
    from gamedp.stress import run as stress_run

    monkeypatch.setattr(stress_run, "OUTPUT_CAP", 1 << 20)
    code, out = report_on(capsys, tmp_path, "import sys; sys.stdin.read(); w = sys.stdout.write\n"
                                            "while True: w('x' * 65536)")
    assert code == 1 and "FAILED on trial 1: output limit exceeded" in out
    assert "signal 9" not in out and len(out) < 8000, len(out)


def test_stderr_shows_printable_text_only(capsys, tmp_path):
    code, out = report_on(capsys, tmp_path, "import sys; sys.stdin.read(); "
                                            "sys.stderr.write('\\0' * 300000 + 'boom\\x1b[2J\\n'); sys.exit(1)")
    assert code == 1 and "boom" in out
    assert all(ch.isprintable() or ch in "\n\t" for ch in out) and len(out) < 8000, len(out)
