"""Boards drawn as SVG, one drawing per family of games, for the web board and Jupyter.

:func:`board_svg` draws a position; :func:`move_cells` says which parts of that drawing a move is made by
clicking. Clickable parts are SVG elements with a ``data-cell`` name (and a ``data-fill``, their colour when
no value is shown); a move is the set of cells it names, so a tic-tac-toe move is one cell, a domino two, a
grid move its token and its destination. Several elements may share a name (a Connect-N column and its
landing hole), and a move with no cells is made from the move list alone.

A game's own drawing wins: give it ``draw_position(position) -> str`` (an ``<svg>`` element) and, to make
moves by clicking, ``move_cells(position, move) -> list[str]`` naming ``data-cell`` elements of that SVG
(see examples/my_game.py). Otherwise the drawing is chosen by the game's family (by class, so a subclass of
a built-in family draws like it); a game with no drawing gets ``None`` and the front ends show its text.

>>> from gamedp.games.tictactoe import TicTacToe
>>> svg = board_svg(TicTacToe(), "X...O....")
>>> svg.startswith("<svg") and svg.count('data-cell=') == 7
True
>>> move_cells(TicTacToe(), "X...O....", 8)
['9']
>>> board_svg(object(), 3) is None
True
"""

from __future__ import annotations

from html import escape
from typing import Any, Callable

#: colours of the pieces (never the value colours: green, yellow, red and blue belong to the values)
INK = "#222"
PAPER = "#fdfdf8"
WALL = "#6b6b6b"
STONE_LIGHT = "#f4f4f4"
CELL = 56


def board_svg(game: Any, position: Any) -> str | None:
    """The position drawn as an ``<svg>`` element, or ``None`` when the game has no drawing."""
    own = getattr(game, "draw_position", None)
    if callable(own):
        return own(position)
    family = _family(game)
    return None if family is None else family[0](game, position)


def move_cells(game: Any, position: Any, move: Any) -> list[str]:
    """The ``data-cell`` names of the drawing that make ``move`` when clicked (empty: use the move list)."""
    if callable(getattr(game, "draw_position", None)):
        own = getattr(game, "move_cells", None)
        return list(own(position, move)) if callable(own) else []
    family = _family(game)
    return [] if family is None else family[1](game, position, move)


def _family(game: Any) -> tuple[Callable, Callable] | None:
    for cls in type(game).__mro__:
        found = FAMILIES.get(f"{cls.__module__}.{cls.__qualname__}")
        if found:
            return found
    return None


