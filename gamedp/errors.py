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


#: The most digits a count or coordinate in judge input may have: every such number fits in 64 bits, and
#: int() never meets the interpreter's limit on digits (sys.get_int_max_str_digits()).
MAX_DIGITS = 18


def parse_count(word: str, what: str, line: int, column: int | None = None, source: str = "input") -> int:
    """``word`` as a non-negative integer written in ASCII digits, else an :class:`InputError` at (line, column).

    Python's int() also reads other scripts' digits (``'٣'`` is 3), which a judge's C reader refuses, and
    raises ValueError on ``'²'`` (a digit to str.isdigit()) or past the interpreter's limit on digits.

    >>> parse_count("042", "Q", 3)
    42
    >>> parse_count("٣", "Q", 3, 1)
    Traceback (most recent call last):
    ...
    gamedp.errors.InputError: input, line 3, column 1: expected Q in digits 0-9, found '٣'
    >>> parse_count("9" * 5000, "N", 1)
    Traceback (most recent call last):
    ...
    gamedp.errors.InputError: input, line 1: N has 5000 digits; at most 18 are accepted
    """
    if not (word.isascii() and word.isdigit()):
        raise InputError(f"expected {what} in digits 0-9, found {word[:40]!r}", line, column, source)
    if len(word.lstrip("0")) > MAX_DIGITS:
        raise InputError(f"{what} has {len(word)} digits; at most {MAX_DIGITS} are accepted", line, column, source)
    return int(word)


def require_text(text: str | bytes, expected: str, source: str = "input") -> None:
    """Refuse an input of nothing but whitespace, saying what its first line should hold. Judges call it before
    loading anything else, so that an empty input costs no more than starting Python.

    >>> require_text(" \\n", "T, the number of cases")
    Traceback (most recent call last):
    ...
    gamedp.errors.InputError: input, line 1: the input is empty; expected T, the number of cases
    """
    if not text or text.isspace():  # strip() would copy the input: 9 MB of page faults on a big one
        raise InputError(f"the input is empty; expected {expected}", 1, source=source)


def compile_failure(what: str, signature: object, error: Exception) -> GameDefinitionError:
    """A kernel that numba could not compile, with numba's whole account: the line of the user's file and the
    type it could not infer come after its first line, so nothing of it is cut.

    >>> print(compile_failure("the children kernel", "int64(int64)", Exception(
    ...     "Failed in nopython mode pipeline\\nUnknown attribute 'x'\\n\\n\\nFile \\"g.py\\", line 3:\\nDuring: Pass nopython_type_inference")))
    the children kernel does not compile as int64(int64): Failed in nopython mode pipeline
      Unknown attribute 'x'
    <BLANKLINE>
      File "g.py", line 3:
    """
    import re

    text = re.sub(r"\x1b\[[0-9;]*m", "", str(error)).strip() or type(error).__name__
    lines = [line.rstrip() for line in text.splitlines() if not line.startswith("During: Pass ")]
    kept: list[str] = []
    for line in lines:
        if line or (kept and kept[-1]):  # one blank line between blocks, none repeated
            kept.append(line)
    while kept and not kept[-1]:
        kept.pop()
    body = "\n".join(("  " + line) if line else "" for line in kept[1:])
    return GameDefinitionError(f"{what} does not compile as {signature}: {kept[0]}" + (f"\n{body}" if body else ""))
