"""``gamedp nimber FAMILY POSITION`` and ``gamedp grundy FAMILY --upto N``: impartial games from the command line.

Families: nim, misere-nim, kayles, dawson, octal:CODE, subtraction:SET, grundy-game, lasker, wythoff
(see :mod:`gamedp.games.impartial`).
"""

from __future__ import annotations

import json
import re
import sys

import click

from gamedp.cli.arguments import NumbersCommand
from gamedp.errors import GamedpError, InputError, ResourceError

@click.command(cls=NumbersCommand)  # so that a heap written "-1" reaches the position parser
@click.argument("family")
@click.argument("position", nargs=-1, required=True)
@click.option("--misere", is_flag=True, help="Misère play: the player who cannot move wins.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option("--table", metavar="PATH", help="Placement games: the region table file (default: in the database "
              "directory).")
@click.option("--memory", type=float, metavar="GIB", help="Placement games: most memory the region table may take.")
def nimber(family: str, position: tuple[str, ...], misere: bool, as_json: bool, table: str | None,
           memory: float | None) -> None:
    """The nimber of POSITION in FAMILY and the winning moves.

    POSITION is heap sizes, "3 4 5" (two for wythoff). Moves are written "5 -> 2" (a heap of 5 becomes 2),
    "5 -> 1+3" (it splits) or "5 -> 0"; for wythoff, the position left. Under --misere there is no nimber:
    the answer is who wins, by the misère Nim rule for Nim and by searching the position otherwise.

    Placement games (cram, blockgame): POSITION is ROWSxCOLS (the empty board) or a drawn board, rows of "."
    and "#" separated by "/" ("-" reads them from standard input); the nimber is the XOR of its regions'. Under
    --misere, regions do not add up: the whole board is searched for who wins.

    Examples: gamedp nimber nim 3 4 5; gamedp nimber kayles 7 10 --misere; gamedp nimber subtraction:1,3,4 21;
    gamedp nimber cram 5x7
    """
    from gamedp.cli import regions

    if regions.handles(family):
        regions.nimber_command(family, position, as_json, table, memory, misere)
        return
    from gamedp.games.impartial import family as load_family

    game = load_family(family, misere)
    misere = game.misere  # misere-nim is misère by name
    pos = game.parse_position(" ".join(position))
    shown = game.format_position(pos)
    answer: dict = {"family": game.name, "position": shown, "misere": misere}
    if misere:
        outcome = game.misere_outcome(pos).value
        find_moves = game.misere_winning_moves
    else:
        total = game.nimber(pos)
        outcome = "win" if total else "lose"
        find_moves = game.winning_moves
        answer["nimber"] = total
        if getattr(game, "heap_nimber", None) is not None:
            answer["heap_nimbers"] = [game.heap_nimber(h) for h in pos]
    answer["outcome"] = outcome
    try:
        answer["winning_moves"] = [game.format_move(pos, m) for m in find_moves(pos)]
    except ResourceError as e:  # the value is known; only the list of moves is out of reach
        answer["winning_moves"], answer["note"] = None, str(e)
    if as_json:
        click.echo(json.dumps(answer))
        return
    click.echo(f"position: {shown} ({game.name})")
    if not misere:
        parts = answer.get("heap_nimbers")
        detail = f" = {' ^ '.join(map(str, parts))}" if parts and len(parts) > 1 else ""
        click.echo(f"nimber: {answer['nimber']}{detail}")
    play = "misère play" if misere else "normal play"
    click.echo(f"outcome: {answer['outcome'].upper()} for the player to move ({play})")
    if answer["winning_moves"] is None:
        click.echo(f"winning moves: not listed: {answer['note']}")
    else:
        click.echo(f"winning moves: {', '.join(answer['winning_moves']) or 'none'}")


@click.command(cls=NumbersCommand)
@click.argument("family")
@click.option("--upto", "upto_text", metavar="N", help="Last heap size (or table size for wythoff).")
@click.option("--boards", "boards_text", metavar="RxC",
              help="Placement games: the empty boards, with ranges, like 3..7x3..9.")
@click.option("--table", metavar="PATH", help="Placement games: the region table file.")
@click.option("--memory", type=float, metavar="GIB", help="Placement games: most memory the region table may take.")
@click.option("--outcome-only", is_flag=True, help="Placement games: win/lose only, by the Lemoine-Viennot search "
              "(nimbers of the smaller regions, a search of the largest), without the whole board's nimber.")
@click.option("--by-search", is_flag=True, help="Placement games: each nimber as the least heap h for which board + "
              "*h is lost, by that search: no nimber of the board's large regions is needed.")
@click.option("--json", "as_json", is_flag=True, help="Print the sequence and its period as JSON.")
@click.option("--bare", is_flag=True, help="Print only the values, on one line.")
@click.option("--no-extrapolate", is_flag=True,
              help="Compute every term by mex, even past a proven period (for checks and benchmarks).")
def grundy(family: str, upto_text: str | None, as_json: bool, bare: bool, no_extrapolate: bool,
           boards_text: str | None, table: str | None, memory: float | None, outcome_only: bool,
           by_search: bool) -> None:
    """The Grundy sequence G(0..N) of one heap of FAMILY, and its period when one is proven.

    The period of an octal game or a finite subtraction game is proven by the Guy-Smith criterion: if
    G(n+p) = G(n) for n0 <= n < 2 n0 + p + t (t: most stones one move takes), then for all n >= n0.
    "Periodic from n0" means G(n+p) = G(n) for every n >= n0: the last exceptional heap is n0 - 1.
    Past the proof the terms come from the period unless --no-extrapolate is given.
    For wythoff, the table G(a, b) for 0 <= a, b <= N.
    For placement games (cram, blockgame), --boards: the Grundy value of every empty board in range, with the
    time and the number of regions solved for each, by sums of regions kept in a region table.
    """
    from gamedp.cli import regions

    if regions.handles(family):
        regions.grundy_command(family, boards_text, as_json, table, memory, outcome_only, by_search)
        return
    if upto_text is None or boards_text is not None:
        raise GamedpError(f"{family}: give --upto N (--boards is for the placement games "
                          f"{', '.join(regions.FAMILIES)})")
    from gamedp.games.impartial import family as load_family

    upto = _count(upto_text)
    game = load_family(family)
    if game.family == "wythoff":
        _wythoff_table(upto, as_json, bare)
        return
    if no_extrapolate and hasattr(game, "rules"):
        seq = game.heap_sequence(upto, extrapolate=False)
    else:
        seq = game.heap_sequence(upto)
    values = seq.values
    if as_json:
        # Written piece by piece, as is the text below: a list of every term as Python objects and strings
        # would take ten times the sequence itself (check_terms counts on that).
        head = {"family": game.name, "upto": upto}
        tail = {"period": seq.period, "preperiod": seq.preperiod,
                "last_exception": None if seq.period is None else seq.preperiod - 1, "proven_at": seq.proven_at}
        sys.stdout.write(json.dumps(head)[:-1] + ', "values": [')
        _write_terms(values, upto, ", ")
        sys.stdout.write("], " + json.dumps(tail)[1:] + "\n")
        return
    if not bare:
        click.echo(f"{game.name}: G(0..{upto})")
    _write_terms(values, upto, " ")
    sys.stdout.write("\n")
    if not bare:
        click.echo(_period_text(game, seq))


def _write_terms(values, upto: int, sep: str, chunk: int = 1 << 16) -> None:
    """G(0..upto) from ``values`` on standard output, ``sep`` between them, ``chunk`` terms at a time."""
    for lo in range(0, upto + 1, chunk):
        part = values[lo:min(lo + chunk, upto + 1)]
        sys.stdout.write(("" if lo == 0 else sep) + sep.join(map(str, map(int, part))))


def _period_text(game, seq) -> str:
    if seq.period is not None:
        last = (f"last exceptional heap {seq.preperiod - 1}" if seq.preperiod else "no exceptions")
        return (f"period {seq.period}, periodic from n = {seq.preperiod} ({last}); proven by the Guy-Smith "
                f"criterion from G(0..{seq.proven_at})")
    rules = getattr(game, "rules", None)
    if rules is not None and rules.t is not None:
        return f"no period proven from G(0..{len(seq) - 1})"
    return "no period: the periodicity criterion does not apply to this family"


def _wythoff_table(upto: int, as_json: bool, bare: bool) -> None:
    from gamedp.games.impartial.wythoff import nimber_table

    table = nimber_table(upto + 1)
    if as_json:
        click.echo(json.dumps({"family": "wythoff", "upto": upto, "table": table}))
        return
    if not bare:
        click.echo(f"wythoff: G(a, b) for 0 <= a, b <= {upto}, row a, column b")
    sys.stdout.write("".join(" ".join(map(str, row)) + "\n" for row in table))


def _count(text: str) -> int:
    m = re.fullmatch(r"\s*(-?\d+)(?:e(\d+))?\s*", text)
    if not m:
        raise InputError(f"--upto takes a whole number, like 100 or 1e5, not {text!r}", source="--upto")
    value = int(m.group(1)) * 10 ** int(m.group(2) or 0)
    if value < 0:
        raise GamedpError(f"--upto cannot be negative: {text.strip()}")
    return value
