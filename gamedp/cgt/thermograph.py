"""Thermographs: the walls of a game cooled by t, its mean (where the mast stands) and temperature (where the
walls meet).

A wall is a piecewise-linear function of the temperature t >= -1, held as its corners (t, value) and constant
after the last. The Left scaffold of G is max over G^L of (G^L's right wall) - t, the Right scaffold min over
G^R of (G^R's left wall) + t; the walls follow them up to the temperature where they meet, then stand on the
mast. A number's thermograph is its mast from t = -1; its temperature is CGSuite's convention (-1 for an
integer, -1/2^k for m/2^k).

>>> from gamedp.cgt.values import parse
>>> g = parse("{2|-1/2}")
>>> [str(x) for x in mean_temperature(g.id)]
['3/4', '5/4']
>>> [str(x) for x in mean_temperature(parse("↑").id) + mean_temperature(parse("1/4").id)]
['0', '0', '1/4', '-1/4']
"""

from __future__ import annotations

from gamedp.cgt import canonical as cf
from gamedp.cgt.numbers import Dyadic, number_temperature

TYPE_CHECKING = False  # typing's flag would import typing; naming a value loads this module
if TYPE_CHECKING:
    from collections.abc import Callable

Wall = list[tuple[Dyadic, Dyadic]]
START = Dyadic(-1)


def at(wall: Wall, t: Dyadic) -> Dyadic:
    """The wall's value at temperature ``t``."""
    if t >= wall[-1][0]:
        return wall[-1][1]
    for (t0, v0), (t1, v1) in zip(wall, wall[1:]):
        if t <= t1:
            return v0 + (v1 - v0) * (t - t0) / (t1 - t0)
    raise AssertionError("unreachable")


def _combine(walls: list[Wall], pick: Callable, slope: int, far: Dyadic) -> Wall:
    """pick (max or min) of the walls, plus slope * t, on [-1, far]; corners where two walls cross are kept."""
    ts = sorted({t for w in walls for t, _ in w} | {far})
    points = set(ts)
    for a, b in zip(ts, ts[1:]):
        for i, w in enumerate(walls):
            for u in walls[i + 1:]:
                da, db = at(w, a) - at(u, a), at(w, b) - at(u, b)
                if da * db < 0:
                    points.add(a + (b - a) * da / (da - db))
    return _trim([(t, pick(at(w, t) for w in walls) + slope * t) for t in sorted(points)])


def _trim(wall: Wall) -> Wall:
    """Drop corners on a straight stretch."""
    out = wall[:1]
    for k in range(1, len(wall)):
        if k + 1 < len(wall):
            (t0, v0), (t1, v1), (t2, v2) = out[-1], wall[k], wall[k + 1]
            if (v1 - v0) * (t2 - t1) == (v2 - v1) * (t1 - t0):
                continue
        out.append(wall[k])
    return out


_walls: dict[int, tuple[Wall, Wall, Dyadic]] = {}


def walls(g: int) -> tuple[Wall, Wall, Dyadic]:
    """(left wall, right wall, temperature) of the canonical form ``g``."""
    found = _walls.get(g)
    if found is not None:
        return found
    x = cf.value_of_number[g]
    if x is not None:
        mast = [(START, x)]
        found = (mast, mast, number_temperature(x))
    else:
        lws, rws = [walls(o)[1] for o in cf.left[g]], [walls(o)[0] for o in cf.right[g]]
        # past the options' last corners the scaffolds are straight and close in at slope 2: they meet by far
        last = max(t for w in lws + rws for t, _ in w)
        gap = max(at(w, last) for w in lws) - min(at(w, last) for w in rws) - 2 * last
        far = last + max(gap, Dyadic(0)) / 2 + 1
        ls = _combine(lws, max, -1, far)
        rs = _combine(rws, min, +1, far)
        tau = _meeting(ls, rs)
        m = at(ls, tau)
        found = (_cut(ls, tau, m), _cut(rs, tau, m), tau)
    _walls[g] = found
    return found


def _meeting(ls: Wall, rs: Wall) -> Dyadic:
    """The least t >= -1 where the Left scaffold (falling) meets the Right one (rising)."""
    ts = sorted({t for t, _ in ls} | {t for t, _ in rs})
    prev = None
    for t in ts:
        gap = at(ls, t) - at(rs, t)
        if gap <= 0:
            if prev is None:
                return t
            t0, g0 = prev
            return t0 + (t - t0) * g0 / (g0 - gap)
        prev = (t, gap)
    raise AssertionError("the scaffolds of a short game always meet")


def _cut(wall: Wall, tau: Dyadic, mast: Dyadic) -> Wall:
    return _trim([(t, v) for t, v in wall if t < tau] + [(tau, mast)])


def mean_temperature(g: int) -> tuple[Dyadic, Dyadic]:
    """(mean, temperature) of the canonical form ``g``."""
    lw, _, tau = walls(g)
    return lw[-1][1], tau


def svg(g: int, width: int = 320, height: int = 220) -> str:
    """The thermograph as an SVG picture: value across (Left's side, the larger values, on the left, as in
    Winning Ways), temperature up from -1; the walls in blue (Left) and red (Right), the mast dashed.

    >>> from gamedp.cgt.values import parse
    >>> picture = svg(parse("{2|-1/2}").id)
    >>> picture.startswith("<svg") and picture.count("<polyline") == 2
    True
    """
    lw, rw, tau = walls(g)
    top = max(tau, Dyadic(0)) + 1
    values = [v for w in (lw, rw) for _, v in w]
    high, low = max(values), min(values)
    span = max(high - low, Dyadic(1))
    pad = 30

    def x(v: Dyadic) -> float:  # larger values to the left
        return pad + float(high + span / 4 - v) / float(span * 3 / 2) * (width - 2 * pad)

    def y(t: Dyadic) -> float:
        return height - pad - float(t + 1) / float(top + 1) * (height - 2 * pad)

    def line(wall: Wall, colour: str) -> str:
        points = [(t, v) for t, v in wall if t <= tau] + [(tau, wall[-1][1])]
        text = " ".join(f"{x(v):.1f},{y(t):.1f}" for t, v in points)
        return f'<polyline points="{text}" fill="none" stroke="{colour}" stroke-width="2"/>'

    mast = lw[-1][1]
    zero = f'<line x1="{pad / 2}" y1="{y(Dyadic(0)):.1f}" x2="{width - pad / 2}" y2="{y(Dyadic(0)):.1f}" ' \
           'stroke="#bbb"/>'
    pole = f'<line x1="{x(mast):.1f}" y1="{y(tau):.1f}" x2="{x(mast):.1f}" y2="{y(top):.1f}" stroke="#444" ' \
           'stroke-dasharray="4 3"/>'
    from gamedp.cgt.numbers import format_number

    label = f'<text x="{pad / 2}" y="16" font-size="12">mean {format_number(mast)}, temperature ' \
            f'{format_number(tau)}</text>'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" aria-label="thermograph">{zero}{line(lw, "#2557c4")}{line(rw, "#c42525")}{pole}'
            f'{label}</svg>')
