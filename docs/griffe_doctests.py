"""A griffe extension for the API reference: gamedp's docstrings, written for ``help()``, read as Markdown.

Their doctests (pytest runs them) would read as quotes, and the brackets of their output as links, so each run
of doctest lines is fenced as a ``pycon`` block; their Sphinx roles (``:class:`Game```) become code.
"""

from __future__ import annotations

import re
from typing import Any

import griffe


class DoctestsAsCode(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(fence_doctests(obj.docstring.value))


def fence_doctests(text: str) -> str:
    """Wrap each doctest (from its first ``>>>`` line to the next blank line) in a code fence."""
    lines: list[str] = []
    fence = None  # the indentation of the open fence
    for line in text.splitlines():
        stripped = line.lstrip()
        if fence is None and stripped.startswith(">>>"):
            fence = line[: len(line) - len(stripped)]
            lines.append(fence + "```pycon")
        elif fence is not None and not stripped:
            lines.append(fence + "```")
            fence = None
        lines.append(line)
    if fence is not None:
        lines.append(fence + "```")
    return "\n".join(lines)


_ROLE = re.compile(r":(?:class|meth|func|mod|attr|data|exc|obj):`(~?)([^`]+)`")


def plain_roles(text: str) -> str:
    """``:meth:`Game.start``` -> ```Game.start```; a ``~`` keeps only the last part of the name, as Sphinx does."""
    return _ROLE.sub(lambda m: "`" + (m[2].rsplit(".", 1)[-1] if m[1] else m[2]) + "`", text)
