"""Grundy sequence G(0..n) of an octal game in plain CPython: a set of reachable values per heap, then the mex.

Usage: python octal_plain.py CODE N   (e.g. 0.77 10000); prints G(0..N) on one line.
"""

import sys


def main():
    code, n = sys.argv[1], int(sys.argv[2])
    whole, _, frac = code.partition(".")
    digits = [int(whole or 0)] + [int(c) for c in frac]
    g = [0] * (n + 1)
    for i in range(1, n + 1):
        seen = set()
        for k, d in enumerate(digits):
            m = i - k
            if m < 0:
                break
            if d & 1 and m == 0:
                seen.add(0)
            if d & 2 and m > 0:
                seen.add(g[m])
            if d & 4:
                for a in range(1, m // 2 + 1):
                    seen.add(g[a] ^ g[m - a])
        v = 0
        while v in seen:
            v += 1
        g[i] = v
    print(" ".join(map(str, g)))


main()
