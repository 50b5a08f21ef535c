import os
import sys
from pathlib import Path

# Oracles and helpers shared by the tests live beside them.
sys.path.insert(0, str(Path(__file__).parent))

# The stress tester's bundled wrong solutions are programs that read stdin, not test modules.
collect_ignore = ["fixtures"]


# A shell may set PYTHONDONTWRITEBYTECODE (this machine's do): then each of the hundreds of `gamedp` processes
# the tests start compiles the package's sources again, which costs more CPU than many a test. The tests keep
# bytecode caches, as an installed package does.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


def pytest_configure(config):
    """Each test process keeps databases and stopped searches in a directory of its own, not the user's cache:
    a search one test stops (Ctrl-C keeps it to resume) would otherwise be resumed by the next test that asks
    the same position, or by the user. Tests about where databases go set their own."""
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="gamedp-test-db-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ["GAMEDP_DB_DIR"] = folder


BUILD = ("import importlib, sys; from gamedp.aot import load_kernels; from gamedp.native import load_native; "
         "m = importlib.import_module(sys.argv[1]); "
         "load_native(sys.argv[1]) if hasattr(m, 'NATIVE') else load_kernels(sys.argv[1]) if hasattr(m, 'EXPORTS') "
         "else None")


def pytest_sessionstart(session):
    """Build the built-in kernels once before the tests, as a first run of gamedp would: on a fresh machine a test's
    command would otherwise be the one that compiles them, and its stderr would carry the compile's notice (shown
    piped or not). The notice itself is tested with caches of its own. Each module is built in a process of its
    own, as many at once as there are cores (each build takes up to a minute there), the biggest sources first;
    test workers start after, and find them built."""
    import pkgutil
    import subprocess
    from concurrent.futures import ThreadPoolExecutor

    import gamedp.kernels

    if hasattr(session.config, "workerinput"):  # a test worker: the controller has built them
        return
    # every kernel module, and the judge's own native kernels (BLOCKGAME's, built with its ruleset's tables)
    sources = {f"gamedp.kernels.{info.name}": os.path.join(info.module_finder.path, info.name + ".py")
               for info in pkgutil.iter_modules(gamedp.kernels.__path__)}
    sources["gamedp.judge.blockgame_native"] = os.path.join(os.path.dirname(gamedp.kernels.__path__[0]), "judge",
                                                            "blockgame_native.py")
    modules = sorted(sources, key=lambda name: -os.path.getsize(sources[name]))
    with ThreadPoolExecutor(os.cpu_count()) as pool:
        builds = pool.map(lambda name: subprocess.run([sys.executable, "-c", BUILD, name]), modules)
        failed = [name for name, done in zip(modules, builds) if done.returncode != 0]
    assert not failed, f"the kernels of {failed} could not be loaded (their errors are above)"


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: a test worker more than the cores. Many tests spend seconds waiting (on a server's answer, a
    timeout they check, a killed cluster's recovery) while their core idles; a third worker on 2 cores fills those
    waits."""
    return len(os.sched_getaffinity(0)) + 1 if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1) + 1
