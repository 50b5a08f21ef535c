"""Long work shows a progress line on a terminal, and nothing when piped."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pexpect

GAMES = textwrap.dedent('''
    from gamedp import Game

    class Up(Game):
        """Counts up for ever (check walks it to its limit)."""
        name = "up"
        def start(self):
            return 0
        def children(self, n):
            return [n + 1, n + 2]

    class Chain(Game):
        """Counts down by one from 150000: a long search."""
        name = "chain"
        def start(self):
            return 150_000
        def children(self, n):
            return [n - 1] if n else []
''')


def test_check_and_a_big_search_show_progress_on_a_terminal_only(tmp_path):
    path = tmp_path / "long.py"
    path.write_text(GAMES)
    for args, shown in ([f"{path}:Up", "--limit", "30000"], "checking up"), ([f"{path}:Chain"], "searching chain"):
        command = ["check", *args] if shown.startswith("checking") else ["analyze", *args]
        child = pexpect.spawn(sys.executable, ["-m", "gamedp", *command], encoding="utf-8", timeout=120,
                              dimensions=(30, 150))
        child.expect(pexpect.EOF)
        assert shown in child.before, child.before
        piped = subprocess.run([sys.executable, "-m", "gamedp", *command], capture_output=True, text=True,
                               timeout=120)
        assert piped.returncode == 0 and piped.stderr == "", piped.stderr
