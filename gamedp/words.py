"""Unsigned 64-bit words for a game's compiled hooks, without numpy.

A search's hooks (:class:`~gamedp.solvers.search_rules.SearchRules`, :class:`~gamedp.compiled.CompiledGame`) hold
positions in 64-bit words. numba compiles their arithmetic as machine words only where the words are unsigned
64-bit integers (an ``int64`` mixed with a ``uint64`` gives a float), so their constants must be such words; with
``numpy`` that is ``np.uint64(1)``, at the price of importing numpy (a tenth of a second) in every run, even the
ones that load the compiled search from the cache and never compile a line. :class:`Word` is the same constant
without numpy: in a kernel it *is* ``numpy.uint64`` (the hook's globals are swapped when gamedp compiles it, see
:func:`kernel_value`), and in plain Python it is an ``int`` whose arithmetic wraps as a machine word's, so that a
hook called from Python gives what its compiled form gives (but for shifts by 64 or more, which a machine leaves
undefined: Python's give 0).

>>> ONE = Word(1)
>>> ONE << 63
Word(9223372036854775808)
>>> ONE << 64
Word(0)
>>> Word(0) - ONE
Word(18446744073709551615)
>>> ~Word(0) == 2**64 - 1, Word(5) & 3, 3 | Word(4)
(True, Word(1), Word(7))
>>> Word(-1), Word(7) // 2, Word(7) > 6, Word(2) ** 64, divmod(Word(7), 2)
(Word(18446744073709551615), Word(3), True, Word(0), (Word(3), Word(1)))
"""

from __future__ import annotations

from typing import Any

#: The values a word holds: 0 to 2^64 - 1.
MASK = (1 << 64) - 1


class Word(int):
    """An unsigned 64-bit integer: ``Word(x)`` is ``x`` modulo 2^64, and its arithmetic wraps likewise (in a
    compiled hook, ``numpy.uint64``)."""

    __slots__ = ()

    def __new__(cls, value: Any = 0) -> Word:
        return super().__new__(cls, int(value) & MASK)

    def __repr__(self) -> str:
        return f"Word({int(self)})"

    def __invert__(self) -> Word:
        return Word(~int(self))

    def __neg__(self) -> Word:
        return Word(-int(self))

    def __pos__(self) -> Word:
        return self

    __abs__ = __pos__

    def __divmod__(self, other: Any) -> Any:
        return self // other, self % other


def _wrapping(name: str) -> Any:
    operation = getattr(int, name)

    def wrapped(self: Word, other: Any) -> Any:
        result = operation(self, other)
        return Word(result) if isinstance(result, int) else result  # NotImplemented, or a float from **

    wrapped.__name__ = name
    return wrapped


# Every integer operation whose result is an integer wraps; true division (a float) does not.
for _name in ("add", "sub", "mul", "floordiv", "mod", "pow", "lshift", "rshift", "and", "or", "xor"):
    for _side in ("", "r"):
        setattr(Word, f"__{_side}{_name}__", _wrapping(f"__{_side}{_name}__"))


def kernel_value(value: Any) -> Any:
    """``value`` as numba should see it in a kernel: the class :class:`Word` as ``numpy.uint64``, a word as a
    ``numpy.uint64`` scalar, a tuple with its items so converted; anything else as it is.

    >>> import numpy as np
    >>> kernel_value((Word(3), 2, (Word(1),))) == (np.uint64(3), 2, (np.uint64(1),))
    True
    >>> kernel_value(Word) is np.uint64, type(kernel_value(Word(1))).__name__
    (True, 'uint64')
    """
    if value is Word:
        import numpy as np

        return np.uint64
    if isinstance(value, Word):
        import numpy as np

        return np.uint64(int(value))
    if isinstance(value, tuple):
        return tuple(kernel_value(item) for item in value)
    return value


def has_words(value: Any) -> bool:
    """Whether ``value`` is :class:`Word`, a word, or a tuple holding one (what :func:`kernel_value` changes)."""
    if value is Word or isinstance(value, Word):
        return True
    return isinstance(value, tuple) and any(has_words(item) for item in value)
