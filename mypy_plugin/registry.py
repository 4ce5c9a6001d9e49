"""Every check, and the hooks each declares: the tables the routing layer answers from,
and the dicts mypy's lookups read them through.

A check is a module of ``checks/`` listed in :data:`CHECKS`, with a ``HOOKS``
tuple and a ``check(ctx, env)`` entry (``hooks.py``, ``CONTRIBUTING.md``).  The
order of the list is the order in which checks hooked by the same name run.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from functools import cached_property
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
    "missing_modules",
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
    # Cross-call analysis: calls of functions with Python source, sizes used as ints.
    "call_sites",
    "size_sinks",
    "random_calls",
    "schema_arguments",
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


# -- the lookups mypy calls, one dict per hook kind ---------------------------------


class HooksByName(dict[str, Any]):
    """One kind's hooks by name; a name's hook is built the first time mypy asks.

    Speed trick: a repeated question runs no Python code; saves 2.5% of a cold quick
    run (measured 2026-12-03, docs/performance.md).
    """

    def __init__(self, lookup: Callable[[str], Any], name: str,
                 failed: Callable[[str, str, Exception], None]) -> None:
        super().__init__()
        self.lookup = lookup
        self.name = name
        self.failed = failed

    def __missing__(self, fullname: str) -> Any:
        try:
            answer = self.lookup(fullname)
        except Exception as error:  # no hook for this name, said once on stderr
            self.failed(self.name, fullname, error)
            answer = None
        self[fullname] = answer
        return answer


class TypeHooksByName(dict[str, Any]):
    """Like :class:`HooksByName` for type analysis, whose answer for the names the
    checks list (``wanted``) depends on more than the name: those are asked every
    time, the others once, of ``other`` (None for nearly all of them).

    Speed trick: mypy asks about every name of every annotation; saves 11% of a cold
    quick run (measured 2026-12-03, docs/performance.md).
    """

    def __init__(self, wanted: Callable[[], frozenset[str]], lookup: Callable[[str], Any],
                 other: Callable[[str], Any], failed: Callable[[str, str, Exception], None]
                 ) -> None:
        super().__init__()
        self._wanted = wanted
        self.lookup = lookup
        self.other = other
        self.failed = failed

    @cached_property
    def wanted(self) -> frozenset[str]:
        return self._wanted()

    def __missing__(self, fullname: str) -> Any:
        if fullname in self.wanted:
            try:
                return self.lookup(fullname)
            except Exception as error:
                self.failed("get_type_analyze_hook", fullname, error)
                return None
        answer = self.other(fullname)
        if answer is None:  # nearly every name: never asked again
            self[fullname] = None
        return answer


