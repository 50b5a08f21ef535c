"""Saving a solve (:mod:`gamedp.saved_solution`): every position reachable from a start, with its value, from
the memo or compiled engine that solved it, written in the format described there.
"""

from __future__ import annotations

import sys
import time
from array import array
from pathlib import Path
from typing import Any, Callable, Sequence

from gamedp.database import CODES, check_regular, write_container
from gamedp.errors import GamedpError
from gamedp.saved_identity import identity
from gamedp.saved_keys import CODE_OF, INT64, KIND, RANK_BLOCK, WIDTHS, Keys, position_text, short
from gamedp.values import DRAW

_PROGRESS_EVERY = (1 << 16) - 1

def save(solution: Any, path: str | Path, start: Any = None, *, outcomes_only: bool | None = None,
         progress: Callable[[int, int | None], None] | None = None) -> dict:
    """Save every position reachable from ``start`` (default: the game's start) with its value in ``solution``
    (a :class:`gamedp.solvers.memo.Solution` or :class:`gamedp.solvers.compiled.CompiledSolution`), atomically.

    Positions the solution has not valued yet are searched first. ``outcomes_only`` drops remoteness (default:
    the solution's own mode). Returns the statistics also stored in the file (counts by outcome and remoteness,
    the longest win and loss, and the seconds taken).
    """
    began = time.perf_counter()
    game = solution.game
    path = Path(path)
    check_regular(path)
    start = game.start() if start is None else start
    outcomes_only = solution.outcomes_only if outcomes_only is None else outcomes_only
    if hasattr(solution, "full_search"):  # a compiled solve: its table is read off with numpy
        table, cyclic = _compiled_table(solution, start)
        if cyclic is not None:  # the game has cycles: the Python engine has its values
            return _save_walk(cyclic, game, path, start, outcomes_only, progress, began)
        positions, codes, remoteness = table
        keys = Keys("int64", game)
        return _write(path, game, keys, start, positions, codes, None if outcomes_only else remoteness, None,
                      began)
    return _save_walk(solution, game, path, start, outcomes_only, progress, began)


def _save_walk(solution: Any, game: Any, path: Path, start: Any, outcomes_only: bool, progress: Any,
               began: float) -> dict:
    from gamedp.game import overrides

    solution.value(start)
    if not solution.outcomes_only and solution.roots == {solution._key(start)} \
            and not overrides(solution.game, "key"):
        # A full search from the start alone has valued exactly the positions reachable from it, keyed by their
        # canonical forms: the table is the save, with no second walk over the game.
        positions, values = list(solution.table), list(solution.table.values())
    else:
        positions = reachable(solution.game, start, progress)
        values = [solution.value(p) for p in positions]
    keys = Keys.choose(game, positions)
    keyed = sorted(zip((keys.key(p) for p in positions), range(len(positions))))
    ordered = [values[i] for _, i in keyed]
    codes = [CODE_OF[v.outcome] for v in ordered]
    remoteness = None
    if not outcomes_only and all(v.remoteness is not None or v.outcome is DRAW for v in ordered):
        remoteness = [v.remoteness or 0 for v in ordered]
    scores = [v.score for v in ordered] if getattr(game, "scored", False) else None
    return _write(path, game, keys, start, [k for k, _ in keyed], codes, remoteness, scores, began)


def reachable(game: Any, start: Any, progress: Callable[[int, int | None], None] | None = None) -> list:
    """Every position reachable from ``start`` in a Python ``game``, each once, as its canonical form.

    >>> from gamedp.games.tictactoe import TicTacToe
    >>> len(reachable(TicTacToe(), TicTacToe().start()))    # up to the board's 8 symmetries
    765
    """
    from gamedp.game import overrides

    canon = game.canonical if overrides(game, "canonical") else None
    ended = game.primitive if game.primitive_first and overrides(game, "primitive") else None
    children = game.children
    root = start if canon is None else canon(start)
    seen, order = {root}, [root]
    for p in order:  # the list grows as positions are found
        if ended is not None and ended(p) is not None:
            continue  # the game's end test comes first: an ended position's moves are never asked
        for c in children(p):
            if canon is not None:
                c = canon(c)
            if c not in seen:
                seen.add(c)
                order.append(c)
                if progress is not None and not len(order) & _PROGRESS_EVERY:
                    progress(len(order), None)
    return order


def _compiled_table(solution: Any, start: int) -> tuple[tuple | None, Any]:
    """A compiled solve's positions (sorted, as reached from ``start``), outcome codes and remoteness, read off its
    table with numpy; or, when the game has cycles, the Python engine's solution that found its DRAWs."""
    import numpy as np

    solution = solution.full_search(start)
    if solution.cyclic is not None:
        return None, solution.cyclic
    positions, found = solution.table()
    # the table's outcome codes (1 LOSE, 2 WIN, 3 TIE) as the database's (0 LOSE, 1 WIN, 2 TIE)
    codes = (found & 3).astype(np.uint8) - np.uint8(1)
    return (positions, codes, (found >> 2).astype(np.int64)), None


