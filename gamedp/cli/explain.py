"""``gamedp explain GAME POSITION``: why a position is won or lost, in sentences."""

from __future__ import annotations

import json

import click

from gamedp.cli.arguments import NumbersCommand, board_spec, joined, memory_option, position_argument, variant_option
from gamedp.errors import GamedpError


@click.command(cls=NumbersCommand)
@click.argument("game")
@position_argument
@variant_option
@click.option("--k", "k", type=click.IntRange(min=0), default=None,
              help="grid only: POSITION is a whole board drawn with 'o' on the token, jumps up to K cells.")
@click.option("--json", "as_json", is_flag=True, help="Print the explanation as JSON.")
@memory_option
def explain(game: str, position: tuple[str, ...], variant: tuple[str, ...], k: int | None, as_json: bool,
            memory: int | None) -> None:
    """Explain POSITION of GAME: its value, a perfect line, and for every other move the opponent's best reply
    and how the game then ends.

    GAME is any game `gamedp analyze` knows. The card game (`cards`) is explained in totals (why taking left
    beats right), BLOCKGAME (`blockgame`) by its placements. POSITION is written as for `analyze` (`-` reads
    standard input); for `grid` with --k, it is any board of `.` and `#` with `o` on the token's cell.

    \b
    Examples:
      gamedp explain cards 1 2 5 2
      gamedp explain nim 3 4 5
      gamedp explain blockgame "#####/#####/#..#./####./....." (rows may also be separate lines)
      gamedp explain grid --k 1 "o./.."
    """
    from gamedp.analysis import load_analyst
    from gamedp.cli.arguments import read_position_argument
    from gamedp.explain import explain as explain_position
    from gamedp.explain import explain_blockgame, explain_cards, explain_grid

    text = _read(joined(position))
    game = board_spec(game, variant)
    if k is not None:
        if game != "grid":
            raise GamedpError("--k is for the grid game only: gamedp explain grid --k K BOARD")
        if text is None:
            raise GamedpError("give the board: e.g. gamedp explain grid --k 1 'o./..'")
        rows, cell = _grid_board(text.replace("/", "\n"))
        result = explain_grid(rows, k, cell)
    elif game == "cards":
        from gamedp.games.cards import Cards

        start = Cards().start() if text is None else Cards().parse_position(text)
        if (start.lo, start.hi, start.lead) != (0, len(start.row), 0):
            raise GamedpError("explain cards takes a fresh row of cards, e.g. '1 2 5 2'")
        result = explain_cards(start.row)
    elif game == "blockgame":
        result = explain_blockgame("\n".join(["....."] * 5) if text is None else text.replace("/", "\n"))
    else:
        analyst = load_analyst(game, "explain", memory=memory)
        result = explain_position(analyst, read_position_argument(analyst, text))
    click.echo(json.dumps(result.to_json(), indent=2) if as_json else result.text())


def _read(position: str | None) -> str | None:
    """POSITION as typed, or read from standard input for `-`."""
    if position == "-":
        position = click.get_text_stream("stdin").read()
        if not position.strip():
            raise GamedpError("POSITION '-' reads the position from standard input, but it was empty")
    return position


def _grid_board(text: str) -> tuple[list[str], tuple[int, int]]:
    """A grid board drawn with one 'o' on the token: the rows (token cell open) and the 0-based token cell."""
    rows = [line.strip() for line in text.strip().splitlines() if line.strip()]
    tokens = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "o"]
    bad = {ch for row in rows for ch in row} - set(".#o")
    if bad or len(tokens) != 1 or len({len(row) for row in rows}) != 1:
        raise GamedpError("a grid board is rows of equal length of '.' (open) and '#' (blocked) with one 'o' on "
                          "the token's cell, e.g. 'o.#/.../..' ('/' or line breaks between rows)")
    return [row.replace("o", ".") for row in rows], tokens[0]
