"""Connect-Four 7x6 as a user would put it on gamedp's score search: the board and text of the k-in-a-row example
(examples/k_in_a_row.py), positions read as the columns played (``4453``, Pascal Pons' notation), and five plain
Python hooks that know Connect-Four's usual tricks: lines found by shifts of the whole board, only moves that do
not lose at once, the centre and the threats first; and the two optional hooks that let ``gamedp value`` answer
its lines in compiled code: ``read`` (a line of columns as the two words) and ``remoteness`` (what a score
means). bench/bench_own_hooks.py times it beside the built-in search.

    echo 4453 | gamedp value bench/connect4_hooks.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

from k_in_a_row import KInARow, count

from gamedp import GamedpError, SearchRules, Word

ONE = Word(1)
# p: the board's cells, every cell, the bottom row, the shifts of the four directions, the columns, the bits a
# column takes (its cells and the spare one above them)
CELLS, BOARD, BOTTOM, SHIFTS, WIDTH, STRIDE = range(6)


def gaps(stones, s):
    """The cells that one more stone makes four in a row with ``stones``, along the shift ``s``: the gap first,
    second, third or last of the four."""
    up1, up2, up3 = stones << s, stones << (s + s), stones << (s + s + s)
    down1, down2, down3 = stones >> s, stones >> (s + s), stones >> (s + s + s)
    return (down1 & down2 & down3) | (up1 & down1 & down2) | (up2 & up1 & down1) | (up3 & up2 & up1)


def threats(stones, free, p):
    found = Word(0)
    for s in p[SHIFTS]:
        found |= gaps(stones, s)
    return found & free


def four(stones, p):
    for s in p[SHIFTS]:
        pairs = stones & (stones >> s)
        if pairs & (pairs >> (s + s)) != 0:
            return True
    return False


def win_score(p, stones):
    return (p[CELLS] + 1 - stones) // 2


def start(a, b, p):
    stones = count(b)
    if four(a ^ b, p):
        return True, -win_score(p, stones - 1), 0
    if stones == p[CELLS]:
        return True, 0, 0
    if threats(a, p[BOARD] & ~b, p) & (b + p[BOTTOM]) & p[BOARD] != 0:
        return True, win_score(p, stones), 0
    return False, -win_score(p, stones + 1), win_score(p, stones + 2)


def moves(a, b, p):
    stones = count(b)
    free = p[BOARD] & ~b
    playable = (b + p[BOTTOM]) & p[BOARD]
    theirs = threats(a ^ b, free, p)
    must = playable & theirs
    lost = -win_score(p, stones + 1)
    if must != 0:
        if must & (must - ONE) != 0:  # two threats to block
            return Word(0), lost, lost
        playable = must
    safe = playable & ~(theirs >> ONE)  # not under a cell that would complete the opponent's line
    if safe == 0:
        return Word(0), lost, lost
    if stones >= p[CELLS] - 2:
        return Word(0), 0, 0
    parity = stones & 1
    return safe, -win_score(p, max(stones + 3, 7 - parity)), win_score(p, max(stones + 2, 6 + parity))


def play(a, b, move, p):
    return a ^ b, b | move


def order(a, b, move, p):
    made = count(threats(a | move, p[BOARD] & ~(b | move), p))
    # the centre column first, then outwards (computed: a 64-entry tuple of p indexed by the move's bit cost a
    # quarter of the search's time in numba's code)
    column = count(move - ONE) // p[STRIDE]
    return made * 8 + 7 - abs(2 * column - (p[WIDTH] - 1)) // 2


def key(a, b, p):
    return a + b


def read(text, begin, end, p):
    """The line's columns played (``4453``: digits 1 to 7) from the empty board, as ``parse_position`` reads them;
    a line it would refuse is left to it (it says why)."""
    a = b = Word(0)
    height = Word(p[STRIDE] - 1)
    for i in range(begin, end):
        c = int(text[i]) - 49
        if c < 0 or c >= p[WIDTH]:
            return False, a, b
        low = ONE << Word(c * p[STRIDE])
        if b & (low << (height - ONE)) != 0 or (i > begin and four(a ^ b, p)):
            return False, a, b
        a, b = a ^ b, b | (b + low)
    return True, a, b


def remoteness(a, b, score, p):
    """The plies to the end: the winner's last stone, or a full board."""
    stones = count(b)
    if score == 0:
        return p[CELLS] - stones
    plies = p[CELLS] + 2 - stones - 2 * abs(score)  # or one fewer: the one of the winner's parity
    if plies % 2 != (1 if score > 0 else 0):
        plies -= 1
    return plies


class Connect4Hooks(KInARow):
    def __init__(self):
        super().__init__(7, 6, 4, gravity=True)
        self.name = "connect4 by plain hooks"
        h = Word(self.height)
        self.hooks_p = (self.cells, self.p[1], self.p[2], (ONE, h, h + ONE, h + Word(2)), self.width,
                        self.height + 1)

    def score_search(self):
        return SearchRules(self, start=start, moves=moves, play=play, order=order, key=key, read=read,
                           remoteness=remoteness, parameters=self.hooks_p)

    def parse_position(self, text):
        """The position after the columns ``text`` (1 to 7) from the empty board, in plain integers (this runs
        once a line, in Python)."""
        stride = self.height + 1
        heights = [0] * self.width
        a = b = 0
        for i, column in enumerate(text.strip()):
            c = ord(column) - 49
            if not 0 <= c < self.width or heights[c] == self.height:
                raise GamedpError(f"{column!r} at move {i + 1} is not a column with room (1 to {self.width})")
            if i and four_of(a ^ b, stride):
                raise GamedpError(f"move {i + 1} comes after a line of four")
            a, b = a ^ b, b | 1 << (c * stride + heights[c])
            heights[c] += 1
        return a, b


def four_of(stones, stride):
    """Whether ``stones`` (a Python integer) hold four in a row."""
    for s in (1, stride - 1, stride, stride + 1):
        pairs = stones & stones >> s
        if pairs & pairs >> 2 * s:
            return True
    return False


game = Connect4Hooks()
