"""What a module's import statements bring in, and which of them mypy cannot find.

Without torch where mypy runs (or with an editable install mypy cannot follow),
``import torch`` silently makes ``torch.SymInt`` Any under
``ignore_missing_imports``: every check of a SymInt then passes, with no
sign that nothing was checked.  Such imports are reported instead, in every
module, exempt ones included.
"""

from __future__ import annotations

from typing import NamedTuple

from mypy.nodes import Import, ImportAll, ImportBase, ImportFrom, MypyFile
from mypy.options import Options

from .. import _mypy_compat as compat


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


#: How many class names a report lists.
_SHOWN = 3


class MissingModules:
    """Which imports name a module defining dynamic classes that is not in the build."""

    def __init__(self, dynamic_fullnames: frozenset[str], options: Options) -> None:
        self.options = options
        defining = {name.rpartition(".")[0] for name in dynamic_fullnames}
        #: Each defining module and every package above it -> the classes under it.
        self.classes_under: dict[str, tuple[str, ...]] = {}
        for module in sorted(defining):
            parts = module.split(".")
            for end in range(1, len(parts) + 1):
                prefix = ".".join(parts[:end])
                shown = sorted(f"{prefix}.{name.rpartition('.')[2]}" for name in dynamic_fullnames
                               if name.startswith(prefix + "."))
                self.classes_under[prefix] = tuple(dict.fromkeys(shown))
        #: Each top-level package -> the defining modules and packages under it.
        self.defining_under: dict[str, tuple[str, ...]] = {}
        for prefix in self.classes_under:
            top = prefix.partition(".")[0]
            self.defining_under[top] = (*self.defining_under.get(top, ()), prefix)
        self.packages = frozenset(self.defining_under)
        # Modules already reported on, each with the tree it was reported for.
        self._reported: dict[str, MypyFile] = {}

    def missing(self, module: str, modules: dict[str, MypyFile]) -> str | None:
        """The package of ``module`` (or itself) that defines dynamic classes and is not
        in the build, or None."""
        defining = self.defining_under.get(module.partition(".")[0])
        if defining is None:
            return None
        parts = module.split(".")
        prefixes = tuple(".".join(parts[:end]) for end in range(1, len(parts) + 1))
        for index, prefix in enumerate(prefixes):
            if prefix in modules or self._has_module_under(prefix, prefixes[index + 1:],
                                                           defining, modules):
                continue
            return prefix if prefix in self.classes_under else None
        return None

    @staticmethod
    def _has_module_under(prefix: str, deeper: tuple[str, ...], defining: tuple[str, ...],
                          modules: dict[str, MypyFile]) -> bool:
        """Whether a module under package ``prefix`` is in the build: then mypy found the
        package, and only left its tree out (a warm run loads fresh trees it needs)."""
        inside = prefix + "."
        return any(name in modules for name in deeper) or any(
            name.startswith(inside) and name in modules for name in defining)

    def unresolved_for_name(self, fullname: str, modules: dict[str, MypyFile] | None) -> str | None:
        """For ``torch.SymInt`` as a name being analyzed: ``torch`` if mypy cannot find it.

        Through a module mypy could not find, the name is qualified by the module
        using it (``app.torch.SymInt`` after ``import torch`` in ``app``).
        """
        if modules is None:
            return None
        module = self._package_module(fullname)
        return None if module is None else self.missing(module, modules)

    def _package_module(self, fullname: str) -> str | None:
        """The module part of ``fullname`` from its first defining package on, or None."""
        parts = fullname.split(".")
        for start, part in enumerate(parts[:-1]):
            if part in self.packages:
                return ".".join(parts[start:-1])
        return None

    def incomplete_packages(self, modules: dict[str, MypyFile]) -> frozenset[str]:
        """The top-level packages with a defining module or package not in the build."""
        return frozenset(top for top, defining in self.defining_under.items()
                         if not all(map(modules.__contains__, defining)))

    def report(self, api: compat.AnyPluginInterface, tree: MypyFile,
               modules: dict[str, MypyFile] | None, *, again: bool = False) -> None:
        """Report each import of ``tree`` that names a missing module, once per module
        tree unless ``again``: at the start of each check of the module, as a
        daemon checks the same tree once more after any edit and shows only the
        messages of that check (mypy drops a message repeated on its line).
        """
        if modules is None or (not again and self._reported.get(tree.fullname) is tree):
            return
        self._reported[tree.fullname] = tree
        from .. import errors

        incomplete = self.incomplete_packages(modules)
        if not incomplete:
            return
        reported: set[str] = set()
        for statement in tree.imports:
            for module in _imported(statement, incomplete):
                missing = self.missing(module, modules)
                if missing is None or missing in reported:
                    continue
                reported.add(missing)
                classes = self.classes_under[missing]
                shown = classes[:_SHOWN] + (("...",) if len(classes) > _SHOWN else ())
                skipped = compat.import_skipped(self.options, missing)
                errors.unresolved_module(api, statement, missing, shown, skipped)


def _imported(statement: ImportBase, packages: frozenset[str]) -> list[str]:
    """The absolute module names an import statement loads from ``packages`` (relative
    ones: none)."""
    if statement.is_unreachable:
        return []
    if isinstance(statement, Import):
        return [module for module, _ in statement.ids if module.partition(".")[0] in packages]
    if isinstance(statement, (ImportFrom, ImportAll)) and statement.relative == 0 \
            and statement.id.partition(".")[0] in packages:
        if isinstance(statement, ImportAll):
            return [statement.id]
        return [statement.id, *(f"{statement.id}.{name}" for name, _ in statement.names)]
    return []
