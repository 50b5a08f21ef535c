"""A first compile is announced once on stderr, piped or not: what is compiled, roughly how long it takes, and
how long it took."""

from __future__ import annotations

import re

from gamedp import kernel_cache, native


def test_a_build_says_what_it_compiles_and_how_long_it_took_on_a_pipe(tmp_path, monkeypatch, capfd):
    monkeypatch.setattr(kernel_cache.CompilingNotice, "DELAY", 0)  # this build takes no time at all
    monkeypatch.setenv("GAMEDP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(kernel_cache, "_dirs", {})
    stem = str(tmp_path / "cache" / "libnothing")

    def build() -> None:  # builds nothing: the load after it fails, and that is reported too
        pass

    assert native.load_built(stem, build, "the test's kernels", "the test's other way") is None
    err = capfd.readouterr().err
    notice = next(line for line in err.splitlines() if "compiling" in line)
    assert "the test's kernels" in notice and "once" in notice
    assert re.search(r"\(usually \d+-\d+ s\)", notice) and re.search(r"done in \d+\.\d s$", notice), notice


def test_the_notice_is_one_line_and_says_a_failure(capfd, monkeypatch):
    monkeypatch.setattr(kernel_cache.CompilingNotice, "DELAY", 0)
    try:
        with kernel_cache.CompilingNotice("the kernels of a test"):
            raise ValueError("no compiler")
    except ValueError:
        pass
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "the kernels of a test" in err and "failed after" in err, err


def test_a_compile_quicker_than_the_delay_says_nothing(capfd):
    """numba loading kernels from its cache goes through the same door: it stays silent."""
    with kernel_cache.CompilingNotice("the kernels of a test"):
        pass
    assert capfd.readouterr().err == ""