def _write(path: Path, game: Any, keys: Keys, start: Any, positions: Sequence, codes: Sequence,
           remoteness: Sequence | None, scores: Sequence | None, began: float) -> dict:
    size = len(positions)
    sections: list[tuple[str, Any]] = []
    bitmap = _bitmap(positions) if keys.encoding == "int64" else None
    if bitmap is not None:
        keys = Keys("bitmap", game)
        sections += [("present", bitmap[0]), ("ranks", bitmap[1])]
    elif keys.encoding == "int64":
        sections.append(("positions", _little(array("q", positions) if isinstance(positions, list)
                                              else positions.astype("<i8"))))
    else:
        offsets, at = array("Q", [0]), 0
        for k in positions:
            at += len(k)
            offsets.append(at)
        sections += [("key_offsets", _little(offsets)), ("keys", b"".join(positions))]
    counts = _counts(codes)
    bits = 1 if counts[2] == counts[3] == 0 else 2
    sections.append(("outcomes", _pack(codes, bits)))
    encoding = {"positions": keys.encoding, "outcome_bits": bits, "remoteness": None, "score": None}
    stats: dict[str, Any] = {"positions": size, "encoding": keys.encoding,
                             "outcomes": {CODES[c].name: n for c, n in enumerate(counts) if n}}
    if remoteness is not None:
        top = int(max(remoteness, default=0))
        name, code, _, _ = next(w for w in WIDTHS if top <= w[3])
        encoding["remoteness"] = name
        sections.append(("remoteness", _little(array(code, remoteness) if isinstance(remoteness, list)
                                               else remoteness.astype("<" + code))))
        stats.update(_remoteness_stats(codes, remoteness))
    if scores is not None:
        if all(type(s) is int and INT64[0] <= s <= INT64[1] for s in scores if s is not None):
            encoding["score"], code = "i64", "q"
        elif all(type(s) in (int, float) for s in scores if s is not None):
            encoding["score"], code = "f64", "d"
        else:
            odd = next(s for s in scores if type(s) not in (int, float))
            raise GamedpError(f"cannot save {game.name}: a score is {short(odd)}, but scores are saved as whole "
                              "numbers or floats")
        sections.append(("scores", _little(array(code, [0 if s is None else s for s in scores]))))
    stats["seconds"] = round(time.perf_counter() - began, 3)
    meta = {"kind": KIND, "game": identity(game), "size": size, "start": position_text(game, start),
            "encoding": encoding, "stats": stats}
    write_container(path, meta, sections)
    return stats


def _bitmap(positions: Sequence) -> tuple[Any, Any] | None:
    """Sorted integer positions as the ``bitmap`` encoding's two sections, when they are non-negative and that is
    smaller than 8 bytes a position; else ``None``."""
    size = len(positions)
    if not size or positions[0] < 0:
        return None
    blocks = int(positions[-1]) // RANK_BLOCK + 1
    if 72 * blocks >= 8 * size:  # 64 bytes of bits and an 8-byte count a block
        return None
    if hasattr(positions, "dtype"):
        import numpy as np

        present = np.zeros(blocks * RANK_BLOCK, np.bool_)
        present[positions] = True
        counts = present.reshape(blocks, RANK_BLOCK).sum(axis=1, dtype=np.uint64)
        ranks = np.concatenate(([0], np.cumsum(counts)[:-1])).astype("<u8")
        return np.packbits(present, bitorder="little").tobytes(), ranks
    bits, ranks, before = bytearray(64 * blocks), array("Q", bytes(8 * blocks)), 0
    for p in positions:
        bits[p >> 3] |= 1 << (p & 7)
    for b in range(blocks):
        ranks[b] = before
        before += int.from_bytes(bits[64 * b:64 * b + 64], "little").bit_count()
    return bytes(bits), _little(ranks)


def _counts(codes: Sequence) -> list[int]:
    if hasattr(codes, "dtype"):
        import numpy as np

        return [int(n) for n in np.bincount(codes, minlength=4)]
    counts = [0, 0, 0, 0]
    for c in codes:
        counts[c] += 1
    return counts


def _pack(codes: Sequence, bits: int) -> bytes:
    """``codes`` packed at ``bits`` a position, as :mod:`gamedp.database` documents."""
    per = 8 // bits
    if hasattr(codes, "dtype"):
        import numpy as np

        padded = np.zeros(-(-len(codes) // per) * per, np.uint8)
        padded[:len(codes)] = codes
        shifts = (np.arange(per, dtype=np.uint8) * bits).astype(np.uint8)
        return np.bitwise_or.reduce(padded.reshape(-1, per) << shifts, axis=1).astype(np.uint8).tobytes()
    out = bytearray(-(-len(codes) // per))
    for i, c in enumerate(codes):
        out[i // per] |= c << (i % per * bits)
    return bytes(out)


def _little(data: Any) -> Any:
    """An array's bytes in little-endian order (the file's), whatever this machine's order."""
    if isinstance(data, array) and sys.byteorder == "big":
        data = array(data.typecode, data)
        data.byteswap()
    return data


def _remoteness_stats(codes: Sequence, remoteness: Sequence) -> dict:
    """Counts by remoteness per outcome, and a longest win and loss (as ``gamedp solve -r`` prints them)."""
    by: dict[str, dict[str, int]] = {}
    longest: dict[str, tuple[int, int]] = {}
    if hasattr(codes, "dtype"):
        import numpy as np

        for c in range(3):
            mask = codes == c
            if mask.any():
                r = remoteness[mask]
                values, counts = np.unique(r, return_counts=True)
                by[CODES[c].name] = {str(int(v)): int(n) for v, n in zip(values, counts)}
                longest[CODES[c].name] = (int(r.max()), int(np.flatnonzero(mask)[int(r.argmax())]))
    else:
        for i, (c, r) in enumerate(zip(codes, remoteness)):
            if c == 3:
                continue
            name = CODES[c].name
            counts = by.setdefault(name, {})
            counts[str(r)] = counts.get(str(r), 0) + 1
            if r > longest.get(name, (-1, 0))[0]:
                longest[name] = (r, i)
    return {"remoteness": by, "longest": {name: {"remoteness": r, "index": i} for name, (r, i) in longest.items()
                                          if name in ("WIN", "LOSE")}}
