"""CGSuite's notation for game values: writing a canonical form, and reading braces and sums back.

Short names: numbers (``3``, ``-1/2``), nimbers (``*``, ``*2``), ups (``↑``, ``⇑``, ``3.↑``, ``↓``, with a
number and a nimber added: ``1/2↑*``), switches about zero (``±1``); anything else in braces,
a lone braced option on a side written with its braces dropped and one bar more (``{2|0||0}``). Reading also
takes ASCII: ``^`` for ↑, ``v`` for ↓, ``+-`` for ±, and sums and differences (``{1|-1} + ↑ - *2``).

Positions are canonical forms by their id (:mod:`gamedp.cgt.canonical`); :func:`gamedp.cgt.values.parse` reads
a :class:`~gamedp.cgt.values.GameValue`.

>>> [format_value(read(t)) for t in ("{0|*}", "{0,*|0}", "{1|-1}", "{{2|0}|0}", "{2|-1/2}", "{0|{0|-1}}")]
['↑', '↑*', '±1', '{2|0||0}', '{2|-1/2}', '{0||0|-1}']
>>> format_value(read("↑ + ↑ + ↑ + *")), format_value(read("1/2 + *3")), format_value(read("2±1"))
('3.↑*', '1/2*3', '{3|1}')
>>> braces(read("↑"))
'{0|{0|0}}'
>>> read("{1|")
Traceback (most recent call last):
...
gamedp.errors.InputError: expression, column 4: '}' expected, found the end
"""

from __future__ import annotations

import re

from gamedp.cgt import canonical as cf
from gamedp.cgt.numbers import Fraction, format_number
from gamedp.errors import InputError

UP_NAMES = {1: "↑", 2: "⇑", -1: "↓", -2: "⇓"}
#: ups recognised by name, up to this many
MOST_UPS = 8
MOST_STARS = 4


# -- writing -------------------------------------------------------------------------------------------------
def _nim_part(g: int, memo: dict[int, tuple[Fraction, int] | None] = {}) -> tuple[Fraction, int] | None:
    """(x, m) when g = x + *m."""
    if g in memo:
        return memo[g]
    x = cf.value_of_number[g]
    found: tuple[Fraction, int] | None = None
    if x is not None:
        found = (x, 0)
    elif cf.left[g] == cf.right[g]:
        parts = [_nim_part(o) for o in cf.left[g]]
        if all(p is not None for p in parts) and len({p[0] for p in parts}) == 1 \
                and sorted(p[1] for p in parts) == list(range(len(parts))):
            found = (parts[0][0], len(parts))
    memo[g] = found
    return found


_stops: dict[int, tuple[Fraction, Fraction]] = {}


def stops(g: int) -> tuple[Fraction, Fraction]:
    """(Left stop, Right stop): where play ends on a number, Left or Right moving first."""
    found = _stops.get(g)
    if found is None:
        x = cf.value_of_number[g]
        if x is not None:
            found = (x, x)
        else:
            found = (max(stops(o)[1] for o in cf.left[g]), min(stops(o)[0] for o in cf.right[g]))
        _stops[g] = found
    return found


_ups: dict[int, tuple[int, int]] = {}


def _up_table() -> dict[int, tuple[int, int]]:
    """id of n.↑ + *m -> (n, m), for 0 < |n| <= MOST_UPS, m < MOST_STARS."""
    if not _ups:
        up = cf.make((cf.ZERO,), (cf.nimber(1),))
        for sign, step in ((1, up), (-1, cf.negate(up))):
            g = cf.ZERO
            for n in range(1, MOST_UPS + 1):
                g = cf.add(g, step)
                for m in range(MOST_STARS):
                    _ups[cf.add(g, cf.nimber(m))] = (sign * n, m)
    return _ups


def short_name(g: int) -> str | None:
    """CGSuite's short name of ``g``, if it has one."""
    nim = _nim_part(g)
    if nim is not None:
        x, m = nim
        star = "" if m == 0 else "*" if m == 1 else f"*{m}"
        return format_number(x) if not star else star if x == 0 else format_number(x) + star
    lstop, rstop = stops(g)
    if lstop == rstop:  # a number plus an infinitesimal: perhaps ups and a nimber
        found = _up_table().get(cf.add(g, cf.number(-lstop)))
        if found is not None:
            n, m = found
            ups = UP_NAMES.get(n) or f"{abs(n)}.{'↑' if n > 0 else '↓'}"
            star = "" if m == 0 else "*" if m == 1 else f"*{m}"
            return ("" if lstop == 0 else format_number(lstop)) + ups + star
    ls, rs = cf.left[g], cf.right[g]
    if len(ls) == 1 and len(rs) == 1:
        a, b = cf.value_of_number[ls[0]], cf.value_of_number[rs[0]]
        if a is not None and b is not None and a > 0 and a == -b:
            return "±" + format_number(a)
    return None


