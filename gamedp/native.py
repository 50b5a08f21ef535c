"""Kernels as plain C functions in a shared library, for runs that cannot wait for numpy.

:mod:`gamedp.aot` spares a judge run numba's start-up, but its extensions still import numpy (0.07-0.12 s here,
more than a whole C++ run of some judge problems). A *native module* goes one step further: a kernel module
whose ``NATIVE = {name: signature}`` entry points take only integers and raw pointers, allocate nothing and
raise nothing. :func:`load_native` builds it once per machine and source — numba's ahead-of-time code
generator emits the object code of each entry point's C wrapper, the C compiler links it into
``lib<module>.so`` in the kernel cache — and later runs load that library with :mod:`ctypes`, importing neither
numpy nor numba. The kernel sources name the library's folder; any other gamedp module the build read (a
ruleset whose tables are compiled in as constants, say) is listed beside the library with its checksum, and a
change there builds the library again.

Entry points return ``i8``; their arguments are ``i8`` or ``CPointer(...)`` (passed from Python as a ``bytes``,
a ctypes array or an address). Inside, ``numba.carray`` turns a pointer into an array, so the entry point can
call the ordinary kernels of other kernel modules, which are jitted for the build.

The build runs in a child process (its jitting replaces functions in the kernel modules it compiles, which must
not happen to the caller's modules). When it fails — no C compiler, a numba without the AOT code generator, or
generated code that needs numba's runtime — the failure is remembered beside the library and
:func:`load_native` returns None: callers then take their numpy path, which gives the same answers.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import sys
import zlib

from gamedp.kernel_cache import BuildLock, CompilingNotice, checksum, kernel_folder, machine_tag, make_private_dir, read_trusted

TYPE_CHECKING = False  # typing's own flag, and typing, would add ~10 ms to every judge run that loads a library
if TYPE_CHECKING:
    from typing import Any, Callable

# The C wrapper numba generates around an entry point can report an exception the kernel raised, which takes
# numba's runtime: these functions. Native kernels raise nothing (error model "numpy", no bounds checks), so
# the stubs below only stop the process loudly, should that ever be wrong, rather than let it answer wrongly.
# A kernel that allocates needs NRT_MemInfo_alloc*, which stays undefined: its library fails to load, and the
# build is refused.
_NEVER_CALLED = ("numba_do_raise", "numba_gil_ensure", "numba_gil_release", "numba_unpickle",
                 "numba_runtime_build_excinfo_struct", "NRT_Free", "NRT_MemInfo_call_dtor")
_STUBS = "#include <stdio.h>\n#include <stdlib.h>\n" + "".join(
    f'void *{name}(void) {{ fputs("gamedp: internal error: a native kernel reached {name}\\n", stderr); abort(); }}\n'
    for name in _NEVER_CALLED)

_CTYPES = {"p": ctypes.c_void_p, "i8": ctypes.c_int64}
_loaded: dict[str, ctypes.CDLL | None] = {}
_entries: dict[str, Any] = {}


def load_native(module_name: str) -> ctypes.CDLL | None:
    """The library of native module ``module_name`` with its entry points typed, or None where it cannot be
    built here (or ``GAMEDP_JIT=1`` asks for numba's JIT everywhere)."""
    if module_name not in _loaded:
        _loaded[module_name] = None if os.environ.get("GAMEDP_JIT") == "1" else _load(module_name)
    return _loaded[module_name]


def load_if_built(module_name: str) -> ctypes.CDLL | None:
    """The library of native module ``module_name`` if it is built here already (whole, this user's, from the
    current sources), else None: nothing is built, nothing reported."""
    lib = _loaded.get(module_name)
    if lib is None and os.environ.get("GAMEDP_JIT") != "1":
        lib = open_built(_stem(module_name))
        if lib is not None:
            _loaded[module_name] = lib
    return lib


def open_built(stem: str) -> ctypes.CDLL | None:
    """The library ``stem``.so with its entry points typed if it is built already (whole, this user's), else None:
    nothing is built, nothing reported."""
    return _open(stem)[0]


def entry_points(module_name: str) -> Any:
    """The entry points of native module ``module_name``: its library, built once per machine (no numba or numpy
    at run time), else numba's compiled functions with the same entry points, called through ctypes alike."""
    entries = _entries.get(module_name)
    if entries is None:
        entries = _entries[module_name] = load_native(module_name) or _jitted(module_name)
    return entries


def scratch(size: int) -> tuple[memoryview, int]:
    """``size`` bytes of zeros for a native kernel, and their address. They are an anonymous memory map, whose
    pages the system hands out only as they are first written: a ctypes array is zeroed at once, every page of
    it touched (a kernel sized for the worst input paid for all of it on every input)."""
    import mmap

    view = memoryview(mmap.mmap(-1, max(size, 1)))
    return view, ctypes.addressof(ctypes.c_char.from_buffer(view))


def _jitted(module_name: str) -> Any:
    """The entry points as numba C callbacks (compiled in each process that needs them)."""
    from gamedp.aot import jit_functions, kernel_modules_used

    module = importlib.import_module(module_name)
    for used in [*kernel_modules_used(module), module]:  # callees first: typed kernels compile at once
        jit_functions(used, skip=getattr(used, "NATIVE", ()))
    return c_callbacks({name: (getattr(module, name), signature) for name, signature in module.NATIVE.items()})


def c_callbacks(entries: dict[str, tuple[Callable, Any]]) -> Any:
    """``entries`` (name: (function, signature), as :func:`build_library` takes them) as numba C callbacks, typed
    as the built library's entry points: pointers as void *, the rest int64."""
    import types

    from numba import cfunc
    from numba.core import sigutils
    from numba.core import types as numba_types

    callbacks = {}
    for name, (function, signature) in entries.items():
        # Not cached: an entry point that hands a game's kernels to a search as values (a search module's) refers
        # to them as objects of this process, which numba cannot keep; the library, where it can be built, is.
        compiled = cfunc(signature, nogil=True, error_model="numpy")(function)
        args, _ = sigutils.normalize_signature(signature)
        kinds = [ctypes.c_void_p if isinstance(a, numba_types.CPointer) else ctypes.c_int64 for a in args]
        callbacks[name] = ctypes.CFUNCTYPE(ctypes.c_int64, *kinds)(compiled.address)
        callbacks[name + "_keep"] = compiled  # the compiled code lives as long as its entry point
    return types.SimpleNamespace(**callbacks)


def _load(module_name: str) -> ctypes.CDLL | None:
    # A judge run passes here: os.path rather than pathlib, crc32 rather than hashlib, subprocess only to build
    # (each costs milliseconds).
    stem = _stem(module_name)
    return load_built(stem, lambda: _build_apart(module_name, os.path.dirname(stem)),
                      f"the native kernels of {module_name}", "the slower numpy path")


def _stem(module_name: str) -> str:
    """The library's path but its extension."""
    return os.path.join(kernel_folder(_tag(module_name)), "lib" + module_name.rsplit(".", 1)[-1])


class _BuildFailed(Exception):
    """A build that failed, saying why in ``lines``."""

    def __init__(self, lines: list[str]):
        super().__init__(lines[-1])
        self.lines = lines


def _build_apart(module_name: str, folder: str) -> None:
    """:func:`build` in a process of its own: the judge run that asked stays without numba."""
    import subprocess

    result = subprocess.run([sys.executable, "-m", "gamedp.native", module_name, folder], capture_output=True,
                            text=True)
    if result.returncode != 0:
        raise _BuildFailed(result.stderr.strip().splitlines()[-3:] or ["the build failed"])


def _open(stem: str) -> tuple[ctypes.CDLL | None, str]:
    """The library ``stem``.so with its entry points typed as ``stem``.sig says, if it and its metadata are
    this user's, whole (their checksum, written by :func:`build`, holds) and built from the current sources;
    else None and why not."""
    library = stem + ".so"
    code, sig, deps = (read_trusted(stem + ext) for ext in (".so", ".sig", ".deps"))
    if code is None or sig is None or deps is None:
        return None, f"{library} is missing or not this user's"
    crc, _, signatures = sig.partition(b"\n")
    if crc != b"crc32 " + checksum(code, deps, signatures).encode():
        return None, f"{library} or its metadata is damaged (checksum)"
    lib = None
    try:
        if not _sources_unchanged(deps.decode()):
            return None, f"{library} was built from other sources"
        lib = ctypes.CDLL(library)
        for line in signatures.decode().splitlines():
            name, *args = line.split()
            entry = getattr(lib, name)
            entry.restype = ctypes.c_int64
            entry.argtypes = [_CTYPES[a] for a in args]
    except (OSError, AttributeError, KeyError, ValueError) as e:
        if lib is not None:  # unloaded: the loader keeps one library a path, and would give it for the rebuilt one
            import _ctypes

            _ctypes.dlclose(lib._handle)
        return None, str(e)
    return lib, ""


def _tag(module_name: str) -> str:
    # Entry points call kernels of other kernel modules, so every kernel source is part of the folder's name;
    # other gamedp modules the build read (constants made by a ruleset, say) are checked through the .deps file.
    # The module's file is worked out, not asked of importlib.util, whose import costs milliseconds.
    origin = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), *module_name.split(".")) + ".py"
    if not module_name.startswith("gamedp.") or not os.path.isfile(origin):
        raise ImportError(f"no native module {module_name}")
    kernels = os.path.dirname(origin)
    crc = zlib.crc32((machine_tag() + module_name).encode())
    for source in [__file__] + sorted(os.path.join(kernels, f) for f in os.listdir(kernels) if f.endswith(".py")):
        crc = _crc(source, crc)
    return f"{crc:08x}"


