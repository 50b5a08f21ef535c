"""Frozen records: classes of named fields, compared, hashed, shown and pickled by their fields, which refuse
to be changed once made.

What ``dataclasses.dataclass(frozen=True, slots=True)`` makes of a plain class, without importing dataclasses:
it imports inspect, ~9 ms of every process that reads a game's values (a short ``gamedp value`` run is timed
whole-process). A record lists its fields in ``__slots__`` and sets them in its ``__init__`` with :func:`init`.

>>> class Point(Record):
...     __slots__ = __match_args__ = ("x", "y")
...     def __init__(self, x: int, y: int = 0):
...         init(self, x=x, y=y)
>>> p = Point(1)
>>> p, p == Point(1, 0), p == (1, 0), hash(p) == hash(Point(1, 0))
(Point(x=1, y=0), True, False, True)
>>> import copy
>>> copy.deepcopy(p) == p
True
>>> p.x = 2
Traceback (most recent call last):
...
AttributeError: cannot assign to field 'x' of a frozen Point
"""

from __future__ import annotations


class Record:
    """The base of a frozen record (see the module's docstring)."""

    __slots__ = ()

    def fields(self) -> tuple:
        """The record's field values, in the order of its ``__slots__``."""
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self.fields() == other.fields()  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")

    def __reduce__(self) -> tuple:
        return type(self), self.fields()


def init(record: Record, **fields: object) -> None:
    """Set a new record's fields (its ``__init__`` calls this: the record refuses plain assignment)."""
    for name, value in fields.items():
        object.__setattr__(record, name, value)
