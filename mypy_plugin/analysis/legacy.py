"""Legacy proxies under migration mode: their hidden bases, read by the checks.

Legacy proxy classes (``class FloatProxy(NumberProxy, float)``) pass every
``isinstance(x, float)`` check at runtime.  With ``migrate_classes`` set, mypy
sees these classes (and their subclasses) without their ``int``/``float``/
``complex`` and ``numbers`` bases, so every place that relies on the merge
becomes an ordinary type error.  The hidden bases are kept in the class's
metadata (mypy caches it), for the checks that must know what is true at runtime.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

from mypy.nodes import CallExpr, Expression, MemberExpr, OpExpr, RefExpr, TypeInfo
from mypy.plugin import CheckerPluginInterface
from mypy.types import (
    ProperType,
    AnyType,
    Instance,
    TupleType,
    Type,
    TypeType,
    UnionType,
    get_proper_type,
)
from mypy.typevars import fill_typevars_with_any

from .. import _mypy_compat as compat
from .dynamic import expression_type, first_in_members
from ..constants import (
    STATIC_NUMBER_ABCS,
    STATIC_NUMBER_CLASSES,
    SUBCLASSABLE_NUMBER_BUILTINS,
    static_classes_of,
)

METADATA_KEY = "proxy_types"
LEGACY_BASES_KEY = "legacy_bases"

#: Bases hidden from a legacy proxy: the subclassable static number classes.
HIDDEN_BASES: frozenset[str] = STATIC_NUMBER_CLASSES - {"builtins.bool"}

#: Static types a legacy proxy may hide behind (``bool`` cannot be subclassed).
_COVER_TYPES: frozenset[str] = (
    SUBCLASSABLE_NUMBER_BUILTINS | STATIC_NUMBER_ABCS | {"builtins.object"}
)


def migrated_class(info: TypeInfo, migrate_classes: frozenset[str]) -> str | None:
    """Name of the migrate class ``info`` is or derives from, or None."""
    for base in info.mro or [info]:
        if base.fullname in migrate_classes:
            return base.name
    return None


def legacy_bases(info: TypeInfo) -> list[str]:
    """Static number bases hidden from ``info`` or any of its ancestors."""
    found: list[str] = []
    for base in info.mro:
        names = base.metadata.get(METADATA_KEY, {}).get(LEGACY_BASES_KEY, [])
        found += [name for name in names if isinstance(name, str) and name not in found]
    return found


class LegacyMatch(NamedTuple):
    """A legacy proxy class in a checked value whose hidden base makes the check True."""

    info: TypeInfo
    base: str


def legacy_match(subject: Type, checked: list[str]) -> LegacyMatch | None:
    """The legacy proxy in ``subject`` that is an instance of a ``checked`` class at runtime."""

    def match(proper: ProperType) -> LegacyMatch | None:
        if isinstance(proper, Instance):
            for base in legacy_bases(proper.type):
                if any(name in static_classes_of(base) for name in checked):
                    return LegacyMatch(proper.type, base)
        return None

    return first_in_members(subject, match)


def migrated_member(subject: Type, migrate_classes: frozenset[str]) -> TypeInfo | None:
    """A class in ``subject`` under migration (say ``NumberProxy``), whose instances may be
    legacy proxies that pass a check against static classes through a hidden base."""

    def member(proper: ProperType) -> TypeInfo | None:
        if isinstance(proper, Instance) and migrated_class(proper.type, migrate_classes):
            return proper.type
        return None

    return first_in_members(subject, member)


def may_hide_legacy_proxy(subject: Type) -> str | None:
    """Name of a static type in ``subject`` that a legacy proxy may stand behind.

    ``Literal[...]`` types and final or unrelated classes (``bool``, ``str``) cannot.
    """

    def cover(proper: ProperType) -> str | None:
        if isinstance(proper, AnyType):
            return "Any"
        if isinstance(proper, Instance) and proper.last_known_value is None:
            if proper.type.fullname in _COVER_TYPES:
                return short_name(proper.type.fullname)
        return None

    return first_in_members(subject, cover)


#: Standard-library modules whose objects may hand back a number they were given.
_NUMBER_MODULES = frozenset({"builtins", "numbers", "fractions", "decimal"})


def made_by_standard_library(api: CheckerPluginInterface, expr: Expression) -> bool:
    """True for ``len(x)`` and attributes of standard-library objects (``instr.arg``).

    CPython builds those numbers itself, so they are never a legacy proxy.
    """
    if isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr):
        return expr.callee.fullname == "builtins.len"
    if isinstance(expr, MemberExpr):
        owner = get_proper_type(expression_type(api, expr.expr))
        if isinstance(owner, TupleType):  # a NamedTuple such as dis.Instruction
            owner = owner.partial_fallback
        if isinstance(owner, Instance):
            package = owner.type.module_name.partition(".")[0]
            return package in sys.stdlib_module_names and package not in _NUMBER_MODULES
    return False


def keep_branch_checked(
    api: CheckerPluginInterface, classes_expr: Expression, legacy: TypeInfo
) -> None:
    """Make mypy narrow ``isinstance(p, float)`` to the legacy class instead of Never.

    mypy reads the classes of an isinstance check from the type it stored for the
    classes argument, after this hook has run; adding ``type[Legacy]`` there keeps
    the True branch reachable and checked with the proxy's real class.
    """
    target = classes_expr
    while isinstance(target, OpExpr) and target.op == "|":
        target = target.right  # mypy reads each operand of `int | float` separately
    legacy_type = fill_typevars_with_any(legacy)
    if not isinstance(legacy_type, Instance):
        return
    compat.replace_stored_type(
        api, target, lambda original: UnionType.make_union([original, TypeType(legacy_type)])
    )


def short_name(fullname: str) -> str:
    return fullname.removeprefix("builtins.")
