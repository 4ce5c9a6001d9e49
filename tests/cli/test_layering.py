"""The package's layers: every module imports, no import cycle, the plugin never imports the CLI."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

PACKAGE = "mypy_plugin"
ROOT = Path(__file__).resolve().parents[2] / PACKAGE
CLI = f"{PACKAGE}.cli"


def module_names() -> dict[str, Path]:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = [PACKAGE, *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = module_names()


def is_type_checking_block(node: ast.stmt) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(module: str, path: Path, *, at_import_time: bool) -> set[str]:
    """The package's modules ``module`` imports (at import time only, or anywhere)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pending: list[ast.AST] = list(tree.body)
    found: set[str] = set()
    while pending:
        node = pending.pop()
        if at_import_time and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue  # a lazy import runs later, when the module is loaded
        if at_import_time and isinstance(node, ast.If) and is_type_checking_block(node):
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in MODULES)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                target = f"{base}.{alias.name}"
                found.add(target if target in MODULES else base)
        pending.extend(ast.iter_child_nodes(node))
    return {name for name in found if name in MODULES and name != module}


def test_every_module_imports() -> None:
    for name in MODULES:
        importlib.import_module(name)


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph``, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycle() -> None:
    graph = {name: imports_of(name, path, at_import_time=True) for name, path in MODULES.items()}
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_the_cycle_finder_finds_cycles() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_nothing_outside_the_command_line_imports_it() -> None:
    outside = {name: imports_of(name, path, at_import_time=False)
               for name, path in MODULES.items()
               if name != CLI and not name.startswith(CLI + ".")}
    importers = {name for name, imported in outside.items()
                 if any(target == CLI or target.startswith(CLI + ".") for target in imported)}
    # __main__ runs the command line on purpose: `python -m mypy_plugin`.
    assert importers <= {f"{PACKAGE}.__main__"}, importers
