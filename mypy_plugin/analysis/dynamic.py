"""Answers "may this static type hold a dynamic number?" for mypy types."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeVar

from mypy.nodes import (
    ComparisonExpr,
    ComplexExpr,
    Expression,
    FloatExpr,
    IntExpr,
    SliceExpr,
    TypeInfo,
    UnaryExpr,
)
from mypy.plugin import CheckerPluginInterface
from mypy.types import (
    ProperType,
    AnyType,
    CallableType,
    Instance,
    Overloaded,
    Type,
    TypeType,
    TypeVarType,
    UnionType,
    get_proper_type,
)

from .. import _mypy_compat as compat
from ..constants import DEFAULT_DYNAMIC_CLASSES, SUBCLASSABLE_NUMBER_BUILTINS
from ..findings import Reason

#: Kinds of dynamic class, by what an implicit conversion does to their instances
#: (``proxy_types/_table.py`` says what each operation does to each kind):
#: "own" raises, "torch" and "guarded" install a guard, "silent" returns the trace-time value.
OWN, TORCH, GUARDED, SILENT = "own", "torch", "guarded", "silent"
_TORCH_CLASSES = frozenset(name for name in DEFAULT_DYNAMIC_CLASSES if name.startswith("torch."))


class Dynamic(NamedTuple):
    """A dynamic number a value may be: the class as shown, its kind, and why."""

    name: str
    kind: str
    reason: Reason

_Found = TypeVar("_Found")


def first_in_members(
    typ: Type, find: Callable[[ProperType], _Found | None], depth: int = 0
) -> _Found | None:
    """``find``'s first answer other than None for ``typ`` or, through unions and
    TypeVars (bound and value restrictions), for the types it may stand for."""
    if depth > 20:  # guards against pathological recursive types
        return None
    proper = get_proper_type(typ)
    if isinstance(proper, UnionType):
        members: list[Type] = list(proper.items)
    elif isinstance(proper, TypeVarType):
        members = [proper.upper_bound, *proper.values]
    else:
        return find(proper)
    for member in members:
        found = first_in_members(member, find, depth + 1)
        if found is not None:
            return found
    return None


_LITERAL_CLASSES = SUBCLASSABLE_NUMBER_BUILTINS | {"builtins.object"}
_NUMBER_LITERALS = (IntExpr, FloatExpr, ComplexExpr)


class DynamicClasses:
    """The set of dynamic number classes (defaults plus configured ones)."""

    def __init__(self, fullnames: frozenset[str], guarded: frozenset[str] = frozenset()) -> None:
        self.fullnames = fullnames
        #: Configured classes that guard like torch's instead of returning values silently.
        self.guarded = guarded
        #: Number literals are int/float/complex: static unless those are configured dynamic.
        self.literals_static = _LITERAL_CLASSES.isdisjoint(fullnames)

    def describe(
        self,
        typ: Type,
        *,
        include_top: bool = False,
        where: Callable[[TypeInfo], bool] | None = None,
    ) -> Dynamic | None:
        """The dynamic number ``typ`` may hold (by its declared type), or None."""
        def dynamic(proper: ProperType) -> Dynamic | None:
            if isinstance(proper, Instance):
                if any(base.fullname in self.fullnames for base in proper.type.mro):
                    if where is not None and not where(proper.type):
                        return None
                    return Dynamic(proper.type.name, self.kind_of(proper.type),
                                   Reason("declared", f'declared as "{proper.type.name}"'))
                if include_top and proper.type.fullname == "builtins.object":
                    return Dynamic("object", SILENT, Reason("any", 'declared as "object"'))
                return None
            if isinstance(proper, AnyType) and include_top:
                return Dynamic("Any", SILENT, Reason("any", 'typed "Any"'))
            return None

        return first_in_members(typ, dynamic)

    def kind_of(self, info: TypeInfo) -> str:
        """What conversions do to instances of dynamic class ``info`` (OWN, TORCH...)."""
        names = [base.fullname for base in info.mro]
        if any(name in _TORCH_CLASSES for name in names):
            return TORCH
        if any(name in self.guarded for name in names):
            return GUARDED
        if any(name.startswith("proxy_types.") for name in names):
            return OWN
        return SILENT

    def class_name(
        self,
        typ: Type,
        *,
        include_top: bool = False,
        where: Callable[[TypeInfo], bool] | None = None,
    ) -> str | None:
        """Name of a dynamic number class ``typ`` may hold, or None.

        ``include_top`` also counts ``Any`` and ``object`` (strict isinstance mode);
        ``where`` limits the search to the dynamic classes it accepts.
        """
        return self._search(typ, include_top, depth=0, where=where)

    def _search(
        self,
        typ: Type,
        include_top: bool,
        depth: int,
        where: Callable[[TypeInfo], bool] | None = None,
    ) -> str | None:
        def dynamic_name(proper: ProperType) -> str | None:
            if isinstance(proper, Instance):
                if any(base.fullname in self.fullnames for base in proper.type.mro):
                    return proper.type.name if where is None or where(proper.type) else None
                if include_top and proper.type.fullname == "builtins.object":
                    return "object"
                return None
            if isinstance(proper, AnyType):
                return "Any" if include_top else None
            return None

        return first_in_members(typ, dynamic_name, depth)

    def class_of_type_object(self, typ: Type) -> str | None:
        """Like :meth:`class_name` for a class object (``type[X]`` or ``X`` used as a value)."""
        proper = get_proper_type(typ)
        if isinstance(proper, TypeType):
            return self.class_name(proper.item)
        if isinstance(proper, (CallableType, Overloaded)) and proper.is_type_obj():
            info = proper.type_object()
            if any(base.fullname in self.fullnames for base in info.mro):
                return info.name
        return None


def expression_type(api: CheckerPluginInterface, expr: Expression) -> Type:
    """Type of ``expr`` without reporting its errors twice (the call checks it again)."""
    with compat.errors_hidden(api):
        return api.get_expression_type(expr)


def dynamic_in_expression(
    api: CheckerPluginInterface, expr: Expression, dynamic: DynamicClasses
) -> Dynamic | None:
    """The dynamic number ``expr`` may evaluate to, or None.

    A comparison with a dynamic operand counts whatever its declared type:
    torch types ``SymInt.__lt__`` as ``-> bool`` but it returns a SymBool.
    """
    if dynamic.literals_static and _is_number_literal(expr):
        return None  # xs[0], xs[-1], range(10): no need to infer the type again
    if isinstance(expr, SliceExpr):
        for part in (expr.begin_index, expr.end_index, expr.stride):
            found = dynamic_in_expression(api, part, dynamic) if part is not None else None
            if found is not None:
                return found
        return None
    found = dynamic.describe(expression_type(api, expr))
    if found is not None:
        return found
    if isinstance(expr, ComparisonExpr):
        for operand in expr.operands:
            found = dynamic.describe(expression_type(api, operand))
            if found is not None:
                return found
    return None


def _is_number_literal(expr: Expression) -> bool:
    """``1``, ``2.5``, ``-1`` and the like."""
    if isinstance(expr, UnaryExpr) and expr.op in ("-", "+"):
        expr = expr.expr
    return isinstance(expr, _NUMBER_LITERALS)
