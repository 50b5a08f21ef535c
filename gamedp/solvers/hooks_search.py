"""A game's own score search, from the five hooks of :class:`~gamedp.solvers.search_rules.SearchRules` (plain Python
functions in the user's file), compiled into the null-window search of :mod:`gamedp.kernels.null_window` ahead of
time, once per machine, as :mod:`gamedp.solvers.prebuilt_search` compiles a :class:`~gamedp.compiled.CompiledGame`.

The library's key is the hooks' fingerprints (:mod:`gamedp.fingerprint`) with the parameters, the most moves and
the history switch (constants compiled in), the search's sources and the machine; it lives in the user's trusted
kernel cache (:func:`gamedp.native.build_library`), and later runs load it with ctypes, without numba or numpy.
``GAMEDP_JIT=1``, or a build that failed (reported once, remembered), takes numba's compiled callbacks instead:
the same entry points, the same answers.

Before anything is built each hook is compiled alone, for the types the search calls it with, so that a mistake
in one is reported as one line naming the hook, its file and line, and numba's first useful words
(:func:`check_hooks`), not as a traceback of the search that inlines it.
"""

from __future__ import annotations

import os
import re
from typing import Any

from gamedp.errors import GamedpError
from gamedp.words import kernel_value

_STEM = "libown_search"
#: gamedp's sources compiled into the library besides the hooks.
_SOURCES = ("kernels/null_window.py", "kernels/line_answers.py", "solvers/hooks_search.py")
#: Each hook's arguments (a and b are 64-bit words, move one bit of them, p the parameters; text a line's bytes,
#: as a uint8 array, read from begin to end; score a score) and what it returns.
ARGUMENTS = {"start": ("a", "b", "p"), "moves": ("a", "b", "p"), "play": ("a", "b", "move", "p"),
             "order": ("a", "b", "move", "p"), "key": ("a", "b", "p"), "bound": ("a", "b", "p"),
             "read": ("text", "begin", "end", "p"), "remoteness": ("a", "b", "score", "p")}
RETURNS = {"start": "(settled, low, high)", "moves": "(moves, low, high)", "play": "(a, b), the position after the move",
           "order": "an integer (higher: searched first)", "key": "an integer, the position's key",
           "bound": "(low, high), bounds on the position's score",
           "read": "(read, a, b): whether the line is a position it reads, and its two words",
           "remoteness": "an integer, the plies to the end the score means (negative: none)"}
#: The hooks a game may leave out: the search then tests no bound after the table misses, each line is read in
#: Python (the game's parse_position) and a score means its sign alone.
OPTIONAL = ("bound", "read", "remoteness")
# The library's entry points, as ScoreSearch calls a game's search (see gamedp.kernels.connect4_search).
_SOLVE = "i8(i8, i8, i8, i8, CPointer(u8), i8, i8, CPointer(u8), CPointer(i8), CPointer(i8))"
_GROW = "i8(CPointer(u8), i8)"
_EXPAND = "i8(i8, i8, CPointer(i8))"
_REMOTENESS = "i8(i8, i8, i8)"
_ANSWER_LINES = ("i8(CPointer(u1), i8, i8, i8, i8, CPointer(u8), i8, CPointer(u8), CPointer(i8), CPointer(i8), "
                 "CPointer(u1), i8, CPointer(i8))")


def load_search(rules: Any) -> Any:
    """The compiled search of ``rules`` (a :class:`~gamedp.solvers.search_rules.SearchRules`): a library with the entry
    points ``solve``, ``grow`` and ``expand`` (and ``answer_lines`` and ``remoteness`` where the rules have the
    hooks they need), built once per machine, else numba's callbacks with the same entry points."""
    from gamedp.native import build_library, c_callbacks, load_built, open_built

    tag = _tag(rules)
    lib = None
    if tag is not None:
        from gamedp.kernel_cache import kernel_folder

        folder = kernel_folder(tag)
        stem = os.path.join(folder, _STEM)
        lib = open_built(stem)
        if lib is None:
            check_hooks(rules)  # before the build: a mistake is said as itself, not as a failed build
            lib = load_built(stem, lambda: build_library(_STEM, _entries(rules), folder, False),
                             f"the search of {rules.name}", "numba's path")
    return lib if lib is not None else c_callbacks(_entries(rules))


