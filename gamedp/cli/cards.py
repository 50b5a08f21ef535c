"""``gamedp cards ROW...``: value, best move and optimal line of a take-from-the-ends card game on a row."""

from __future__ import annotations

import json
import re
import sys

import click

from gamedp.cli.arguments import NumbersCommand
from gamedp.errors import GamedpError, InputError


@click.command(cls=NumbersCommand)  # a card may be worth -1
@click.argument("row", nargs=-1, required=True)
@click.option("--rule", "-r", "rule_name", default="ends", show_default=True,
              help="ends (one card from either end), discard2 (or discard two from one end, unscored), "
                   "upto-K (1..K cards), or upto-K+discardD.")
@click.option("--output", "-o", type=click.Choice(["total", "margin"]), default=None,
              help="The first player's total, or first minus second. Default: total where every card is scored, "
                   "else margin.")
@click.option("--line", "show_line", is_flag=True, help="Also print an optimal line of play to the end.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
def cards(row: tuple[str, ...], rule_name: str, output: str | None, show_line: bool, as_json: bool) -> None:
    """Solve the card game on ROW: integers separated by spaces or commas (`-` reads them from stdin).

    Two players take turns; both play perfectly for the larger total. Example: gamedp cards 1 2 5 2 --line
    """
    from gamedp.solvers.interval import IntervalSolver, parse_rule

    rule = parse_rule(rule_name)
    solver = IntervalSolver(read_row(row), rule)
    output = output or ("total" if rule.scores_every_card else "margin")
    value = solver.total() if output == "total" else solver.value()
    moves = solver.moves()
    line = solver.line() if show_line else None
    if as_json:
        answer = {"rule": rule.name, "cards": len(solver.row), "output": output, "value": value,
                  "margin": solver.value(), "best_move": str(moves[0][0]) if moves else None,
                  "moves": [{"move": str(m), "margin": v} for m, v in moves]}
        if line is not None:
            answer["line"] = [{"player": 1 + k % 2, "move": str(m), "scored": p} for k, (m, p) in enumerate(line)]
        click.echo(json.dumps(answer))
        return
    what = "first player's total" if output == "total" else "first player's margin (first minus second)"
    click.echo(f"{len(solver.row)} cards, rule {rule.name}: {rule.describe()}")
    click.echo(f"{what}: {value}")
    if moves:
        click.echo("moves, best first (margin for the mover): "
                   + ", ".join(f"{m} {v:+d}" for m, v in moves))
    if line is not None:
        click.echo("optimal line: " + ", ".join(
            f"{'AB'[k % 2]}:{m}" + (f" ({p:+d})" if m.scored else "") for k, (m, p) in enumerate(line)))


def read_row(words: tuple[str, ...]) -> list[int]:
    source, line_of = "argument", None
    if words == ("-",):
        text = sys.stdin.read()
        source, line_of = "input", text
        words = tuple(text.split())
    values = []
    for k, word in enumerate(w for part in words for w in part.replace(",", " ").split()):
        if not re.fullmatch(r"[+-]?\d+", word):
            if line_of is None:
                raise GamedpError(f"card {k + 1}: {word!r} is not an integer")
            line = line_of[:line_of.find(word)].count("\n") + 1
            raise InputError(f"{word!r} is not an integer card value", line, source=source)
        values.append(int(word))
    if not values:
        raise GamedpError("give the cards: integers separated by spaces or commas")
    return values
