"""Kernels compiled ahead of time, so that a judge run does not pay numba's start-up.

Importing numba costs ~0.3-0.4 s and loading a cached kernel ~0.15 s more: more than a whole C++ judge run.
So the built-in games keep their hot loops in *kernel modules*: plain Python functions, written for numba,
with an ``EXPORTS`` dict naming the entry points and their numba signatures. :func:`load_kernels` compiles a
kernel module once with ``numba.pycc`` into an extension module in the user's cache directory; later runs
import that extension directly, with numpy but without numba.

Every other function of a kernel module is a helper: it is jitted when the module is compiled, and so are those
of the kernel modules it calls into (imported as modules: ``from gamedp.kernels import tier_values``), whose
sources are part of its cache key. Where ahead-of-time compilation is not available (no C compiler, a numba
without pycc) or ``GAMEDP_JIT=1`` is set, the same functions run as ``njit(cache=True, nogil=True)`` kernels
instead. The results are the same either way.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import types
from pathlib import Path

from gamedp.kernel_cache import BuildLock, CompilingNotice, checksum, kernel_folder, machine_tag, make_private_dir, read_trusted

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
    if os.environ.get("GAMEDP_JIT") == "1":
        return _jitted(module_name)
    module = importlib.import_module(module_name)
    source = b"".join(Path(m.__file__).read_bytes() for m in [module, *kernel_modules_used(module)])
    ext_name = "_k_" + module_name.rsplit(".", 1)[-1]
    tag = hashlib.sha256(source + machine_tag().encode()).hexdigest()[:16]
    folder = Path(kernel_folder(tag))
    ext = _open(ext_name, folder)
    if ext is None:
        with BuildLock(str(folder)):
            ext = _open(ext_name, folder)  # built meanwhile by another process this one waited for
            if ext is None:  # missing, damaged or not this user's: built once more, never run as it is
                try:
                    with CompilingNotice(f"the kernels of {module_name}"):
                        _build(module_name, ext_name, folder)
                except Exception as e:  # no compiler, no pycc, read-only cache: run as JIT kernels instead
                    return _jit_instead(module_name, f"ahead-of-time build of {module_name} failed ({e})")
                ext = _open(ext_name, folder)
        if ext is None:
            return _jit_instead(module_name, f"the ahead-of-time build of {module_name} cannot be loaded")
    return types.SimpleNamespace(**{name: getattr(ext, name) for name in module.EXPORTS}, compiled="aot")


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
    the entry points compiled from it can call them; those named in the module's ``BORROW`` (helpers that
    allocate nothing and keep no array) are compiled without reference counts of the arrays they are passed. A
    module whose functions take other kernels as arguments says ``TAKES_KERNELS = True``: numba's cache cannot
    keep those (its index would name kernels of another process), so they are compiled afresh. A module's
    ``SIGNATURES`` (name: signature) type those functions up front, as recursive ones must be to compile in
    reasonable time (numba otherwise infers a recursive function's type again at every call of it it meets);
    they compile at once, in the order given, so each may call those before it and any untyped function."""
    import inspect

    from numba import njit

    borrow = getattr(module, "BORROW", ())  # helpers called in hot loops with arrays: no atomic refcounts
    cache = not getattr(module, "TAKES_KERNELS", False)
    signatures = getattr(module, "SIGNATURES", {})  # recursive kernels: typed at once, not by partial inference
    functions = [name for name, fn in vars(module).items()
                 if inspect.isfunction(fn) and fn.__module__ == module.__name__ and name not in skip]
    # the others first (compiled when first called), then the typed ones, which compile at once, in their order
    for name in [n for n in functions if n not in signatures] + [n for n in signatures if n in functions]:
        options = {"cache": cache, "nogil": True, **({"_nrt": False} if name in borrow else {})}
        fn = getattr(module, name)
        setattr(module, name, njit(signatures[name], **options)(fn) if name in signatures else njit(**options)(fn))


def kernel_modules_used(module: types.ModuleType) -> list[types.ModuleType]:
    """The other kernel modules whose helpers ``module``'s kernels call."""
    return [m for m in vars(module).values()
            if isinstance(m, types.ModuleType) and m.__name__.startswith("gamedp.kernels.") and m is not module]


def _jit_all(module: types.ModuleType) -> None:
    """``module``'s helpers and those of the kernel modules it uses as numba kernels (not their entry points)."""
    for m in [module, *kernel_modules_used(module)]:
        jit_functions(m, skip=getattr(m, "EXPORTS", ()))


def _jitted(module_name: str) -> types.SimpleNamespace:
    from numba import njit

    module = importlib.import_module(module_name)
    _jit_all(module)
    return types.SimpleNamespace(
        **{name: njit(sig, cache=True, nogil=True)(getattr(module, name)) for name, sig in module.EXPORTS.items()},
        compiled="jit",
    )


def _build(module_name: str, ext_name: str, folder: Path) -> None:
    """Compile the kernel module with numba.pycc into ``folder``, atomically (temp dir, then rename)."""
    import shutil
    import sysconfig
    import tempfile
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from numba.pycc import CC

    module = importlib.import_module(module_name)
    _jit_all(module)
    make_private_dir(str(folder.parent))
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=folder.parent))
    try:
        cc = CC(ext_name)
        cc.output_dir = str(tmp)
        cc.verbose = False
        cc.target_cpu = "host"
        for name, sig in module.EXPORTS.items():
            cc.export(name, sig)(getattr(module, name))
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
        shutil.rmtree(tmp, ignore_errors=True)
