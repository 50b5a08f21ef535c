"""gamedp.Word, the 64-bit word of a game's hooks without numpy: in plain Python it computes what numba's uint64
computes in a kernel, the kernel sees it as numpy.uint64 (constants, calls, tuples of them), and a user's game
written with it answers `gamedp value` from the compiled cache without importing numpy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_startup import probe

from gamedp import Word
from gamedp.compiled import jit_kernel

ROOT = Path(__file__).resolve().parents[1]
words = st.integers(0, 2**64 - 1)

THREE = Word(3)
SHIFTS = (Word(1), Word(7))


def mixed(x, y, s):
    """Every wrapping operation, on words made in the kernel and on the module's word constants."""
    a, b, shift = Word(x), Word(y), Word(s)
    return (a + b, a - b, a * b, a & b, a | b, a ^ b, ~a, a << shift, a >> shift, a - THREE, (a + SHIFTS[1]) >> SHIFTS[0],
            a // (b | Word(1)), a % (b | Word(1)))


@settings(max_examples=300, deadline=None)
@given(words, words, st.integers(0, 63))
def test_a_word_in_python_computes_what_the_kernel_computes(x, y, s):
    kernel = jit_kernel(mixed, cache=False)
    compiled = kernel(np.uint64(x), np.uint64(y), np.uint64(s))
    returned = kernel.nopython_signatures[0].return_type  # numba saw words, not int64 nor floats
    assert str(returned) == "UniTuple(uint64 x 13)", returned
    plain = mixed(x, y, s)
    assert all(isinstance(v, Word) for v in plain)
    assert [int(v) for v in plain] == [int(v) for v in compiled]


def test_a_word_is_an_integer_below_two_to_the_64():
    assert Word(2**64 + 5) == 5 and Word(-1) == 2**64 - 1
    assert Word(3) == 3 and hash(Word(3)) == hash(3) and f"{Word(255):x}" == "ff"
    assert isinstance(Word(6) / 4, float)  # true division is not a word's


def test_a_game_on_words_answers_from_the_compiled_cache_without_numpy():
    game = ROOT / "bench" / "connect4_hooks.py"
    lines = b"4453\n2252576253462244111563365343671351441\n"

    first, _, _ = probe(["value", str(game)], lines)  # builds the search for this machine where it is not built yet
    answers, modules, _ = probe(["value", str(game)], lines)
    builtin = subprocess.run([sys.executable, "-m", "gamedp", "value", "connect4"], input=lines, capture_output=True,
                             timeout=600, check=True).stdout.decode()
    assert answers == first == builtin and builtin.count("\n") == 2
    assert not modules & {"numpy", "numba"}, sorted(modules & {"numpy", "numba"})


FIVE = Word(5)


def test_words_in_comprehensions_lambdas_defaults_and_closures_are_numpy_s_too():
    """Wherever a kernel meets a word, numba is handed numpy.uint64: not only names the function uses itself."""

    def in_a_comprehension(a):
        return [a & FIVE for _ in range(2)][1]

    def in_a_lambda(a):
        shifted = lambda x: x << Word(1)  # noqa: E731
        return shifted(a) ^ THREE

    def by_default(a, mask=FIVE):
        return a & mask

    seven = Word(7)

    def in_a_closure(a):
        return a - seven

    for function in (in_a_comprehension, in_a_lambda, by_default, in_a_closure):
        kernel = jit_kernel(function, cache=False)
        assert int(kernel(np.uint64(13))) == int(function(Word(13))), function.__name__
        assert str(kernel.nopython_signatures[0].return_type) == "uint64", function.__name__
