"""CGSuite's notation for game values: writing a canonical form, and reading braces and sums back.

Short names, as CGSuite prints them: numbers (``3``, ``-1/2``), nimbers (``*``, ``*2``), ups (``↑``, ``⇑``,
``↑3``, ``↓``, with a number and a nimber added: ``1/2↑*``), switches G = -G (``±1``, ``±(1*)``, ``±{1,1*}``
for several options, ``±{3|1}``), tinies and minies (``Tiny(2)`` = {0||0|-2}, ``Miny(2)``, with a number in
front: ``3Tiny(2)``); anything else in braces, a lone braced option on a side written with its braces dropped
and one bar more (``{3|1||0}``). Reading also takes ASCII: ``^`` for ↑, ``v`` for ↓, ``+-`` for ±, ``⧾``/``⧿``
for Tiny/Miny, and sums and differences (``{1|-1} + ↑ - *2``).

Positions are canonical forms by their id (:mod:`gamedp.cgt.canonical`); :func:`gamedp.cgt.values.parse` reads
a :class:`~gamedp.cgt.values.GameValue`.

>>> [format_value(read(t)) for t in ("{0|*}", "{0,*|0}", "{1|-1}", "{{2|0}|0}", "{2|-1/2}", "{0|{0|-1}}")]
['↑', '↑*', '±1', 'Miny(2)', '{2|-1/2}', 'Tiny(1)']
>>> [format_value(read(t)) for t in ("↑ + ↑ + ↑ + *", "1/2 + *3", "2±1", "±1 ± 2")]
['↑3*', '1/2*3', '{3|1}', '±{3|1}']
>>> [format_value(read(t)) for t in ("{1,1*|-1,-1*}", "{1*|-1*}", "{3||3|1}", "-1 + Miny(1/2)")]
['±{1,1*}', '±(1*)', '3Tiny(2)', '-1Miny(1/2)']
>>> braces(read("↑"))
'{0|{0|0}}'
>>> read("{1|")
Traceback (most recent call last):
...
gamedp.errors.InputError: expression, column 4: '}' expected, found the end
"""

from __future__ import annotations

from gamedp.cgt import canonical as cf
from gamedp.cgt.numbers import Dyadic, format_number
from gamedp.errors import InputError

UP_NAMES = {1: "↑", 2: "⇑", -1: "↓", -2: "⇓"}
#: ups recognised by name, up to this many
MOST_UPS = 8
MOST_STARS = 4


# -- writing -------------------------------------------------------------------------------------------------
_nim_parts: dict[int, tuple[Dyadic, int] | None] = {}


def _nim_part(g: int) -> tuple[Dyadic, int] | None:
    """(x, m) when g = x + *m."""
    if g in _nim_parts:
        return _nim_parts[g]
    x = cf.value_of_number[g]
    found: tuple[Dyadic, int] | None = None
    if x is not None:
        found = (x, 0)
    elif cf.left[g] == cf.right[g]:
        parts = [_nim_part(o) for o in cf.left[g]]
        if all(p is not None for p in parts) and len({p[0] for p in parts}) == 1 \
                and sorted(p[1] for p in parts) == list(range(len(parts))):
            found = (parts[0][0], len(parts))
    _nim_parts[g] = found
    return found


_stops: dict[int, tuple[Dyadic, Dyadic]] = {}


def stops(g: int) -> tuple[Dyadic, Dyadic]:
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


_zero_stops: dict[int, bool] = {}


def _stops_all_zero(g: int) -> bool:
    """Whether g's stops and those of its options, all the way down, are 0: true of every n ups + *m, whose
    options are all ups and stars; a cheap test that rules out most games before any sum is formed."""
    found = _zero_stops.get(g)
    if found is None:
        found = stops(g) == (0, 0) and all(_stops_all_zero(o) for o in cf.left[g] + cf.right[g])
        _zero_stops[g] = found
    return found


