"""``gamedp value``'s answers to a block of lines in one compiled call, for a game whose rules read a line
(:class:`~gamedp.solvers.search_rules.SearchRules`' optional ``read`` hook): each line read into the search's two
words, searched, and its answer ``POSITION<TAB>VALUE<TAB>REMOTENESS`` written as :mod:`gamedp.batch` prints it,
with no Python between the lines. :mod:`gamedp.solvers.hooks_search` compiles it with a game's own hooks, and
:mod:`gamedp.kernels.connect4_search` with Connect-Four's.

The kernels it is given:

- ``solve_words(a, b, p, low, high, arrays) -> score``: the search of the position (a, b) (``arrays``: the table
  and the searcher's own, passed through);
- ``read(text, begin, end, p) -> (read, a, b)``: the line ``text[begin:end]`` (spaces, tabs and carriage
  returns around it taken off) as the position's two words, or ``read`` false where it is not a position the
  hook reads (the caller reads that line as the game's notation, which also says what is wrong with it);
- ``remoteness(a, b, score, p) -> plies``: the plies to the end that ``score`` means, or a negative number for
  none (``-`` is written).
"""

from gamedp.kernels import null_window

#: Its functions take a game's kernels as arguments (see gamedp.aot.jit_functions).
TAKES_KERNELS = True
#: What :func:`answer_lines` returns: every line answered; the line at ``done[0]`` left to the caller; paused
#: (call again from ``done[0]``).
ANSWERED, LEFT, PAUSED = range(3)
#: The most bytes an answer adds to its line: a tab, LOSE, a tab, 19 digits and a newline.
ANSWER_ROOM = 32


def answer_lines(solve_words, read, remoteness, p, text, begin, end, low, high, outcomes_only, quick, arrays,
                 watch, out, done):
    """Answer the lines of ``text[begin:end]`` (split at newlines) in order, each searched in [low, high] for at
    most ``quick`` positions, into ``out``.

    Returns :data:`ANSWERED` once every line is; :data:`LEFT` at a line left to the caller (empty, not ASCII,
    not read by ``read``, too long for ``out``, or a search that needs more positions or was stopped);
    :data:`PAUSED` when ``out`` is nearly full, the lines have explored ``quick`` positions together or
    ``watch[STOP]`` is set. ``done`` receives the offset of the first line not answered and the bytes written."""
    room = len(out)
    at = begin
    written = 0
    explored = 0
    status = ANSWERED
    while at < end:
        stop = at
        while stop < end and text[stop] != 10:
            stop += 1
        first, last = at, stop
        while first < last and is_space(text[first]):
            first += 1
        while last > first and is_space(text[last - 1]):
            last -= 1
        if first == last or last - first + ANSWER_ROOM > room or not is_ascii(text, first, last):
            status = LEFT
            break
        if written + (last - first) + ANSWER_ROOM > room or watch[null_window.STOP] != 0 or explored >= quick:
            status = PAUSED
            break
        found, a, b = read(text, first, last, p)
        if not found:
            status = LEFT
            break
        watch[null_window.NODES] = 0
        watch[null_window.LIMIT] = quick
        score = solve_words(a, b, p, low, high, arrays)
        if score == null_window.STOPPED:
            status = LEFT
            break
        explored += watch[null_window.NODES]
        for i in range(first, last):
            out[written] = text[i]
            written += 1
        plies = -1 if outcomes_only != 0 else remoteness(a, b, score, p)
        written = put_value(out, written, score, plies)
        at = stop + 1
    done[0] = min(at, end)
    done[1] = written
    return status


def is_space(byte):
    return byte == 32 or byte == 9 or byte == 13


def is_ascii(text, begin, end):
    for i in range(begin, end):
        if text[i] >= 128:
            return False
    return True


def put_value(out, at, score, plies):
    """Write ``<TAB>VALUE<TAB>REMOTENESS`` and a newline at ``out[at:]``: the outcome ``score``'s sign means, and
    ``plies`` (``-`` where negative); returns the new end."""
    out[at] = 9
    at += 1
    if score == 0:
        out[at], out[at + 1], out[at + 2] = 84, 73, 69  # TIE
        at += 3
    elif score > 0:
        out[at], out[at + 1], out[at + 2] = 87, 73, 78  # WIN
        at += 3
    else:
        out[at], out[at + 1], out[at + 2], out[at + 3] = 76, 79, 83, 69  # LOSE
        at += 4
    out[at] = 9
    at += 1
    if plies < 0:
        out[at] = 45  # -
        at += 1
    else:
        digits = 1
        rest = plies // 10
        while rest > 0:
            digits += 1
            rest //= 10
        for i in range(digits):
            out[at + digits - 1 - i] = 48 + plies % 10
            plies //= 10
        at += digits
    out[at] = 10
    return at + 1
