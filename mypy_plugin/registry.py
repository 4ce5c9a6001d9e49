"""Every check, and the hooks each declares: the tables the routing layer answers from.

A check is a module of ``checks/`` listed in :data:`CHECKS`, with a ``HOOKS``
tuple and a ``check(ctx, env)`` entry (``hooks.py``, ``CONTRIBUTING.md``).  The
order of the list is the order in which checks hooked by the same name run.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any, NamedTuple

from .hooks import Env, Hook, HookKind, Shared

#: The check modules, by name under ``mypy_plugin.checks``.  Imported on the first
#: hook lookup (a warm run, which asks for none, imports no check).
CHECKS: list[str] = [
    # Records for `fix` first: it sees every call before a check may rewrite a type.
    "passed_arguments",
    "isinstance_calls",
    "configuration",
    "migrate",
    "type_comparisons",
    "items_truth",
    "hashing",
    "concretizing_calls",
    "conversions",
    "format_specs",
    "comparisons",
    "bases",
    "casts",
    "bare_conditions",
]


class Registered(NamedTuple):
    """One hook of one check."""

    name: str
    hook: Hook
    check: Callable[[Any, Env], Any]


def check_module(name: str) -> ModuleType:
    return importlib.import_module(f"{__package__}.checks.{name}")


def registered(names: Iterable[str] = ()) -> list[Registered]:
    """Every hook of every check in ``names`` (default: :data:`CHECKS`), in order."""
    found: list[Registered] = []
    for name in names or CHECKS:
        module = check_module(name)
        hooks: tuple[Hook, ...] = module.HOOKS
        found.extend(Registered(name, hook, module.check) for hook in hooks)
    return found


class HookTable:
    """For each hook kind, which checks a fully qualified name gets: by name for the
    names the checks list, by predicate for the others, in registry order."""

    def __init__(self, shared: Shared, checks: list[Registered]) -> None:
        self.shared = shared
        #: The hooks that are on with these settings.
        self.entries = [entry for entry in checks if entry.hook.when(shared)]
        self._by_name: dict[HookKind, dict[str, list[int]]] = {}
        self._by_predicate: dict[HookKind, list[int]] = {}
        for index, entry in enumerate(self.entries):
            named = self._by_name.setdefault(entry.hook.kind, {})
            for fullname in entry.hook.hooked_names(shared):
                named.setdefault(fullname, []).append(index)
            if entry.hook.matches is not None:
                self._by_predicate.setdefault(entry.hook.kind, []).append(index)

    def names(self, kind: HookKind) -> frozenset[str]:
        """Every name some check of ``kind`` lists (predicates aside)."""
        return frozenset(self._by_name.get(kind, {}))

    def checks_for(self, kind: HookKind, fullname: str) -> list[Registered]:
        """The checks hooked by ``fullname``, in registry order."""
        found = set(self._by_name.get(kind, {}).get(fullname, ()))
        for index in self._by_predicate.get(kind, ()):
            matches = self.entries[index].hook.matches
            if matches is not None and matches(fullname):
                found.add(index)
        return [self.entries[index] for index in sorted(found)]

    def env(self, kind: HookKind, fullname: str) -> Env:
        return Env(self.shared, kind, fullname)
