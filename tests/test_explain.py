"""gamedp explain: the sentences agree with plain brute force written from the rules."""

from __future__ import annotations

import functools
import json
import random
import re

import pytest
from test_grid_judge import brute_first_wins

from gamedp.cli.main import main
from gamedp.explain import explain_blockgame, explain_cards, explain_grid
from gamedp.values import LOSE, WIN


def best_total(row: tuple[int, ...]) -> int:
    """The most the player to move takes from ``row``, by plain recursion over both ends."""
    @functools.lru_cache(maxsize=None)
    def take(lo: int, hi: int) -> int:
        if lo == hi:
            return 0
        rest = sum(row[lo:hi])
        return rest - min(take(lo + 1, hi), take(lo, hi - 1))

    return take(0, len(row))


def test_card_totals_match_brute_force():
    rng = random.Random(7)
    for _ in range(60):
        row = tuple(rng.randint(1, 9) for _ in range(rng.randint(1, 9)))
        e = explain_cards(row)
        total = sum(row)
        mine = best_total(row)
        assert f"takes {mine} of the {total} points" in e.verdict
        # each first card: its card plus what is left for you after the opponent's best play
        for note in e.moves:
            rest = row[1:] if note.move == "L" else row[:-1]
            taken = row[0] if note.move == "L" else row[-1]
            yours = taken + sum(rest) - best_total(rest)
            assert f"end with {yours} against {total - yours}" in note.sentence
        assert "is best" in e.moves[0].sentence


CELLS = [(r, c) for r in range(5) for c in range(5)]


def placements() -> list[frozenset]:
    """Every L-tromino (a 2x2 square less one cell) and domino, from the rules."""
    out = []
    for r in range(4):
        for c in range(4):
            square = {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)}
            out += [frozenset(square - {cell}) for cell in square]
    for r in range(5):
        for c in range(4):
            out += [frozenset({(r, c), (r, c + 1)}), frozenset({(c, r), (c + 1, r)})]
    return out


PLACEMENTS = placements()


@functools.lru_cache(maxsize=None)
def block_wins(empty: frozenset) -> bool:
    return any(p <= empty and not block_wins(empty - p) for p in PLACEMENTS)


def cell_name(cell: tuple[int, int]) -> str:
    return f"{'abcde'[cell[1]]}{cell[0] + 1}"


def test_blockgame_placements_match_brute_force():
    rng = random.Random(3)
    for _ in range(25):
        empty = frozenset(cell for cell in CELLS if rng.random() < 0.35)
        board = "\n".join("".join("." if (r, c) in empty else "#" for c in range(5)) for r in range(5))
        e = explain_blockgame(board)
        assert (e.value.outcome is WIN) == block_wins(empty)
        for note in e.moves:
            cells = frozenset((int(name[1]) - 1, "abcde".index(name[0])) for name in note.move.split("-"))
            assert cells in PLACEMENTS and cells <= empty
            wins = not block_wins(empty - cells)
            assert (note.value.outcome is WIN) == wins
            assert note.sentence.startswith("Placing an L-tromino" if len(cells) == 3 else "Placing a domino")
            assert ("loses" in note.sentence or "holds out" in note.sentence) == (not wins)


def test_grid_explanation_matches_brute_force():
    rng = random.Random(9)
    for _ in range(30):
        n, m = rng.randint(2, 4), rng.randint(2, 4)
        k = rng.randint(0, min(n, m) - 1)
        rows = ["".join(rng.choice("..#") for _ in range(m)) for _ in range(n)]
        rows[-1] = rows[-1][:-1] + "."
        opened = [(r, c) for r in range(n) for c in range(m) if rows[r][c] == "."]
        cell = rng.choice(opened)
        e = explain_grid(rows, k, cell)
        assert (e.value.outcome is WIN) == brute_first_wins(rows, k, cell[0] + 1, cell[1] + 1)
        for note in e.moves:
            to = [int(x) for x in re.findall(r"\d+", note.move)[2:]]
            assert (note.value.outcome is LOSE) == brute_first_wins(rows, k, *to)


def test_explain_command_text_and_json(capsys):
    main(["explain", "cards", "1 2 5 2"])
    out = capsys.readouterr().out
    assert "Taking the left card (1) is best" in out and "4 against 6" in out
    main(["explain", "blockgame", "#####/#####/#..#./####./.....", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["value"]["outcome"] == "win" and doc["moves"][0]["move"] == "e4-d5-e5"
    main(["explain", "grid", "--k", "1", "o./.."])
    assert "Moving 1,1-2,2 is best" in capsys.readouterr().out
    main(["explain", "cards"])  # the built-in row, 1 2 5 2
    assert "takes 6 of the 10 points" in capsys.readouterr().out
    main(["explain", "tictactoe", "XX. OO. ..."])
    assert "Playing 3 is best" in capsys.readouterr().out


@pytest.mark.parametrize("args", [["cards", "1 [2 5] 2"], ["grid", "--k", "1", "o./.x"], ["cards", "--k", "1", "1"],
                                  ["blockgame", "....."]])
def test_explain_errors_exit_2(capsys, args):
    with pytest.raises(SystemExit) as ended:
        main(["explain", *args])
    assert ended.value.code == 2 and capsys.readouterr().err.startswith("gamedp: error: ")
