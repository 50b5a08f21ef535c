"""The value of a short partizan game in canonical form, with its algebra.

>>> up, star = parse("↑"), parse("*")
>>> up > 0, star == 0, star.fuzzy(0), up + up + star
(True, False, True, GameValue('⇑*'))
>>> parse("{1|-1}").outcome, parse("{2|-1/2}").mean, parse("{2|-1/2}").temperature
('N', Fraction(3, 4), Fraction(5, 4))
>>> GameValue.number(3) - parse("1/2")
GameValue('5/2')
"""

from __future__ import annotations

from gamedp.cgt import canonical as cf
from gamedp.cgt.notation import braces, format_value, read
from gamedp.cgt.numbers import Dyadic

TYPE_CHECKING = False  # typing's own flag would import typing, which costs more than valuing a small game
if TYPE_CHECKING:
    from collections.abc import Iterable
    from fractions import Fraction

OUTCOME_NAMES = {"L": "Left wins", "R": "Right wins", "P": "the second player wins",
                 "N": "the first player wins"}



def parse(text: str, source: str = "expression") -> GameValue:
    """The value of an expression in CGSuite's notation (:mod:`gamedp.cgt.notation`): braces, names, sums and
    differences; an :class:`~gamedp.errors.InputError` naming ``source`` and the column otherwise."""
    return GameValue(read(text, source))

class GameValue:
    """A canonical form. ``+``, unary and binary ``-``, ``<=``, ``<``, ``==`` (exact equality of values),
    :meth:`fuzzy`; ints, Fractions (dyadic) and :class:`~gamedp.cgt.numbers.Dyadic` are taken as numbers; mean and
    temperature are Fractions."""

    __slots__ = ("id",)

    def __init__(self, form_id: int):
        self.id = form_id

    # -- building -----------------------------------------------------------------------------------------
    @classmethod
    def number(cls, x: int | Fraction | Dyadic) -> GameValue:
        return cls(cf.number(x))

    @classmethod
    def nimber(cls, n: int) -> GameValue:
        return cls(cf.nimber(n))

    @classmethod
    def of(cls, lefts: Iterable[GameValue], rights: Iterable[GameValue]) -> GameValue:
        """The canonical form of {lefts | rights}."""
        return cls(cf.make([_as_id(g) for g in lefts], [_as_id(g) for g in rights]))

    @property
    def left(self) -> list[GameValue]:
        """Left's options in the canonical form."""
        return [GameValue(o) for o in cf.left[self.id]]

    @property
    def right(self) -> list[GameValue]:
        return [GameValue(o) for o in cf.right[self.id]]

    # -- algebra ------------------------------------------------------------------------------------------
    def __add__(self, other) -> GameValue:
        return GameValue(cf.add(self.id, _as_id(other)))

    __radd__ = __add__

    def __neg__(self) -> GameValue:
        return GameValue(cf.negate(self.id))

    def __sub__(self, other) -> GameValue:
        return GameValue(cf.add(self.id, cf.negate(_as_id(other))))

    def __rsub__(self, other) -> GameValue:
        return GameValue(cf.add(_as_id(other), cf.negate(self.id)))

    def __le__(self, other) -> bool:
        return cf.leq(self.id, _as_id(other))

    def __ge__(self, other) -> bool:
        return cf.leq(_as_id(other), self.id)

    def __lt__(self, other) -> bool:
        return self <= other and not self >= other

    def __gt__(self, other) -> bool:
        return self >= other and not self <= other

    def __eq__(self, other) -> bool:
        try:
            return self.id == _as_id(other)
        except TypeError:
            return NotImplemented

    def __hash__(self) -> int:
        return hash(("GameValue", self.id))

    def fuzzy(self, other) -> bool:
        """Neither <= nor >=: confused with ``other`` (G - H is a first-player win)."""
        return not self <= other and not self >= other

    # -- properties ---------------------------------------------------------------------------------------
    @property
    def is_number(self) -> bool:
        return cf.is_number(self.id)

    @property
    def outcome(self) -> str:
        """``L``, ``R``, ``P`` or ``N`` (see :func:`gamedp.cgt.canonical.outcome`)."""
        return cf.outcome(self.id)

    @property
    def mean(self) -> Fraction:
        from gamedp.cgt.thermograph import mean_temperature

        return mean_temperature(self.id)[0].as_fraction()

    @property
    def temperature(self) -> Fraction:
        from gamedp.cgt.thermograph import mean_temperature

        return mean_temperature(self.id)[1].as_fraction()

    @property
    def braces(self) -> str:
        return braces(self.id)

    def __str__(self) -> str:
        return format_value(self.id)

    def __repr__(self) -> str:
        return f"GameValue({str(self)!r})"

    def _repr_html_(self) -> str:
        """Jupyter: the value, its outcome class, and its thermograph."""
        from html import escape

        from gamedp.cgt.thermograph import svg

        return f"<div><code>{escape(str(self))}</code> ({escape(OUTCOME_NAMES[self.outcome])})<br>{svg(self.id)}</div>"


def _as_id(x) -> int:
    if isinstance(x, GameValue):
        return x.id
    if isinstance(x, bool) or not (isinstance(x, (int, Dyadic)) or hasattr(x, "denominator")):
        raise TypeError(f"cannot use {type(x).__name__} as a game value")
    return cf.number(x)  # a ValueError if x is not dyadic
