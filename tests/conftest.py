import sys
from pathlib import Path

# Oracles and helpers shared by the tests live beside them.
sys.path.insert(0, str(Path(__file__).parent))

# The stress tester's bundled wrong solutions are programs that read stdin, not test modules.
collect_ignore = ["fixtures"]


def pytest_sessionstart(session):
    """Build the built-in kernels once before the tests, as a first run of gamedp would: on a fresh machine a test's
    command would otherwise be the one that compiles them, and its stderr would carry the compile's notice (shown
    piped or not). The notice itself is tested with caches of its own."""
    import importlib
    import pkgutil

    import gamedp.kernels
    from gamedp.aot import load_kernels
    from gamedp.native import load_native

    for info in pkgutil.iter_modules(gamedp.kernels.__path__):
        name = f"gamedp.kernels.{info.name}"
        module = importlib.import_module(name)
        if hasattr(module, "NATIVE"):
            load_native(name)
        elif hasattr(module, "EXPORTS"):
            load_kernels(name)
