"""Baekjoon 11062 (card game) the way a CPython user writes it: the O(N^2) interval DP over lists."""
import sys


def main():
    data = sys.stdin.buffer.read().split()
    t, pos, out = int(data[0]), 1, []
    for _ in range(t):
        n = int(data[pos])
        a = list(map(int, data[pos + 1:pos + 1 + n]))
        pos += n + 1
        # dp[i] = the mover's best margin on a[i:i+length], for the current length
        dp = [0] * (n + 1)
        for length in range(1, n + 1):
            last = length - 1
            for i in range(n - length + 1):
                left, right = a[i] - dp[i + 1], a[i + last] - dp[i]
                dp[i] = left if left > right else right
        out.append((sum(a) + dp[0]) // 2)
    print("\n".join(map(str, out)))


main()
