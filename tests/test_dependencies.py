"""One-way dependencies, read from the sources' imports (``ast``, nothing is imported).

- no import cycle in the plugin, the command line or the runtime package;
- ``mypy_plugin/analysis/`` never imports ``mypy_plugin/checks/``;
- a check never imports another check;
- nothing below the routing layer imports ``main.py``, and only the command line
  (and ``python -m mypy_plugin``) imports the command line.

Cycles are looked for among the imports that run (at import time or inside a
function); an import under ``if TYPE_CHECKING:`` names a type for the checker and
orders no loading, so it counts for the layering rules but not as a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("mypy_plugin", "proxy_types")
PLUGIN = "mypy_plugin"
ANALYSIS = f"{PLUGIN}.analysis"
CHECKS = f"{PLUGIN}.checks"
MAIN = f"{PLUGIN}.main"
CLI = f"{PLUGIN}.cli"

def modules_under(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module of ``packages`` under ``root`` by dotted name (a compiled module
    known only by its stub too, so that importing it is not mistaken for its package)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py*")):
            if path.suffix not in (".py", ".pyi"):
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found.setdefault(".".join(parts), path)
    return found


def _is_type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """``name`` or the innermost package of the repository holding it; None outside."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str, path: Path, modules: dict[str, Path], *,
               type_only: bool) -> set[str]:
    """The repository's modules ``module`` imports; ``type_only``: also those under
    ``if TYPE_CHECKING:``."""
    package = module if path.stem == "__init__" else module.rpartition(".")[0]
    pending: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
    found: set[str | None] = set()
    while pending:
        node = pending.pop()
        if not type_only and _is_type_checking(node):
            assert isinstance(node, ast.If)
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(_known(alias.name, modules) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in modules else _known(base, modules))
        pending.extend(ast.iter_child_nodes(node))
    return {name for name in found if name is not None and name != module}


