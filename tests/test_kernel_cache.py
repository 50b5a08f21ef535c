"""The kernel cache runs nothing another user could have written, and nothing damaged: a planted library (in a
folder writable by others, or owned by another user), a flipped bit, a truncated file or tampered metadata is
refused, and the kernels are built again, never loaded as they are."""

from __future__ import annotations

import ctypes
import importlib
import os
import pickle
import shutil
import stat
import subprocess
import sys
import threading
import time
import types
from pathlib import Path

import pytest

from gamedp import aot, kernel_cache, native

GRID = "gamedp.kernels.gridgame_judge"
SAMPLE = b"2 2 0\n.#\n..\n2\n1 1\n2 1\n"
AS_ROOT = pytest.mark.skipif(os.getuid() != 0, reason="giving a file to another user takes root")
NOBODY = 65534

# A library an attacker might plant: its constructor runs on load, and its judge answers nothing.
PLANTED_C = r"""
#include <stdio.h>
#include <stdlib.h>
__attribute__((constructor)) static void planted(void) {
    FILE *f = fopen(getenv("PLANTED_MARK"), "w");
    if (f) { fputs("ran\n", f); fclose(f); }
}
long long judge(void) { return -1; }
"""


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """A fresh cache directory for this test; the process forgets the libraries and folders it had."""
    monkeypatch.setenv("GAMEDP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PLANTED_MARK", str(tmp_path / "planted-ran"))
    monkeypatch.setattr(kernel_cache, "_dirs", {})
    monkeypatch.setattr(native, "_loaded", {})
    # a rebuild from numba's warm cache can take under the notice's delay; the tests read the notice
    monkeypatch.setattr(kernel_cache.CompilingNotice, "DELAY", 0)
    return tmp_path


