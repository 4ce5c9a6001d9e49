"""Classes with a dynamic-number subclass (thunder's ``Proxy`` above ``NumberProxy``).

A value declared as such a base class may hold a dynamic number at runtime.  The
subclasses are found among the classes defined in the modules visible from the
module being checked (itself, the modules it imports, and the base's own module):
every mypy worker (``mypy -n N``) has exactly those loaded, so every worker
gives the same answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from mypy.nodes import Import, ImportAll, ImportFrom, MypyFile, TypeInfo
from mypy.util import correct_relative_import

from ..constants import STATIC_NUMBER_CLASSES

if TYPE_CHECKING:
    from .dynamic import DynamicClasses

#: Bases too general to say anything (``object``, ``Generic``, ``ABC``): values typed
#: so are left to ``strict_isinstance``, like protocols.
TOO_GENERAL_MODULES = frozenset(
    {"builtins", "typing", "typing_extensions", "abc", "collections.abc", "numbers"})

Index = dict[str, tuple[TypeInfo, ...]]


class DynamicSubclasses:
    """Which dynamic classes derive from a class, per module, cached by module tree."""

    def __init__(self, dynamic: DynamicClasses) -> None:
        self.dynamic = dynamic
        self._by_module: dict[str, tuple[MypyFile, Index]] = {}
        self._visible: dict[str, tuple[MypyFile, int, Index]] = {}

    def of(self, info: TypeInfo, modules: Mapping[str, MypyFile],
           current: MypyFile | None, *, complete: bool = True) -> tuple[TypeInfo, ...]:
        """The dynamic subclasses of ``info`` known where ``current`` is checked.

        Not ``complete`` while the semantic analyzer is still inside ``current``:
        nothing learnt about it is kept then.
        """
        if info.module_name in TOO_GENERAL_MODULES or info.is_protocol:
            return ()
        found = list(self._visible_from(current, modules, complete).get(info.fullname, ()))
        home = modules.get(info.module_name)
        if home is not None:
            home_index = self._module_index(home, complete or home is not current)
            found += [sub for sub in home_index.get(info.fullname, ()) if sub not in found]
        # The most general first (NumberProxy before FloatProxy): it names the report.
        return tuple(sorted(found, key=lambda sub: (len(sub.mro), sub.fullname)))

    def _visible_from(self, current: MypyFile | None, modules: Mapping[str, MypyFile],
                      complete: bool) -> Index:
        if current is None:
            return {}
        cached = self._visible.get(current.fullname)
        if complete and cached is not None and cached[0] is current and cached[1] == len(
                current.imports):
            return cached[2]
        merged: dict[str, list[TypeInfo]] = {}
        for name in sorted(imported_modules(current) | {current.fullname}):
            tree = modules.get(name)
            if tree is None:
                continue
            for base, subs in self._module_index(tree, complete or tree is not current).items():
                known = merged.setdefault(base, [])
                known += [sub for sub in subs if sub not in known]
        index = {base: tuple(subs) for base, subs in merged.items()}
        if complete:
            self._visible[current.fullname] = (current, len(current.imports), index)
        return index

    def _module_index(self, tree: MypyFile, complete: bool) -> Index:
        """Base class name -> dynamic classes defined in ``tree`` that derive from it."""
        cached = self._by_module.get(tree.fullname)
        if complete and cached is not None and cached[0] is tree:
            return cached[1]
        index: dict[str, list[TypeInfo]] = {}
        for symbol in tree.names.values():
            info = symbol.node
            if not isinstance(info, TypeInfo) or info.module_name != tree.fullname:
                continue
            if not self.dynamic.is_dynamic_class(info):
                continue
            for base in info.mro[1:]:
                if self.dynamic.is_dynamic_class(base) or base.fullname in STATIC_NUMBER_CLASSES:
                    continue
                if base.module_name in TOO_GENERAL_MODULES or base.is_protocol:
                    continue
                index.setdefault(base.fullname, []).append(info)
        frozen = {base: tuple(subs) for base, subs in index.items()}
        if complete:
            self._by_module[tree.fullname] = (tree, frozen)
        return frozen


def imported_modules(tree: MypyFile) -> set[str]:
    """The modules ``tree`` imports (``from pkg import mod`` may import ``pkg.mod``)."""
    found: set[str] = set()
    for statement in tree.imports:
        if isinstance(statement, Import):
            found.update(module for module, _ in statement.ids)
        elif isinstance(statement, (ImportFrom, ImportAll)):
            module, _ = correct_relative_import(tree.fullname, statement.relative, statement.id,
                                                tree.is_package_init_file())
            found.add(module)
            if isinstance(statement, ImportFrom):
                found.update(f"{module}.{name}" for name, _ in statement.names)
    return found
