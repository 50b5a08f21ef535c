"""The compiled alpha-beta search (see :mod:`gamedp.solvers.compiled_alphabeta`), as cached numba kernels.

The table reuses :mod:`gamedp.solvers.compiled_table`'s hash (``slot``, ``make_room``): ``vals`` holds both bounds
of a position's score, each offset into 32 bits; ``ON_PATH`` marks a position on the search's path.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from gamedp.solvers.compiled_table import CHILDREN_SIGNATURE, PRIMITIVE_SIGNATURE, make_room, new_stack, slot
from gamedp.solvers.search_status import (
    BAD_PRIMITIVE, CYCLE, NEED_ROOM, OK, OUT_OF_RANGE, REPORT_EVERY, STOPPED, TOO_MANY_CHILDREN)

ON_PATH = -2
_OFFSET = 1 << 31
_LOW = (1 << 32) - 1
# frame columns
POS, ALPHA, BETA, A0, BEST, LO, HI, COUNT, NEXT = range(9)
COLUMNS = NEXT + 1


@njit(cache=True, nogil=True)
def pack(lo, hi):
    return ((lo + _OFFSET) << 32) | (hi + _OFFSET)


@njit(cache=True, nogil=True)
def to_parent(s, remote):
    """The parent's score for a move into a child scored ``s``: negated, and a move further from the end."""
    s = -s
    if remote:
        if s > 0:
            return s - 1
        if s < 0:
            return s + 1
    return s


@njit(cache=True, nogil=True)
def to_child(bound, remote):
    """The child's bound that means the parent's ``bound`` (the inverse of :func:`to_parent`)."""
    if remote:
        if bound > 0:
            bound += 1
        elif bound < 0:
            bound -= 1
    return -bound


def search(children, primitive, root, keys, vals, used, history, maxc, limit, top, remote, misere, watch):
    """The exact score of ``root``, with the grown table: (keys, vals, used, status, position, detail).
    ``watch``: see :data:`gamedp.solvers.search_status.REPORT_EVERY`."""
    frames, kids, buf = new_stack(COLUMNS, 2 * maxc, maxc)
    rates, order = np.empty(maxc, np.int64), np.empty(maxc, np.int64)
    pos, alpha, beta, depth = root, -top, top, 0
    while True:
        status, pos, detail, alpha, beta, depth, used = walk(
            children, primitive, pos, alpha, beta, depth, frames, kids, buf, rates, order, keys, vals, used,
            history, maxc, limit, top, remote, misere, watch)
        if status != NEED_ROOM:
            return keys, vals, used, status, pos, detail
        frames, kids, keys, vals = make_room(depth, frames, kids, keys, vals)