def ups_and_star(g: int) -> tuple[int, int] | None:
    """(n, m) when g = n ups + *m with 0 < |n| <= MOST_UPS and m < MOST_STARS. Read off the canonical forms
    n.↑ = {0 | (n-1).↑*} (1.↑ = {0|*}) and n.↓ = -(n.↑), after adding *m back; no sums of ups are built.

    >>> up = cf.make((cf.ZERO,), (cf.nimber(1),))
    >>> ups_and_star(cf.add(cf.add(up, up), cf.nimber(3))), ups_and_star(cf.negate(up)), ups_and_star(cf.ZERO)
    ((2, 3), (-1, 0), None)
    """
    if not _stops_all_zero(g):
        return None
    star = cf.nimber(1)
    for m in range(MOST_STARS):
        h = cf.add(g, cf.nimber(m))
        sign = 1
        if cf.right[h] == (cf.ZERO,) and cf.left[h] != (cf.ZERO,):
            h, sign = cf.negate(h), -1
        for n in range(1, MOST_UPS + 1):
            ls, rs = cf.left[h], cf.right[h]
            if ls != (cf.ZERO,) or len(rs) != 1:
                break
            if rs[0] == star:
                return sign * n, m
            h = cf.add(rs[0], star)  # (n-1).↑* + * = (n-1).↑
    return None


def _star(m: int) -> str:
    return "" if m == 0 else "*" if m == 1 else f"*{m}"


def _number_up_star(g: int) -> tuple[str, bool] | None:
    """(name, compact) when g is a number plus ups plus a nimber; compact when it is just one of the three
    (CGSuite writes ``±1`` and ``±↑``, but ``±(1*)``)."""
    nim = _nim_part(g)
    if nim is not None:
        x, m = nim
        if m == 0:
            return format_number(x), True
        return (_star(m), True) if x == 0 else (format_number(x) + _star(m), False)
    lstop, rstop = stops(g)
    if lstop != rstop:
        return None
    found = ups_and_star(cf.add(g, cf.number(-lstop)))  # a number plus an infinitesimal: perhaps ups
    if found is None:
        return None
    n, m = found
    ups = UP_NAMES.get(n) or ("↑" if n > 0 else "↓") + str(abs(n))
    return ("" if lstop == 0 else format_number(lstop)) + ups + _star(m), lstop == 0 and m == 0


def _full(g: int) -> str:
    """``g`` by its short name, else in braces with the outer pair kept."""
    return short_name(g) or _braced(g)


def _switch(g: int) -> str | None:
    """±G^L for a game equal to its negative: ``±1``, ``±(1*)``, ``±{1,1*}``, ``±{3|1}``."""
    if cf.negate(g) != g:
        return None
    ls = cf.left[g]
    if len(ls) > 1:
        return "±{" + ",".join(_full(o) for o in ls) + "}"
    named = _number_up_star(ls[0])
    if named is not None:
        return "±" + (named[0] if named[1] else f"({named[0]})")
    tiny = _tiny(ls[0])
    return "±" + (f"({tiny})" if tiny else _braced(ls[0]))


def _tiny(g: int) -> str | None:
    """x + Tiny(H) = {x || x | x - H} and x + Miny(H) = {x + H | x || x}, with H's mean above 0."""
    from gamedp.cgt.thermograph import mean_temperature

    ls, rs = cf.left[g], cf.right[g]
    if len(ls) != 1 or len(rs) != 1:
        return None
    for name, near, far, sign in (("Tiny", ls[0], rs[0], -1), ("Miny", rs[0], ls[0], 1)):
        x = cf.value_of_number[near]
        inner = (cf.left[far], cf.right[far])[::-sign]  # the far option's sides, the near player's first
        if x is None or len(inner[0]) != 1 or len(inner[1]) != 1 or inner[0][0] != near:
            continue
        end = inner[1][0]
        if sign * (mean_temperature(end)[0] - x) <= 0:
            continue
        h = cf.add(end, cf.number(-x)) if sign > 0 else cf.add(cf.number(x), cf.negate(end))
        return ("" if x == 0 else format_number(x)) + f"{name}({_full(h)})"
    return None


def short_name(g: int) -> str | None:
    """CGSuite's short name of ``g``, if it has one."""
    named = _number_up_star(g)
    if named is not None:
        return named[0]
    return _switch(g) or _tiny(g)


def format_value(g: int) -> str:
    """``g`` in CGSuite's notation."""
    return short_name(g) or _braced(g)


def braces(g: int) -> str:
    """Every option spelled out in braces, numbers as ``a`` or ``a/b``: ``{0|{0|0}}`` for ↑."""
    x = cf.value_of_number[g]
    if x is not None:
        return format_number(x)
    return "{" + ",".join(braces(o) for o in cf.left[g]) + "|" + ",".join(braces(o) for o in cf.right[g]) + "}"


def _braced(g: int) -> str:
    """{..|..} with a side's lone braced option unbraced, one bar more than the deepest bars inside it."""
    out: list[str] = []
    _braced_into(g, out, True)
    return "".join(out)