def _crc(path: str, crc: int = 0) -> int:
    with open(path, "rb") as f:
        return zlib.crc32(f.read(), crc)


def _sources_unchanged(deps: str) -> bool:
    """Whether every gamedp source the build read (listed in ``deps``) still reads the same."""
    try:
        return all(_crc(path) == int(crc, 16) for crc, path in (line.split(" ", 1) for line in deps.splitlines()))
    except (OSError, ValueError):
        return False


def load_built(stem: str, build: Callable[[], None], what: str, instead: str) -> ctypes.CDLL | None:
    """The library ``stem``.so with its entry points typed, built first in this process by ``build()`` (see
    :func:`build_library`) where it is not there whole; or None, quietly, where a build of it failed before. A
    build that fails is reported once (``what`` it was for, and the path taken ``instead``) and remembered."""
    failed = stem + ".failed"
    if read_trusted(failed) is not None:
        return None
    lib, why = _open(stem)
    if lib is None:
        with BuildLock(os.path.dirname(stem)):
            if read_trusted(failed) is not None:  # another process's build, waited for, failed
                return None
            lib, why = _open(stem)  # or that build is there now
            if lib is None:
                lib = _build_and_open(stem, build, why, what, instead)
    return lib


def _build_and_open(stem: str, build: Callable[[], None], why: str, what: str, instead: str) -> ctypes.CDLL | None:
    """Build the library ``stem`` (missing, stale, damaged or refused by the loader for ``why``: built once
    more, never run as it is) and open it; or remember why that failed, and None."""
    lib = None
    reason = [why]
    try:
        with CompilingNotice(what):
            build()
        lib, why = _open(stem)  # refused now: e.g. code that needs numba's runtime, refused for good
        reason = [why]
    except _BuildFailed as e:
        reason = e.lines
    except Exception as e:  # no compiler, no AOT code generator
        reason = [f"{type(e).__name__}: {' '.join(str(e).split())[:300]}"]
    if lib is None:
        _remember_failure(stem + ".failed", reason, what, instead)
    return lib


