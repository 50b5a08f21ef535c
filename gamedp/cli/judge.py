"""``gamedp judge PROBLEM``: answer a judge problem's input on stdin in its exact output format."""

from __future__ import annotations

import sys

import click

from gamedp.judge import JUDGES, answer


def _help() -> str:
    rows = "\n".join(f"  {name:<10} {p.title:<20} game: {p.game}" for name, p in sorted(JUDGES.items()))
    return ("Read PROBLEM's judge input and print exactly the judge's output.\n\n\b\nProblems, and the game each "
            f"is about (the name analyze, play, explain and the other commands take):\n{rows}")


@click.command(help=_help())
@click.argument("problem", type=click.Choice(sorted(JUDGES)), required=False)
@click.option("--input", "-i", "source", type=click.File("rb"), default="-", help="Read this file instead of stdin.")
@click.option("--list", "show_list", is_flag=True, help="List the problems, each with the game it is about.")
def judge(problem: str | None, source, show_list: bool) -> None:
    if show_list:
        for name, found in sorted(JUDGES.items()):
            click.echo(f"{name}\t{found.title}\tgame: {found.game}")
        return
    if problem is None:
        raise click.UsageError(f"give a PROBLEM ({', '.join(sorted(JUDGES))}), or --list")
    sys.stdout.write(answer(problem, source))