def _braced_into(g: int, out: list[str], outer: bool) -> int:
    """Append ``g``'s pieces of text to ``out`` (its braces when ``outer``); the length of its bars. Written into
    one list, not joined at each level: a deep form's text is long, and copying it once per level was cubic."""
    if outer:
        out.append("{")
    inner, bar = 0, 0
    for side, opts in enumerate((cf.left[g], cf.right[g])):
        if side:
            bar = len(out)
            out.append("")  # the bars, once the right side's are known too
        for k, o in enumerate(opts):
            if k:
                out.append(",")
            short = short_name(o)
            if short is not None:
                out.append(short)
            elif len(opts) == 1:
                inner = max(inner, _braced_into(o, out, False))
            else:
                _braced_into(o, out, True)
    out[bar] = "|" * (inner + 1)
    if outer:
        out.append("}")
    return inner + 1


# -- reading -------------------------------------------------------------------------------------------------
_TOKEN = r"\s*(?:(?P<num>\d+(?:/\d+)?(?:\.\d+)?)|(?P<sym>\+-|Tiny|Miny|[{}|,+\-*()±↑↓⇑⇓^v⧾⧿]))"


def read(text: str, source: str = "expression") -> int:
    """The canonical form (its id) of an expression: braces, names, sums and differences."""
    return _Parser(text, source).whole()


