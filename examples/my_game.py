"""Kayles, described in a few lines of Python: an example of a game of your own.

A row of pins; a move knocks down one pin or two neighbouring pins; whoever knocks down the last pin wins.
Try it:

    gamedp play examples/my_game.py
    gamedp analyze examples/my_game.py "III.IIIII"
    gamedp analyze examples/my_game.py:Kayles --json "IIIIIII"

A position is the row as ``I`` (a pin) and ``.`` (a gap); moves are pin numbers counted from the left:
``3`` knocks down pin 3, ``3-4`` pins 3 and 4. Kayles is impartial (both players have the same moves), so
each position also has a nimber, and a row of separate groups is won by making the XOR of their nimbers 0.

>>> from gamedp.solvers.memo import solve
>>> game = Kayles()
>>> solve(game).value("IIII.III").outcome.name
'WIN'
>>> [game.nimber("I" * n) for n in range(8)]
[0, 1, 2, 3, 1, 4, 3, 2]
"""

from functools import lru_cache

from gamedp import Game, GamedpError


class Kayles(Game):
    name = "kayles"
    impartial = True  # the front ends then show nimber() too

    def __init__(self, pins: int = 10):
        self.pins = pins

    def start(self) -> str:
        return "I" * self.pins

    def moves(self, row: str) -> list[tuple[int, ...]]:
        singles = [(i,) for i, c in enumerate(row) if c == "I"]
        pairs = [(i, i + 1) for i in range(len(row) - 1) if row[i] == row[i + 1] == "I"]
        return sorted(singles + pairs)

    def do_move(self, row: str, move: tuple[int, ...]) -> str:
        return "".join("." if i in move else c for i, c in enumerate(row))

    def canonical(self, row: str) -> str:
        # Only the sizes of the groups of pins matter, not their order or the width of the gaps.
        groups = sorted(g for g in row.split(".") if g)
        return ".".join(groups)

    def nimber(self, row: str) -> int:
        result = 0
        for group in row.split("."):
            result ^= _group_nimber(len(group))
        return result

    # -- text: how positions and moves are written -------------------------------------------------------
    def format_position(self, row: str) -> str:
        numbers = " ".join(str(i + 1).rjust(2) for i in range(len(row)))
        return " ".join(c.rjust(2) for c in row) + "\n" + numbers

    def parse_position(self, text: str) -> str:
        # The drawing's second line (the pin numbers) may come along; it carries nothing.
        lines = [line for line in text.splitlines() if line.strip() and not line.replace(" ", "").isdigit()]
        row = "".join("".join(lines).split()).upper()
        if not row or set(row) - set("I."):
            raise GamedpError(f"a Kayles row is pins 'I' and gaps '.', like 'III.II', not {text.strip()!r}")
        return row

    def format_move(self, row: str, move: tuple[int, ...]) -> str:
        return "-".join(str(i + 1) for i in move)


@lru_cache(maxsize=None)
def _group_nimber(n: int) -> int:
    """The nimber of one unbroken group of n pins: the least value its moves cannot reach (the mex)."""
    reachable = {_group_nimber(left) ^ _group_nimber(n - taken - left)
                 for taken in (1, 2) for left in range(n - taken + 1)}
    g = 0
    while g in reachable:
        g += 1
    return g
