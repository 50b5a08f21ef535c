"""Domineering values with gamedp's API, whole process, printed as the peers print them (pure braces, sorted).

    python gamedp_domineering.py RxC|ROWS/JOINED [...]
"""

import sys

from gamedp.cgt.domineering import value_of_text


def braces(g) -> str:
    return "{" + ",".join(sorted(map(braces, g.left))) + "|" + ",".join(sorted(map(braces, g.right))) + "}"


for arg in sys.argv[1:]:
    print(braces(value_of_text(arg)))