@njit(cache=True, nogil=True)
def walk(children, primitive, pos, alpha, beta, depth, frames, kids, buf, rates, order, keys, vals, used, history,
         maxc, limit, top, remote, misere, watch):
    """Enter ``pos`` (window ``alpha``..``beta``) above ``depth`` frames and search until the root is valued,
    or until the stack or the table needs room (NEED_ROOM: the caller grows them and calls again). Row d of
    ``kids`` holds frame d's children, best guess first, and the history slot of each after them; ``rates`` and
    ``order`` (``maxc`` each) are room for ordering one position's children. It allocates nothing, so that it
    also runs as a plain C function (:mod:`gamedp.solvers.prebuilt_search`)."""
    entered = 0
    while True:
        entered += 1
        if not entered & REPORT_EVERY:
            watch[0] = used
            if watch[1]:
                return STOPPED, pos, 0, alpha, beta, depth, used
        # -- enter pos: its score at once (table, primitive, no moves, a refuting child), else a new frame
        if depth == frames.shape[0] or 2 * (used + 1) > keys.shape[0]:
            return NEED_ROOM, pos, 0, alpha, beta, depth, used
        s = slot(keys, vals, pos)
        lo, hi = -top, top
        found = keys[s] == pos
        if found:
            if vals[s] == ON_PATH:
                return CYCLE, pos, 0, alpha, beta, depth, used
            lo, hi = (vals[s] >> 32) - _OFFSET, (vals[s] & _LOW) - _OFFSET
        score = 0
        done = True
        if lo >= beta:
            score = lo
        elif hi <= alpha or lo == hi:
            score = hi
        else:
            code = 0 if primitive is None else primitive(pos)
            if code < 0 or code > 3:
                return BAD_PRIMITIVE, pos, code, alpha, beta, depth, used
            n = 0
            if code == 0:
                n = children(pos, buf)
                if n > maxc:
                    return TOO_MANY_CHILDREN, pos, n, alpha, beta, depth, used
                if n == 0:
                    code = 2 if misere else 1
            if code != 0:
                score = top if code == 2 else -top if code == 1 else 0
                lo = hi = score
            else:
                alpha, beta = max(alpha, lo), min(beta, hi)
                a0, best = alpha, -top - 1
                # Enhanced transposition cut-off and ordering: rate each child by what the table knows.
                for j in range(n):
                    c = buf[j]
                    if c < 0 or (limit >= 0 and c >= limit):
                        return OUT_OF_RANGE, pos, c, alpha, beta, depth, used
                    rates[j] = -top - 1
                    cs = slot(keys, vals, c)
                    if keys[cs] == c and vals[cs] != ON_PATH:
                        chi = (vals[cs] & _LOW) - _OFFSET
                        if chi < top:
                            r = to_parent(chi, remote)
                            rates[j] = r
                            if r > best:
                                best = r
                                alpha = max(alpha, r)
                if best >= beta:
                    score, lo = best, max(best, lo)
                else:
                    # insertion sort: the table's rating, then the history of cut-offs by slot, then kernel order
                    for j in range(n):
                        x = j
                        m = j
                        while m > 0 and (rates[order[m - 1]] < rates[x] or (
                                rates[order[m - 1]] == rates[x] and history[order[m - 1]] < history[x])):
                            order[m] = order[m - 1]
                            m -= 1
                        order[m] = x
                    for j in range(n):
                        kids[depth, j] = buf[order[j]]
                        kids[depth, maxc + j] = order[j]
                    done = False
                    f = frames[depth]
                    f[POS], f[ALPHA], f[BETA], f[A0], f[BEST], f[LO], f[HI] = pos, alpha, beta, a0, best, lo, hi
                    f[COUNT], f[NEXT] = n, 0
                    if not found:
                        used += 1
                    keys[s] = pos
                    vals[s] = ON_PATH
                    depth += 1
            if done:
                if not found:
                    used += 1
                keys[s] = pos
                vals[s] = pack(lo, hi)
        # -- return scores up the stack until a frame needs a child entered
        while True:
            if done:
                if depth == 0:
                    return OK, pos, score, alpha, beta, depth, used
                f = frames[depth - 1]
                r = to_parent(score, remote)
                if r > f[BEST]:
                    f[BEST] = r
                    if r > f[ALPHA]:
                        f[ALPHA] = r
                if f[BEST] >= f[BETA]:
                    history[kids[depth - 1, maxc + f[NEXT]]] += 1
                    f[NEXT] = f[COUNT]
                else:
                    f[NEXT] += 1
            f = frames[depth - 1]
            if f[NEXT] < f[COUNT]:
                pos = kids[depth - 1, f[NEXT]]
                alpha, beta = to_child(f[BETA], remote), to_child(f[ALPHA], remote)
                break
            # the frame is finished: store its bounds, and return its score
            best, lo, hi = f[BEST], f[LO], f[HI]
            if best <= f[A0]:
                hi = min(best, hi)
            elif best >= f[BETA]:
                lo = max(best, lo)
            else:
                lo = hi = best
            pos, score, done = f[POS], best, True
            vals[slot(keys, vals, pos)] = pack(lo, hi)
            depth -= 1


def _signature(primitive_type):
    return types.Tuple((types.int64[::1], types.int64[::1], types.int64, types.int64, types.int64, types.int64))(
        types.FunctionType(CHILDREN_SIGNATURE), primitive_type, types.int64, types.int64[::1], types.int64[::1],
        types.int64, types.int64[::1], types.int64, types.int64, types.int64, types.boolean, types.boolean,
        types.int64[::1])


_searches: dict = {}


def searcher(has_primitive: bool):
    """The search compiled for games with or without a primitive kernel (cached on disk, loaded when first used)."""
    if has_primitive not in _searches:
        primitive_type = types.FunctionType(PRIMITIVE_SIGNATURE) if has_primitive else types.none
        _searches[has_primitive] = njit(_signature(primitive_type), cache=True, nogil=True)(search)
    return _searches[has_primitive]
