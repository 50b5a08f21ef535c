"""Errors gamedp reports to people, as one clear line and exit status 2."""

from __future__ import annotations


class GamedpError(Exception):
    """Something a person gave gamedp is wrong; the message says what and how to fix it."""

    exit_status = 2


class InputError(GamedpError):
    """Malformed input text, located by line (and column when known), 1-based."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None, source: str = "input"):
        self.line, self.column, self.source = line, column, source
        where = source
        if line is not None:
            where += f", line {line}"
            if column is not None:
                where += f", column {column}"
        super().__init__(f"{where}: {message}")


class GameDefinitionError(GamedpError):
    """A game description broke its own rules (named position, plain words)."""


class ResourceError(GamedpError):
    """A request that would not fit in memory or on disk."""
