"""The judge problems as stress inputs: random inputs within their limits, their text, simpler neighbours.

An input is kept as plain data (a list of cases, or a board with queries) so the shrinker can simplify it
the way a person would: fewer cases, smaller N / board / K, simpler values; every simplification stays
within the problem's limits, so a program that fails on it fails on a valid input.

``size`` runs from 1 (tiny) to :data:`MAX_SIZE` (the problem's largest inputs). Cases come in shuffled
orders, often twice (the same cases again, shuffled), so answers that depend on earlier cases show.

>>> import random
>>> problem = PROBLEMS["cardgame"]
>>> print(problem.render([(1, 2, 5, 2), (3,)]), end="")
2
4
1 2 5 2
1
3
>>> cases = problem.generate(random.Random(1), 1)
>>> 1 <= len(cases) and all(1 <= len(c) <= 1000 for c in cases)
True
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from gamedp.stress.shrink import chunk_removals, smaller_numbers

MAX_SIZE = 100


@dataclass(frozen=True)
class Problem:
    name: str
    #: the judge's usual limits, the defaults of ``--time`` and ``--memory``
    time_limit: float
    memory_mb: int
    generate: Callable[[random.Random, int], Any]
    render: Callable[[Any], str]
    #: simplification passes for :func:`gamedp.stress.shrink.shrink`
    passes: tuple[Callable[[Any], Iterator[Any]], ...]
    #: a short description of an input's size, for the report (``2 cases, N <= 1``)
    measure: Callable[[Any], str]
    #: the explanation of the case behind output line ``line`` (1-based), or None
    explain: Callable[[Any, int], str | None]
    #: how many of the passes make the input smaller (the rest make values simpler): a time-out or a memory
    #: overrun is shrunk by those alone, as values hardly change the work and each failing run costs the limit
    sizing: int
    #: the expected output straight from the input's data, where that is faster than the judge reading its text
    answer: Callable[[Any], str] | None = None
    #: for a wrong output line (1-based): the input cut to that line's case alone, then to the cases up to it
    isolate: Callable[[Any, int], list] | None = None


def _fraction(size: int) -> float:
    return min(max(size, 1), MAX_SIZE) / MAX_SIZE


def _with_repeats(rng: random.Random, cases: list, cap: int | None = None) -> list:
    """``cases``, shuffled, and half the time followed by the same cases shuffled again (up to ``cap``)."""
    rng.shuffle(cases)
    if rng.random() < 0.5:
        again = cases[:]
        rng.shuffle(again)
        cases = cases + again
    return cases if cap is None else cases[:cap]


def _remove_cases(cases: list) -> Iterator[list]:
    return chunk_removals(cases)


def _isolate_cases(cases: list, line: int) -> list[list]:
    """The case behind a wrong output line alone, then with the cases before it (state leaking needs them).

    >>> _isolate_cases(["a", "b", "c"], 2)
    [['b'], ['a', 'b']]
    """
    return [[cases[line - 1]], cases[:line]] if 1 <= line <= len(cases) else []


# -- card game (Baekjoon 11062) -------------------------------------------------------------------------------
CARD_MAX_N, CARD_MAX_VALUE = 1000, 10000


def card_generate(rng: random.Random, size: int) -> list[tuple[int, ...]]:
    f = _fraction(size)
    top_n = max(1, round(CARD_MAX_N * f * f))
    budget = 2_000_000  # sum of N^2 over the cases: the judge's inputs are a few big cases or many small ones
    cases = []
    for _ in range(rng.randint(1, 1 + int(30 * f))):
        n = rng.randint(1, top_n)
        if n * n > budget:
            break
        budget -= n * n
        high = rng.choice((2, 10, CARD_MAX_VALUE))
        cases.append(tuple(rng.choices(range(1, high + 1), k=n)))
    return _with_repeats(rng, cases or [(rng.randint(1, CARD_MAX_VALUE),)])


def card_render(cases: list[tuple[int, ...]]) -> str:
    lines = [str(len(cases))]
    for row in cases:
        lines += [str(len(row)), " ".join(map(str, row))]
    return "\n".join(lines) + "\n"


def _card_shorter(cases: list) -> Iterator[list]:
    for k, row in enumerate(cases):
        for rest in chunk_removals(row):
            yield cases[:k] + [tuple(rest)] + cases[k + 1:]


def _card_values(cases: list) -> Iterator[list]:
    for k, row in enumerate(cases):
        for i, v in enumerate(row):
            for w in smaller_numbers(v):
                yield cases[:k] + [row[:i] + (w,) + row[i + 1:]] + cases[k + 1:]


def card_measure(cases: list) -> str:
    return f"{len(cases)} case{'s' * (len(cases) != 1)}, N <= {max(map(len, cases))}, values <= " \
           f"{max(max(row) for row in cases)}"


def card_explain(cases: list, line: int) -> str | None:
    if not 1 <= line <= len(cases):
        return None
    from gamedp.explain import explain_cards

    return f"case {line} ({' '.join(map(str, cases[line - 1]))}):\n" + explain_cards(cases[line - 1]).text()


# -- BLOCKGAME (algospot) -------------------------------------------------------------------------------------
BLOCK_MAX_CASES, SIDE = 50, 5


def block_generate(rng: random.Random, size: int) -> list[int]:
    """Boards as bitmasks (bit r * 5 + c set: filled); small sizes fill most cells."""
    f = _fraction(size)
    boards = []
    for _ in range(rng.randint(1, max(1, round(BLOCK_MAX_CASES * f)))):
        empty_share = f * rng.random()
        board = sum(1 << cell for cell in range(SIDE * SIDE) if rng.random() >= empty_share)
        boards.append(board)
    return _with_repeats(rng, boards, BLOCK_MAX_CASES)


def block_render(boards: list[int]) -> str:
    lines = [str(len(boards))]
    for board in boards:
        lines += ["".join("#" if board >> (r * SIDE + c) & 1 else "." for c in range(SIDE)) for r in range(SIDE)]
    return "\n".join(lines) + "\n"


def _placements() -> list[int]:
    """The 104 placements as masks: an L-tromino is a 2 x 2 square less one cell; dominoes both ways."""
    def cell(r: int, c: int) -> int:
        return 1 << (r * SIDE + c)

    masks = []
    for r in range(SIDE - 1):
        for c in range(SIDE - 1):
            square = cell(r, c) | cell(r, c + 1) | cell(r + 1, c) | cell(r + 1, c + 1)
            masks += [square & ~cell(r + dr, c + dc) for dr in (0, 1) for dc in (0, 1)]
    for a in range(SIDE):
        for b in range(SIDE - 1):
            masks += [cell(a, b) | cell(a, b + 1), cell(b, a) | cell(b + 1, a)]
    return masks


def _block_descend(boards: list[int]) -> Iterator[list[int]]:
    """Each board after one placement. A wrong answer on a board comes from a wrong move set there or a wrong
    answer after some placement, so following failing placements down leads to where the moves are wrong (where
    single cells filled one at a time may all hide the bug)."""
    for k, board in enumerate(boards):
        for mask in _placements():
            if not board & mask:
                yield boards[:k] + [board | mask] + boards[k + 1:]


def _block_fill(boards: list[int]) -> Iterator[list[int]]:
    """Fill empty cells: half of them at once first, then quarters, ..., then one at a time."""
    full = (1 << SIDE * SIDE) - 1
    for k, board in enumerate(boards):
        empty = [cell for cell in range(SIDE * SIDE) if not board >> cell & 1]
        for kept in chunk_removals(empty, keep_one=False):
            yield boards[:k] + [full & ~sum(1 << cell for cell in kept)] + boards[k + 1:]


@functools.lru_cache(maxsize=1)
def _block_table() -> tuple[Any, Any]:
    """BLOCKGAME solved once for the process (about a second, 8 MB): a stress run answers thousands of boards,
    many nearly empty, which the judge would solve afresh for each input."""
    from gamedp.games.placement import blockgame_table_spec

    spec = blockgame_table_spec()
    outcomes, _ = spec.solve_table(False)
    return spec, outcomes


def block_answer(boards: list[int]) -> str:
    """The judge's output for ``boards``, read from the solved table (2 bits a position, code 1: won)."""
    spec, outcomes = _block_table()
    out = []
    for board in boards:
        i = spec.index(board)
        out.append("WINNING\n" if outcomes[i >> 2] >> ((i & 3) << 1) & 3 == 1 else "LOSING\n")
    return "".join(out)


