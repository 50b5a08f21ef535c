"""The hand-written CPython solution a Python user writes for BLOCKGAME: a dict memo and recursion.

Reads the judge input on stdin; the memo is shared between cases, as in the seed posts.
"""

import sys

sys.setrecursionlimit(10000)


def placements():
    masks = []
    for r in range(5):
        for c in range(5):
            cell = lambda rr, cc: 1 << (rr * 5 + cc)  # noqa: E731
            if c < 4:
                masks.append(cell(r, c) | cell(r, c + 1))
            if r < 4:
                masks.append(cell(r, c) | cell(r + 1, c))
            if r < 4 and c < 4:
                sq = [cell(r, c), cell(r, c + 1), cell(r + 1, c), cell(r + 1, c + 1)]
                for i in range(4):
                    masks.append(sum(sq) - sq[i])
    return masks


MOVES = placements()
cache = {}


def can_win(board):
    if board in cache:
        return cache[board]
    for m in MOVES:
        if board & m == 0 and not can_win(board | m):
            cache[board] = True
            return True
    cache[board] = False
    return False


def main():
    data = sys.stdin.read().split()
    out = []
    for i in range(int(data[0])):
        rows = data[1 + 5 * i: 6 + 5 * i]
        board = 0
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch == "#":
                    board |= 1 << (r * 5 + c)
        out.append("WINNING" if can_win(board) else "LOSING")
    print("\n".join(out))


main()
