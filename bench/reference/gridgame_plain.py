"""Baekjoon 28218 (grid game) as a Python user writes it: the O(N*M) DP in plain CPython.

A cell loses iff no move reaches a losing cell; per diagonal, the row of the nearest losing cell below tells
whether some jump of length <= K reaches one.
"""

import sys


def main() -> None:
    data = sys.stdin.buffer.read().split()
    n, m, k = int(data[0]), int(data[1]), int(data[2])
    grid = data[3:3 + n]
    lose = [bytearray(m) for _ in range(n + 1)]  # row n: below the board
    nearest = [1 << 60] * (n + m - 1)  # per diagonal c - r + n - 1: row of the nearest losing cell
    for r in range(n - 1, -1, -1):
        row, here, below, base = grid[r], lose[r], lose[r + 1], n - 1 - r
        for c in range(m - 1, -1, -1):
            if row[c] == 35:  # '#'
                continue
            d = base + c
            if nearest[d] - r <= k or below[c] or (c + 1 < m and here[c + 1]):
                continue
            here[c] = 1
            nearest[d] = r
    q = int(data[3 + n])
    numbers = data[4 + n:4 + n + 2 * q]
    out = ["Second" if lose[int(numbers[2 * j]) - 1][int(numbers[2 * j + 1]) - 1] else "First" for j in range(q)]
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))


main()