class _Parser:
    """Reads tokens ``k`` up to ``stop``: a side of a pair of braces is read in place, with ``stop`` (and the column
    said for "the end") set to it for the while, so a deep nesting is read in time linear in its length."""

    def __init__(self, text: str, source: str):
        import re  # here, not at the top: writing a value, which every run does, needs no regular expression

        token = re.compile(_TOKEN)
        self.text, self.source, self.pos = text, source, 0
        self.tokens: list[tuple[str, int]] = []
        pos = 0
        while pos < len(text):
            m = token.match(text, pos)
            if not m:
                if text[pos:].strip() == "":  # only spaces left (looked at once: the rest is long in a deep form)
                    break
                col = pos + len(text[pos:]) - len(text[pos:].lstrip()) + 1
                self.fail(f"unexpected character {text[col - 1]!r}", col)
            tok = m.group("num") or m.group("sym")
            self.tokens.append((tok, m.start(m.lastindex) + 1))
            pos = m.end()
        self.k, self.stop = 0, len(self.tokens)
        self.end = len(text.rstrip()) + 1  # the column reported for "the end" (a side's end: its bar)
        #: the index of the '}' matching each '{' that has one
        self.closing: dict[int, int] = {}
        opened: list[int] = []
        for j, (tok, _) in enumerate(self.tokens):
            if tok == "{":
                opened.append(j)
            elif tok == "}" and opened:
                self.closing[opened.pop()] = j

    def fail(self, message: str, column: int | None = None):
        if column is None:
            column = self.tokens[self.k][1] if self.k < self.stop else self.end
        raise InputError(message, source=f"{self.source}, column {column}")

    def peek(self) -> str | None:
        return self.tokens[self.k][0] if self.k < self.stop else None

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
        """Adjacent parts added: ``-1/2↑*3`` (a leading minus belongs to the number after it), ``±1``,
        ``3Tiny(2)``."""
        tok = self.peek()
        if tok == "-":
            self.take()
            nxt = self.peek()
            if nxt is None or not nxt[0].isdigit():
                return cf.negate(self.term())
            g = cf.negate(self.atom())
        else:
            g = self.atom()
        while self.peek() is not None and self.peek() not in ("+", "-", "|", ",", "}", ")"):
            g = cf.add(g, self.atom())
        return g

    def atom(self) -> int:
        col = self.tokens[self.k][1] if self.k < self.stop else len(self.text) + 1
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
            n = 2 if tok in ("⇑", "⇓") else 1
            after = self.peek()
            if n == 1 and after is not None and after[0].isdigit() and self.tokens[self.k][1] == col + 1:
                n = self.count(self.take(), col + 1)  # ↑3: three ups, the count written against the arrow
            return self.ups(n if tok in ("↑", "^", "⇑") else -n)
        if tok in ("±", "+-"):
            if self.peek() == "{" and not self._has_bar():
                self.take()
                close = self._closing()
                lefts = self.side(self.k, close, [])  # no bars of its own: a set of Left's options
                self.k = close + 1
            else:
                lefts = [self.atom()]
            return cf.make(lefts, [cf.negate(o) for o in lefts])
        if tok in ("Tiny", "Miny", "⧾", "⧿"):
            h = self.atom()
            if tok in ("Tiny", "⧾"):
                return cf.make((cf.ZERO,), (cf.make((cf.ZERO,), (cf.negate(h),)),))
            return cf.make((cf.make((h,), (cf.ZERO,)),), (cf.ZERO,))
        if tok[0].isdigit():
            return cf.number(self.number(tok, col))
        self.fail(f"unexpected {tok!r}", col)

    def ups(self, n: int) -> int:
        step = cf.make((cf.ZERO,), (cf.nimber(1),))
        if n < 0:
            n, step = -n, cf.negate(step)
        g = cf.ZERO
        for _ in range(n):
            g = cf.add(g, step)
        return g

    def _closing(self) -> int:
        """The index of the '}' matching the '{' just taken."""
        j = self.closing.get(self.k - 1, self.stop)
        if j >= self.stop:
            self.k = self.stop
            self.fail("'}' expected, found the end")
        return j

    def _runs(self, start: int, end: int) -> list[tuple[int, int]]:
        """(where, length) of each run of bars between tokens start and end outside any inner braces."""
        runs: list[tuple[int, int]] = []
        for j in self._top_level(start, end):
            if self.tokens[j][0] == "|":
                if runs and sum(runs[-1]) == j:
                    runs[-1] = (runs[-1][0], runs[-1][1] + 1)
                else:
                    runs.append((j, 1))
        return runs

    def _has_bar(self) -> bool:
        """Whether the braces opening at the next token hold a '|' of their own (a game, not a set: ±{1,1*})."""
        close = self.closing.get(self.k)
        if close is None or close >= self.stop:
            return True  # unbalanced: let the braces' parser say where
        return any(self.tokens[j][0] == "|" for j in self._top_level(self.k + 1, close))

    def _top_level(self, start: int, end: int):
        """The indices of the tokens between start and end outside any inner braces."""
        j = start
        while j < end:
            yield j
            j = self.closing.get(j, j) + 1 if self.tokens[j][0] == "{" else j + 1

    def count(self, tok: str, col: int) -> int:
        if not tok.isdigit() or len(tok) > 4:
            self.fail(f"{tok!r}: a whole number below 10000 expected", col)
        return int(tok)

    def number(self, tok: str, col: int) -> Dyadic:
        if len(tok) > 40:
            self.fail(f"the number {tok[:20]}... is too long", col)
        try:
            x = Dyadic.of(tok)
        except ValueError as e:
            self.fail(f"{tok}: {e}" if tok not in str(e) else str(e), col)
        if abs(x.numerator) > 10 ** 6 or x.denominator > 1 << 30:
            self.fail(f"{tok} is too large a number here", col)
        return x

    def braces(self, col: int) -> int:
        """After '{': options up to the matching '}'; a run of k bars splits sides when it is the longest."""
        end = self._closing()
        g = self._game(self.k, end, self._runs(self.k, end))
        self.k = end + 1
        return g

    def _game(self, start: int, end: int, runs: list[tuple[int, int]]) -> int:
        """The game written between tokens start and end, its braces left out, with these runs of bars: sides
        split by the longest (the runs are found once a pair of braces, and shared out to the sides: a deep form
        written with runs of bars is read in time near its length)."""
        longest, split = 0, None
        for k, (j, run) in enumerate(runs):
            if run == longest:
                self.fail(f"two runs of {run} bars in one pair of braces", self.tokens[j][1])
            if run > longest:
                longest, split = run, k
        if split is None:
            self.fail("a '|' expected between Left's and Right's options", self.tokens[end][1])
        where = runs[split][0]
        return cf.make(self.side(start, where, runs[:split]), self.side(where + longest, end, runs[split + 1:]))

    def side(self, start: int, end: int, runs: list[tuple[int, int]]) -> list[int]:
        """Options between token start and end: a comma list, or one game written without braces when bars
        remain (``2|0`` inside ``{2|0||0}``)."""
        if start == end:
            return []
        if runs:
            return [self._game(start, end, runs)]
        saved = self.k, self.stop, self.end
        self.k, self.stop, self.end = start, end, self.tokens[end][1]
        try:
            out = []
            while True:
                out.append(self.sum())
                if self.peek() is None:
                    return out
                if self.peek() != ",":
                    self.fail(f"',' or '|' expected, found {self.peek()!r}")
                self.take()
        finally:
            self.k, self.stop, self.end = saved
