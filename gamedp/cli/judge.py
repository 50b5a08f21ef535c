"""``gamedp judge PROBLEM``: answer a judge problem's input on stdin in its exact output format."""

from __future__ import annotations

import importlib
import sys

import click

from gamedp.errors import GamedpError
from gamedp.judge import JUDGES


@click.command()
@click.argument("problem", type=click.Choice(sorted(JUDGES)))
@click.option("--input", "-i", "source", type=click.File("r"), default="-", help="Read this file instead of stdin.")
def judge(problem: str, source) -> None:
    """Read PROBLEM's judge input and print exactly the judge's output.

    Problems: blockgame (algospot BLOCKGAME), cardgame (Baekjoon 11062), gridgame (Baekjoon 28218).
    """
    try:
        module = importlib.import_module(JUDGES[problem])
    except ModuleNotFoundError:
        raise GamedpError(f"the {problem} judge is not built into this version of gamedp yet") from None
    text = source.read()
    sys.stdout.write(module.run(text))
