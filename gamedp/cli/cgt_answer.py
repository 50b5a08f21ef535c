"""What ``gamedp cgt`` answers and prints, without the command-line library: the executable's short path
(:mod:`gamedp.cli.entry`) for ``gamedp cgt GAME POSITION... [--json]`` and the click command
(:mod:`gamedp.cli.cgt`) share it, so the value of a small board costs no more than Python's start-up and the
value itself.

>>> print(show(answer_positions("domineering", ("2x3",))), end="")
value: {2|-1/2}
outcome: N (the first player wins)
mean: 3/4
temperature: 5/4
"""

from __future__ import annotations

import sys

from gamedp.errors import GamedpError, InputError

#: what GAME may be besides a game gamedp loads (which then gives Game.options)
ALIASES = {"toads": "toads-and-frogs", "tf": "toads-and-frogs", "blue-red-hackenbush": "hackenbush"}


def answer_expression(expr: str, memory: int | None = None) -> dict[str, object]:
    """The fields of ``gamedp cgt --expr EXPR``; ``memory``: the most bytes the process may hold meanwhile."""
    from gamedp.cgt.values import parse

    return {"expression": expr, **_guarded(lambda: describe(parse(expr)), memory)}


def answer_positions(game: str, positions: tuple[str, ...] | list[str], table: str | None = None,
                     memory: int | None = None) -> dict[str, object]:
    """The fields of ``gamedp cgt GAME POSITION...``: the sum's value, and each part's when there are several;
    ``memory``: the most bytes the process may hold meanwhile."""
    from gamedp.cgt.values import GameValue

    name = ALIASES.get(game.lower(), game.lower())
    def whole() -> dict[str, object]:
        values = _values(name, game, tuple(positions), table, memory)
        total = GameValue.number(0)
        for v in values:
            total = total + v
        answer: dict[str, object] = {"game": name, "positions": list(positions)}
        if len(values) > 1:
            answer["parts"] = [str(v) for v in values]
        answer.update(describe(total))
        return answer

    return _guarded(whole, memory)  # the value's name and temperature recurse as deep as its form does


def show(answer: dict[str, object], as_json: bool = False) -> str:
    """The answer as ``gamedp cgt`` prints it: lines of text, or one JSON object."""
    if as_json:
        import json

        return json.dumps(answer, ensure_ascii=False) + "\n"
    from gamedp.cgt.values import OUTCOME_NAMES

    lines = [f"parts: {' + '.join(answer['parts'])}"] if "parts" in answer else []
    lines.append(f"value: {answer['canonical']}")
    if answer["braces"] != answer["canonical"]:
        lines.append(f"braces: {answer['braces']}")
    lines += [f"outcome: {answer['outcome']} ({OUTCOME_NAMES[answer['outcome']]})", f"mean: {answer['mean']}",
              f"temperature: {answer['temperature']}"]
    return "\n".join(lines) + "\n"


def describe(v) -> dict:
    """The JSON fields of a value."""
    from gamedp.cgt.thermograph import mean_temperature

    mean, temperature = mean_temperature(v.id)  # as Dyadics: GameValue's Fractions would import fractions (17 ms)
    return {"canonical": str(v), "braces": v.braces, "outcome": v.outcome, "mean": str(mean),
            "temperature": str(temperature)}


def _values(name: str, typed: str, positions: tuple[str, ...], table: str | None, memory: int | None) -> list:
    """Each position's value; errors name the position (its number when there are several)."""
    def where(k: int) -> str:
        return "position" if len(positions) == 1 else f"position {k}"

    if name == "domineering":
        from gamedp.cgt import domineering

        boards = [domineering.parse_board(p, where(k)) for k, p in enumerate(positions, 1)]
        if table is None:
            return [domineering.value(b) for b in boards]
        from gamedp.cgt import region_table

        path = region_table.default_path() if table == "default" else table
        known = region_table.load(path)
        out = [domineering.value(b, compiled=False) for b in boards]  # the table saves what Python valued
        if len(domineering.table) > known:
            region_table.save(path)
        return out
    from gamedp.cgt.search import Values
    from gamedp.loader import load_game

    game = load_game(name if name in ("toads-and-frogs", "hackenbush") else typed)
    values = Values(game)
    out = []
    for k, p in enumerate(positions, 1):
        try:
            parsed = game.parse_position(p)
        except InputError as e:  # the game names "position"; with several, say which
            text = str(e)
            raise GamedpError(where(k) + text[len("position"):] if text.startswith("position") else text) from None
        out.append(values.value(parsed))
    return out


def _guarded(compute, memory: int | None):
    """Run ``compute`` within ``memory`` bytes (:data:`gamedp.cgt.budget.bound`, as it was again after); a game
    too deep for Python's stack is refused in one line."""
    from gamedp.cgt import budget

    limit, bound = sys.getrecursionlimit(), budget.bound
    sys.setrecursionlimit(max(limit, 20000))
    budget.bound = memory
    try:
        return compute()
    except RecursionError:
        raise GamedpError("this game is too deep to value here (its canonical form nests thousands of levels); "
                          "try a smaller position") from None
    except MemoryError:  # an allocation larger than the reserve the memory checks keep
        raise GamedpError("valuing this ran out of memory; try a smaller position") from None
    finally:
        sys.setrecursionlimit(limit)
        budget.bound = bound
