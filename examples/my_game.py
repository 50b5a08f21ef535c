"""Toads and Frogs, described in a few lines of Python: an example of a game of your own.

A strip of squares holds toads (``T``) and frogs (``F``). Toads move right, frogs left: one square on into an
empty square, or a jump over exactly one piece of the other kind into the empty square behind it. The toads'
player moves first; whoever cannot move loses. Try it:

    gamedp play examples/my_game.py
    gamedp analyze examples/my_game.py "TT.F.F:F"
    gamedp analyze examples/my_game.py:ToadsAndFrogs --json "TTT.FF"

A position is the strip, then ``:T`` or ``:F`` for who is to move (``:T`` may be left out); a move is the
number of the square of the piece that moves (each piece has at most one move). The player to move is part of
the position, as in every game where the two sides have different moves.

>>> from gamedp.solvers.memo import solve
>>> game = ToadsAndFrogs()
>>> str(solve(game).value(game.start()))        # the toads, moving first, win in 15 moves
'WIN in 15'
>>> game.parse_position("TT.F.F:F"), game.moves("TT.F.F:F")
('TT.F.F:F', [3, 5])
"""

from gamedp import Game, GamedpError

FORWARD = {"T": 1, "F": -1}  # the way each kind moves along the strip
OTHER = {"T": "F", "F": "T"}


class ToadsAndFrogs(Game):
    """Toads (T) move right, frogs (F) left, one square or a jump over one of the other kind; no move loses.

    A position is the strip then ':T' or ':F' for who moves ("TT.F.F:F"); a move is the number of the square
    of the piece that moves.
    """

    name = "toads-and-frogs"

    def __init__(self, strip: str = "TTT..FFF"):
        self.strip = strip

    def start(self) -> str:
        return f"{self.strip}:T"

    def moves(self, position: str) -> list[int]:
        strip, mover = position.split(":")
        return [i for i in range(len(strip)) if strip[i] == mover and self._landing(strip, i) is not None]

    def do_move(self, position: str, i: int) -> str:
        strip, mover = position.split(":")
        cells = list(strip)
        cells[i], cells[self._landing(strip, i)] = ".", mover
        return f"{''.join(cells)}:{OTHER[mover]}"

    def _landing(self, strip: str, i: int) -> int | None:
        step = FORWARD[strip[i]]
        for j, needs_jump in ((i + step, False), (i + 2 * step, True)):
            if not 0 <= j < len(strip):
                return None
            if strip[j] == ".":
                return j if not needs_jump or strip[i + step] == OTHER[strip[i]] else None
        return None

    def canonical(self, position: str) -> str:
        # The mirror image with toads and frogs swapped is the same game for the player to move.
        strip, mover = position.split(":")
        mirrored = strip[::-1].translate(str.maketrans("TF", "FT"))
        return min(position, f"{mirrored}:{OTHER[mover]}")

    # -- text: how positions and moves are written -------------------------------------------------------
    def format_position(self, position: str) -> str:
        strip, mover = position.split(":")
        who = "toads (T), moving right" if mover == "T" else "frogs (F), moving left"
        return (" ".join(c.rjust(2) for c in strip) + "\n" + " ".join(str(i + 1).rjust(2) for i in range(len(strip)))
                + f"\nto move: {who}")

    def parse_position(self, text: str) -> str:
        # Reads the one-line form ("TT.F.F:F") and the drawing above (square numbers and all).
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        mover = "T"
        if lines and lines[-1].lower().startswith("to move:"):
            mover = "F" if "frog" in lines.pop().lower() else "T"
        lines = [line for line in lines if not line.replace(" ", "").isdigit()]
        strip = "".join("".join(lines).split()).upper()
        if ":" in strip:
            strip, _, mover = strip.partition(":")
        if not strip or set(strip) - set("TF.") or mover not in ("T", "F"):
            raise GamedpError(f"a Toads and Frogs position is squares T, F or '.', then ':T' or ':F' for who moves "
                              f"(like 'TT.F.F:F'), not {text.strip()!r}")
        return f"{strip}:{mover}"

    def format_move(self, position: str, i: int) -> str:
        return str(i + 1)

    # -- pictures: how `gamedp serve` and Jupyter draw it (see gamedp/drawing.py) -------------------------
    def draw_position(self, position: str) -> str:
        # An <svg>; the squares carry data-cell names so that a click on a piece makes its move.
        strip, mover = position.split(":")
        size = 48
        squares = "".join(
            f'<rect x="{i * size + 2}" y="2" width="{size - 4}" height="{size - 4}" rx="6" stroke="#886" '
            f'fill="#f4efd8" data-fill="#f4efd8" data-cell="s{i + 1}"/>'
            f'<text x="{i * size + size / 2}" y="{size / 2 + 8}" font-size="24" text-anchor="middle" '
            f'pointer-events="none">{piece.strip(".")}</text>'
            for i, piece in enumerate(strip))
        who = f'<text x="4" y="{size + 18}" font-size="14">{"toads" if mover == "T" else "frogs"} to move</text>'
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {len(strip) * size} {size + 26}" '
                f'aria-label="Toads and Frogs strip">{squares}{who}</svg>')

    def move_cells(self, position: str, i: int) -> list[str]:
        return [f"s{i + 1}"]  # a move is made by clicking the piece that moves