def block_measure(boards: list[int]) -> str:
    empties = [SIDE * SIDE - bin(b).count("1") for b in boards]
    return f"{len(boards)} board{'s' * (len(boards) != 1)}, at most {max(empties)} empty cells"


def block_explain(boards: list[int], line: int) -> str | None:
    if not 1 <= line <= len(boards):
        return None
    from gamedp.explain import explain_blockgame

    board = block_render([boards[line - 1]]).split("\n", 1)[1]
    return f"case {line}:\n{board}" + explain_blockgame(board).text()


# -- grid game (Baekjoon 28218) -------------------------------------------------------------------------------
GRID_MAX_SIDE, GRID_MAX_QUERIES = 300, 300
#: boards up to about this many cells times moves are explained (a few seconds of search at most)
EXPLAIN_GRID_WORK = 100_000


@dataclass(frozen=True)
class GridInput:
    rows: tuple[str, ...]
    k: int
    #: 0-based (row, column) of each query
    queries: tuple[tuple[int, int], ...]

    @property
    def n(self) -> int:
        return len(self.rows)

    @property
    def m(self) -> int:
        return len(self.rows[0])


def reach_bits(rows: list[str] | tuple[str, ...], k: int) -> list[int]:
    """Which open cells can reach the bottom-right corner (the judge promises all of them can), one int per
    row: bit ``m - 1 - c`` for column c, so "left of" is "above" in bits.

    A row at a time from the bottom: a cell is reached from below, by a diagonal jump, or from its right. The
    jumps: row j's bits shifted by j are kept in a sliding-window OR over the k rows below (two stacks), so a
    row costs a few big-integer operations; the seeds then spread left through runs of open cells by one
    addition (the carry runs up a run of ones). The largest boards take about a millisecond.

    >>> [bin(b) for b in reach_bits(["..", "#."], 0)]
    ['0b11', '0b1']
    >>> reach_bits([".#", "#."], 0)[0], reach_bits([".#", "#."], 1)[0]
    (0, 2)
    """
    return _reach([int(row.translate(_OPEN_BITS), 2) for row in rows], len(rows[0]), k)