def format_value(g: int) -> str:
    """``g`` in CGSuite's notation."""
    return short_name(g) or _braced(g, short_name)[0]


def braces(g: int) -> str:
    """Every option spelled out in braces, numbers as ``a`` or ``a/b``: ``{0|{0|0}}`` for ↑."""
    x = cf.value_of_number[g]
    if x is not None:
        return format_number(x)
    return "{" + ",".join(braces(o) for o in cf.left[g]) + "|" + ",".join(braces(o) for o in cf.right[g]) + "}"


def _braced(g: int, name) -> tuple[str, int]:
    """(text, bars): {..|..} with a side's lone braced option unbraced (bars = its separator's length)."""
    sides = []
    inner = 0
    for opts in (cf.left[g], cf.right[g]):
        texts = []
        for o in opts:
            short = name(o)
            if short is not None:
                texts.append(short)
            else:
                text, bars = _braced(o, name)
                if len(opts) == 1:
                    text, inner = text[1:-1], max(inner, bars)
                texts.append(text)
        sides.append(",".join(texts))
    bars = inner + 1
    return "{" + sides[0] + "|" * bars + sides[1] + "}", bars


# -- reading -------------------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:/\d+)?(?:\.\d+)?)|(?P<sym>\+-|[{}|,+\-*()±↑↓⇑⇓^v.]))")


def read(text: str, source: str = "expression") -> int:
    """The canonical form (its id) of an expression: braces, names, sums and differences."""
    return _Parser(text, source).whole()


