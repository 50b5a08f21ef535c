"""Every error of the command line is one line, ``gamedp: error: ...``, with exit status 2 (README's promise)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import textwrap

import pytest
from command import GAMEDP, gamedp


def one_line_error(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamedp: error: "), r.stderr
    return lines[0]


@pytest.mark.parametrize("args, says", [
    (["nosuch"], "no such command 'nosuch' (see 'gamedp --help')"),
    (["analyze"], "missing argument 'GAME' (see 'gamedp analyze --help')"),
    (["analyze", "nim", "--bogus"], "no such option '--bogus' (see 'gamedp analyze --help')"),
    (["check", "--limit", "x", "nim"], "invalid value for '--limit'"),
    (["play", "tictactoe", "--first", "nobody"], "invalid value for '--first'"),
])
def test_usage_errors_are_one_line(args, says):
    assert says in one_line_error(gamedp(*args))


BAD_GAME = textwrap.dedent('''
    from gamedp import Game

    class Broken(Game):
        """Counts down from 3; the move from 1 divides by zero (in a helper, as real bugs do)."""
        name = "broken"
        def start(self):
            return 3
        def moves(self, position):
            return [1] if position > 0 else []
        def do_move(self, position, move):
            return helper(position)
        def parse_position(self, text):
            return int(text)

    def helper(p):
        return p - 1 + 0 // (p - 1)
''')


@pytest.fixture
def broken_game(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text(BAD_GAME)
    return str(path)


@pytest.mark.parametrize("command", [["analyze"], ["check"], ["analyze", "--line"]])
def test_a_failing_hook_is_named_with_its_position_in_one_line(broken_game, command):
    line = one_line_error(gamedp(*command, broken_game))
    assert "Broken.do_move(position=1, move=1) raised ZeroDivisionError" in line
    assert "broken.py, line" in line and "--debug" in line


def test_a_failing_hook_under_play(broken_game):
    line = one_line_error(gamedp("play", broken_game, "--first", "computer"))
    assert "Broken.do_move(position=1, move=1) raised ZeroDivisionError" in line


def test_debug_shows_the_traceback_then_the_line(broken_game):
    r = gamedp("--debug", "analyze", broken_game)
    assert r.returncode == 2
    assert "Traceback (most recent call last)" in r.stderr and "in helper" in r.stderr
    assert r.stderr.splitlines()[-1].startswith("gamedp: error: the game's Broken.do_move(")


def test_numbers_past_the_digit_limit_and_long_arguments():
    huge = "1" + "0" * 5000
    for args in (["nimber", "nim", huge], ["analyze", "nim", huge], ["grundy", "kayles", "--upto", huge],
                 ["query", "tictactoe", huge]):
        line = one_line_error(gamedp(*args))
        assert "5001 digits" in line and len(line) < 300
    line = one_line_error(gamedp("analyze", "nim", "x" * 100_000))
    assert len(line) < 400 and "(100002 characters)" in line


def _as_nobody() -> tuple[str, ...]:
    # Root reads any directory, so there the unreadable directory is tried as an unprivileged user.
    if os.geteuid() != 0:
        return ()
    if not shutil.which("setpriv"):
        pytest.skip("run as root without setpriv: cannot drop privileges to meet an unreadable directory")
    return ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")


@pytest.mark.parametrize("command", [["query", "tictactoe", "X........"], ["solve", "tictactoe"]])
@pytest.mark.parametrize("below", ["sub", "sub/x.gdb"])
def test_an_unreadable_database_directory(tmp_path, command, below):
    tmp_path.chmod(0o755)
    locked = tmp_path / "locked"
    (locked / "sub").mkdir(parents=True)
    locked.chmod(0)
    try:
        env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
        run = [*_as_nobody(), *GAMEDP, *command, "--db", str(locked / below)]
        line = one_line_error(subprocess.run(run, env=env, capture_output=True, text=True, timeout=120))
        assert "Permission denied" in line and str(locked) in line
    finally:
        locked.chmod(0o700)


# -- Ctrl-C: `gamedp: interrupted`, exit status 130, whichever path the command took --------------------------------
def test_ctrl_c_at_a_prompt_says_interrupted():
    """Through click (which calls Ctrl-C an abort): the play prompt, waited for, then SIGINT."""
    process = subprocess.Popen([*GAMEDP, "play", "tictactoe"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen = b""
    while not seen.endswith(b"your move> "):  # the prompt is written whole before play reads a line
        chunk = os.read(process.stdout.fileno(), 4096)
        assert chunk, seen
        seen += chunk
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and err.decode().strip() == "gamedp: interrupted", err


def test_ctrl_c_in_a_judge_run_says_interrupted(capsys, monkeypatch):
    """The judge's short path, past click: Ctrl-C while it reads its input."""
    from gamedp.cli.entry import main

    class Stdin:
        class buffer:
            @staticmethod
            def readline(*size: int) -> bytes:
                raise KeyboardInterrupt

            read = read1 = readline

    monkeypatch.setattr("sys.stdin", Stdin)
    with pytest.raises(SystemExit) as ended:
        main(["judge", "cardgame"])
    assert ended.value.code == 130 and capsys.readouterr().err == "gamedp: interrupted\n"


#: every path that writes its own answers (the short ones skip the command-line library) and one that does not
#: a 7x6 position searched in milliseconds (End-Easy's first; 4453 took seconds of CPU a run, the output unchanged)
QUICK = "2252576253462244111563365343671351441\n"
WRITERS = [(["value", "connect4"], QUICK), (["value", "connect4", "--threads", "2"], QUICK),
           (["value", "connect4", "--json"], QUICK), (["judge", "blockgame"], "1\n" + "..#..\n" * 5),
           (["judge", "cardgame"], "1\n4\n1 2 5 2\n"), (["judge", "gridgame"], "2 2 0\n.#\n..\n1\n1 1\n"),
           (["cgt", "domineering", "2x3"], ""), (["analyze", "tictactoe"], "")]


def run_with(args: list[str], text: str, **streams) -> subprocess.CompletedProcess:
    """``gamedp ARGS`` with ``text`` on its standard input, or with the standard streams given."""
    return subprocess.run([*GAMEDP, *args], input=None if "preexec_fn" in streams else text, text=True,
                          stderr=subprocess.PIPE, timeout=120, **{"stdout": subprocess.PIPE, **streams})


@pytest.mark.parametrize("args, stdin", WRITERS)
def test_output_that_cannot_be_written_is_one_line(args, stdin):
    with open("/dev/full", "w") as full:
        r = run_with(args, stdin, stdout=full)
    assert one_line_error(r) == "gamedp: error: cannot write the output: No space left on device"


@pytest.mark.parametrize("args, stdin", WRITERS)
def test_a_closed_standard_output_is_one_line(args, stdin):
    r = run_with(args, stdin, stdin=subprocess.DEVNULL, stdout=None, preexec_fn=lambda: os.close(1))
    assert "standard output is closed (>&-)" in one_line_error(r)


@pytest.mark.parametrize("args", [args for args, stdin in WRITERS if stdin])
def test_a_closed_standard_input_is_one_line(args):
    r = run_with(args, "", stdin=None, preexec_fn=lambda: os.close(0))
    assert "standard input is closed (<&-)" in one_line_error(r)


def test_a_reader_gone_ends_the_run_quietly():
    process = subprocess.Popen([*GAMEDP, "value", "connect4"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    process.stdout.close()
    _, err = process.communicate(QUICK.encode() * 100_000, timeout=120)
    assert process.returncode == 1 and err == b""
