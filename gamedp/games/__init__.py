"""Built-in games, one module per family, and the names the command line knows them by."""

from __future__ import annotations

#: name -> "module:factory"; imported only when asked for, so the command line starts fast.
BUILTIN: dict[str, str] = {
    "tictactoe": "gamedp.games.tictactoe:TicTacToe",
    "blockgame": "gamedp.games.placement:Blockgame",
    "cram": "gamedp.games.placement:Cram",
    "domineering": "gamedp.games.placement:Domineering",
    "grid": "gamedp.games.grid:GridGame",
}
