"""Canonical forms of short partizan games, interned: every value is an integer id into one table.

A game {L1, L2, ... | R1, R2, ...} is simplified to its canonical form by removing dominated options and
bypassing reversible ones (Winning Ways, ch. 3; Siegel, *Combinatorial Game Theory*, II.2). Canonical forms are
unique, so two games are equal exactly when their ids are; the table keeps each form once, with its options as
ids. Comparisons and sums are memoised on pairs of ids. Numbers take short cuts: two numbers compare and add as
dyadic rationals, and a number plus a non-number G is {G^L + x | G^R + x}, already canonical (number translation).

>>> star = make((ZERO,), (ZERO,))
>>> up = make((ZERO,), (star,))
>>> leq(ZERO, up), leq(up, ZERO), leq(star, ZERO) or leq(ZERO, star)
(True, False, False)
>>> add(star, star) == ZERO, add(up, negate(up)) == ZERO
(True, True)
>>> make((number(0),), (number(2),)) == number(1)
True
"""

from __future__ import annotations

from gamedp.cgt.numbers import Dyadic, simplest_between

TYPE_CHECKING = False  # typing's flag would import typing: this module loads on the way to a value, and is quick
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

#: options of each form: ids, sorted
left: list[tuple[int, ...]] = []
right: list[tuple[int, ...]] = []
#: the number a form is, or None
value_of_number: list[Dyadic | None] = []
_forms: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
_numbers: dict[Dyadic, int] = {}
_negative: dict[int, int] = {}
_leq: dict[int, bool] = {}
_sum: dict[int, int] = {}
#: pairs of ids are memo keys g * _PAIR + h (an int hashes faster than a tuple)
_PAIR = 1 << 40
#: the memory held is looked at each time this many more forms (a mask) are kept, and, as a form is simplified,
#: once 16 times as many more comparisons are (not in leq itself: the test there cost 5% of a sum's time)
LOOK_EVERY = (1 << 10) - 1
_look_at_comparisons = 0
#: what stops a valuation whose tables hold too much, given what stopped and what to make smaller; the memory
#: budget (:mod:`gamedp.cgt.budget`, a process service above this vocabulary) installs its check when imported
memory_check: Callable[[str, str], None] | None = None


def _look() -> None:
    """Stop past ``--memory``, or before the machine runs out (the tables here only grow)."""
    global _look_at_comparisons
    _look_at_comparisons = len(_leq) + (LOOK_EVERY + 1) * 16
    if memory_check is not None:
        memory_check(f"valuing this stopped after {len(left):,} forms and {len(_leq):,} comparisons",
                     "expression or position")


def _new(lefts: tuple[int, ...], rights: tuple[int, ...], x: Dyadic | None) -> int:
    g = len(left)
    if g & LOOK_EVERY == LOOK_EVERY:  # before the tables change: a form is in all of them or in none
        _look()
    left.append(lefts)
    right.append(rights)
    value_of_number.append(x)
    _forms[lefts, rights] = g
    return g


def number(x: Dyadic | int | object) -> int:
    """The id of the number ``x``: a dyadic rational (a :class:`~gamedp.cgt.numbers.Dyadic`, an int or a
    ``fractions.Fraction``); a ValueError for any other number, which is no short game."""
    x = Dyadic.of(x)
    g = _numbers.get(x)
    if g is not None:
        return g
    if x.k:
        g = _new((number(Dyadic(x.m - 1, x.k)),), (number(Dyadic(x.m + 1, x.k)),), x)
    else:  # integers built up from 0 in a loop: 1000 is {999|}, so no deep recursion
        g = _numbers.get(Dyadic(0))
        if g is None:
            g = _numbers[Dyadic(0)] = _new((), (), Dyadic(0))
        sign = 1 if x.m > 0 else -1
        for k in range(sign, x.m + sign, sign):
            below = g
            g = _numbers.get(Dyadic(k))
            if g is None:
                g = _numbers[Dyadic(k)] = _new((below,), (), Dyadic(k)) if sign > 0 else \
                    _new((), (below,), Dyadic(k))
        return g
    _numbers[x] = g
    return g


ZERO = number(0)


def is_number(g: int) -> bool:
    return value_of_number[g] is not None


def leq(g: int, h: int) -> bool:
    """Whether G <= H: no G^L >= H and no H^R <= G. A number's own options are skipped against a non-number
    (number avoidance: x <= H iff no H^R <= x, when H is not a number)."""
    if g == h:
        return True
    x, y = value_of_number[g], value_of_number[h]
    if x is not None and y is not None:
        return x <= y
    key = g * _PAIR + h
    found = _leq.get(key)
    if found is not None:
        return found
    answer = True
    if x is None:
        for gl in left[g]:
            if leq(h, gl):
                answer = False
                break
    if answer and y is None:
        for hr in right[h]:
            if leq(hr, g):
                answer = False
                break
    _leq[key] = answer
    return answer


def negate(g: int) -> int:
    """-G = {-G^R | -G^L}; the negative of a canonical form is canonical."""
    found = _negative.get(g)
    if found is not None:
        return found
    x = value_of_number[g]
    if x is not None:
        n = number(-x)
    else:
        n = _intern(tuple(sorted(negate(r) for r in right[g])), tuple(sorted(negate(o) for o in left[g])))
    _negative[g] = n
    _negative[n] = g
    return n


