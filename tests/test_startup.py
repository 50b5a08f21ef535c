"""A judge's process imports only what it uses: the command-line and progress libraries never, numpy not on an
empty input nor where the native kernels answer, and where they answer none of the standard library's slower
modules that Python's own start-up does not load already (the time itself is measured in bench/bench_startup.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from data import SAMPLES

from gamedp.judge import JUDGES


#: runs ``gamedp ARGS...`` as the executable does, then lists what the process imported
PROBE = """
import sys
from gamedp.cli.entry import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
sys.stdout.flush()
sys.stderr.write("\\n" + " ".join(sys.modules) + "\\n")
"""

NEVER = ("click", "rich", "numba", "numpy")
#: standard modules a few milliseconds each to import (typing ~3 ms; dataclasses ~10 ms, with inspect), which a
#: judge answered by its native kernels does without
SLOW = ("typing", "dataclasses", "inspect", "json")


def probe(args: list[str], data: bytes) -> tuple[str, set[str], str]:
    """``gamedp ARGS < data``'s output, the top-level modules its process imported, and what it said on stderr."""
    out = subprocess.run([sys.executable, "-c", PROBE, *args], input=data, capture_output=True, timeout=600)
    *message, modules = out.stderr.decode().rstrip("\n").split("\n")
    return out.stdout.decode(), {m.split(".")[0] for m in modules.split()}, "\n".join(message)


def imported(problem: str, data: bytes) -> tuple[set[str], str]:
    _, tops, message = probe(["judge", problem], data)
    return tops, message


@pytest.fixture(scope="module")
def at_start() -> set[str]:
    """The top-level modules this interpreter has loaded before running anything (site's, a .pth file's)."""
    out = subprocess.run([sys.executable, "-c", "import sys; print(' '.join(sys.modules))"], capture_output=True,
                         text=True, check=True, timeout=60)
    return {m.split(".")[0] for m in out.stdout.split()}


@pytest.mark.parametrize("problem", sorted(JUDGES))
@pytest.mark.parametrize("data", [b"", b" \n\n \t\n"])
def test_an_empty_input_is_refused_before_any_library_loads(problem, data):
    tops, message = imported(problem, data)
    assert "the input is empty" in message
    assert not tops & set(NEVER), sorted(tops & set(NEVER))


@pytest.mark.parametrize("problem", sorted(JUDGES))
def test_the_native_kernels_answer_without_numpy_click_rich_or_slow_modules(problem, at_start):
    sample = sorted(SAMPLES.glob(f"{problem}-sample*.in"))[0].read_bytes()
    imported(problem, sample)  # the first run may build the native library
    tops, message = imported(problem, sample)
    if "numpy" in tops:
        from gamedp.native import load_native

        native = "gamedp.judge.blockgame_native" if problem == "blockgame" else f"gamedp.kernels.{problem}_judge"
        if load_native(native) is None:
            pytest.skip("the native kernels cannot be built here")
    assert not message
    assert not tops & set(NEVER), sorted(tops & set(NEVER))
    added = (tops - at_start) & set(SLOW)
    assert not added, sorted(added)


def test_a_judge_run_spares_the_last_collection():
    """Once the answer is out, the objects the imports made are frozen: the interpreter's last garbage collection
    would walk them all for nothing (~3 ms of a judge run)."""
    code = ("import gc, sys\nfrom gamedp.cli.entry import main\n"
            "try:\n    main(['judge', 'cardgame'])\nexcept SystemExit:\n    pass\n"
            "sys.stdout.write(' frozen %d' % gc.get_freeze_count())")
    out = subprocess.run([sys.executable, "-c", code], input=b"1\n2\n1 2\n", capture_output=True, timeout=300)
    assert out.stdout.decode().split()[0] == "2", out.stderr
    assert int(out.stdout.decode().split()[-1]) > 1000


def test_the_empty_input_check_copies_nothing():
    """A judge refuses an input of whitespace alone before anything else; on any other input that check looks at
    its first characters, without a copy of the whole (bytes.strip copied 9 MB of a big grid input)."""
    import tracemalloc

    from gamedp.errors import require_text

    data = b"3000 3000 2999\n" + b"." * 10_000_000 + b"\n"
    text = data.decode()
    tracemalloc.start()
    try:
        require_text(data, "'N M K' on the first line")
        require_text(text, "'N M K' on the first line")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20
