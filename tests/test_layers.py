"""The package's layers (docs/design.md): every import of every module, read with ``ast``, goes to the same layer
or a lower one, and no chain of imports comes back to where it started.

Imports inside functions count as much as those at the top of a module (they only run later), and so do the
kernel modules named to ``load_kernels``/``load_native``/``import_module`` as literal strings. Two kinds of
import are not edges: those under ``if TYPE_CHECKING:`` (they never run), and the package that holds a module
(importing ``gamedp.games.nim`` runs ``gamedp/games/__init__.py`` first, which is no dependency of Nim's). The
registries that name modules as ``"module:attribute"`` strings (``gamedp.games.BUILTIN``, ``INDEXED``, the
commands of ``gamedp.cli.main``, the package's lazy API) are how a lower layer reaches a higher one at run time
without depending on it: a registry is data, not an import.
"""

from __future__ import annotations

import ast
from pathlib import Path

import gamedp

PACKAGE = Path(gamedp.__file__).parent

#: Low to high; a module may import its own layer and those before it. A name ending in "." is every module
#: under it; the longest name that matches a module decides its layer.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    # the vocabulary: outcomes, values, errors; partizan values and their notation; the hooks' 64-bit words
    ("values", ("gamedp.values", "gamedp.records", "gamedp.errors", "gamedp.cgt", "gamedp.cgt.numbers", "gamedp.cgt.canonical",
                "gamedp.cgt.notation", "gamedp.cgt.thermograph", "gamedp.cgt.values", "gamedp.words")),
    # numba hot loops on integers and arrays: they know no game, engine or front end
    ("kernels", ("gamedp.kernels", "gamedp.kernels.")),
    # the process's services: the memory guard, progress lines, building, caching and loading kernels, which
    # files may be trusted
    ("support", ("gamedp.memory", "gamedp.progress", "gamedp.fingerprint", "gamedp.kernel_cache",
                 "gamedp.numba_cache", "gamedp.aot", "gamedp.native", "gamedp.trust", "gamedp.cgt.budget", "gamedp.cores",
                 "gamedp.streams")),
    # how a game is described, and the registries that name the built-in games' modules and the judge problems'
    # games (gamedp.judge itself is that table; its adapters are front ends)
    ("game", ("gamedp.game", "gamedp.contract", "gamedp.compiled", "gamedp.notation", "gamedp.square",
              "gamedp.games", "gamedp.games.registry", "gamedp.games.indexed", "gamedp.games.impartial",
              "gamedp.judge")),
    # bytes on disk: the database container, tiered index spaces (which it numbers), saved solves, the shipped
    # books' list
    ("formats", ("gamedp.database", "gamedp.database_location", "gamedp.tiers", "gamedp.saved_identity", "gamedp.saved_keys",
                 "gamedp.saved_writer", "gamedp.saved_solution", "gamedp.gamesman", "gamedp.books")),
    # engines, one a module, and where their shards run; partizan values of positions
    ("solvers", ("gamedp.solvers", "gamedp.solvers.", "gamedp.executors", "gamedp.cgt.search",
                 "gamedp.cgt.domineering", "gamedp.cgt.domineering_compiled", "gamedp.cgt.region_table")),
    # the built-in games, each with its own engines and forms
    ("games", ("gamedp.games.",)),
    # which engine answers a game and a position; loading a game by name; checking a description
    ("analysis", ("gamedp.analysis", "gamedp.loader", "gamedp.selfcheck")),
    # what people use: the command line, the web board, Jupyter, explanations, the stress tester, the judges,
    # and the package's own API (gamedp/__init__.py re-exports from every layer)
    ("front ends", ("gamedp", "gamedp.__main__", "gamedp.cli", "gamedp.cli.", "gamedp.web", "gamedp.web.",
                    "gamedp.jupyter", "gamedp.explain", "gamedp.stress", "gamedp.stress.", "gamedp.judge.",
                    "gamedp.render", "gamedp.drawing", "gamedp.batch")),
]

#: Calls that import the module named by their first argument.
LOADERS = {"import_module", "load_kernels", "load_native", "entry_points", "load_if_built"}


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def layer_of(module: str) -> int:
    best, level = -1, None
    for i, (_, names) in enumerate(LAYERS):
        for name in names:
            if (module == name or name.endswith(".") and module.startswith(name)) and len(name) > best:
                best, level = len(name), i
    assert level is not None, f"{module} is in no layer: add it to LAYERS (and to docs/design.md)"
    return level


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def imports(module: str, path: Path, known: dict[str, Path]) -> dict[str, int]:
    """The package's modules that ``module`` imports, each with the line of its first import."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: dict[str, int] = {}

    def add(name: str, line: int) -> None:
        while name not in known and "." in name:  # a name imported from a module: the module
            name = name.rpartition(".")[0]
        if name in known and name != module:
            found.setdefault(name, line)

    def visit(node: ast.AST) -> None:
        if _type_checking_only(node):
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("gamedp"):
                    add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            if base.split(".")[0] == "gamedp":
                for alias in node.names:  # ``from gamedp.cli import regions`` imports a module
                    add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base, node.lineno)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            name = node.args[0].value
            if called in LOADERS and isinstance(name, str) and name.startswith("gamedp."):
                add(name, node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(), str(path)))
    return found


def graph() -> dict[str, dict[str, int]]:
    known = modules()
    return {module: imports(module, path, known) for module, path in known.items()}


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_walk_sees_every_kind_of_import():
    """The reader itself: imports at the top and inside functions, relative ones, modules imported from their
    package, kernels named to their loader; not those for type checkers."""
    edges = graph()
    assert "gamedp.games.placement" in edges["gamedp.explain"]  # inside a function
    assert "gamedp.cli.regions" in edges["gamedp.cli.nimber"]  # from gamedp.cli import regions
    assert "gamedp.kernels.blockgame" in edges["gamedp.games.placement"]  # load_kernels("gamedp.kernels....")
    assert "gamedp.games.connect4" not in edges["gamedp.games.connect4_scores"]  # under TYPE_CHECKING
    assert cycles({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b": 1}, "b": {}}) == []


def test_no_import_cycle():
    assert cycles(graph()) == []


def test_every_module_has_a_layer():
    for module in modules():
        layer_of(module)


def test_no_layer_imports_a_higher_one():
    wrong = []
    for module, imported in graph().items():
        for other, line in imported.items():
            if layer_of(other) > layer_of(module):
                wrong.append(f"{module} ({LAYERS[layer_of(module)][0]}) imports {other} "
                             f"({LAYERS[layer_of(other)][0]}) at line {line}")
    assert wrong == []