def _tag(rules: Any) -> str | None:
    if os.environ.get("GAMEDP_JIT") == "1":
        return None
    from gamedp.fingerprint import build_tag

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    hooks = tuple(rules.hooks.get(name) for name in ARGUMENTS)
    return build_tag((*hooks, rules.parameters, rules.max_moves, rules.history),
                     tuple(os.path.join(here, source) for source in _SOURCES))


def check_hooks(rules: Any) -> dict[str, Any]:
    """Each hook of ``rules`` compiled alone for the search's argument types (numba kernels, by name); a hook that
    does not compile, or returns something else than the contract says, is a :class:`GamedpError` naming it."""
    from numba import typeof, types

    from gamedp.compiled import jit_kernel

    word, p = types.uint64, typeof(kernel_value(rules.parameters))
    kinds = {"a": word, "b": word, "move": word, "p": p, "text": types.Array(types.uint8, 1, "C"),
             "begin": types.int64, "end": types.int64, "score": types.int64}
    kernels = {}
    for name, hook in rules.hooks.items():
        arguments = ARGUMENTS[name]
        signature = tuple(kinds[a] for a in arguments)
        kernel: Any = jit_kernel(hook, cache=False)
        try:
            kernel.compile(signature)
        except Exception as e:  # numba's typing error, of this hook or of a function it calls
            raise hook_error(name, hook, _first_useful_line(str(e), hook.__code__.co_filename)) from None
        returned = kernel.overloads[signature].signature.return_type
        if not _returns_as_it_should(name, returned, types):
            raise hook_error(name, hook, f"returns {returned}; it must return {RETURNS[name]}")
        kernels[name] = kernel
    return kernels


def hook_error(name: str, hook: Any, what: str) -> GamedpError:
    """The one line that says what is wrong with hook ``name`` (the function ``hook``)."""
    where = getattr(getattr(hook, "__code__", None), "co_filename", None)
    return GamedpError(f"hook {name!r}" + (f" in {where}" if where else "") + f": {what}")


def _returns_as_it_should(name: str, returned: Any, types: Any) -> bool:
    number = (types.Integer, types.Boolean)
    if name in ("order", "key", "remoteness"):
        return isinstance(returned, number)
    size = 2 if name in ("play", "bound") else 3
    return isinstance(returned, types.BaseTuple) and len(returned) == size and \
        all(isinstance(t, number) for t in returned.types)


def _first_useful_line(message: str, filename: str) -> str:
    """numba's account of a typing error in a few words: the line of ``filename`` it names, and its first line
    that says what failed (with the line after it, where that one ends in a colon)."""
    lines = [line.strip() for line in re.sub(r"\x1b\[[0-9;]*m", "", message).splitlines()]
    place = next((m for m in (re.match(r'File "(.*)", line (\d+)', line) for line in lines)
                  if m and os.path.basename(m[1]) == os.path.basename(filename)), None)
    said = [line for line in lines if line and not line.startswith(("Failed in ", "File ", "During:", "<source",
                                                                    "^", "- Resolution", "Resolution failure"))]
    what = said[0] if said else "numba cannot compile it"
    if what.endswith(":") and len(said) > 1:
        what = f"{what} {said[1]}"
    return (f"line {place[2]}: " if place else "") + what