def svg(width: float, height: float, body: list[str], label: str) -> str:
    """An ``<svg>`` of the given size (in pixels, scaled by its container) holding ``body``."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" width="{width:g}" '
            f'height="{height:g}" role="img" aria-label="{escape(label)}" class="board">' + "".join(body) + "</svg>")


def clickable(shape: str, cell: str, fill: str, **attributes: Any) -> str:
    """An SVG ``shape`` that makes (part of) a move: named by ``cell``, coloured ``fill`` when values are hidden."""
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attributes.items())
    return f'<{shape} data-cell="{escape(cell)}" data-fill="{fill}" fill="{fill}" class="cell"{extra}/>'


def text(x: float, y: float, words: Any, size: float = 28, fill: str = INK) -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="middle" dominant-baseline="central" '
            f'fill="{fill}" font-family="sans-serif" pointer-events="none">{escape(str(words))}</text>')


# -- tic-tac-toe -------------------------------------------------------------------------------------------
def _tictactoe(game: Any, board: str) -> str:
    body = []
    for i, mark in enumerate(board):
        x, y = (i % 3) * CELL, (i // 3) * CELL
        box = f'rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" rx="6"'
        if mark == ".":
            body.append(clickable(box, str(i + 1), PAPER, stroke="#bbb"))
        else:
            body.append(f'<{box} fill="#e9e9e2" stroke="#bbb"/>' + text(x + CELL / 2, y + CELL / 2, mark, 34))
    return svg(3 * CELL, 3 * CELL, body, "tic-tac-toe board")


def _tictactoe_cells(game: Any, board: str, cell: int) -> list[str]:
    return [str(cell + 1)]


# -- Connect-N -----------------------------------------------------------------------------------------------
def _connect4(game: Any, key: int) -> str:
    rows = game.cells(key)
    w, h = game.width, game.height
    body = [f'<rect x="0" y="0" width="{w * CELL}" height="{h * CELL}" rx="8" fill="#2a5db0"/>']
    stone = {"X": INK, "O": STONE_LIGHT}
    for c in range(w):
        landing = h - 1 - game.column_height(key, c)  # the row (top first) a stone dropped here lands in
        if landing >= 0:  # the whole column takes the click, tinted lightly with the move's value
            body.append(clickable(f'rect x="{c * CELL}" y="0" width="{CELL}" height="{h * CELL}"', f"c{c + 1}",
                                  "transparent", fill_opacity="0.3"))
        for r in range(h):
            circle = f'circle cx="{c * CELL + CELL / 2}" cy="{r * CELL + CELL / 2}" r="{CELL * 0.4:g}"'
            if rows[r][c] != ".":
                body.append(f'<{circle} fill="{stone[rows[r][c]]}" stroke="#111" pointer-events="none"/>')
            elif r == landing:
                body.append(clickable(circle, f"c{c + 1}", "#9db8e3"))
            else:
                body.append(f'<{circle} fill="#9db8e3" pointer-events="none"/>')
    return svg(w * CELL, h * CELL, body, f"{game.label} board")


def _connect4_cells(game: Any, key: int, column: int) -> list[str]:
    return [f"c{column + 1}"]


# -- placement games (BLOCKGAME, Cram, Domineering) ----------------------------------------------------------
def _placement(game: Any, position: int) -> str:
    from gamedp.games.placement import COLUMNS, cell_name

    rules = game.rules
    s, m = 48, 22  # cell size, margin for the coordinates
    body = []
    for c in range(rules.cols):
        body.append(text(m + c * s + s / 2, m / 2, COLUMNS[c], 14))
    for r in range(rules.rows):
        body.append(text(m / 2, m + r * s + s / 2, r + 1, 14))
        for c in range(rules.cols):
            box = f'rect x="{m + c * s + 1}" y="{m + r * s + 1}" width="{s - 2}" height="{s - 2}" rx="3"'
            if position >> (r * rules.cols + c) & 1:
                body.append(f'<{box} fill="{WALL}"/>')
            else:
                body.append(clickable(box, cell_name(r, c), PAPER, stroke="#bbb"))
    height = m + rules.rows * s
    if not rules.impartial:
        body.append(text(m + rules.cols * s / 2, height + 14, f"{game.player_names[game.player(position)]} to move",
                         14))
        height += 28
    return svg(m + rules.cols * s + 4, height + 4, body, f"{game.name} board")


def _placement_cells(game: Any, position: int, move: int) -> list[str]:
    from gamedp.games.placement import cell_name

    cols = game.rules.cols
    return [cell_name(i // cols, i % cols) for i in game.rules.cells_of(move)]


# -- heaps (Nim, octal games, subtraction, Wythoff) -----------------------------------------------------------
TOKEN_R = 11


def _heaps(game: Any, position: tuple[int, ...]) -> str:
    return _draw_heaps(list(position), lambda i, size: f"n{size}t", "heaps")


def _draw_heaps(heaps: list[int], prefix: Callable[[int, int], str], label: str) -> str:
    """Heaps as columns of tokens, bottom up; token ``t`` of a heap is named ``prefix + t``: clicking it
    leaves ``t`` tokens (the bottom one takes the whole heap)."""
    if not heaps:
        return svg(160, 60, [text(80, 30, "no heaps left", 16)], label)
    per_column = 20  # a tall heap wraps into further columns of tokens
    step = 2 * TOKEN_R + 4
    widths = [(size + per_column - 1) // per_column for size in heaps]
    height = min(max(heaps), per_column) * step + 30
    body, x = [], 10
    for i, (size, columns) in enumerate(zip(heaps, widths)):
        for t in range(size):
            cx = x + (t // per_column) * step + step / 2
            cy = height - 30 - (t % per_column) * step - step / 2
            body.append(clickable(f'circle cx="{cx:g}" cy="{cy:g}" r="{TOKEN_R}"', f"{prefix(i, size)}{t}", "#8a6d3b",
                                  stroke="#4a3a1b"))
        body.append(text(x + columns * step / 2, height - 12, size, 14))
        x += max(columns, 1) * step + 16
    return svg(x, height, body, label)


def _heap_cells(game: Any, position: tuple[int, ...], move: tuple[int, tuple[int, ...]]) -> list[str]:
    size, parts = move
    if len(parts) > 1:
        return []  # a split is chosen from the move list
    return [f"n{size}t{parts[0] if parts else 0}"]


def _wythoff(game: Any, position: tuple[int, int]) -> str:
    return _draw_heaps(list(position), lambda i, size: f"w{i}t", "Wythoff heaps")


def _wythoff_cells(game: Any, position: tuple[int, int], child: tuple[int, int]) -> list[str]:
    (a, b), (a2, b2) = position, child
    return [f"w{i}t{left}" for i, (was, left) in enumerate(((a, a2), (b, b2))) if left < was]


# -- the card row ---------------------------------------------------------------------------------------------
def _cards(game: Any, p: Any) -> str:
    w, h, gap = 44, 64, 6
    body = []
    for i, value in enumerate(p.row):
        x = 8 + i * (w + gap)
        box = f'rect x="{x}" y="8" width="{w}" height="{h}" rx="6" stroke="#555"'
        if p.lo <= i < p.hi:
            body.append(clickable(box, f"k{i}", PAPER))
            body.append(text(x + w / 2, 8 + h / 2, value, 20))
        else:
            body.append(f'<{box} fill="#ddd" stroke-dasharray="4 3"/>' + text(x + w / 2, 8 + h / 2, value, 20, "#999"))
    body.append(text(8 + len(p.row) * (w + gap) / 2, h + 28, f"lead of the player to move: {p.lead:+d}", 14))
    return svg(16 + len(p.row) * (w + gap), h + 44, body, "card row")


def _card_cells(game: Any, p: Any, move: Any) -> list[str]:
    if not move.scored:
        return []  # discards are chosen from the move list
    return [f"k{p.lo + move.count - 1}" if move.side == "L" else f"k{p.hi - move.count}"]


# -- tokens on a grid -----------------------------------------------------------------------------------------
def _grid(game: Any, position: tuple[tuple[int, int], ...]) -> str:
    s = 34 if max(game.board.n, game.board.m) <= 20 else 12
    body = []
    for r, row in enumerate(game.board.rows):
        for c, ch in enumerate(row):
            box = f'rect x="{c * s + 1}" y="{r * s + 1}" width="{s - 2}" height="{s - 2}"'
            body.append(f'<{box} fill="{WALL}"/>' if ch == "#" else clickable(box, f"g{r + 1},{c + 1}", PAPER,
                                                                                 stroke="#ccc"))
    for cell in sorted(set(position)):
        r, c = cell
        body.append(f'<circle cx="{c * s + s / 2}" cy="{r * s + s / 2}" r="{s * 0.3:g}" fill="{INK}" '
                    'pointer-events="none"/>')
        count = position.count(cell)
        if count > 1:
            body.append(text(c * s + s / 2, r * s + s / 2, count, s * 0.4, STONE_LIGHT))
    return svg(game.board.m * s, game.board.n * s, body, "grid board")


def _grid_cells(game: Any, position: Any, move: tuple[tuple[int, int], tuple[int, int]]) -> list[str]:
    return [f"g{r + 1},{c + 1}" for r, c in move]


#: family (the class's module and name) -> (drawing, cells of a move)
FAMILIES: dict[str, tuple[Callable, Callable]] = {
    "gamedp.games.tictactoe.TicTacToe": (_tictactoe, _tictactoe_cells),
    "gamedp.games.connect4.Connect4": (_connect4, _connect4_cells),
    "gamedp.games.placement.PlacementGame": (_placement, _placement_cells),
    "gamedp.games.impartial.heaps.HeapGame": (_heaps, _heap_cells),
    "gamedp.games.impartial.wythoff.Wythoff": (_wythoff, _wythoff_cells),
    "gamedp.games.cards.Cards": (_cards, _card_cells),
    "gamedp.games.grid.GridGame": (_grid, _grid_cells),
}
