"""Long work shows a progress line on a terminal; piped, nothing, or where the command asks for it (analyze, play)
one plain line every few seconds."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect
import pytest
from command import gamedp
from output import only_plain_progress, without_compile_notices

HERE = Path(__file__).resolve().parent


@pytest.mark.slow
def test_check_and_a_big_search_show_progress_on_a_terminal_only():
    # Up counts up for ever (check walks it to its limit); Chain counts down from 200000 (a long search).
    for args, shown in ([f"{HERE / 'test_selfcheck_ends.py'}:Up", "--limit", "30000"], "checking up"), \
            ([f"{HERE / 'test_memory_guard.py'}:Chain"], "searching chain"):
        command = ["check", *args] if shown.startswith("checking") else ["analyze", *args]
        child = pexpect.spawn(sys.executable, ["-m", "gamedp", *command], encoding="utf-8", timeout=120,
                              dimensions=(30, 150))
        child.expect(pexpect.EOF)
        assert shown in child.before, child.before
        piped = gamedp(*command, timeout=120)
        assert piped.returncode == 0, piped.stderr
        quiet = without_compile_notices(piped.stderr) == ""
        assert quiet if command[0] == "check" else only_plain_progress(piped.stderr), piped.stderr


@pytest.mark.slow
def test_a_long_analysis_by_the_score_search_says_how_long_it_took_on_a_terminal():
    # Domineering 8x7: its moves valued in about 6 CPU s, past the second after which the line shows (7x7, then
    # 8x6, took less once the search visited fewer positions)
    command = ["analyze", "domineering:8x7", "--outcomes-only"]
    child = pexpect.spawn(sys.executable, ["-m", "gamedp", *command], encoding="utf-8", timeout=300,
                          dimensions=(30, 150))
    child.expect(pexpect.EOF)
    shown = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", child.before)  # the terminal's colours and cursor moves
    assert re.search(r"gamedp: domineering:8x7: WIN, 49 moves valued in [0-9.]+ s \([0-9,]+ positions\)\r?\n",
                     shown), shown
    assert re.search(r"moves valued: [0-9]+/42 \(best so far (WIN|LOSE): [a-h][1-8]-[a-h][1-8]", shown), shown
    piped = gamedp(*command, timeout=300)
    assert piped.returncode == 0 and only_plain_progress(piped.stderr), piped.stderr
