"""Tiered games: a position space cut into tiers that moves only climb (GamesmanOne's model, in our words).

A :class:`TieredGame` lists its tiers ``0..num_tiers-1`` (e.g. the stones on the board) and, per tier, its size
(positions are the indices ``0..size-1`` of their tier) and the tiers its children lie in (all higher). Its
rules are five functions of fixed shape over integer positions (keys), plain Python that numba also compiles:

- ``rank(key) -> index`` within the key's tier, ``unrank(tier, index) -> key`` (the inverse),
- ``tier_of(key) -> tier``,
- ``children(key, out) -> n``: writes the positions one move away into the int64 array ``out``,
- ``primitive(key) -> code``: 0 while the game goes on, 1 LOSE / 2 WIN / 3 TIE for the player to move when
  it is over (a position with no children that is not primitive is a LOSE: normal play).

:meth:`TieredGame.compiled` gives them as numba kernels of the fixed signatures below. The tier solver works
on indices, through one kernel per game, :meth:`TieredGame.expansion`: ``expand(params, tier, index, state, out)``
gives the position's primitive code (negated) or its children as (tier, index) pairs. By default it is built
from the five functions (unrank, then rank each child); a game with a faster way (children's indices by rank
arithmetic, consecutive indices decoded incrementally through ``state``) gives its own, a module-level kernel
taking its constants in ``params``, so numba caches it on disk and no process compiles it twice. A game may
go further and give the solver's two passes whole (:meth:`TieredGame.passes`: loops over a range of indices,
compiled ahead of time, so a solve need not even import numba); :func:`check_tiers` still checks its expansion,
and the game's tests that its passes agree with the solver's loops over it. Not every index needs to be a
position reachable from the start: the solver finds the reachable ones tier by tier.

A worked example: two piles of at most ``n`` stones; a move takes one stone from either pile; the player who
cannot move loses. The tier is the number of stones taken; within tier ``t`` the first pile ``a`` runs from
``min(n, 2n - t)`` down to ``max(0, n - t)``, and the index counts those steps. A key packs ``a * 64 + b``.

>>> class TwoPiles(TieredGame):
...     def __init__(self, n):
...         super().__init__("twopiles", {"n": n}, num_tiers=2 * n + 1, max_children=2, start=n * 64 + n)
...         self.n = n
...     def tier_size(self, t):
...         return min(self.n, 2 * self.n - t) - max(0, self.n - t) + 1
...     def child_tiers(self, t):
...         return (t + 1,) if t < 2 * self.n else ()
...     def functions(self):
...         n = self.n
...         def tier_of(key):
...             return 2 * n - (key >> 6) - (key & 63)
...         def rank(key):
...             t = 2 * n - (key >> 6) - (key & 63)
...             return min(n, 2 * n - t) - (key >> 6)
...         def unrank(tier, index):
...             a = min(n, 2 * n - tier) - index
...             return a * 64 + (2 * n - tier - a)
...         def children(key, out):
...             k = 0
...             if key >> 6:
...                 out[k] = key - 64
...                 k += 1
...             if key & 63:
...                 out[k] = key - 1
...                 k += 1
...             return k
...         def primitive(key):
...             return 0
...         return TierFunctions(rank, unrank, tier_of, children, primitive)
>>> game = TwoPiles(3)
>>> [game.tier_size(t) for t in range(game.num_tiers)], game.index_space
([1, 2, 3, 4, 3, 2, 1], 16)
>>> print(check_tiers(game))
twopiles (n=3): ok (16 indices in 7 tiers: rank/unrank round trips, children in their declared tiers)
>>> from gamedp.solvers.tier_solver import solve_in_memory
>>> solve_in_memory(game)[game.start_tier][0]       # (3, 3): the second player mirrors, so a LOSE
0
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any, Callable

from gamedp.errors import GameDefinitionError

#: Primitive codes, as the table solvers use them.
NOT_PRIMITIVE, PRIM_LOSE, PRIM_WIN, PRIM_TIE = range(4)


@dataclass(frozen=True)
class TierFunctions:
    """A tiered game's rules (plain functions, or their compiled kernels)."""
    rank: Callable[[int], int]
    unrank: Callable[[int, int], int]
    tier_of: Callable[[int], int]
    children: Callable[[int, Any], int]
    primitive: Callable[[int], int]


