"""Modules that define dynamic number classes, imported by checked code, that mypy cannot find.

Without torch where mypy runs (or with an editable install mypy cannot follow),
``import torch`` silently makes ``torch.SymInt`` Any under
``ignore_missing_imports``: every check of a SymInt then passes, with no
sign that nothing was checked.  Such imports are reported instead, in every
module, exempt ones included.
"""

from __future__ import annotations

from mypy.nodes import Import, ImportAll, ImportBase, ImportFrom, MypyFile
from mypy.options import Options

from .. import _mypy_compat as compat

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
        self.packages = frozenset(name.partition(".")[0] for name in self.classes_under)
        # Modules already reported on, each with the tree it was reported for.
        self._reported: dict[str, MypyFile] = {}

    def missing(self, module: str, modules: dict[str, MypyFile]) -> str | None:
        """The package of ``module`` (or itself) that defines dynamic classes and is not
        in the build, or None."""
        if module.partition(".")[0] not in self.packages:
            return None
        parts = module.split(".")
        for end in range(1, len(parts) + 1):
            prefix = ".".join(parts[:end])
            if prefix in modules:
                continue
            return prefix if prefix in self.classes_under else None
        return None

    def unresolved_for_name(self, fullname: str, modules: dict[str, MypyFile] | None) -> str | None:
        """For ``torch.SymInt`` as a name being analyzed: ``torch`` if mypy cannot find it.

        Through a module mypy could not find, the name is qualified by the module
        using it (``app.torch.SymInt`` after ``import torch`` in ``app``).
        """
        if modules is None:
            return None
        parts = fullname.split(".")
        for start, part in enumerate(parts[:-1]):
            if part in self.packages:
                return self.missing(".".join(parts[start:-1]), modules)
        return None

    def report(self, api: compat.AnyPluginInterface, tree: MypyFile,
               modules: dict[str, MypyFile] | None) -> None:
        """Report, once per module tree, each import of ``tree`` that names a missing module."""
        if modules is None or self._reported.get(tree.fullname) is tree:
            return
        self._reported[tree.fullname] = tree
        from .. import errors

        reported: set[str] = set()
        for statement in tree.imports:
            for module in _imported(statement):
                missing = self.missing(module, modules)
                if missing is None or missing in reported:
                    continue
                reported.add(missing)
                classes = self.classes_under[missing]
                shown = classes[:_SHOWN] + (("...",) if len(classes) > _SHOWN else ())
                skipped = compat.import_skipped(self.options, missing)
                errors.unresolved_module(api, statement, missing, shown, skipped)


def _imported(statement: ImportBase) -> list[str]:
    """The absolute module names an import statement loads (relative ones: none)."""
    if statement.is_unreachable:
        return []
    if isinstance(statement, Import):
        return [module for module, _ in statement.ids]
    if isinstance(statement, ImportFrom) and statement.relative == 0:
        return [statement.id, *(f"{statement.id}.{name}" for name, _ in statement.names)]
    if isinstance(statement, ImportAll) and statement.relative == 0:
        return [statement.id]
    return []