def _reach(opened: list[int], m: int, k: int) -> list[int]:
    """:func:`reach_bits` of the rows' open cells as bits."""
    n = len(opened)
    reach = [0] * n
    # the window of rows r+1..r+k as a queue of two stacks, each entry (value, OR of it and all below it)
    back: list[tuple[int, int]] = []
    front: list[tuple[int, int]] = []
    below = 0
    for r in range(n - 1, -1, -1):
        if k:
            if r + 1 < n:
                shifted = reach[r + 1] << (r + 1)
                back.append((shifted, shifted | (back[-1][1] if back else 0)))
            if r + k + 1 < n:  # row r + k + 1 leaves the window: the oldest entry
                if not front:
                    while back:
                        value = back.pop()[0]
                        front.append((value, value | (front[-1][1] if front else 0)))
                front.pop()
        window = (front[-1][1] if front else 0) | (back[-1][1] if back else 0)
        here = opened[r]
        seeds = here & (below | window >> r | (1 if r == n - 1 else 0))
        below = reach[r] = ((here + seeds) ^ here) & here | seeds
    return reach


_OPEN_BITS = str.maketrans(".#", "10")


def grid_reachable(rows: list[str] | tuple[str, ...], k: int) -> list[list[bool]]:
    """:func:`reach_bits` as rows of booleans.

    >>> grid_reachable(["..", "#."], 0)
    [[True, True], [False, True]]
    """
    m = len(rows[0])
    return [[bool(bits >> (m - 1 - c) & 1) for c in range(m)] for bits in reach_bits(rows, k)]


def _grid_valid(rows: list[str], k: int, queries) -> GridInput | None:
    """The input with the cells that cannot reach the goal filled, and the queries still on open cells."""
    n, m = len(rows), len(rows[0]) if rows else 0
    if n < 2 or m < 2 or rows[-1][-1] != ".":
        return None
    k = min(k, n - 1, m - 1)
    return _grid_input(reach_bits(rows, k), m, k, queries)


def _grid_input(reach: list[int], m: int, k: int, queries) -> GridInput | None:
    n = len(reach)
    fixed = tuple(format(bits, f"0{m}b").translate(_DRAW_BITS) for bits in reach)
    kept = tuple((r, c) for r, c in queries
                 if 0 <= r < n and 0 <= c < m and reach[r] >> (m - 1 - c) & 1 and (r, c) != (n - 1, m - 1))
    return GridInput(fixed, k, kept) if kept else None


_DRAW_BITS = str.maketrans("10", ".#")


