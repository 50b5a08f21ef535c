"""``gamedp cgt``: values of positions and sums, expressions, JSON, and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from command import gamedp


def run(*args: str, **kw) -> subprocess.CompletedProcess:
    return gamedp("cgt", *args, **kw)


def test_domineering_2x3_as_published():
    doc = json.loads(run("domineering", "2x3", "--json").stdout)
    assert doc["canonical"] == "{2|-1/2}" and doc["braces"] == "{2|-1/2}"
    assert (doc["outcome"], doc["mean"], doc["temperature"]) == ("N", "3/4", "5/4")


def test_a_sum_of_positions_is_the_sum_of_their_values():
    from gamedp.cgt.values import parse

    doc = json.loads(run("domineering", "2x3", "2x2", "#./..", "--json").stdout)
    assert doc["parts"] == ["{2|-1/2}", "±1", "*"]  # the L-shaped corner: one domino each, the same cells
    assert parse(doc["canonical"]) == parse("{2|-1/2} + ±1 + *")


def test_text_output_and_other_games():
    out = run("toads-and-frogs", "T.TFF").stdout
    assert "value: ↑" in out and "braces: {0|{0|0}}" in out and "outcome: L" in out
    assert json.loads(run("hackenbush", "BRR", "--json").stdout)["canonical"] == "1/4"
    assert json.loads(run("nim", "3", "--json").stdout)["canonical"] == "*3"


def test_expressions():
    doc = json.loads(run("--expr", "{1|-1} + {1|-1}", "--json").stdout)
    assert doc["canonical"] == "0" and doc["outcome"] == "P"
    assert json.loads(run("-e", "^ + ^ + *", "--json").stdout)["canonical"] == "⇑*"


@pytest.mark.parametrize("args, message", [
    (("--expr", "{1|-1"), "expression, column 6: '}' expected"),
    (("--expr", "{1|-1} + q"), "expression, column 10: unexpected character 'q'"),
    (("domineering", "../."), "position, column 4: row 2 has 1 cells"),
    (("domineering", "2x2", "..x"), "position 2, column 3: unexpected 'x'"),
    (("toads", "TF", "TXF"), "position 2, column 2: unexpected 'X'"),
    (("tictactoe", "........."), "gives no Left and Right options"),
    ((), "give GAME and at least one POSITION"),
    (("domineering", "2x2", "--expr", "1"), "either --expr EXPR or GAME"),
])
def test_bad_input_is_one_line_and_status_2(args, message):
    done = run(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr and done.stderr.startswith("gamedp: error: ")


def test_no_numba_on_this_path():
    code = ("import sys; from gamedp.cli.main import main\n"
            "try: main(['cgt', 'domineering', '2x2'])\n"
            "except SystemExit: pass\n"
            "assert 'numba' not in sys.modules and 'numpy' not in sys.modules")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


def test_a_domineering_value_loads_no_command_line_or_compiler_library():
    """The executable's short path: the same answer and errors as the full command, without click or numba."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "gamedp", "cgt", "domineering", "2x3", "--json"],
                          capture_output=True, text=True)
    assert json.loads(done.stdout)["canonical"] == "{2|-1/2}"
    loaded = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert loaded and not loaded & {"click", "numba", "numpy", "rich"}
    done = run("domineering", "../.#.")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "gamedp: error: position, column 4: row 2 has 3 cells, the first row 2: every row of a " \
                          "board has the same length\n"


def test_analyze_shows_the_partizan_value():
    done = gamedp("analyze", "toads-and-frogs", "T.TFF")
    assert "partizan value: ↑ (Left: Toads)" in done.stdout
    done = gamedp("analyze", "hackenbush", "BRB", "--json")
    assert json.loads(done.stdout)["partizanValue"] == "3/4"
    assert json.loads(done.stdout)["partizanLeft"] == "Blue"
    done = gamedp("analyze", "nim", "3", "4")
    assert "partizan value" not in done.stdout  # an impartial game shows its nimber


