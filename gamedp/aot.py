"""Kernels compiled ahead of time, so that a judge run does not pay numba's start-up.

Importing numba costs ~0.3-0.4 s and loading a cached kernel ~0.15 s more: more than a whole C++ judge run.
So the built-in games keep their hot loops in *kernel modules*: plain Python functions, written for numba,
with an ``EXPORTS`` dict naming the entry points and their numba signatures. :func:`load_kernels` compiles a
kernel module once with ``numba.pycc`` into an extension module in the user's cache directory; later runs
import that extension directly, with numpy but without numba.

Every other function of a kernel module is a helper: it is jitted when the module is compiled. Where ahead-of-time
compilation is not available (no C compiler, a numba without pycc) or ``GAMEDP_JIT=1`` is set, the same
functions run as ``njit(cache=True, nogil=True)`` kernels instead. The results are the same either way.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import sys
import types
from pathlib import Path
from typing import Any, Callable

from gamedp.kernel_cache import CompilingNotice, checksum, kernel_folder, machine_tag, make_private_dir, read_trusted

_loaded: dict[str, types.SimpleNamespace] = {}


def load_kernels(module_name: str) -> types.SimpleNamespace:
    """The exported kernels of ``module_name``, compiled (once per machine and kernel source)."""
    kernels = _loaded.get(module_name)
    if kernels is None:
        kernels = _loaded[module_name] = _load(module_name)
    return kernels


def _load(module_name: str) -> types.SimpleNamespace:
    spec = importlib.util.find_spec(module_name)
    if spec is None or spec.origin is None:
        raise ImportError(f"no kernel module {module_name}")
    source = Path(spec.origin).read_bytes()
    if os.environ.get("GAMEDP_JIT") == "1":
        return _jitted(module_name)
    ext_name = "_k_" + module_name.rsplit(".", 1)[-1]
    tag = hashlib.sha256(source + machine_tag().encode()).hexdigest()[:16]
    ext, why = _open_or_build(ext_name, Path(kernel_folder(tag)), lambda cc: _export_module(cc, module_name))
    if ext is None:  # no compiler, no pycc, read-only cache: run as JIT kernels instead
        return _jit_instead(module_name, f"the ahead-of-time build of {module_name} {why}")
    module = importlib.import_module(module_name)
    return types.SimpleNamespace(**{name: getattr(ext, name) for name in module.EXPORTS}, compiled="aot")


def load_built(ext_name: str, tag: str, export: Callable[[Any], None], what: str) -> types.ModuleType | None:
    """The extension ``ext_name`` of kernel folder ``tag``, built there first if it is not (``export(cc)``
    names its entry points on a ``numba.pycc.CC``); or None, quietly, where a build of it failed before. A build
    that fails is reported once, with ``what`` it was for, and remembered beside it (``.failed``) so that later
    runs do not try again: the caller then takes its numba path."""
    folder = Path(kernel_folder(tag))
    failed = folder / (ext_name + ".failed")
    if read_trusted(str(failed)) is not None:
        return None
    ext, why = _open_or_build(ext_name, folder, export)
    if ext is None:
        _remember_failure(failed, what, why)
    return ext


def _open_or_build(ext_name: str, folder: Path, export: Callable[[Any], None]) -> tuple[types.ModuleType | None, str]:
    """The extension, opened, else built and opened; else None and why not."""
    ext = _open(ext_name, folder)
    if ext is not None:
        return ext, ""
    try:  # missing, damaged or not this user's: built once more, never run as it is
        with CompilingNotice():
            _build(ext_name, folder, export)
    except Exception as e:  # no compiler, no pycc, code pycc cannot compile, a read-only cache
        return None, f"failed ({type(e).__name__}: {' '.join(str(e).split())[:300]})"
    ext = _open(ext_name, folder)
    return ext, "" if ext is not None else "cannot be loaded"


def _remember_failure(marker: Path, what: str, why: str) -> None:
    sys.stderr.write(f"gamedp: warning: the ahead-of-time build of {what} {why}; it runs through numba instead "
                     f"(same answers, slower start). Kept in {marker}: delete it to try again\n")
    try:
        make_private_dir(str(marker.parent))
        fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(why + "\n")
    except OSError:  # a read-only cache: the build is tried again next time, which is slow but correct
        pass


def _open(ext_name: str, folder: Path) -> types.ModuleType | None:
    """The extension module ``ext_name`` built into ``folder``, if it is this user's and whole (its checksum,
    written by :func:`_build`, holds), else None."""
    path = folder / (ext_name + importlib.machinery.EXTENSION_SUFFIXES[0])
    code, crc = read_trusted(str(path)), read_trusted(str(folder / (ext_name + ".crc")))
    if code is None or crc != checksum(code).encode():
        return None
    loader = importlib.machinery.ExtensionFileLoader(ext_name, str(path))
    ext_spec = importlib.util.spec_from_file_location(ext_name, path, loader=loader)
    try:
        ext = importlib.util.module_from_spec(ext_spec)
        loader.exec_module(ext)
    except ImportError:
        return None
    return ext


def _jit_instead(module_name: str, why: str) -> types.SimpleNamespace:
    import warnings

    warnings.warn(f"gamedp: {why}; using numba JIT", stacklevel=4)
    return _jitted(module_name)


def jit_functions(module: types.ModuleType, skip=()) -> None:
    """Replace the functions ``module`` defines, but those named in ``skip``, by numba JIT kernels, so that
    the entry points compiled from it can call them; those named in the module's ``INLINE`` are inlined where
    they are called."""
    import inspect

    from numba import njit

    inline = getattr(module, "INLINE", ())  # helpers called in hot loops with arrays: no call, no refcounts
    for name, fn in list(vars(module).items()):
        if inspect.isfunction(fn) and fn.__module__ == module.__name__ and name not in skip:
            setattr(module, name, njit(cache=True, nogil=True, inline="always" if name in inline else "never")(fn))


def _jitted(module_name: str) -> types.SimpleNamespace:
    from numba import njit

    module = importlib.import_module(module_name)
    jit_functions(module, skip=module.EXPORTS)
    return types.SimpleNamespace(
        **{name: njit(sig, cache=True, nogil=True)(getattr(module, name)) for name, sig in module.EXPORTS.items()},
        compiled="jit",
    )


def _export_module(cc: Any, module_name: str) -> None:
    module = importlib.import_module(module_name)
    jit_functions(module, skip=module.EXPORTS)
    for name, sig in module.EXPORTS.items():
        cc.export(name, sig)(getattr(module, name))


def _build(ext_name: str, folder: Path, export: Callable[[Any], None]) -> None:
    """Compile the entry points ``export(cc)`` names with numba.pycc into ``folder``, atomically (temp dir,
    then rename). They release the GIL while they run, as ``njit(nogil=True)`` kernels do, so that a search run
    in a thread can be watched (:func:`gamedp.solvers.compiled.watched`)."""
    import shutil
    import sysconfig
    import tempfile
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from numba.pycc import CC, compiler

    make_private_dir(str(folder.parent))
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=folder.parent))
    plain_flags = compiler.Flags
    try:
        cc = CC(ext_name)
        cc.output_dir = str(tmp)
        cc.verbose = False
        cc.target_cpu = "host"
        export(cc)
        compiler.Flags = _gil_released(plain_flags)  # pycc makes its own flags: no option for this
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cc.compile()
        built = next(tmp.glob(ext_name + "*" + sysconfig.get_config_var("EXT_SUFFIX")))
        os.chmod(built, 0o700)  # loaded as code later: this user's alone (see kernel_cache.read_trusted)
        (tmp / "crc").write_text(checksum(built.read_bytes()))
        os.chmod(tmp / "crc", 0o600)
        make_private_dir(str(folder))
        os.replace(tmp / "crc", folder / (ext_name + ".crc"))
        final = folder / (ext_name + importlib.machinery.EXTENSION_SUFFIXES[0])
        os.replace(built, final)  # atomic: a concurrent loader sees the old state or the whole file
    finally:
        compiler.Flags = plain_flags
        shutil.rmtree(tmp, ignore_errors=True)


def _gil_released(flags_class: type) -> Callable[[], Any]:
    def flags() -> Any:
        made = flags_class()
        made.release_gil = True
        return made

    return flags