def _entries(rules: Any) -> dict[str, tuple[Any, Any]]:
    """The library's entry points: ``solve`` (the null-window search of :mod:`gamedp.kernels.null_window` with the
    hooks and the parameters compiled in), ``grow`` (the table doubled in place), ``expand`` (a position as the
    search sees it, for a driver that splits the search: :func:`gamedp.kernels.null_window.expand`), and where the
    rules have the hooks: ``remoteness`` (what a score means, the hook's) and ``answer_lines`` (``gamedp value``'s
    answers to a block of lines, :mod:`gamedp.kernels.line_answers`, with the ``read`` hook)."""
    import numpy as np
    from numba import carray, njit

    from gamedp.compiled import jit_kernel
    from gamedp.kernels import line_answers, null_window

    hooks = check_hooks(rules)
    start, moves, play, order, key = (hooks[name] for name in ("start", "moves", "play", "order", "key"))
    bound, read, remoteness = (hooks.get(name) for name in OPTIONAL)
    p, width, history = kernel_value(rules.parameters), rules.max_moves, rules.history
    # The search's own kernels, not numba's cached ones: they take the hooks as arguments (see jit_kernel).
    search, grow = jit_kernel(null_window.solve, cache=False), jit_kernel(null_window.grow, cache=False)
    view = jit_kernel(null_window.expand, cache=False)
    plies = null_window.MAX_PLIES + 1
    frames_size = plies * null_window.frame_words(width)
    counters_size = plies * null_window.counter_words(width) + null_window.HISTORY_WORDS
    watch_size = null_window.WATCH_WORDS

    # The hooks' results in the types the search keeps them in, whatever integers a user's hook returns (an
    # int64 key would make the search's hashing float arithmetic).
    @njit(nogil=True)
    def start_typed(a, b, p):
        settled, low, high = start(a, b, p)
        return bool(settled), np.int64(low), np.int64(high)

    @njit(nogil=True)
    def moves_typed(a, b, p):
        found, low, high = moves(a, b, p)
        return np.uint64(found), np.int64(low), np.int64(high)

    @njit(nogil=True)
    def play_typed(a, b, move, p):
        a, b = play(a, b, move, p)
        return np.uint64(a), np.uint64(b)

    @njit(nogil=True)
    def order_typed(a, b, move, p):
        return np.int64(order(a, b, move, p))

    @njit(nogil=True)
    def key_typed(a, b, p):
        return np.uint64(key(a, b, p))

    if bound is None:
        @njit(nogil=True)
        def bound_typed(a, b, p):  # the search's test after the table misses: this game gives none
            return np.int64(-null_window.OFFSET), np.int64(null_window.OFFSET)
    else:
        @njit(nogil=True)
        def bound_typed(a, b, p):
            low, high = bound(a, b, p)
            return np.int64(low), np.int64(high)

    @njit(nogil=True)
    def solve_words(a, b, p, low, high, arrays):
        table, size, frames, counters, watch = arrays
        return search(start_typed, moves_typed, bound_typed, play_typed, order_typed, key_typed, a, b, p, low, high,
                      width, history, table, size, frames, counters, watch)

    def solve(a, b, low, high, table_ptr, size, symmetric, frames_ptr, counters_ptr, watch_ptr):
        return solve_words(np.uint64(a), np.uint64(b), p, low, high,
                           (carray(table_ptr, size), size, carray(frames_ptr, frames_size),
                            carray(counters_ptr, counters_size), carray(watch_ptr, watch_size)))

    def grow_table(table_ptr, size):
        return grow(carray(table_ptr, 2 * size), size)

    def expand(a, b, out_ptr):
        return view(start_typed, moves_typed, bound_typed, play_typed, order_typed, np.uint64(a), np.uint64(b), p,
                    carray(out_ptr, 2 + 3 * width))

    entries = {"solve": (solve, _SOLVE), "grow": (grow_table, _GROW), "expand": (expand, _EXPAND)}
    if remoteness is not None:
        @njit(nogil=True)
        def plies_of(a, b, score, p):
            return np.int64(remoteness(a, b, score, p))

        def remoteness_entry(a, b, score):
            return plies_of(np.uint64(a), np.uint64(b), score, p)

        entries["remoteness"] = (remoteness_entry, _REMOTENESS)
    else:
        @njit(nogil=True)
        def plies_of(a, b, score, p):  # a score means its sign alone
            return np.int64(-1)

    if read is not None:
        lines = jit_kernel(line_answers.answer_lines, cache=False)

        @njit(nogil=True)
        def read_typed(text, begin, end, p):
            found, a, b = read(text, begin, end, p)
            return bool(found), np.uint64(a), np.uint64(b)

        def answer_lines(text_ptr, begin, end, outcomes_only, quick, table_ptr, size, frames_ptr, counters_ptr,
                         watch_ptr, out_ptr, room, done_ptr):
            watch = carray(watch_ptr, watch_size)
            arrays = (carray(table_ptr, size), size, carray(frames_ptr, frames_size),
                      carray(counters_ptr, counters_size), watch)
            low, high = (-1, 1) if outcomes_only != 0 else (-null_window.OFFSET, null_window.OFFSET)
            return lines(solve_words, read_typed, plies_of, p, carray(text_ptr, end), begin, end, low, high,
                         outcomes_only, quick, arrays, watch, carray(out_ptr, room), carray(done_ptr, 2))

        entries["answer_lines"] = (answer_lines, _ANSWER_LINES)
    return entries