def test_play_shows_the_partizan_value_with_a_hint():
    done = gamedp("play", "toads-and-frogs", "T.TFF", stdin="hint\nquit\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("partizan value: ↑ (Left: Toads)") == 1, done.stdout
    done = gamedp("play", "nim", "1 2", stdin="hint\nquit\n")
    assert done.returncode == 0 and "partizan value" not in done.stdout


def test_a_board_past_the_memory_bound_is_one_line():
    """--memory bounds the process; without it the bound is the memory left (here an address-space limit)."""
    import resource

    done = run("domineering", "5x5", "--memory", "24M")
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.startswith("gamedp: error: valuing the board's regions stopped after ")
    assert "more than --memory 24M allows" in done.stderr and done.stderr.count("\n") == 1

    from gamedp.memory import RESERVE

    code = ("import gamedp.cli.entry, gamedp.cli.cgt_answer, gamedp.cgt.domineering, gamedp.cgt.thermograph; "
            "from gamedp.memory import _statm; print(_statm()[0])")
    started = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    room = int(started.stdout) + RESERVE + (8 << 20)  # 5x5 grows by more than 8 MiB (its peak is near 45 MB)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (room, room))

    done = subprocess.run([sys.executable, "-m", "gamedp", "cgt", "domineering", "5x5"], capture_output=True,
                          text=True, preexec_fn=limit)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert f"memory are left (address space limited to {room:,} bytes by ulimit -v)" in done.stderr
    assert run("domineering", "2x3", "--memory", "64M").stdout.startswith("value: {2|-1/2}")


@pytest.mark.parametrize("option", ["--expr", "-e"])
def test_an_expression_may_start_with_a_minus(option):
    """The word after --expr is the expression, whatever it starts with (it was taken for an unknown option)."""
    assert json.loads(run(option, "-1/2", "--json").stdout)["canonical"] == "-1/2"
    assert json.loads(run("--json", option, "-{1|2}").stdout)["canonical"] == "-3/2"
    bogus = run(option, "-1/2", "--bogus")
    assert bogus.returncode == 2 and bogus.stderr.startswith("gamedp: error: no such option '--bogus'")


@pytest.mark.slow
def test_a_deep_nesting_is_read_and_written_in_time_near_its_length():
    """{0|{0|...}} 1000 deep: reading it looked for bars at every depth of every level, and writing its text
    copied the text once a level (both cubic: past a minute); reading its canonical form, written with runs of
    bars, looked for them again in each side (five minutes); now about a second each. Its value: the braces keep
    every level (the canonical form's text, one bar more a level, is n ups = {0|(n-1)↑*} written out)."""
    depth = 1000
    expr = "{0|" * depth + "0" + "}" * depth
    try:
        done = gamedp("cgt", "--expr", expr, "--json", timeout=40)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{depth} levels of braces took more than 40 s")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["braces"] == expr and doc["outcome"] == "L"
    assert doc["canonical"].startswith("{0" + "|" * (depth - 9) + "0" + "|" * (depth - 10))  # ↑n = {0|(n-1)↑*}
    # read back: half a million characters, runs of up to 991 bars (too long for a command line: through stdin)
    code = ("import json, sys; from gamedp.cli.cgt_answer import answer_expression; "
            "print(json.dumps(answer_expression(sys.stdin.read())))")
    try:
        again = subprocess.run([sys.executable, "-c", code], input=doc["canonical"], capture_output=True, text=True,
                               timeout=40)
    except subprocess.TimeoutExpired:
        pytest.fail(f"reading back the canonical form {depth} levels deep took more than 40 s")
    assert json.loads(again.stdout)["braces"] == expr, again.stderr[-500:]


@pytest.mark.parametrize("args, memory, stopped", [
    (("--expr", " + ".join(f"{{{k}|-{k}}}" for k in range(1, 200))), "96M", "valuing this stopped after "),
    (("toads", "T" * 9 + "." * 6 + "F" * 9), "40M", "valuing toads-and-frogs stopped after "),
])
@pytest.mark.slow
def test_memory_bounds_expressions_and_every_game(args, memory, stopped):
    """--memory bounds an expression (it was ignored: 6 GB in 90 s) and any game's search (it was refused but for
    Domineering)."""
    try:
        done = run(*args, "--memory", memory, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"not stopped by --memory {memory} within a minute")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("gamedp: error: " + stopped)
    assert f"more than --memory {memory} allows" in done.stderr


@pytest.mark.slow
def test_a_long_hackenbush_string_is_valued_in_little_memory():
    """Each position on the search's line held all its options, and the longest was searched first: a line as
    long as the string, n^3 / 6 characters (8 GB for 5,000 edges in 6 s). The shortest first, the line is two
    deep."""
    done = run("hackenbush", "BR" * 500, "--memory", "48M", "--json", timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["canonical"] == str(Fraction(4 ** 500 - 1, 3 * 2 ** 999))  # 2/3 (1 - 4^-500)


def test_an_interrupt_is_seen_at_once_while_values_are_worked_out():
    import signal
    import time

    from command import GAMEDP

    switches = " + ".join(f"{{{k}|-{k}}}" for k in range(1, 200))  # a minute and gigabytes, unbounded
    # SIGINT at its default in the child: a suite run as a background job ignores it, and so would gamedp
    with subprocess.Popen([*GAMEDP, "cgt", "--expr", switches, "--memory", "1G"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)) as p:
        time.sleep(1.5)
        assert p.poll() is None, p.stderr.read()
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        try:
            _, err = p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            raise
        assert p.returncode == 130 and time.monotonic() - sent < 2, err


def test_a_bound_given_to_one_answer_is_not_left_for_the_next():
    """--memory bounds the valuation it is given for, not whatever the process values after it (the web board, a
    notebook, the next test)."""
    from gamedp.cgt import budget
    from gamedp.cli.cgt_answer import answer_expression, answer_positions

    assert answer_expression("{1|-1}", memory=1 << 40)["canonical"] == "±1" and budget.bound is None
    assert answer_positions("domineering", ["2x2"], memory=1 << 40)["outcome"] and budget.bound is None