def _remember_failure(marker: str, reason: list[str], what: str, instead: str) -> None:
    sys.stderr.write(f"gamedp: warning: could not build {what}, so runs take {instead} (same answers). "
                     f"Why: {reason[-1]} (kept in {marker}; delete it to try again)\n")
    try:
        os.makedirs(os.path.dirname(marker), exist_ok=True)
        with open(marker, "w") as f:
            f.write("\n".join(reason) + "\n")
    except OSError:  # a read-only cache: the build is retried next time, which is slow but correct
        pass


def build(module_name: str, folder: str) -> None:
    """Compile ``module_name``'s NATIVE entry points into ``folder``/lib<name>.so (see :func:`build_library`),
    listing every gamedp source the build read in its ``.deps``."""
    from gamedp.aot import jit_functions

    module = importlib.import_module(module_name)
    used = [mod for name, mod in list(sys.modules.items())  # the kernel modules the entry points call into
            if name.startswith("gamedp.kernels.") and mod is not None and mod is not module]
    if module_name.startswith("gamedp.kernels."):  # its own helpers too, after its callees (see _jitted)
        used.append(module)
    for mod in used:
        jit_functions(mod, skip=module.NATIVE if mod is module else ())
    entries = {name: (getattr(module, name), signature) for name, signature in module.NATIVE.items()}
    build_library("lib" + module_name.rsplit(".", 1)[-1], entries, folder, track_sources=True)