def grid_generate(rng: random.Random, size: int) -> GridInput:
    f = _fraction(size)
    top = 2 + round((GRID_MAX_SIDE - 2) * f * f)
    while True:
        n, m = rng.randint(2, top), rng.randint(2, top)
        most = min(n, m) - 1
        k = rng.choice((0, 1, most, rng.randint(0, most)))
        layers = rng.choice((0, 1, 2, 3))  # walls: none, or each cell with chance 1/2, 1/4, 1/8 (random words ANDed)
        full = (1 << m) - 1
        opened = [full & ~functools.reduce(int.__and__, (rng.getrandbits(m) for _ in range(layers)), full)
                  if layers else full for _ in range(n)]
        opened[-1] |= 1
        reach = _reach(opened, m, k)
        reached = sum(bin(b).count("1") for b in reach)
        if reached >= 2:  # the goal and some other cell
            break
    # few open cells are listed; many are found by sampling (a quarter or more of the board)
    cells = [(r, c) for r, bits in enumerate(reach) for c, ch in enumerate(format(bits, f"0{m}b")) if ch == "1"] \
        if reached < n * m // 4 + 2 else None
    count = rng.randint(1, max(1, round(GRID_MAX_QUERIES * f)))
    queries: list[tuple[int, int]] = []
    while len(queries) < count:
        r, c = rng.choice(cells) if cells else (rng.randrange(n), rng.randrange(m))
        if reach[r] >> (m - 1 - c) & 1 and (r, c) != (n - 1, m - 1):
            queries.append((r, c))
    checked = _grid_input(reach, m, k, queries)
    assert checked is not None
    return checked


def _isolate_query(g: GridInput, line: int) -> list[GridInput]:
    return [GridInput(g.rows, g.k, tuple(queries)) for queries in _isolate_cases(list(g.queries), line)]


def grid_render(g: GridInput) -> str:
    lines = [f"{g.n} {g.m} {g.k}", *g.rows, str(len(g.queries))]
    lines += [f"{r + 1} {c + 1}" for r, c in g.queries]
    return "\n".join(lines) + "\n"


def _grid_fewer_queries(g: GridInput) -> Iterator[GridInput]:
    for rest in chunk_removals(g.queries):
        yield GridInput(g.rows, g.k, tuple(rest))


def _grid_smaller_k(g: GridInput) -> Iterator[GridInput]:
    for k in smaller_numbers(g.k, 0):
        checked = _grid_valid(list(g.rows), k, g.queries)
        if checked:
            yield checked


def _grid_smaller_board(g: GridInput) -> Iterator[GridInput]:
    """Cut rows or columns, halves first; the goal moves with the new bottom-right corner."""
    for axis in (0, 1):
        length = g.n if axis == 0 else g.m
        for rest in chunk_removals(range(length)):
            if len(rest) < 2:
                continue
            keep = set(rest)
            new_index = {old: new for new, old in enumerate(rest)}
            if axis == 0:
                rows = [g.rows[r] for r in rest]
                queries = [(new_index[r], c) for r, c in g.queries if r in keep]
            else:
                rows = ["".join(row[c] for c in rest) for row in g.rows]
                queries = [(r, new_index[c]) for r, c in g.queries if c in keep]
            if rows[-1][-1] != ".":
                rows[-1] = rows[-1][:-1] + "."
            checked = _grid_valid(rows, g.k, queries)
            if checked:
                yield checked


def _grid_open_walls(g: GridInput) -> Iterator[GridInput]:
    for r, row in enumerate(g.rows):
        for c, ch in enumerate(row):
            if ch == "#":
                rows = list(g.rows)
                rows[r] = row[:c] + "." + row[c + 1:]
                if reach_bits(rows, g.k)[r] >> (g.m - 1 - c) & 1:
                    yield GridInput(tuple(rows), g.k, g.queries)


def grid_measure(g: GridInput) -> str:
    walls = sum(row.count("#") for row in g.rows)
    return f"{g.n} x {g.m} board, K = {g.k}, {walls} '#', {len(g.queries)} quer{'ies' if len(g.queries) != 1 else 'y'}"


def grid_explain(g: GridInput, line: int) -> str | None:
    if not 1 <= line <= len(g.queries):
        return None
    from gamedp.explain import explain_grid

    r, c = g.queries[line - 1]
    head = f"query {line} ({r + 1}, {c + 1}), K = {g.k}"
    if g.n * g.m * (g.k + 2) > EXPLAIN_GRID_WORK:  # the explanation searches the board in Python
        return f"{head}: the board is too large to explain here; shrink it further or run gamedp explain grid --k"
    return f"{head}:\n" + explain_grid(g.rows, g.k, (r, c)).text()


PROBLEMS: dict[str, Problem] = {
    "blockgame": Problem("blockgame", 2.0, 64, block_generate, block_render,
                         (_remove_cases, _block_descend, _block_fill), block_measure, block_explain, 3, block_answer,
                         _isolate_cases),
    "cardgame": Problem("cardgame", 1.0, 256, card_generate, card_render,
                        (_remove_cases, _card_shorter, _card_values), card_measure, card_explain, 2,
                        isolate=_isolate_cases),
    "gridgame": Problem("gridgame", 1.0, 256, grid_generate, grid_render,
                        (_grid_fewer_queries, _grid_smaller_board, _grid_smaller_k, _grid_open_walls),
                        grid_measure, grid_explain, 3, isolate=_isolate_query),
}
