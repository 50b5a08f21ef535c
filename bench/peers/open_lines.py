"""The heuristic of gamedp's Connect4 (``Connect4.heuristic``) for the peers' own boards, so that the depth-limited
searches compare like with like: the lines of four still open to each player, those with more of their stones
counting more (1, 4, 9), for the player to move, in -1..1."""


def lines(width, height):
    """Every line of four cells on the board, as (row, column) pairs, row 0 at the bottom."""
    return [[(r + k * dr, c + k * dc) for k in range(4)]
            for r in range(height) for c in range(width) for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
            if 0 <= r + 3 * dr < height and 0 <= c + 3 * dc < width]


def open_lines(cell, windows, mine, theirs):
    """``cell(r, c)`` is the stone at a cell (``mine``, ``theirs`` or anything else for empty)."""
    score = 0
    for window in windows:
        stones = [cell(r, c) for r, c in window]
        m, t = stones.count(mine), stones.count(theirs)
        if not t:
            score += m * m
        elif not m:
            score -= t * t
    return max(-1.0, min(1.0, score / (4 * len(windows) + 1)))