def build_library(stem: str, entries: dict[str, tuple[Callable, Any]], folder: str, track_sources: bool) -> None:
    """Compile ``entries`` (name: (function, signature)) into ``folder``/``stem``.so (atomically: temp dir, then
    rename), with ``stem``.sig naming each entry point's argument types for the loader, after a first line with
    the checksum of the library, its ``.deps`` and those entry points (the loader runs nothing damaged). The
    ``.deps`` list the gamedp sources the build read when ``track_sources`` (else the folder's name must)."""
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    from numba.core import sigutils, types
    from numba.core.compiler import Flags, compile_extra
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.registry import cpu_target
    from numba.core.runtime import nrtdynmod, rtsys

    # numba's runtime takes the code library of the first context that compiles anything: the JIT's, not this
    # AOT one, whose library cannot hand out function pointers (a kernel compiled during the build, as a recursive
    # one is while its callers are typed, would fail)
    rtsys.initialize(cpu_target.target_context)
    context = cpu_target.target_context.with_aot_codegen(stem, cpu_name="host")
    flags = Flags()
    flags.no_compile = True
    flags.no_cpython_wrapper = True
    flags.nrt = True  # numba.carray is written for the runtime; no allocation may reach it (see _STUBS)
    flags.error_model = "numpy"  # no exceptions: a zero division gives a value, not a raise
    signatures = []
    with global_compiler_lock:
        library = context.codegen().create_library(stem)
        library.add_ir_module(nrtdynmod.create_nrt_module(context)[0])
        for name, (function, signature) in entries.items():
            args, result = sigutils.normalize_signature(signature)
            if result != types.int64:
                raise TypeError(f"{stem}.{name} must return i8, not {result}")
            kinds = ["p" if isinstance(a, (types.CPointer, types.RawPointer)) else "i8" if a == types.int64 else "?"
                     for a in args]
            if any(kind not in _CTYPES for kind in kinds):
                raise TypeError(f"{stem}.{name}: arguments must be i8 or pointers, not {signature}")
            compiled = compile_extra(cpu_target.typing_context, context, function, args, result, flags,
                                     locals={}, library=library)
            compiled.library.get_function(compiled.fndesc.llvm_cfunc_wrapper_name).name = name
            signatures.append(" ".join([name, *kinds]))
        library.finalize()
        for fn in library.get_defined_functions():
            if fn.name not in entries and fn.linkage.name not in ("private", "internal"):
                fn.visibility = "hidden"
        code = library.emit_native_object()

    final = Path(folder)
    make_private_dir(str(final.parent))
    tmp = Path(tempfile.mkdtemp(prefix=".native-", dir=final.parent))
    try:
        (tmp / "kernels.o").write_bytes(code)
        (tmp / "stubs.c").write_text(_STUBS)
        compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or "cc"
        linked = subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(tmp / (stem + ".so")),
                                 str(tmp / "kernels.o"), str(tmp / "stubs.c")], capture_output=True, text=True)
        if linked.returncode != 0:
            raise RuntimeError(f"{compiler} failed: {linked.stderr.strip()}")
        sources = sorted({m.__file__ for name, m in list(sys.modules.items())
                          if (name == "gamedp" or name.startswith("gamedp.")) and getattr(m, "__file__", None)}
                         if track_sources else ())
        deps = "".join(f"{_crc(path):08x} {path}\n" for path in sources).encode()
        entry_points = ("\n".join(signatures) + "\n").encode()
        crc = checksum((tmp / (stem + ".so")).read_bytes(), deps, entry_points)
        (tmp / (stem + ".deps")).write_bytes(deps)
        (tmp / (stem + ".sig")).write_bytes(b"crc32 " + crc.encode() + b"\n" + entry_points)
        for ext, mode in ((".so", 0o700), (".deps", 0o600), (".sig", 0o600)):  # this user's alone, whatever the
            os.chmod(tmp / (stem + ext), mode)  # umask of a build in the caller's process (see read_trusted)
        make_private_dir(str(final))
        os.replace(tmp / (stem + ".deps"), final / (stem + ".deps"))
        os.replace(tmp / (stem + ".sig"), final / (stem + ".sig"))
        os.replace(tmp / (stem + ".so"), final / (stem + ".so"))  # last: its presence means the build is whole
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":  # the build, in a child process of load_native
    os.umask(0o077)  # what it writes is loaded as code later: this user's alone (see kernel_cache.read_trusted)
    build(sys.argv[1], sys.argv[2])
