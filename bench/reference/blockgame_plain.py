"""algospot BLOCKGAME the way a CPython user writes it: a recursive memo search with a dict over 25-bit boards."""
import sys

MOVES = []
for r in range(4):
    for c in range(4):
        cells = [r * 5 + c, r * 5 + c + 1, r * 5 + c + 5, r * 5 + c + 6]
        for skip in range(4):  # an L-tromino is a 2x2 square less one cell
            MOVES.append(sum(1 << x for i, x in enumerate(cells) if i != skip))
for r in range(5):
    for c in range(4):
        MOVES.append(3 << (r * 5 + c))  # horizontal domino
        MOVES.append((1 << (c * 5 + r)) | (1 << (c * 5 + r + 5)))  # vertical domino

memo = {}


def win(board):
    if board in memo:
        return memo[board]
    result = False
    for m in MOVES:
        if board & m == 0 and not win(board | m):
            result = True
            break
    memo[board] = result
    return result


def main():
    lines = sys.stdin.read().split()
    cases, out = int(lines[0]), []
    for k in range(cases):
        board = 0
        for i, ch in enumerate("".join(lines[1 + 5 * k:6 + 5 * k])):
            if ch == "#":
                board |= 1 << i
        out.append("WINNING" if win(board) else "LOSING")
    print("\n".join(out))


main()
