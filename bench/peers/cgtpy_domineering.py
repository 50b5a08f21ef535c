"""Domineering values with cgt-py 0.11 (Rust), whole process: each board given, one value a line in braces
(options written out, numbers as braces too, sorted, so that equal forms print alike).

    python cgtpy_domineering.py RxC|ROWS/JOINED [...]
"""

import sys

import cgt_py


def braces(g) -> str:
    return ("{" + ",".join(sorted(map(braces, g.left_options))) + "|"
            + ",".join(sorted(map(braces, g.right_options))) + "}")


def board(text: str) -> str:
    if "x" in text:
        rows, cols = map(int, text.split("x"))
        return "|".join("." * cols for _ in range(rows))
    return text.replace("/", "|")


for arg in sys.argv[1:]:
    print(braces(cgt_py.Domineering(board(arg)).canonical_form))
