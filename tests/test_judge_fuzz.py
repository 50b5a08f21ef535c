"""Each judge fed valid inputs with random slips (hypothesis, a bounded number of examples): it never raises
anything but a located GamedpError, and whatever it answers is the plain brute force's answer to the input as
its checked reader reads it. Slips include the characters that tripped readers before: Unicode digits
(``'٣'``, ``'²'``), carriage returns, signs, bytes that are not UTF-8, and numbers past int()'s digit limit."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cards import brute_total
from test_grid_judge import brute_first_wins
from test_placement import BLOCKGAME_SHAPES, Brute

from gamedp.errors import GamedpError
from gamedp.judge import blockgame, cardgame, gridgame

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLIPS = ["\u0663", "\u00b2", "\uff11", "\r", "\t", " ", "\n", "-", "+", "0", "9", "x", "#", ".", "\x00",
         "9" * 5000, "\udcff"]


@st.composite
def slipped(draw, text: str) -> bytes:
    """``text`` with up to three slips: a character changed, dropped or added, or a line dropped or repeated."""
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "replace", "delete", "line"]))
        if kind == "line":
            lines = text.split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            lines[k:k + 1] = [] if draw(st.booleans()) else [lines[k]] * 2
            text = "\n".join(lines)
        else:
            slip = "" if kind == "delete" else draw(st.sampled_from(SLIPS))
            text = text[:at] + slip + text[at + (kind != "insert"):]
    return text.encode("utf-8", "surrogateescape")


def answer_or_located_error(run, data: bytes) -> str | None:
    try:
        return run(data)
    except GamedpError as e:
        assert re.search(r", line \d+", str(e)) and "\n" not in str(e), e
        return None


# -- grid game ---------------------------------------------------------------------------------------------------
@st.composite
def grid_inputs(draw) -> bytes:
    n, m = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    rows = ["".join(draw(st.sampled_from("..#")) for _ in range(m)) for _ in range(n)]
    rows[-1] = rows[-1][:-1] + "."
    k = draw(st.integers(0, min(n, m) - 1))
    cells = [(r + 1, c + 1) for r in range(n) for c in range(m) if rows[r][c] == "."]
    queries = draw(st.lists(st.sampled_from(cells), max_size=4))
    text = f"{n} {m} {k}\n" + "".join(row + "\n" for row in rows) + f"{len(queries)}\n"
    return draw(slipped(text + "".join(f"{x} {y}\n" for x, y in queries)))


@FUZZ
@given(grid_inputs())
def test_grid_judge_survives_slips(data):
    got = answer_or_located_error(gridgame.run, data)
    if got is not None:
        problem = gridgame.read(data)
        board, m = problem.board, problem.board.m
        expected = "".join("First\n" if brute_first_wins(board.rows, board.k, q // m + 1, q % m + 1) else "Second\n"
                           for q in problem.queries.tolist())
        assert got == expected


# -- card game ---------------------------------------------------------------------------------------------------
@st.composite
def card_inputs(draw) -> bytes:
    rows = draw(st.lists(st.lists(st.integers(-30, 10_000), min_size=1, max_size=7), min_size=1, max_size=4))
    text = f"{len(rows)}\n" + "".join(f"{len(r)}\n{' '.join(map(str, r))}\n" for r in rows)
    return draw(slipped(text))


@FUZZ
@given(card_inputs())
def test_card_judge_survives_slips(data):
    got = answer_or_located_error(cardgame.run, data)
    if got is not None:
        values, bounds = cardgame.parse(data.decode("utf-8", "replace"))
        rows = [tuple(values[a:b].tolist()) for a, b in zip(bounds[:-1], bounds[1:])]
        if all(len(r) <= 12 for r in rows):  # the brute force is exponential
            assert got.split() == [str(brute_total(r, 1)) for r in rows]
        assert got == cardgame.checked_run(data.decode("utf-8", "replace"))


# -- BLOCKGAME ---------------------------------------------------------------------------------------------------
BRUTE = Brute([BLOCKGAME_SHAPES], 5, 5)


@st.composite
def blockgame_inputs(draw) -> bytes:
    # boards mostly filled, so that the plain brute force answers at once
    boards = draw(st.lists(st.lists(st.sampled_from("##.#"), min_size=25, max_size=25), min_size=0, max_size=3))
    text = f"{len(boards)}\n" + "".join("".join(b[r * 5:r * 5 + 5]) + "\n" for b in boards for r in range(5))
    return draw(slipped(text))


@FUZZ
@given(blockgame_inputs())
def test_blockgame_judge_survives_slips(data):
    got = answer_or_located_error(blockgame.run, data)
    if got is not None:
        boards = blockgame.parse(data.decode("utf-8", "replace"))
        assert got == "".join("WINNING\n" if BRUTE.value(b)[0] else "LOSING\n" for b in boards)
