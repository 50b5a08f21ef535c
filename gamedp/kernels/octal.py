"""Kernels for take-and-break games: Grundy sequences by mex, and the Guy-Smith periodicity check.

A ruleset is a digit per number of stones removed, as in an octal code: ``digits[k]`` has bit 1 when removing
``k`` stones may leave no heap, bit 2 when it may leave one heap, bit 4 when it may leave two non-empty heaps
(``k = 0`` with bit 4 splits a heap without removing anything). ``ks`` lists the ``k`` whose digit is non-zero, in
increasing order. Subtraction games are the codes with digit 3 at each allowed ``k``; Grundy's game is
``digits[0] = 4`` with ``unequal`` set (the two heaps must differ).

The heavy part is the split: a heap of ``m`` splits as ``a + (m - a)`` in ~m/2 ways, so a sequence up to n costs
O(n^2). While every value so far is below 64, the reachable values are collected as bits of one machine word
and the second heap is read from a reversed copy of the sequence, so both reads run forwards: the loop is then
a plain OR-reduction the compiler vectorises. Past 64 the kernel falls back to a seen array stamped with the
heap size (no clearing between heaps).
"""

import numpy as np

EXPORTS = {
    "take_break": "i8(u1[:], i8[:], u1, i8, i8, i4[:])",
    "proven_period": "i8(i4[:], i8, i8, i8[:])",
}


def _split_bits(g8, r8, off, amax):
    """OR of 1 << (g8[a] ^ g8[m - a]) for 1 <= a <= amax, where r8[off + a] holds g8[m - a]."""
    one = np.uint64(1)
    mask = np.uint64(0)
    o = np.uint64(off)
    for a in range(np.uint64(1), np.uint64(amax) + one):
        mask |= one << np.uint64(g8[a] ^ r8[o + a])
    return mask


def _low_zero_bit(mask):
    v = 0
    while v < 64 and (mask >> np.uint64(v)) & np.uint64(1):
        v += 1
    return v


def take_break(digits, ks, unequal, lo, hi, g):
    """Fill g[lo:hi] (g[:lo] already known, g[0] = 0, lo >= 1); return the largest value in g[:hi]."""
    top = 0
    for i in range(lo):
        top = max(top, g[i])
    g8 = np.zeros(hi, np.uint8)
    r8 = np.zeros(hi, np.uint8)  # r8[hi - 1 - i] = g8[i]: the second heap of a split, read forwards
    if top < 64:
        for i in range(lo):
            g8[i] = g[i]
            r8[hi - 1 - i] = g[i]
    size = 128
    while size <= 2 * top + 2:
        size *= 2
    seen = np.zeros(size, np.int64)
    nk = ks.shape[0]
    one = np.uint64(1)
    for n in range(lo, hi):
        if top < 64:
            mask = np.uint64(0)
            for j in range(nk):
                k = ks[j]
                m = n - k
                if m < 0:
                    break
                d = digits[k]
                if d & 1 and m == 0:
                    mask |= one
                if d & 2 and m > 0:
                    mask |= one << np.uint64(g8[m])
                if d & 4 and m >= 2:
                    amax = (m - 1) // 2 if unequal else m // 2
                    if amax >= 1:
                        mask |= _split_bits(g8, r8, hi - 1 - m, amax)
            v = _low_zero_bit(mask)
        else:
            # Values are unbounded here: XORs of values below 2^b stay below 2^b, so the seen array
            # must reach the next power of two above the largest value.
            while size <= 2 * top + 2:
                size *= 2
                seen = np.zeros(size, np.int64)
            for j in range(nk):
                k = ks[j]
                m = n - k
                if m < 0:
                    break
                d = digits[k]
                if d & 1 and m == 0:
                    seen[0] = n
                if d & 2 and m > 0:
                    seen[g[m]] = n
                if d & 4 and m >= 2:
                    amax = (m - 1) // 2 if unequal else m // 2
                    for a in range(1, amax + 1):
                        seen[g[a] ^ g[m - a]] = n
            v = 0
            while seen[v] == n:
                v += 1
        g[n] = v
        if v > top:
            top = v
        if top < 64:
            g8[n] = v
            r8[hi - 1 - n] = v
    return top


def proven_period(g, count, t, out):
    """The smallest period p that the Guy-Smith criterion proves from g[:count], or 0.

    Criterion (octal games, at most ``t`` stones removed): if g[n + p] = g[n] for all n0 <= n < 2 n0 + p + t,
    then for all n >= n0. On success out[0] = p and out[1] = the preperiod, the least n0 from which the
    sequence repeats with period p (so n0 - 1 is the last exceptional heap).
    """
    last = count - 1
    for p in range(1, count):
        # The check needs indices up to 2 n0 + 2 p + t - 1 <= last, with n0 >= 1.
        n0max = (last + 1 - 2 * p - t) // 2
        if n0max < 1:
            return 0
        i = last - p
        while i >= 0 and g[i] == g[i + p]:
            i -= 1
        n0 = i + 1
        if max(n0, 1) <= n0max:
            # p is proven; the least period divides it, and with p proven one window of p checks a divisor.
            for d in range(1, p):
                if p % d == 0 and _repeats(g, d, n0, n0 + p):
                    p = d
                    i = last - p
                    while i >= 0 and g[i] == g[i + p]:
                        i -= 1
                    n0 = i + 1
                    break
            out[0] = p
            out[1] = n0
            return p
    return 0


def _repeats(g, d, lo, hi):
    for i in range(lo, hi):
        if g[i] != g[i + d]:
            return False
    return True
