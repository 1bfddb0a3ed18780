"""The package's import graph: cycles and imports hidden inside functions (issue #41).

Read from the source with ``ast`` (nothing is imported). An edge A -> B is an import of
crusadegym module B anywhere in module A: at module level or inside a function (a
function-level import is how a cycle hides; it is allowed only to defer an optional extra,
which is never a crusadegym module). Edges from a module to a package that contains it
(``from . import X`` in a package's own modules) are left out: Python runs a package's
``__init__`` first anyway.

The goal is zero of both; until then this is a ratchet: the counts may only fall. When you
remove a cycle or a deferred import, lower the baseline in the same commit.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "crusadegym"

BASELINE_DEFERRED = 166
"""Import statements of crusadegym modules inside functions (7 December 2026)."""
BASELINE_CYCLE_MODULES = 9
"""Modules on an import cycle (a strongly connected component of two or more), 7 December
2026: one of the five cycles issue #41 names (the Duel's carry and coins with the
Campaign's hooks). Gone: the agents' cycle (``HeuristicAgent`` in ``agents/heuristic_agent``
and the lookahead in ``heuristics/lookahead``, so the heuristics no longer reach the learned
value; the shipped files named in ``agents/pretrained`` and played by
``agents/pretrained_agent``); the Campaign's game and determinize (``render_view`` moved to
``game``); training's selfplay and rllib_backend (``TrainArgs`` in ``train_args``); the two
notations (``NotationError`` in ``crusadegym.errors``)."""
LAYERS = {"core": 0, "agents": 1, "envs": 2, "training": 3, "ui": 4, "benchmarks": 4}
"""Subpackages from the bottom up: a module imports only its own layer and lower ones."""
UPWARD_ALLOWED: set[tuple[str, str]] = set()
"""Known upward imports, to be removed (none since ``puct.py`` moved to ``agents``)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((SRC / PACKAGE).rglob("*.py"))}


def _resolve(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = importer.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(name: str, path: Path, known: set[str]) -> list[tuple[set[str], bool]]:
    """Per import statement of crusadegym modules: (the modules, inside a function?)."""
    tree = ast.parse(path.read_text(), str(path))
    found: list[tuple[set[str], bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            targets: set[str] = set()
            if isinstance(child, ast.Import):
                targets = {a.name for a in child.names if a.name in known}
            elif isinstance(child, ast.ImportFrom):
                base = _resolve(name, path.name == "__init__.py", child)
                for alias in child.names:
                    sub = f"{base}.{alias.name}"
                    if sub in known:
                        targets.add(sub)
                    elif base in known:
                        targets.add(base)
            if targets:
                found.append((targets, inside))
            visit(child, inside)

    visit(tree, False)
    return found


def graph() -> tuple[dict[str, set[str]], int]:
    """The edges (package-parent edges left out) and the number of deferred imports."""
    mods = modules()
    known = set(mods)
    edges: dict[str, set[str]] = {m: set() for m in mods}
    deferred = 0
    for name, path in mods.items():
        for targets, inside in imports(name, path, known):
            deferred += inside
            for target in targets:
                if target != name and not name.startswith(target + "."):
                    edges[name].add(target)
    return edges, deferred


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of two or more modules (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
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


def layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.get(parts[1]) if len(parts) > 1 else None


def test_imports_point_down_the_layers():
    edges, _ = graph()
    upward = {
        (a, b)
        for a, targets in edges.items()
        for b in targets
        if layer(a) is not None and layer(b) is not None and layer(b) > layer(a)
    }
    assert upward <= UPWARD_ALLOWED, f"upward imports: {sorted(upward - UPWARD_ALLOWED)}"


def test_the_cycle_finder_finds_a_cycle_and_nothing_else():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(edges) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_import_cycles_and_deferred_imports_do_not_grow():
    edges, deferred = graph()
    found = cycles(edges)
    on_cycles = sum(len(c) for c in found)
    report = "\n".join(" <-> ".join(c) for c in found)
    assert deferred <= BASELINE_DEFERRED, f"{deferred} deferred crusadegym imports"
    assert on_cycles <= BASELINE_CYCLE_MODULES, f"{on_cycles} modules on cycles:\n{report}"