@dataclass(frozen=True)
class Expansion:
    """A tiered game's positions by index: ``kernel(params, tier, index, state, out) -> n`` writes the children of
    the position at ``index`` of ``tier`` as pairs ``out[2j], out[2j + 1]`` = (child tier, index there) and returns
    how many; a primitive position returns minus its code (-1 LOSE, -2 WIN, -3 TIE), a bad primitive code -4
    (with the code in ``out[0]``). ``params`` (int64) carries the game's constants. ``state`` (``state_size``
    int64s, all -1 before the first call of a run) is the kernel's own between calls: the solver asks for indices
    in increasing order, so a kernel may decode the next index from the last one."""
    kernel: Callable
    params: Any
    state_size: int
    #: How many int64s ``out`` needs (pairs, and any scratch the kernel uses).
    out_size: int


@dataclass(frozen=True)
class Passes:
    """A tiered game's own kernels for the tier solver's two passes, each over a range of a tier's indices, in
    place of its generic loops that call the :class:`Expansion` index by index (e.g. a sweep that decodes a block
    of indices once and keeps what it needs in registers): ``mark_children`` and ``solve_shard`` take the
    arguments of :func:`gamedp.solvers.tier_solver.loops.mark_children` and
    :func:`~gamedp.solvers.tier_solver.loops.solve_shard` but the first (the expansion kernel), and must do the
    same. ``params``, ``state_size`` and ``out_size`` as in :class:`Expansion`."""
    mark_children: Callable
    solve_shard: Callable
    params: Any
    state_size: int
    out_size: int


def expansion_signature() -> Any:
    """The numba signature of :attr:`Expansion.kernel` (imports numba)."""
    from numba import types

    return types.int64(types.int64[::1], types.int64, types.int64, types.int64[::1], types.int64[::1])


def signatures() -> dict[str, Any]:
    """The fixed numba signatures of a tiered game's kernels (imports numba)."""
    from numba import types

    return {"rank": types.int64(types.int64), "unrank": types.int64(types.int64, types.int64),
            "tier_of": types.int64(types.int64), "children": types.int64(types.int64, types.int64[::1]),
            "primitive": types.int64(types.int64)}


class TieredGame:
    """A game whose positions are cut into tiers; subclasses give :meth:`tier_size`, :meth:`child_tiers` and
    :meth:`functions` (see the module docstring for the contract and an example)."""

    #: True when every index is a position to answer (a board typed in need not be reachable from the start):
    #: the solver then solves them all instead of only those play reaches (its statistics still count only those).
    every_index = False

    def __init__(self, game_id: str, variant: dict, *, num_tiers: int, max_children: int, start: int):
        self.game_id, self.variant = game_id, dict(variant)
        self.num_tiers, self.max_children, self.start = int(num_tiers), int(max_children), int(start)

    @property
    def label(self) -> str:
        """The game and its parameters, for messages."""
        from gamedp.database import describe

        return describe(self.game_id, self.variant)

    def tier_size(self, tier: int) -> int:
        raise NotImplementedError

    def child_tiers(self, tier: int) -> tuple[int, ...]:
        raise NotImplementedError

    def functions(self) -> TierFunctions:
        raise NotImplementedError

    @functools.cached_property
    def sizes(self) -> list[int]:
        return [int(self.tier_size(t)) for t in range(self.num_tiers)]

    @property
    def index_space(self) -> int:
        """All tiers' indices together (reachable or not)."""
        return sum(self.sizes)

    @functools.cached_property
    def offsets(self) -> list[int]:
        """Where each tier starts in the one index space of the database (tiers in order)."""
        at, out = 0, []
        for s in self.sizes:
            out.append(at)
            at += s
        return out

    @property
    def start_tier(self) -> int:
        return int(self.functions().tier_of(self.start))

    def locate(self, key: int) -> int:
        """The index of ``key`` in the whole index space (plain Python: lookups need no numba)."""
        f = self.functions()
        return self.offsets[int(f.tier_of(key))] + int(f.rank(key))

    def compiled(self) -> TierFunctions:
        """The rules as numba kernels of the fixed :func:`signatures` (compiled once per game and process)."""
        return _compile(self)

    def expansion(self) -> Expansion:
        """The kernel the solver runs (see :class:`Expansion`); by default built from :meth:`compiled`."""
        return _generic_expansion(self)

    def move_runs(self, tier: int) -> tuple[int, list[int]] | None:
        """Optional, for cutting a tier into pieces of equal work: ``(run, moves)`` when the positions of each run
        of ``run`` consecutive indices of ``tier`` have as many moves, ``moves[k]`` those of indices
        ``k * run .. (k + 1) * run - 1``; None (the default) takes every reachable position as the same work."""
        return None

    def passes(self) -> Passes | None:
        """The game's own kernels for the solver's passes (see :class:`Passes`), or None: the solver's loops over
        :meth:`expansion`."""
        return None

    # -- what `gamedp query` and the database need (plain Python: no numba) --------------------------------------
    @property
    def size(self) -> int:
        """The database's positions: the whole index space."""
        return self.index_space

    def index(self, position: int) -> int:
        """The database index of ``position`` (a key)."""
        return self.locate(position)

    def position(self, index: int) -> int:
        """The key at database index ``index``: the inverse of :meth:`index`."""
        import bisect

        tier = bisect.bisect_right(self.offsets, index) - 1
        return int(self.functions().unrank(tier, index - self.offsets[tier]))

    def parse_position(self, text: str) -> int:
        raise NotImplementedError

    def format_position(self, position: int) -> str:
        return str(position)


