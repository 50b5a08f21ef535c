"""``gamedp judge PROBLEM``: answer a judge problem's input on stdin in its exact output format."""

from __future__ import annotations

import sys

import click

from gamedp.judge import JUDGES, answer


@click.command()
@click.argument("problem", type=click.Choice(sorted(JUDGES)))
@click.option("--input", "-i", "source", type=click.File("rb"), default="-", help="Read this file instead of stdin.")
def judge(problem: str, source) -> None:
    """Read PROBLEM's judge input and print exactly the judge's output.

    Problems: blockgame (algospot BLOCKGAME), cardgame (Baekjoon 11062), gridgame (Baekjoon 28218).
    """
    sys.stdout.write(answer(problem, source.read()))