@pytest.fixture(scope="module")
def good_build(tmp_path_factory) -> Path:
    """A folder holding a whole, honest build of the grid judge's library (built once for these tests)."""
    folder = tmp_path_factory.mktemp("good") / native._tag(GRID)
    done = subprocess.run([sys.executable, "-m", "gamedp.native", GRID, str(folder)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"native kernels cannot be built here: {done.stderr.strip()[-200:]}")
    return folder


def stem_in(folder: Path) -> str:
    return str(folder / "libgridgame_judge")


def copy_build(good_build: Path, fresh: Path) -> Path:
    """The good build copied where the loader looks for it in ``fresh``'s cache directory."""
    folder = Path(kernel_cache.cache_dir()) / good_build.name
    shutil.copytree(good_build, folder)
    assert folder.parent == fresh / "cache" / "kernels"
    return folder


def plant(folder: Path, tmp_path: Path) -> None:
    """Replace the library in ``folder`` by PLANTED_C, with metadata whose checksum holds: only who wrote it
    (not its content) can tell it from an honest build."""
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    (tmp_path / "planted.c").write_text(PLANTED_C)
    library = folder / "libgridgame_judge.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(library), str(tmp_path / "planted.c")], check=True)
    entry_points = b"judge\n"
    crc = kernel_cache.checksum(library.read_bytes(), (folder / "libgridgame_judge.deps").read_bytes(), entry_points)
    (folder / "libgridgame_judge.sig").write_bytes(b"crc32 " + crc.encode() + b"\n" + entry_points)


def answers(lib) -> bytes:
    """What library ``lib`` answers to SAMPLE (as gamedp.judge.gridgame._native_run calls it)."""
    work = 64
    out = ctypes.create_string_buffer(14)
    size = lib.judge(SAMPLE, len(SAMPLE), 6, 3, 2, 2, 0, (ctypes.c_int64 * work)(), work,
                     ctypes.create_string_buffer(16), 16, out)
    return out.raw[:size]


@pytest.mark.slow
def test_an_honest_build_loads(fresh, good_build):
    folder = copy_build(good_build, fresh)
    lib, why = native._open(stem_in(folder))
    assert lib is not None, why
    assert answers(lib) == b"Second\nFirst\n"


def test_the_planted_library_would_run_were_it_not_for_its_owner(fresh, good_build):
    """The control for the tests below: planted by this user in a private folder, it is loaded (and runs)."""
    folder = copy_build(good_build, fresh)
    plant(folder, fresh)
    lib, _ = native._open(stem_in(folder))
    assert lib is not None and (fresh / "planted-ran").exists()


@AS_ROOT
def test_a_library_owned_by_another_user_is_built_again_not_run(fresh, good_build, capfd):
    folder = copy_build(good_build, fresh)
    plant(folder, fresh)
    for name in os.listdir(folder):
        os.chown(folder / name, NOBODY, NOBODY)
    lib, why = native._open(stem_in(folder))
    assert lib is None and "not this user's" in why  # so load_native builds it again (see the flipped bit)
    assert not (fresh / "planted-ran").exists()
    assert kernel_cache.kernel_folder(folder.name) == str(folder)  # the folder is this user's: rebuilt in place
    assert "warning" not in capfd.readouterr().err


@pytest.mark.parametrize("mode", [0o775, 0o757])
def test_a_cache_writable_by_others_is_not_used(fresh, good_build, capfd, mode):
    """A cache directory writable by group or others: one warning, then a private directory for the run."""
    folder = copy_build(good_build, fresh)
    plant(folder, fresh)
    kernel_cache._dirs.clear()
    os.chmod(folder.parent, mode)
    used = kernel_cache.kernel_folder(folder.name)
    kernel_cache.kernel_folder(folder.name)
    err = capfd.readouterr().err
    assert not used.startswith(str(fresh / "cache")) and stat.S_IMODE(os.stat(Path(used).parent).st_mode) == 0o700
    assert err.count("\n") == 1 and err.startswith("gamedp: warning: not loading kernels from ")
    assert "writable by" in err and "GAMEDP_CACHE_DIR" in err
    assert not (fresh / "planted-ran").exists()


@AS_ROOT
def test_a_folder_owned_by_another_user_is_not_used(fresh, good_build, capfd):
    folder = copy_build(good_build, fresh)
    plant(folder, fresh)
    os.chown(folder, NOBODY, NOBODY)
    used = kernel_cache.kernel_folder(folder.name)
    assert not used.startswith(str(fresh / "cache"))
    assert f"owned by uid {NOBODY}" in capfd.readouterr().err


def test_a_file_writable_by_others_is_refused(fresh, good_build):
    folder = copy_build(good_build, fresh)
    plant(folder, fresh)
    os.chmod(folder / "libgridgame_judge.so", 0o777)
    lib, why = native._open(stem_in(folder))
    assert lib is None and "not this user's" in why
    assert not (fresh / "planted-ran").exists()


def flip_a_bit(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x10
    path.write_bytes(bytes(data))


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:len(path.read_bytes()) // 3])


@pytest.mark.parametrize("damage", [
    lambda f: flip_a_bit(f / "libgridgame_judge.so"),
    lambda f: truncate(f / "libgridgame_judge.so"),
    lambda f: (f / "libgridgame_judge.sig").write_bytes(b"judge i8 i8\n"),                  # no checksum
    lambda f: (f / "libgridgame_judge.sig").write_bytes(b"crc32 00000000\n\n\x00\xff p\n"),  # garbage
    lambda f: (f / "libgridgame_judge.sig").write_bytes(b""),
    lambda f: (f / "libgridgame_judge.deps").write_text(""),                  # would say: nothing to check
    lambda f: (f / "libgridgame_judge.deps").write_text("00000000 /dev/zero\n"),   # would read forever
    lambda f: os.unlink(f / "libgridgame_judge.deps"),
    lambda f: os.mkfifo(f / "libgridgame_judge.sig.fifo") or os.replace(f / "libgridgame_judge.sig.fifo",
                                                                         f / "libgridgame_judge.sig"),
    lambda f: os.symlink("/dev/zero", f / "x") or os.replace(f / "x", f / "libgridgame_judge.deps"),
], ids=["flipped bit", "truncated", "sig without checksum", "garbage sig", "empty sig", "empty deps",
        "deps naming /dev/zero", "deps missing", "sig a fifo", "deps a symlink"])
def test_damaged_library_or_metadata_is_refused_not_loaded(fresh, good_build, damage):
    folder = copy_build(good_build, fresh)
    damage(folder)
    lib, why = native._open(stem_in(folder))
    assert lib is None and why


@pytest.mark.slow
def test_a_flipped_bit_is_built_again_and_answers_right(fresh, good_build, capfd):
    """End to end: the damaged library is never run; the judge rebuilds it once and answers right."""
    folder = copy_build(good_build, fresh)
    flip_a_bit(folder / "libgridgame_judge.so")
    lib = native.load_native(GRID)
    assert lib is not None and answers(lib) == b"Second\nFirst\n"
    assert (folder / "libgridgame_judge.so").read_bytes() == (good_build / "libgridgame_judge.so").read_bytes()
    assert not (folder / "libgridgame_judge.failed").exists()
    err = capfd.readouterr().err
    assert err.startswith("gamedp: compiling the native kernels") and err.count("\n") == 1, err


def test_a_library_missing_an_entry_point_is_built_again_and_the_new_one_loaded(fresh, good_build, capfd):
    """This user's library, whole by its checksum, lacks the entry point its metadata names (a build of other
    sources, say): it is built again, and the new library is the one loaded. The loader keeps one library per
    path, so the refused one, still loaded, was taken for the new one, which then failed the same way and was
    remembered as a failed build for good."""
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    folder = copy_build(good_build, fresh)
    (fresh / "other.c").write_text("long long other(void) { return 0; }\n")
    library = folder / "libgridgame_judge.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(library), str(fresh / "other.c")], check=True)
    sig = folder / "libgridgame_judge.sig"
    entry_points = sig.read_bytes().partition(b"\n")[2]
    crc = kernel_cache.checksum(library.read_bytes(), (folder / "libgridgame_judge.deps").read_bytes(), entry_points)
    sig.write_bytes(b"crc32 " + crc.encode() + b"\n" + entry_points)
    lib = native.load_native(GRID)
    assert lib is not None and answers(lib) == b"Second\nFirst\n"
    assert not (folder / "libgridgame_judge.failed").exists()
    err = capfd.readouterr().err
    assert err.startswith("gamedp: compiling the native kernels") and err.count("\n") == 1, err


def test_a_planted_failure_marker_is_ignored(fresh, good_build):
    """A .failed marker someone else wrote would turn the native kernels off; it is not believed."""
    folder = copy_build(good_build, fresh)
    marker = folder / "libgridgame_judge.failed"
    marker.write_text("planted\n")
    os.chmod(marker, 0o666)
    lib = native.load_native(GRID)
    assert lib is not None and answers(lib) == b"Second\nFirst\n"


def two_at_once(load) -> None:
    """Run ``load()`` in two threads at once (each opens the build lock on its own, as two processes would)."""
    threads = [threading.Thread(target=load) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)


def test_a_library_two_runs_need_at_once_is_built_once(tmp_path, monkeypatch):
    """The second waits for the first's build and takes its outcome (here a failure, remembered) instead of
    compiling the same library again."""
    monkeypatch.setattr(native.CompilingNotice, "DELAY", 60.0)
    builds = []

    def slow_failing_build():
        builds.append(1)
        time.sleep(0.5)  # long enough for the other run to find no library too
        raise native._BuildFailed(["no compiler here"])

    stem = str(tmp_path / "tag" / "libstandin")
    two_at_once(lambda: native.load_built(stem, slow_failing_build, "a stand-in", "another path"))
    assert builds == [1]


def test_an_extension_module_two_runs_need_at_once_is_built_once(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMEDP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(kernel_cache, "_dirs", {})
    monkeypatch.setattr(aot.CompilingNotice, "DELAY", 60.0)
    built = []

    def slow_build(module_name, ext_name, folder):
        time.sleep(0.5)
        built.append(module_name)

    monkeypatch.setattr(aot, "_build", slow_build)
    module = "gamedp.kernels.octal"
    extension = types.SimpleNamespace(**dict.fromkeys(importlib.import_module(module).EXPORTS, "built"))
    monkeypatch.setattr(aot, "_open", lambda ext_name, folder: extension if built else None)
    results = []
    two_at_once(lambda: results.append(aot._load(module)))
    assert built == [module] and [r.compiled for r in results] == ["aot", "aot"]


def test_read_trusted_reads_only_this_users_private_regular_files(tmp_path):
    mine = tmp_path / "mine"
    mine.write_bytes(b"x")
    os.chmod(mine, 0o600)
    assert kernel_cache.read_trusted(str(mine)) == b"x"
    os.chmod(mine, 0o620)
    assert kernel_cache.read_trusted(str(mine)) is None
    os.mkfifo(tmp_path / "fifo", 0o600)  # opened without blocking, then refused
    assert kernel_cache.read_trusted(str(tmp_path / "fifo")) is None
    os.chmod(mine, 0o600)
    os.symlink(mine, tmp_path / "link")
    assert kernel_cache.read_trusted(str(tmp_path / "link")) is None
    assert kernel_cache.read_trusted(str(tmp_path / "missing")) is None
    assert kernel_cache.read_trusted(str(tmp_path)) is None
    if os.getuid() == 0:
        os.chown(mine, NOBODY, NOBODY)
        assert kernel_cache.read_trusted(str(mine)) is None


def test_an_extension_module_is_loaded_only_whole_and_this_users(tmp_path):
    """The pycc extension modules follow the same rules (checked on a stand-in file: their loader reads the
    file and its checksum before importing anything)."""
    folder = tmp_path / "tag"
    folder.mkdir(mode=0o700)
    suffix = aot.importlib.machinery.EXTENSION_SUFFIXES[0]
    ext = folder / ("_k_standin" + suffix)
    ext.write_bytes(b"\x7fELF not really a module")
    os.chmod(ext, 0o700)
    crc = folder / "_k_standin.crc"
    crc.write_text(kernel_cache.checksum(b"\x7fELF not really a module, changed"))
    os.chmod(crc, 0o600)
    assert aot._open("_k_standin", folder) is None  # the checksum does not hold: never imported
    crc.write_text(kernel_cache.checksum(ext.read_bytes()))
    assert aot._open("_k_standin", folder) is None  # whole, but not a module: refused, not raised
    os.chmod(ext, 0o777)
    assert kernel_cache.read_trusted(str(ext)) is None


# numba's own cache (cache=True functions: an index and pickled code, loaded and run) follows the same rules.
USER_KERNEL = '''
from numba import njit

@njit(cache=True)
def twice(n):
    return 2 * n
'''
NUMBA_PROBE = ("import sys; sys.path.insert(0, sys.argv[1]); import gamedp, os, numba.core.config as c; "
               "import user_kernel; assert user_kernel.twice(21) == 42; "
               "print(os.environ['NUMBA_CACHE_DIR']); print(c.CACHE_DIR)")


def numba_cache_run(tmp_path: Path, numba_dir: str | None, numba_first: bool = False) -> tuple[Path, str]:
    """Run a user's cache=True kernel after importing gamedp; (the numba cache directory used, stderr)."""
    (tmp_path / "user_kernel.py").write_text(USER_KERNEL)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["GAMEDP_CACHE_DIR"] = str(tmp_path / "cache")
    if numba_dir is not None:
        env["NUMBA_CACHE_DIR"] = numba_dir
    code = ("import numba; " if numba_first else "") + NUMBA_PROBE
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    told, config = r.stdout.split()
    assert told == config  # numba was told, even when it was imported first
    return Path(told), r.stderr


@pytest.mark.parametrize("numba_first", [False, True])
def test_numba_caches_in_gamedps_private_cache_not_next_to_the_source(tmp_path, numba_first):
    used, err = numba_cache_run(tmp_path, None, numba_first)
    assert used == tmp_path / "cache" / "kernels" / "numba" and err == ""
    assert stat.S_IMODE(used.stat().st_mode) == 0o700
    assert list(used.rglob("*.nbi")) and not list((tmp_path / "__pycache__").glob("*.nbi"))


def test_a_trusted_numba_cache_dir_of_the_users_is_kept(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o700)
    used, err = numba_cache_run(tmp_path, str(mine))
    assert used == mine and err == "" and list(used.rglob("*.nbi"))


@pytest.mark.parametrize("mode", [0o775, 0o757])
def test_a_numba_cache_dir_writable_by_others_is_not_used(tmp_path, mode):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, mode)
    used, err = numba_cache_run(tmp_path, str(shared))
    assert used.name.startswith("gamedp-numba-") and not used.exists()  # private (mkdtemp), gone at exit
    assert err.count("\n") == 1 and err.startswith(f"gamedp: warning: not using numba's cache in {shared}: ")
    assert "writable by" in err and "NUMBA_CACHE_DIR" in err
    assert not list(shared.rglob("*.nbi"))


@AS_ROOT
def test_a_numba_cache_dir_owned_by_another_user_is_not_used(tmp_path):
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, NOBODY, NOBODY)
    used, err = numba_cache_run(tmp_path, str(theirs))
    assert used.name.startswith("gamedp-numba-") and "owned by uid 65534" in err and not list(theirs.rglob("*.nbi"))


def test_a_numba_cache_dir_that_cannot_be_made_is_replaced_without_a_word(tmp_path):
    (tmp_path / "a-file").write_text("")
    used, err = numba_cache_run(tmp_path, str(tmp_path / "a-file" / "numba"))
    assert used.name.startswith("gamedp-numba-") and err == ""


# Below the numba cache directory, every folder and file numba reads (the index .nbi and the code .nbc are
# pickles: loading one runs it) is held to the same rules.
PLANT_PROBE = ("import os, sys; os.umask(int(sys.argv[2], 8)); sys.path.insert(0, sys.argv[1]); import gamedp; "
               "import user_kernel; assert user_kernel.twice(21) == 42; "
               "print(os.environ['NUMBA_CACHE_DIR']); print(sum(user_kernel.twice.stats.cache_hits.values()))")


class Planted:
    """A pickle that, when loaded, leaves a mark: what another account's code could do as this user."""

    def __init__(self, mark: Path):
        self.mark = str(mark)

    def __reduce__(self):
        return (os.system, (f"touch {self.mark}",))


def run_user_kernel(tmp_path: Path, umask: int = 0o022) -> tuple[Path, int, str]:
    """Run the user's cache=True kernel in a fresh process: (numba cache directory used, cache hits, stderr)."""
    (tmp_path / "user_kernel.py").write_text(USER_KERNEL)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["GAMEDP_CACHE_DIR"] = str(tmp_path / "cache")
    r = subprocess.run([sys.executable, "-c", PLANT_PROBE, str(tmp_path), f"{umask:o}"], capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    used, hits = r.stdout.split()
    return Path(used), int(hits), r.stderr


def numba_files(tmp_path: Path) -> tuple[Path, Path]:
    """The cache's folder for user_kernel.py and its index file, after an honest first run."""
    used, hits, err = run_user_kernel(tmp_path)
    assert hits == 0 and err == ""
    index = next(used.rglob("user_kernel.twice-*.nbi"))
    return index.parent, index


def plant_pickle(path: Path, mark: Path) -> None:
    tmp = path.with_name("planting")
    tmp.write_bytes(pickle.dumps(Planted(mark)))
    os.replace(tmp, path)


@pytest.mark.slow
def test_a_planted_index_of_this_users_in_a_private_folder_would_run(tmp_path):
    """The control for the tests below: numba runs what it finds in a folder only this user could write."""
    folder, index = numba_files(tmp_path)
    plant_pickle(index, tmp_path / "mark")
    run_user_kernel(tmp_path)
    assert (tmp_path / "mark").exists()


@pytest.mark.parametrize("damage", [
    lambda folder, index: os.chmod(folder, 0o777),
    lambda folder, index: os.chmod(folder, 0o770),
    lambda folder, index: os.chmod(index, 0o666),
    lambda folder, index: os.chmod(index, 0o620),
    lambda folder, index: os.chown(index, NOBODY, NOBODY) if os.getuid() == 0 else pytest.skip("needs root"),
    lambda folder, index: os.chown(folder, NOBODY, NOBODY) if os.getuid() == 0 else pytest.skip("needs root"),
    lambda folder, index: os.replace(index, folder / "elsewhere") or os.symlink(folder / "elsewhere", index),
], ids=["folder 777", "folder 770", "file 666", "file 620", "file of another user", "folder of another user",
        "file a symlink"])
@pytest.mark.slow
def test_a_planted_numba_pickle_anyone_else_could_have_written_is_never_run(tmp_path, damage):
    folder, index = numba_files(tmp_path)
    plant_pickle(index, tmp_path / "mark")
    damage(folder, index)
    used, hits, err = run_user_kernel(tmp_path)
    assert not (tmp_path / "mark").exists()
    assert hits == 0  # compiled again, not loaded
    assert err == "" or (err.count("\n") == 1 and err.startswith("gamedp: warning: not using numba's cache in "))


@pytest.mark.slow
def test_numba_writes_its_cache_private_whatever_the_umask(tmp_path):
    """With a umask of 000, every folder gamedp or numba makes is 700 and every file 600, so the next run trusts
    and loads them (a cache hit, no warning)."""
    used, hits, err = run_user_kernel(tmp_path, umask=0)
    assert hits == 0 and err == ""
    made = [tmp_path / "cache", *(p for p in (tmp_path / "cache").rglob("*"))]
    assert made and all(stat.S_IMODE(p.lstat().st_mode) == (0o700 if p.is_dir() else 0o600) for p in made), \
        {str(p): oct(p.lstat().st_mode) for p in made}
    used, hits, err = run_user_kernel(tmp_path, umask=0)
    assert hits == 1 and err == ""
