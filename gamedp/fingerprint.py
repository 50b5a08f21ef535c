"""What a plain Python function compiles to depends on: its fingerprint, the key of code built from it.

A kernel built ahead of time from a user's function (:mod:`gamedp.solvers.prebuilt_search`) is loaded again only
while the function would compile to the same code. That code depends on the function's bytecode (and that of any
function nested in it), its default arguments, the values its closure holds and the module globals it names,
followed into the plain functions it calls. All of it goes into one SHA-256 digest, read from the live objects:
no source file is needed (a function typed into a notebook has a fingerprint too), and neither numba nor numpy
is imported.

A value numba would compile in as a constant (a number, a string, a tuple of them, a numpy array or scalar) is
part of the fingerprint; so is a module by its name and version. Anything else (a numba dispatcher, a class, an
object) cannot be fingerprinted cheaply and faithfully: the function has none, and stays on numba's own path.

>>> def step(n, out):
...     out[0] = n - 1
...     return 1
>>> fingerprint(step) == fingerprint(step) and len(fingerprint(step)) == 64
True
>>> def twice(k):
...     return lambda n: n - 2 * k
>>> fingerprint(twice(1)) != fingerprint(twice(2))
True
>>> class Rules:
...     pass
>>> rules = Rules()
>>> fingerprint(lambda n: rules) is None
True
"""

from __future__ import annotations

import hashlib
import sys
import types
from typing import Any

from gamedp.words import Word

_SIMPLE = (bool, int, float, complex, str, bytes, type(None))


def fingerprint(fn: types.FunctionType) -> str | None:
    """The SHA-256 (hex) of everything ``fn``'s compiled code depends on, or None when it names a value that
    cannot be fingerprinted (see the module's text)."""
    digest = hashlib.sha256()
    try:
        _function(fn, digest, {})
    except _Opaque:
        return None
    return digest.hexdigest()


def build_tag(parts: tuple[Any, ...], sources: tuple[str, ...]) -> str | None:
    """The key (16 hex digits) of code built on this machine (:func:`~gamedp.kernel_cache.machine_tag`) from
    ``parts`` (plain functions, and the constants compiled in with them, fingerprinted as ``fingerprint`` does)
    and the files ``sources`` (gamedp's own code compiled with them); None when a part has no fingerprint."""
    from gamedp.kernel_cache import machine_tag

    digest = hashlib.sha256(machine_tag().encode())
    try:
        _value(parts, digest, {})
    except _Opaque:
        return None
    for path in sources:
        with open(path, "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:16]


class _Opaque(Exception):
    pass


def _function(fn: types.FunctionType, digest: Any, seen: dict[int, int]) -> None:
    if id(fn) in seen:  # recursion, or a helper called twice: named by its place in the walk
        digest.update(b"seen %d;" % seen[id(fn)])
        return
    seen[id(fn)] = len(seen)
    _code(fn.__code__, digest)
    _value(fn.__defaults__, digest, seen)
    for cell in fn.__closure__ or ():
        _value(cell.cell_contents, digest, seen)
    for name in sorted(names_used(fn.__code__)):  # attribute names too (np.int64's int64): those are no globals
        if name in fn.__globals__:
            digest.update(b"global " + name.encode() + b"=")
            _value(fn.__globals__[name], digest, seen)


def names_used(code: types.CodeType) -> set[str]:
    """The names ``code`` looks up, its nested code's (comprehensions, lambdas, inner functions) too."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= names_used(const)
    return names


def _code(code: types.CodeType, digest: Any) -> None:
    digest.update(b"code %d %d %d;" % (code.co_argcount, code.co_kwonlyargcount, code.co_flags))
    digest.update(code.co_code)
    digest.update(repr((code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars)).encode())
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _code(const, digest)
        else:
            digest.update(repr((type(const).__name__, const)).encode())


def _value(value: Any, digest: Any, seen: dict[int, int]) -> None:
    np = sys.modules.get("numpy")  # a numpy value means numpy is loaded: not imported for nothing

    if isinstance(value, types.FunctionType):
        _function(value, digest, seen)
    elif value is Word:  # numpy.uint64 in a kernel
        digest.update(b"gamedp.Word;")
    elif isinstance(value, _SIMPLE):
        digest.update(repr((type(value).__name__, value)).encode() + b";")
    elif isinstance(value, tuple):
        digest.update(b"tuple %d(" % len(value))
        for item in value:
            _value(item, digest, seen)
        digest.update(b");")
    elif isinstance(value, types.ModuleType):
        digest.update(f"module {value.__name__} {getattr(value, '__version__', '')};".encode())
    elif np is not None and isinstance(value, (np.ndarray, np.generic)):
        array = np.ascontiguousarray(value)
        digest.update(f"array {array.dtype.str} {array.shape};".encode())
        digest.update(array.tobytes())
    else:
        raise _Opaque(type(value).__name__)
