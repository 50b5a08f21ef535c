"""A judge's process imports only what it uses: the command-line and progress libraries never, numpy not on an
empty input nor where the native kernels answer (the time itself is measured in bench/bench_startup.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from data import SAMPLES

from gamedp.judge import JUDGES


#: runs ``gamedp judge PROBLEM`` as the executable does, then lists what the process imported
PROBE = """
import json, sys
from gamedp.cli.entry import main
try:
    main(["judge", sys.argv[1]])
except SystemExit:
    pass
sys.stdout.flush()
sys.stderr.write("\\n" + json.dumps(sorted(sys.modules)) + "\\n")
"""

NEVER = ("click", "rich", "numba", "numpy")


def imported(problem: str, data: bytes) -> tuple[set[str], str]:
    out = subprocess.run([sys.executable, "-c", PROBE, problem], input=data, capture_output=True, timeout=300)
    *message, modules = out.stderr.decode().rstrip("\n").split("\n")
    return {m.split(".")[0] for m in json.loads(modules)}, "\n".join(message)


@pytest.mark.parametrize("problem", sorted(JUDGES))
@pytest.mark.parametrize("data", [b"", b" \n\n \t\n"])
def test_an_empty_input_is_refused_before_any_library_loads(problem, data):
    tops, message = imported(problem, data)
    assert "the input is empty" in message
    assert not tops & set(NEVER), sorted(tops & set(NEVER))


@pytest.mark.parametrize("problem", sorted(JUDGES))
def test_the_native_kernels_answer_without_numpy_click_or_rich(problem):
    sample = sorted(SAMPLES.glob(f"{problem}-sample*.in"))
    imported(problem, sample[0].read_bytes())  # the first run may build the native library
    tops, message = imported(problem, sample[0].read_bytes())
    if "numpy" in tops:
        from gamedp.native import load_native

        if load_native(f"gamedp.kernels.{problem}_judge") is None:
            pytest.skip("the native kernels cannot be built here")
    assert not message
    assert not tops & set(NEVER), sorted(tops & set(NEVER))