_COMPILED: dict[tuple, Any] = {}


def _compile(game: TieredGame) -> TierFunctions:
    """The game's kernels compiled for the fixed signatures, once per game and process. A game whose plain
    functions call helpers numba must compile first gives them through ``compiled_functions()``."""
    key = (type(game), game.game_id, json.dumps(game.variant, sort_keys=True))
    if key in _COMPILED:
        return _COMPILED[key]
    from numba import njit

    sig = signatures()
    plain = game.compiled_functions() if hasattr(game, "compiled_functions") else game.functions()
    compiled = {}
    for name in ("rank", "unrank", "tier_of", "children", "primitive"):
        try:
            compiled[name] = njit(sig[name], nogil=True, cache=True)(getattr(plain, name))
        except Exception as e:  # numba's typing errors are long; the first line says what is wrong
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise GameDefinitionError(f"{game.label}: the {name} kernel does not compile as {sig[name]}: {first}") \
                from None
    _COMPILED[key] = TierFunctions(**compiled)
    return _COMPILED[key]


def _generic_expansion(game: TieredGame) -> Expansion:
    """An :class:`Expansion` from the five compiled functions (compiled once per game and process: a closure)."""
    import numpy as np
    from numba import njit

    key = ("expansion", type(game), game.game_id, json.dumps(game.variant, sort_keys=True))
    if key not in _COMPILED:
        f = game.compiled()
        unrank, primitive, children, tier_of, rank = f.unrank, f.primitive, f.children, f.tier_of, f.rank
        keys_at = 2 * (game.max_children + 64)

        def expand(params, tier, index, state, out):
            position = unrank(tier, index)
            prim = primitive(position)
            if prim != 0:
                if 1 <= prim <= 3:
                    return -prim
                out[0] = prim
                return -4
            n = children(position, out[keys_at:])
            for j in range(n):
                child = out[keys_at + j]
                out[2 * j] = tier_of(child)
                out[2 * j + 1] = rank(child)
            return n

        kernel = njit(expansion_signature(), nogil=True)(expand)
        _COMPILED[key] = Expansion(kernel, np.zeros(1, dtype=np.int64), 1, keys_at + game.max_children + 64)
    return _COMPILED[key]


# -- the self-check -----------------------------------------------------------------------------------------------
@dataclass
class TierReport:
    game: str
    indices: int
    tiers: int
    problem: str | None = None
    complete: bool = True

    @property
    def ok(self) -> bool:
        return self.problem is None

    def __str__(self) -> str:
        scope = "" if self.complete else "sampled "
        if self.ok:
            return (f"{self.game}: ok ({self.indices} {scope}indices in {self.tiers} tiers: rank/unrank round trips, "
                    "children in their declared tiers)")
        return f"{self.game}: problem: {self.problem}"


