"""Built-in games, one module per family, and the names the command line knows them by."""

from __future__ import annotations

#: name -> "module:factory"; imported only when asked for, so the command line starts fast.
BUILTIN: dict[str, str] = {
    "tictactoe": "gamedp.games.tictactoe:TicTacToe",
    "connect4": "gamedp.games.connect4:Connect4",
    "cards": "gamedp.games.cards:Cards",
    "cards-discard2": "gamedp.games.cards:CardsDiscard",
    "cards-upto3": "gamedp.games.cards:CardsUpTo3",
    "grid": "gamedp.games.grid:GridGame",
    "blockgame": "gamedp.games.placement:Blockgame",
    "cram": "gamedp.games.placement:Cram",
    "domineering": "gamedp.games.placement:Domineering",
    "toads-and-frogs": "gamedp.games.toads_frogs:ToadsAndFrogs",
    "hackenbush": "gamedp.games.hackenbush:Hackenbush",
    "nim": "gamedp.games.impartial.nim:Nim",
    "misere-nim": "gamedp.games.impartial.nim:MisereNim",
    "kayles": "gamedp.games.impartial.octal:Kayles",
    "dawson": "gamedp.games.impartial.octal:Dawson",
    "octal": "gamedp.games.impartial.octal:Octal",
    "subtraction": "gamedp.games.impartial.subtraction:Subtraction",
    "grundy-game": "gamedp.games.impartial.grundy_game:GrundyGame",
    "lasker": "gamedp.games.impartial.lasker:Lasker",
    "wythoff": "gamedp.games.impartial.wythoff:Wythoff",
}
#: name -> "module:factory" of the built-in games that take parameters after a colon (``connect4:5x4``, ``domineering:8x8``).
WITH_PARAMETERS: dict[str, str] = {
    "connect4": "gamedp.games.connect4:from_spec",
    "domineering": "gamedp.games.placement:domineering_from_spec",
}
