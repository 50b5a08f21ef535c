"""Domineering values with pycgt 0.2 (pure Python), whole process: each board given, one value a line in braces
(options written out, numbers as braces too, sorted, so that equal forms print alike).

    python pycgt_domineering.py RxC|ROWS/JOINED [...]
"""

import sys

from pycgt.rulesets.domineering import parse


def braces(g) -> str:
    return "{" + ",".join(sorted(map(braces, g.left))) + "|" + ",".join(sorted(map(braces, g.right))) + "}"


def board(text: str) -> str:
    if "x" in text:
        rows, cols = map(int, text.split("x"))
        return "\n".join("." * cols for _ in range(rows))
    return "\n".join(text.split("/"))


for arg in sys.argv[1:]:
    print(braces(parse(board(arg))))