def check_tiers(game: TieredGame, limit: int = 200_000, compiled: bool = False, seed: int = 0) -> TierReport:
    """Check that ``unrank`` and ``rank`` are inverse on every index (at most ``limit`` of them, spread over every
    tier), that ``tier_of`` agrees, and that every child of a non-primitive position lies in a declared child
    tier at a valid index; for a game with its own :meth:`~TieredGame.expansion`, that it gives the same primitive
    codes and children (as tier and index) as the five functions. ``compiled`` checks the numba kernels the solver
    runs instead of the plain functions.
    """
    import random

    import numpy as np

    f = game.compiled() if compiled else game.functions()
    own = type(game).expansion is not TieredGame.expansion  # a second implementation of the rules: check it too
    if own:
        ex = game.expansion()
        expand = ex.kernel if compiled else getattr(ex.kernel, "py_func", ex.kernel)
        state, pairs = np.empty(ex.state_size, dtype=np.int64), np.empty(ex.out_size, dtype=np.int64)
    sizes = game.sizes
    total = sum(sizes)
    rng = random.Random(seed)
    per_tier = max(1, limit // max(1, game.num_tiers))
    out = _buffer(game.max_children + 64)
    checked = 0
    complete = True
    for t, size in enumerate(sizes):
        if size < 0:
            return TierReport(game.label, checked, game.num_tiers, f"tier {t} has size {size}")
        declared = set(game.child_tiers(t))
        if any(c <= t or c >= game.num_tiers for c in declared):
            return TierReport(game.label, checked, game.num_tiers,
                              f"tier {t} declares child tiers {sorted(declared)}; each must be above {t} and below "
                              f"{game.num_tiers}")
        if size <= per_tier:
            indices: range | list[int] = range(size)
        else:
            complete = False
            indices = sorted(rng.sample(range(size), per_tier))
        if own:
            state[:] = -1
        for i in indices:
            checked += 1
            key = int(f.unrank(t, i))
            if int(f.tier_of(key)) != t:
                return TierReport(game.label, checked, game.num_tiers,
                                  f"unrank({t}, {i}) = {key}, whose tier_of is {int(f.tier_of(key))}, not {t}")
            back = int(f.rank(key))
            if back != i:
                return TierReport(game.label, checked, game.num_tiers,
                                  f"rank(unrank({t}, {i})) = {back}: rank and unrank are not inverse")
            expanded = int(expand(ex.params, t, i, state, pairs)) if own else 0  # read only when own
            prim = int(f.primitive(key))
            if prim != 0:
                if own and expanded != -prim:
                    return TierReport(game.label, checked, game.num_tiers,
                                      f"position {key} is primitive ({prim}) but its expansion kernel gives {expanded}")
                continue
            n = int(f.children(key, out))
            if own:
                want = sorted((int(f.tier_of(int(c))), int(f.rank(int(c)))) for c in out[:n])
                got = sorted(zip(pairs[0:2 * max(expanded, 0):2].tolist(), pairs[1:2 * max(expanded, 0):2].tolist()))
                if got != want:
                    return TierReport(game.label, checked, game.num_tiers,
                                      f"position {key} (tier {t}, index {i}): its expansion kernel gives the children "
                                      f"{got}, its children and rank give {want}")
            if n > game.max_children:
                return TierReport(game.label, checked, game.num_tiers,
                                  f"position {key} has {n} children, more than max_children={game.max_children}")
            for child in out[:n]:
                ct = int(f.tier_of(int(child)))
                ci = int(f.rank(int(child)))
                if ct not in declared:
                    return TierReport(game.label, checked, game.num_tiers,
                                      f"position {key} (tier {t}) has the child {int(child)} in tier {ct}, not among "
                                      f"the declared child tiers {sorted(declared)}")
                if not 0 <= ci < sizes[ct]:
                    return TierReport(game.label, checked, game.num_tiers,
                                      f"the child {int(child)} of {key} ranks {ci} in tier {ct}, outside "
                                      f"0..{sizes[ct] - 1}")
    return TierReport(game.label, checked, game.num_tiers, complete=complete and checked == total)


def _buffer(n: int) -> Any:
    import numpy as np

    return np.empty(n, dtype=np.int64)
