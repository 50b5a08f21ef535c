"""algospot BLOCKGAME: is the player to move on each 5 x 5 board winning?

Input: the number of cases C, then C boards of 5 lines of 5 characters (``#`` filled, ``.`` empty). Output:
``WINNING`` or ``LOSING`` per case. More than the judge's 50 cases are fine. Blank lines are ignored; lines end at ``\\n``.
Where ``gamedp solve blockgame`` has saved the table, the answers are read from it; otherwise they are
computed (memo search, or the whole table when the boards are nearly empty) by the native kernels of
:mod:`gamedp.judge.blockgame_native`, which load without numpy (it alone takes longer to import than the
whole solve); where those cannot be built, by the numpy kernels, with the same answers.

>>> [bin(b) for b in parse("1\\n#....\\n.....\\n.....\\n.....\\n....#\\n")]   # bit r * 5 + c: filled
['0b1000000000000000000000001']
"""

from __future__ import annotations

import ctypes
from array import array

from gamedp.errors import InputError, parse_count, require_text
from gamedp.judge import byte_stream, numbered_lines

TYPE_CHECKING = False  # typing's own flag, and typing, would add ~3 ms to every judge run
if TYPE_CHECKING:
    from typing import BinaryIO

#: the native kernels' code of a won board (1: lost)
WIN_CODE = 2

SOURCE = "blockgame input"
#: the longest line read: the input's lines are a count and board rows
LONGEST_LINE = 1 << 16

#: the game id and variant of the table ``gamedp solve blockgame`` saves (those of
#: :func:`gamedp.games.placement_tiers.blockgame_table`)
SAVED = ("blockgame", {"rows": 5, "cols": 5})


def parse(text: str | bytes | BinaryIO, rows: int = 5, cols: int = 5) -> list[int]:
    """The boards of a BLOCKGAME input, as bitboards (bit r * cols + c set = filled). A stream is read only as
    far as the count of cases takes it, and a line past the boards is an error there."""
    from gamedp.games.placement_rows import parse_row

    shape = f"the number of cases, then {rows} lines of {cols} characters per case"
    lines = ((no, line.decode("utf-8", "replace").strip())
             for no, line in numbered_lines(byte_stream(text), LONGEST_LINE, SOURCE))
    lines = ((no, line) for no, line in lines if line)
    no, head = next(lines, (1, ""))
    require_text(head, shape, SOURCE)
    count = parse_count(head, "the number of cases alone on the first line,", no, None, SOURCE)
    boards = array("Q")
    board, read, last = 0, 0, no  # the board being read, its rows read, the last non-blank line
    for last, line in lines:
        if len(boards) == count:
            raise InputError(f"unexpected text after the last case: the first line says {count} cases", last,
                             None, SOURCE)
        board |= parse_row(line, cols, last, SOURCE) << (read * cols)
        read += 1
        if read == rows:
            boards.append(board)
            board = read = 0
    if len(boards) < count:
        got = f"{len(boards)} boards" + (f" and {read} lines" if read else "")
        raise InputError(f"the first line says {count} cases, which take {count * rows} board lines, but the input "
                         f"has {len(boards) * rows + read} ({got})", last + 1, None, SOURCE)
    return list(boards)


def run(text: str | bytes | BinaryIO) -> str:
    boards = parse(text)
    if not boards:
        return ""
    from gamedp.database_location import default_path

    if default_path(*SAVED).exists():  # the database's modules and the table's tiers (~20 ms) only for it
        from gamedp.database import find
        from gamedp.games.placement_tiers import blockgame_table

        spec = blockgame_table()
        # A damaged database raises with the fix rather than answering.
        db = find(spec.game_id, spec.variant, command="gamedp solve blockgame")
        if db is not None:
            return "".join("WINNING\n" if db.code(spec.index(spec.key(b))) == 1 else "LOSING\n" for b in boards)
    won = _native_wins(boards)
    if won is None:
        won = checked_wins(boards)
    return "".join("WINNING\n" if w else "LOSING\n" for w in won)


def checked_wins(boards: list[int]) -> list[bool]:
    """Does the player to move win on each board? By the numpy kernels: slower to start than the native ones."""
    from gamedp.games.placement import blockgame_rules
    from gamedp.games.placement_search import wins

    return [bool(w) for w in wins(blockgame_rules(), boards)]


def _native_wins(boards: list[int]) -> list[bool] | None:
    """:func:`checked_wins` by the native kernels (no numpy), the same way (the memo search first where
    :func:`search_first` allows, else the whole table), or None when they are not available here."""
    from gamedp.games.placement_search import search_first
    from gamedp.native import load_native

    lib = load_native("gamedp.judge.blockgame_native")
    if lib is None:
        return None
    sizes = (ctypes.c_int64 * 4)()
    lib.sizes(sizes)
    search_words, numbers, scratch_bytes, table_words = sizes
    n = len(boards)
    array = (ctypes.c_uint64 * n)(*boards)
    out = ctypes.create_string_buffer(n)
    searched = search_first(boards) and lib.search(array, n, (ctypes.c_uint64 * search_words)(),
                                                   (ctypes.c_int64 * numbers)(),
                                                   ctypes.create_string_buffer(scratch_bytes), out) >= 0
    if not searched:  # the scratch is allocated only for the way taken: the table's is 4 MiB
        lib.table(array, n, (ctypes.c_uint64 * table_words)(), out)
    return [code == WIN_CODE for code in out.raw]
