"""Every code block of the README, and every command of the tutorial and the how-to pages, runs as shown.

A ``console`` block is commands (``$ ...``) each followed by what it prints; the command runs in a shell (stderr
joined to stdout) from a scratch directory that sees the repository's ``bench/``, ``examples/`` and ``tests/``, with a
database directory of its own, and its output must match, ``...`` standing for any text (doctest's ELLIPSIS).
``gamedp serve`` runs until its first line is checked and its board answers, then gets Ctrl-C. A ``pycon`` block
is a doctest. The README's two ``sh`` blocks are its set-up commands: the install is how this environment was
made, its judge run is run here, and the test command must be the one ``.ci/run`` runs. Blocks of other kinds
(``sh`` in the docs: slow runs, shown but not run) may not appear in the README.
"""

from __future__ import annotations

import doctest
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
RUN_PAGES = [README, ROOT / "docs" / "tutorial.md", *sorted((ROOT / "docs" / "howto").glob("*.md"))]
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
CHECKER = doctest.OutputChecker()


def blocks(page: Path) -> list[tuple[str, str]]:
    """The fenced code blocks of a Markdown page: (language, text)."""
    return [(m[1], m[2]) for m in BLOCK.finditer(page.read_text())]


def console_steps(text: str) -> list[tuple[str, str]]:
    """A console block as (command, expected output) pairs."""
    steps: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            assert steps, f"output before any command: {line!r}"
            steps[-1][1].append(line)
    return [(command, "".join(out + "\n" for out in lines)) for command, lines in steps]


def matches(expected: str, got: str) -> bool:
    return CHECKER.check_output(expected, got, doctest.ELLIPSIS)


@pytest.fixture
def scratch(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A directory to run the documented commands from, and their environment."""
    for name in ("bench", "examples", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    env = {**os.environ, "GAMEDP_DB_DIR": str(tmp_path / "db"), "COLUMNS": "120",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return tmp_path, env


def run_console(text: str, cwd: Path, env: dict[str, str]) -> None:
    for command, expected in console_steps(text):
        if command.startswith("gamedp serve"):
            check_server(command, expected, cwd, env)
            continue
        out = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=600).stdout
        assert matches(expected, out), f"$ {command}\nexpected:\n{expected}\ngot:\n{out}"


def check_server(command: str, expected: str, cwd: Path, env: dict[str, str]) -> None:
    server = subprocess.Popen(["bash", "-c", "exec " + command], cwd=cwd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        first = server.stdout.readline()
        assert matches(expected, first), f"$ {command}\nexpected:\n{expected}\ngot:\n{first}"
        url = re.search(r"http://\S+", first)[0].rstrip("/")
        with urllib.request.urlopen(f"{url}/api/games", timeout=60) as response:
            assert response.status == 200 and b'"games"' in response.read()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)


def example_blocks() -> list:
    cases = []
    for page in RUN_PAGES:
        for i, (language, text) in enumerate(blocks(page)):
            if language in ("console", "pycon"):
                cases.append(pytest.param(language, text, id=f"{page.relative_to(ROOT)}:{i}"))
    return cases


@pytest.mark.parametrize("language, text", example_blocks())
@pytest.mark.slow
def test_block_runs_as_shown(language, text, scratch, monkeypatch):
    cwd, env = scratch
    if language == "console":
        run_console(text, cwd, env)
        return
    monkeypatch.chdir(cwd)
    test = doctest.DocTestParser().get_doctest(text, {}, "block", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    assert runner.run(test).failed == 0


def test_readme_has_only_blocks_the_tests_run():
    languages = [language for language, _ in blocks(README)]
    assert languages.count("sh") == 2 and set(languages) <= {"sh", "console", "pycon"}, languages
    assert len(README.read_text().splitlines()) <= 300


def test_readme_set_up_commands(scratch):
    """The first installs and runs the judge on its sample (run here); the second is .ci/run's test command."""
    install, tests = [text.strip() for language, text in blocks(README) if language == "sh"]
    *setup, judge = install.split(" && ")
    assert setup == ["python3 -m venv .venv", ". .venv/bin/activate", "pip install -e ."]
    cwd, env = scratch
    out = subprocess.run(["bash", "-c", judge], cwd=cwd, env=env, capture_output=True, text=True, check=True)
    assert out.stdout == (ROOT / "examples" / "blockgame-sample.out").read_text()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    ci_command = ci[ci.index(next(line for line in ci if line.startswith("# README test command"))) + 1]
    assert tests == ". .venv/bin/activate && " + ci_command


def test_tutorial_shows_the_example_file_whole():
    listings = [text for language, text in blocks(ROOT / "docs" / "tutorial.md") if language == "python"]
    assert (ROOT / "examples" / "treblecross.py").read_text() in listings


def test_tutorial_game_matches_a_brute_force_and_its_doctest():
    from functools import cache
    from itertools import product

    from gamedp import Outcome, load_game, solve

    @cache
    def wins(row: str) -> bool:
        """From the rules: the mover wins by making three in a row, or by a move after which the other cannot win."""
        after = [row[:i] + "X" + row[i + 1:] for i, cell in enumerate(row) if cell == "."]
        return any("XXX" in child or not wins(child) for child in after)

    game = load_game(str(ROOT / "examples" / "treblecross.py"))
    solution = solve(game)
    rows = ["".join(cells) for cells in product(".X", repeat=game.cells)]
    for row in (row for row in rows if "XXX" not in row):
        assert solution.value(row).outcome is (Outcome.WIN if wins(row) else Outcome.LOSE), row
    assert doctest.testmod(sys.modules[type(game).__module__]).failed == 0