def add(g: int, h: int) -> int:
    """G + H in canonical form."""
    if g == ZERO:
        return h
    if h == ZERO:
        return g
    if g > h:
        g, h = h, g
    key = g * _PAIR + h
    found = _sum.get(key)
    if found is not None:
        return found
    x, y = value_of_number[g], value_of_number[h]
    if x is not None and y is not None:
        s = number(x + y)
    elif x is not None or y is not None:
        if x is None:
            g, h = h, g
        s = _intern(tuple(sorted(add(g, o) for o in left[h])), tuple(sorted(add(g, o) for o in right[h])))
    else:
        s = make([add(o, h) for o in left[g]] + [add(g, o) for o in left[h]],
                 [add(o, h) for o in right[g]] + [add(g, o) for o in right[h]])
    _sum[key] = s
    return s


def _intern(lefts: tuple[int, ...], rights: tuple[int, ...]) -> int:
    """The id of a form known to be canonical (options sorted), not a number."""
    g = _forms.get((lefts, rights))
    return _new(lefts, rights, None) if g is None else g


#: a form read back from a saved table, known canonical
adopt = _intern


def make(lefts: Iterable[int], rights: Iterable[int]) -> int:
    """The canonical form of {lefts | rights}, options given as ids."""
    ls, rs = set(lefts), set(rights)
    found = _forms.get((tuple(sorted(ls)), tuple(sorted(rs))))
    if found is not None:
        return found
    nums = value_of_number
    if all(nums[o] is not None for o in ls) and all(nums[o] is not None for o in rs):
        low = max((nums[o] for o in ls), default=None)
        high = min((nums[o] for o in rs), default=None)
        if low is None or high is None or low < high:  # the simplicity rule
            return number(simplest_between(low, high))
        # a hot game on numbers, {a|b} with a >= b: canonical once dominated options go (no number reverses)
        return _intern((number(low),), (number(high),))
    return _simplify(ls, rs)


def _simplify(ls: set[int], rs: set[int]) -> int:
    """Remove dominated options and bypass reversible ones until neither is left."""
    if len(_leq) >= _look_at_comparisons:
        _look()
    ls, rs = _extremes(ls, True), _extremes(rs, False)
    g_left, g_right = tuple(ls), tuple(rs)  # G's value never changes, so any of its forms answers comparisons
    below: dict[int, bool] = {}  # Y <= G
    above: dict[int, bool] = {}  # G <= Y

    def y_leq_g(y: int) -> bool:
        found = below.get(y)
        if found is None:
            found = True
            for yl in left[y]:
                if g_leq_y(yl):
                    found = False
                    break
            else:
                for gr in g_right:
                    if leq(gr, y):
                        found = False
                        break
            below[y] = found
        return found

    def g_leq_y(y: int) -> bool:
        found = above.get(y)
        if found is None:
            found = True
            for gl in g_left:
                if leq(y, gl):
                    found = False
                    break
            else:
                for yr in right[y]:
                    if y_leq_g(yr):
                        found = False
                        break
            above[y] = found
        return found

    changed = True
    while changed:
        changed = False
        for a in list(ls):
            for ar in right[a]:
                if y_leq_g(ar):  # Left's a reverses through ar: replace it by ar's Left options
                    ls.discard(a)
                    ls.update(left[ar])
                    changed = True
                    break
        for a in list(rs):
            for al in left[a]:
                if g_leq_y(al):
                    rs.discard(a)
                    rs.update(right[al])
                    changed = True
                    break
        if changed:
            ls = _extremes(ls, True)
            rs = _extremes(rs, False)
    key = (tuple(sorted(ls)), tuple(sorted(rs)))
    g = _forms.get(key)
    if g is not None:
        return g
    nums = value_of_number
    if all(nums[o] is not None for o in ls) and all(nums[o] is not None for o in rs):
        return make(ls, rs)  # a number whose form is not yet in the table
    return _new(key[0], key[1], None)


def _extremes(options: set[int], largest: bool) -> set[int]:
    """The options no other option dominates: the largest (Left's) or the smallest (Right's). The kept set is
    small, so each option is compared with it rather than with every other option."""
    kept: list[int] = []
    best_number = None
    for a in options:
        x = value_of_number[a]
        if x is not None:  # of the numbers only the best can stay
            if best_number is not None and (x <= value_of_number[best_number] if largest
                                            else x >= value_of_number[best_number]):
                continue
            best_number = a
    for a in sorted(options):
        if value_of_number[a] is not None and a != best_number:
            continue
        dominated = False
        for b in kept:  # loops, not any() over a generator: this is the hottest comparison of all
            if leq(a, b) if largest else leq(b, a):
                dominated = True
                break
        if not dominated:
            kept = [b for b in kept if not (leq(b, a) if largest else leq(a, b))]
            kept.append(a)
    return set(kept)


def outcome(g: int) -> str:
    """``L`` (Left wins whoever starts: G > 0), ``R`` (G < 0), ``P`` (the second player: G = 0), ``N`` (the
    first player: G fuzzy with 0)."""
    le, ge = leq(g, ZERO), leq(ZERO, g)
    return "P" if le and ge else "R" if le else "L" if ge else "N"


def nimber(n: int) -> int:
    """*n = {0, *, ..., *(n-1) | 0, *, ..., *(n-1)}."""
    opts: list[int] = []
    g = ZERO
    for _ in range(n):
        opts.append(g)
        g = _intern(tuple(sorted(opts)), tuple(sorted(opts)))
    return g