def import_graph(modules: dict[str, Path], *, type_only: bool) -> dict[str, set[str]]:
    return {name: imports_of(name, path, modules, type_only=type_only)
            for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The import cycles of ``graph``: its strongly connected parts of two or more modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = {stack.pop()}
            while node not in part:
                part.add(stack.pop())
            if len(part) > 1:
                found.append(frozenset(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def layering_problems(graph: dict[str, set[str]]) -> list[str]:
    """Each import that goes against the layers, as ``importer -> imported (rule)``."""
    problems: list[str] = []
    for importer, imported in sorted(graph.items()):
        for target in sorted(imported):
            if _within(importer, ANALYSIS) and _within(target, CHECKS):
                problems.append(f"{importer} -> {target} (analysis imports a check)")
            if _within(importer, CHECKS) and _within(target, CHECKS) and target != CHECKS:
                problems.append(f"{importer} -> {target} (a check imports another check)")
            if target == MAIN and importer != PLUGIN:
                problems.append(f"{importer} -> {target} (only the entry point routes)")
            if _within(target, CLI) and not _within(importer, CLI) \
                    and importer != f"{PLUGIN}.__main__":
                problems.append(f"{importer} -> {target} (the command line sits on top)")
    return problems


def unexpected_cycles(root: Path) -> list[frozenset[str]]:
    return cycles(import_graph(modules_under(root), type_only=False))


def test_no_import_cycle() -> None:
    found = unexpected_cycles(REPO)
    assert found == [], [" <-> ".join(sorted(cycle)) for cycle in found]


def test_the_layers_are_one_way() -> None:
    graph = import_graph(modules_under(REPO), type_only=True)
    assert layering_problems(graph) == []


def test_the_graph_sees_the_real_layers() -> None:
    """The rules above would pass on an empty graph: this one has the known edges."""
    graph = import_graph(modules_under(REPO), type_only=True)
    assert f"{ANALYSIS}.dynamic" in graph[f"{CHECKS}.isinstance_calls"]
    assert MAIN in graph[PLUGIN]
    assert f"{ANALYSIS}.severity" in graph[f"{CHECKS}.comparisons"]


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


_TOY_TREE = {
    "mypy_plugin/__init__.py": "def plugin(version):\n    from .main import Plugin\n",
    "mypy_plugin/main.py": "from .checks import casts\n",
    "mypy_plugin/analysis/__init__.py": "",
    "mypy_plugin/analysis/dynamic.py": "from .flow import Flow\n",
    "mypy_plugin/analysis/flow.py": "Flow = 1\n",
    "mypy_plugin/checks/__init__.py": "",
    "mypy_plugin/checks/casts.py": "from ..analysis.dynamic import Flow\n",
    "mypy_plugin/checks/hashing.py": "from ..analysis import dynamic\n",
    "proxy_types/__init__.py": "from ._guards import guard\n",
    "proxy_types/_guards.py": "from . import _speedups\nguard = 1\n",
    "proxy_types/_speedups.pyi": "",
}


def test_a_clean_toy_tree_passes(tmp_path: Path) -> None:
    _write(tmp_path, _TOY_TREE)
    assert unexpected_cycles(tmp_path) == []
    assert layering_problems(import_graph(modules_under(tmp_path), type_only=True)) == []


@pytest.mark.parametrize("planted, expected", [
    ({"mypy_plugin/analysis/flow.py": "def later():\n    from .dynamic import x\n"},
     {"mypy_plugin.analysis.dynamic", "mypy_plugin.analysis.flow"}),
    ({"proxy_types/_guards.py": "import proxy_types\n"}, {"proxy_types", "proxy_types._guards"}),
])
def test_a_planted_cycle_fails(tmp_path: Path, planted: dict[str, str],
                               expected: set[str]) -> None:
    _write(tmp_path, {**_TOY_TREE, **planted})
    assert unexpected_cycles(tmp_path) == [frozenset(expected)]


def test_a_type_only_import_is_no_cycle(tmp_path: Path) -> None:
    _write(tmp_path, {**_TOY_TREE, "mypy_plugin/analysis/flow.py":
                      "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                      "    from .dynamic import x\n"})
    assert unexpected_cycles(tmp_path) == []


@pytest.mark.parametrize("planted, expected", [
    ({"mypy_plugin/analysis/flow.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                      "    from ..checks.casts import x\n"},
     "mypy_plugin.analysis.flow -> mypy_plugin.checks.casts (analysis imports a check)"),
    ({"mypy_plugin/checks/hashing.py": "def f():\n    from . import casts\n"},
     "mypy_plugin.checks.hashing -> mypy_plugin.checks.casts (a check imports another check)"),
    ({"mypy_plugin/checks/hashing.py": "from ..main import Plugin\n"},
     "mypy_plugin.checks.hashing -> mypy_plugin.main (only the entry point routes)"),
    ({"mypy_plugin/cli/__init__.py": "", "mypy_plugin/checks/hashing.py": "import mypy_plugin.cli\n"},
     "mypy_plugin.checks.hashing -> mypy_plugin.cli (the command line sits on top)"),
])
def test_a_planted_upward_import_fails(tmp_path: Path, planted: dict[str, str],
                                       expected: str) -> None:
    _write(tmp_path, {**_TOY_TREE, **planted})
    assert layering_problems(import_graph(modules_under(tmp_path), type_only=True)) == [expected]


def test_the_audit_and_its_report_form_no_cycle(tmp_path: Path) -> None:
    """The cycle the audit's split removed is reported again if it comes back."""
    _write(tmp_path, {**_TOY_TREE, "proxy_types/_audit.py": "from . import _audit_report\n",
                      "proxy_types/_audit_report.py": "from ._audit import x\n"})
    assert unexpected_cycles(tmp_path) == [
        frozenset({"proxy_types._audit", "proxy_types._audit_report"})]
    graph = import_graph(modules_under(REPO), type_only=True)
    assert "proxy_types._audit_records" in graph["proxy_types._audit_report"]
    assert not graph["proxy_types._audit_report"] & {"proxy_types._audit",
                                                     "proxy_types._audit_session"}


#: The audit's modules, lowest first: each imports only those before it.
AUDIT_LAYERS = ["proxy_types._audit_records", "proxy_types._audit_wrappers",
                "proxy_types._audit_torch", "proxy_types._audit_session",
                "proxy_types._audit_report", "proxy_types._audit"]


def test_the_audit_modules_import_downward_only() -> None:
    graph = import_graph(modules_under(REPO), type_only=True)
    upward = [f"{module} -> {target}" for index, module in enumerate(AUDIT_LAYERS)
              for target in sorted(graph[module] & set(AUDIT_LAYERS[index:]))]
    assert upward == []
    assert "proxy_types._audit_wrappers" in graph["proxy_types._audit_session"]  # not vacuous
