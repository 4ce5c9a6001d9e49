"""What a module's import statements (function-level ones included) bring in."""

from __future__ import annotations

from typing import NamedTuple

from mypy.nodes import Import, ImportAll, ImportBase, ImportFrom, MypyFile


class ModuleImports(NamedTuple):
    """The modules a tree imports, the names it imports from them, and any star import."""

    modules: frozenset[str]  # `import a.b` and the `a.b` of `from a.b import c`
    imported_modules: frozenset[str]  # `import a.b` only
    names: frozenset[str]  # the `c` of `from a.b import c` (before `as`)
    star: bool  # `from a import *`: may bind anything


def imports_of(tree: MypyFile) -> ModuleImports:
    """Summarize every import statement mypy recorded for ``tree``."""
    modules: set[str] = set()
    imported: set[str] = set()
    names: set[str] = set()
    star = False
    for statement in tree.imports:
        if isinstance(statement, Import):
            imported.update(module for module, _ in statement.ids)
        elif isinstance(statement, ImportFrom):
            modules.add(statement.id)
            names.update(name for name, _ in statement.names)
        elif isinstance(statement, ImportAll):
            modules.add(statement.id)
            star = True
    return ModuleImports(frozenset(modules | imported), frozenset(imported), frozenset(names), star)


def names_bound_by(statement: ImportBase) -> set[str]:
    """The local names an import statement binds (``import a.b`` binds ``a``)."""
    if isinstance(statement, Import):
        return {(alias or module).partition(".")[0] for module, alias in statement.ids}
    if isinstance(statement, ImportFrom):
        return {alias or name for name, alias in statement.names}
    return set()