class _Parser:
    def __init__(self, text: str, source: str):
        self.text, self.source, self.pos = text, source, 0
        self.tokens: list[tuple[str, int]] = []
        pos = 0
        while pos < len(text):
            if text[pos:].strip() == "":
                break
            m = _TOKEN.match(text, pos)
            if not m:
                col = pos + len(text[pos:]) - len(text[pos:].lstrip()) + 1
                self.fail(f"unexpected character {text[col - 1]!r}", col)
            tok = m.group("num") or m.group("sym")
            self.tokens.append((tok, m.start(m.lastindex) + 1))
            pos = m.end()
        self.k = 0
        self.end = len(text.rstrip()) + 1  # the column reported for "the end" (a side's end: its bar)

    def fail(self, message: str, column: int | None = None):
        if column is None:
            column = self.tokens[self.k][1] if self.k < len(self.tokens) else self.end
        raise InputError(message, source=f"{self.source}, column {column}")

    def peek(self) -> str | None:
        return self.tokens[self.k][0] if self.k < len(self.tokens) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            found = "the end" if tok is None else repr(tok)
            self.fail(f"{want!r} expected, found {found}" if want else "a value expected, found the end")
        self.k += 1
        return tok

    def whole(self) -> int:
        if not self.tokens:
            self.fail("empty expression; write a value such as {1|-1} or 1/2 + *")
        g = self.sum()
        if self.peek() is not None:
            self.fail(f"unexpected {self.peek()!r} after a complete value (missing '+'?)")
        return g

    def sum(self) -> int:
        g = self.term()
        while self.peek() in ("+", "-"):
            sign = self.take()
            h = self.term()
            g = cf.add(g, h if sign == "+" else cf.negate(h))
        return g

    def term(self) -> int:
        """A signed product of adjacent parts: ``-1/2↑*3``, ``±1``, ``3.↑``."""
        tok = self.peek()
        if tok == "-":
            self.take()
            return cf.negate(self.term())
        if tok in ("±", "+-"):
            self.take()
            h = self.atom()
            return cf.make((h,), (cf.negate(h),))
        g = self.atom()
        while self.peek() is not None and self.peek() not in ("+", "-", "|", ",", "}", ")"):
            if self.peek() in ("±", "+-"):
                self.take()
                h = self.atom()
                g = cf.add(g, cf.make((h,), (cf.negate(h),)))
            else:
                g = cf.add(g, self.atom())
        return g

    def atom(self) -> int:
        col = self.tokens[self.k][1] if self.k < len(self.tokens) else len(self.text) + 1
        tok = self.take()
        if tok == "(":
            g = self.sum()
            self.take(")")
            return g
        if tok == "{":
            return self.braces(col)
        if tok == "*":
            if self.peek() is not None and self.peek()[0].isdigit():
                return cf.nimber(self.count(self.take(), col))
            return cf.nimber(1)
        if tok in ("↑", "^", "⇑", "↓", "v", "⇓"):
            return self.ups(1, tok)
        if tok[0].isdigit():
            if self.peek() == ".":  # n.↑
                self.take()
                arrow = self.take()
                if arrow not in ("↑", "^", "↓", "v"):
                    self.fail(f"'↑' or '↓' expected after '{tok}.', found {arrow!r}")
                return self.ups(self.count(tok, col), arrow)
            return cf.number(self.number(tok, col))
        self.fail(f"unexpected {tok!r}", col)

    def ups(self, n: int, arrow: str) -> int:
        up = cf.make((cf.ZERO,), (cf.nimber(1),))
        step = up if arrow in ("↑", "^", "⇑") else cf.negate(up)
        n *= 2 if arrow in ("⇑", "⇓") else 1
        g = cf.ZERO
        for _ in range(n):
            g = cf.add(g, step)
        return g

    def count(self, tok: str, col: int) -> int:
        if not tok.isdigit() or len(tok) > 4:
            self.fail(f"{tok!r}: a whole number below 10000 expected", col)
        return int(tok)

    def number(self, tok: str, col: int) -> Fraction:
        if len(tok) > 40:
            self.fail(f"the number {tok[:20]}... is too long", col)
        x = Fraction(tok)
        if x.denominator & (x.denominator - 1):
            self.fail(f"{tok} is not a dyadic rational (a denominator must be a power of 2)", col)
        if abs(x.numerator) > 10 ** 6 or x.denominator > 1 << 30:
            self.fail(f"{tok} is too large a number here", col)
        return x

    def braces(self, col: int) -> int:
        """After '{': options up to the matching '}'; a run of k bars splits sides when it is the longest."""
        start = self.k
        depth, longest, where = 0, 0, None
        j = self.k
        while j < len(self.tokens):
            tok = self.tokens[j][0]
            if tok == "{":
                depth += 1
            elif tok == "}":
                if depth == 0:
                    break
                depth -= 1
            elif tok == "|" and depth == 0:
                run = 1
                while j + run < len(self.tokens) and self.tokens[j + run][0] == "|":
                    run += 1
                if run > longest:
                    longest, where = run, j
                elif run == longest:
                    self.fail(f"two runs of {run} bars in one pair of braces", self.tokens[j][1])
                j += run
                continue
            j += 1
        if j >= len(self.tokens):
            self.k = len(self.tokens)
            self.fail("'}' expected, found the end")
        if where is None:
            self.fail("a '|' expected between Left's and Right's options", self.tokens[j][1])
        end = j
        lefts = self.side(start, where)
        rights = self.side(where + longest, end)
        self.k = end + 1
        return cf.make(lefts, rights)

    def side(self, start: int, end: int) -> list[int]:
        """Options between token start and end: a comma list, or one game written without braces when bars
        remain (``2|0`` inside ``{2|0||0}``)."""
        if start == end:
            return []
        if any(self.tokens[i][0] == "|" for i in range(start, end) if self._depth(start, i) == 0):
            sub = _Parser.__new__(_Parser)
            sub.text, sub.source = self.text, self.source
            sub.tokens = [("{", self.tokens[start][1])] + self.tokens[start:end] + [("}", self.tokens[end][1])]
            sub.k, sub.end = 1, self.tokens[end][1]
            return [sub.braces(self.tokens[start][1])]
        out = []
        sub = _Parser.__new__(_Parser)
        sub.text, sub.source, sub.tokens, sub.k = self.text, self.source, self.tokens[start:end], 0
        sub.end = self.tokens[end][1]
        while True:
            out.append(sub.sum())
            if sub.peek() is None:
                return out
            if sub.peek() != ",":
                sub.fail(f"',' or '|' expected, found {sub.peek()!r}")
            sub.take()

    def _depth(self, start: int, i: int) -> int:
        d = 0
        for j in range(start, i):
            d += {"{": 1, "}": -1}.get(self.tokens[j][0], 0)
        return d
