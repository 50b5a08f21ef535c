"""Partizan values (issue 29): gamedp beside pycgt and cgt-py on Domineering, whole processes, value only.

    python bench/bench_cgt.py [--rounds 5] [--quick] [--peers-python PATH] [--gamedp-python PATH] [--rectangles]

Rows: the empty rectangles 4x4 and 5x5 (``--quick``: 3x4 and 4x4), then 10 random 5x5 boards with 3 to 6 cells
filled (seeded; one process each tool). Every tool prints each value with its options written out in braces,
sorted, so the outputs are compared as they are. The gamedp rows run gamedp's API (``bench/peers/
gamedp_domineering.py``) and, in a table of its own beside ``python -c pass``, the command ``gamedp cgt
domineering RxC``.
The peers are installed only in the bench environment (``pip install pycgt==0.2.0 cgt-py==0.11.0 anywidget``;
cgt-py imports anywidget), or in another interpreter given by ``--peers-python``; a missing peer is skipped
with a line saying so.
Every gamedp process starts cold: no region table is read (``--table`` is not given) and nothing of an
earlier run is kept, so each value is worked out from the rules; gamedp's compiled kernels, built once per
machine, are built before anything is timed. ``--gamedp-python`` runs the gamedp rows with
another interpreter, e.g. one where gamedp is installed from a wheel rather than in development mode (an
editable install adds its import hook to every start-up of Python, gamedp or not).
``--rectangles``: the value of every rectangle up to 5x6 and 4x7 (a taller one is the negative of its transpose),
one ``gamedp cgt`` process each, with its seconds, outcome class and the published outcome where one is known.
"""

from __future__ import annotations

import json
import random
import subprocess
import time

from harness import BENCH, GAMEDP, PYTHON, Contender, arguments, compare

PEERS = BENCH / "peers"
#: outcome classes known from the literature (Winning Ways; Breuker, Uiterwijk and van den Herik 2000)
PUBLISHED = {(2, 2): "N", (2, 3): "N", (8, 8): "N"}


def random_boards(count: int = 20, seed: int = 29) -> list[str]:
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        filled = set(rng.sample(range(25), rng.randint(3, 6)))
        boards.append("/".join("".join("#" if r * 5 + c in filled else "." for c in range(5)) for r in range(5)))
    return boards


def peers(python: list[str], boards: list[str]) -> list[Contender]:
    out = []
    for module, label, script in (("pycgt", "pycgt 0.2", "pycgt_domineering.py"),
                                  ("cgt_py", "cgt-py 0.11", "cgtpy_domineering.py")):
        found = subprocess.run(python + ["-c", f"import importlib.util, sys; "
                                               f"sys.exit(importlib.util.find_spec({module!r}) is None)"])
        if found.returncode:
            print(f"(skipped {label}: the Python package {module!r} is not installed for {python[0]})")
            continue
        out.append(Contender(label, python + [str(PEERS / script), *boards]))
    return out


def side_by_side(rounds: int, quick: bool, peers_python: list[str], python: list[str]) -> None:
    sizes = ["3x4", "4x4"] if quick else ["4x4", "5x5"]
    gamedp = python + ["-m", "gamedp"]
    for size in sizes:
        compare(f"Domineering {size}, the value (cold)", [
            Contender("gamedp (API)", python + [str(PEERS / "gamedp_domineering.py"), size]),
            *peers(peers_python, [size])], rounds=rounds)
        compare(f"Domineering {size}, the command beside Python's own start-up", [
            Contender("python -c pass", python + ["-c", "pass"]),
            Contender(f"gamedp cgt domineering {size}", gamedp + ["cgt", "domineering", size])], rounds=rounds,
            same_output=False)
    boards = random_boards(5 if quick else 10)
    compare(f"{len(boards)} random 5x5 boards, 3-6 cells filled, one process each tool (cold)", [
        Contender("gamedp (API)", python + [str(PEERS / "gamedp_domineering.py"), *boards]),
        *peers(peers_python, boards)], rounds=rounds)


def rectangles(quick: bool) -> None:
    sizes = [(h, w) for h in range(1, 6) for w in range(h, 8) if (h, w) <= (4, 7) or (h == 5 and w <= 6)]
    if quick:
        sizes = [(h, w) for h, w in sizes if h * w <= 16]
    print(f"{'board':<7}{'seconds':>9}  {'outcome':<8}{'published':<10}{'mean':>7}{'temp.':>7}  value")
    for h, w in sizes:
        t0 = time.perf_counter()
        done = subprocess.run(GAMEDP + ["cgt", "domineering", f"{h}x{w}", "--json"], capture_output=True, text=True,
                              check=True)
        seconds = time.perf_counter() - t0
        doc = json.loads(done.stdout)
        value = doc["canonical"] if len(doc["canonical"]) <= 60 else doc["canonical"][:57] + "..."
        print(f"{h}x{w:<5}{seconds:9.2f}  {doc['outcome']:<8}{PUBLISHED.get((h, w), ''):<10}{doc['mean']:>7}"
              f"{doc['temperature']:>7}  {value}", flush=True)


def build_kernels(python: list[str]) -> None:
    """Build gamedp's compiled Domineering kernels for this machine before anything is timed, as a user's first
    board of more than 20 cells does (once per machine; boards up to 20 cells are valued in Python until then)."""
    subprocess.run(python + ["-c", "from gamedp.cgt.domineering import parse_board, value; "
                                   "value(parse_board('2x2'), compiled=True)"], check=True)


def main() -> None:
    args = arguments(__doc__.splitlines()[0], ("--rectangles", "every rectangle up to 5x6 and 4x7 instead"),
                     values=(("--peers-python", "PATH", "the interpreter that has pycgt and cgt-py"),
                             ("--gamedp-python", "PATH", "the interpreter that runs gamedp (default: this one)")))
    build_kernels([args.gamedp_python] if args.gamedp_python and not args.rectangles else PYTHON)
    if args.rectangles:
        rectangles(args.quick)
    else:
        side_by_side(args.rounds, args.quick, [args.peers_python] if args.peers_python else PYTHON,
                     [args.gamedp_python] if args.gamedp_python else PYTHON)

if __name__ == "__main__":
    main()
