"""proxy-isinstance: isinstance/issubclass against static number classes only."""

from __future__ import annotations

from mypy.nodes import (
    Expression,
    MemberExpr,
    NameExpr,
    OpExpr,
    RefExpr,
    TupleExpr,
    TypeAlias,
    TypeInfo,
)
from mypy.plugin import CheckerPluginInterface, FunctionContext
from mypy.types import (
    CallableType,
    Instance,
    Overloaded,
    TupleType,
    Type,
    TypeType,
    UnionType,
    get_proper_type,
)

from .. import _mypy_compat as compat
from .. import errors
from ..number_table import table as _table

from . import migrate
from ..config import ProxyTypesConfig
from ..constants import (
    DYNAMIC_PYTHON_TYPES,
    STATIC_BUILTIN_TYPES,
    STATIC_NUMBER_CLASSES,
)
from ..analysis.dynamic import DynamicClasses, dynamic_in_expression, narrowed_static
from ..analysis.flow import names_static_only_alias


def _static_classes_checked(
    ctx: FunctionContext, config: ProxyTypesConfig, dynamic: DynamicClasses,
    positions: tuple[int, int],
) -> tuple[Expression, list[str]] | None:
    """The classes expression and the static number classes a check names, or None when
    it names none, names a dynamic class too, or names a static-only alias on purpose."""
    value_at, classes_at = positions
    if max(value_at, classes_at) >= len(ctx.args):
        return None
    if len(ctx.args[value_at]) != 1 or len(ctx.args[classes_at]) != 1:
        return None
    classes_expr = ctx.args[classes_at][0]
    classes = checked_classes(classes_expr, ctx.arg_types[classes_at][0], ctx.api)
    if not classes:
        return None
    static = [name for name in classes if name in STATIC_NUMBER_CLASSES]
    if not static or any(_is_dynamic_class(name, ctx.api, dynamic) for name in classes):
        return None
    if names_static_only_alias(classes_expr, frozenset(config.static_only_aliases)):
        return None  # `isinstance(x, IntWithoutSymInt)`: static numbers only, on purpose
    return classes_expr, static


def keep_legacy_branches(
    ctx: FunctionContext, config: ProxyTypesConfig, dynamic: DynamicClasses,
    positions: tuple[int, int] = (0, 1),
) -> None:
    """Migration mode: keep ``if isinstance(p, float):`` type-checked for a legacy proxy.

    Not a report: with its number base hidden, mypy would narrow a legacy
    ``FloatProxy`` inside the branch to an impossible type and check nothing
    there, so this runs in every module, exempt and hidden ones included.
    """
    checked = _static_classes_checked(ctx, config, dynamic, positions)
    if checked is None:
        return
    classes_expr, static = checked
    subject = ctx.arg_types[positions[0]][0]
    legacy = migrate.legacy_match(subject, static)
    if legacy is not None:
        migrate.keep_branch_checked(ctx.api, classes_expr, legacy.info)
        return
    # A NumberProxy may be a legacy FloatProxy, which passes the check through its
    # hidden float base: inside the branch it may still be a proxy (to be converted).
    migrated = migrate.migrated_member(subject, frozenset(config.migrate_classes))
    if migrated is not None:
        migrate.keep_branch_checked(ctx.api, classes_expr, migrated)


def check_isinstance_call(
    ctx: FunctionContext,
    function: str,
    config: ProxyTypesConfig,
    dynamic: DynamicClasses,
    positions: tuple[int, int] = (0, 1),
) -> None:
    """Report ``isinstance(x, int)`` when ``x`` may hold a dynamic number.

    ``positions`` are the indexes of the value and the classes parameters
    (an ``isinstance_functions`` wrapper may take them elsewhere).
    """
    checked = _static_classes_checked(ctx, config, dynamic, positions)
    if checked is None:
        return
    classes_expr, static = checked
    value_at = positions[0]
    subject = ctx.arg_types[value_at][0]
    if function == "issubclass":
        proper = get_proper_type(subject)
        if isinstance(proper, TypeType):
            subject = proper.item
        elif isinstance(proper, (CallableType, Overloaded)) and proper.is_type_obj():
            subject = proper.items[0].ret_type
        elif not config.strict_isinstance:
            return
    shown = tuple(static)
    if config.migrate_classes:
        legacy = migrate.legacy_match(subject, static)
        if legacy is not None:
            errors.true_through_legacy_base(ctx.api, ctx.context, function, shown,
                                            legacy.info.name, legacy.base.rpartition(".")[2])
            return
    value_expr = ctx.args[value_at][0]
    check = ctx.context if isinstance(ctx.context, Expression) else None
    found = dynamic_in_expression(
        ctx.api, None if function == "issubclass" else value_expr, dynamic, types=[subject],
        include_top=config.strict_isinstance, where=lambda info: _may_pass(info, static),
        python_types=accepted_python_types(static), check=check)
    if found is None and config.migrate_classes and config.strict_isinstance:
        hidden_behind = migrate.may_hide_legacy_proxy(subject)
        if hidden_behind is not None and not migrate.made_by_standard_library(ctx.api, value_expr) \
                and not narrowed_static(ctx.api, dynamic, value_expr, check):
            errors.may_be_legacy_proxy(ctx.api, ctx.context, function, shown, hidden_behind)
        return
    if found is None:
        return
    errors.misclassifying_isinstance(ctx.api, ctx.context, function, shown, found.name,
                                     reason=found.reason)


def accepted_python_types(static: list[str]) -> frozenset[str]:
    """The Python number types (``"int"``...) whose values pass a check against ``static``."""
    return frozenset(python_type for python_type, classes in _table.STATIC_CLASSES_OF.items()
                     if not set(classes).isdisjoint(static))


def _may_pass(info: TypeInfo, static: list[str]) -> bool:
    """False when the check is only against ``bool`` and ``info`` is no dynamic bool.

    ``not isinstance(n, bool)`` (excluding Python bools) sends a ``SymInt`` to the
    branch a plain int takes, so it misclassifies nothing.
    """
    if any(name != "builtins.bool" for name in static):
        return True
    return python_type_of(info) in ("bool", "number")


def python_type_of(info: TypeInfo) -> str:
    """"int", "float", "complex", "bool" or (unknown) "number" for a dynamic class."""
    for base in migrate.legacy_bases(info):
        if base in STATIC_BUILTIN_TYPES:
            return STATIC_BUILTIN_TYPES[base]
    for ancestor in info.mro:
        if ancestor.fullname in DYNAMIC_PYTHON_TYPES:
            return DYNAMIC_PYTHON_TYPES[ancestor.fullname]
    return "number"


def checked_classes(
    expr: Expression, typ: Type | None, api: CheckerPluginInterface
) -> list[str] | None:
    """Fully qualified names of the classes ``expr`` checks against; None if unknown."""
    if isinstance(expr, RefExpr):
        node = expr.node
        if isinstance(node, TypeInfo):
            return [node.fullname]
        if isinstance(node, TypeAlias):
            return _classes_of_type(node.target)
    if isinstance(expr, OpExpr) and expr.op == "|":
        left = checked_classes(expr.left, _lookup(api, expr.left), api)
        right = checked_classes(expr.right, _lookup(api, expr.right), api)
        return None if left is None or right is None else left + right
    if isinstance(expr, TupleExpr):
        proper = get_proper_type(typ) if typ is not None else None
        item_types: list[Type | None] = (
            list(proper.items) if isinstance(proper, TupleType)
            and len(proper.items) == len(expr.items) else [None] * len(expr.items)
        )
        names: list[str] = []
        for item, item_type in zip(expr.items, item_types):
            found = checked_classes(item, item_type, api)
            if found is None:
                return None
            names += found
        return names
    if typ is None:
        return None
    return _classes_of_value_type(typ)


def _classes_of_value_type(typ: Type) -> list[str] | None:
    proper = get_proper_type(typ)
    if isinstance(proper, (CallableType, Overloaded)) and proper.is_type_obj():
        return [proper.type_object().fullname]
    if isinstance(proper, TypeType):
        return _classes_of_type(proper.item)
    if isinstance(proper, TupleType):
        names: list[str] = []
        for item in proper.items:
            found = _classes_of_value_type(item)
            if found is None:
                return None
            names += found
        return names
    return None


def _classes_of_type(typ: Type) -> list[str] | None:
    proper = get_proper_type(typ)
    if isinstance(proper, Instance):
        return [proper.type.fullname]
    if isinstance(proper, UnionType):
        names: list[str] = []
        for item in proper.items:
            found = _classes_of_type(item)
            if found is None:
                return None
            names += found
        return names
    return None


def _lookup(api: CheckerPluginInterface, expr: Expression) -> Type | None:
    if isinstance(expr, (NameExpr, MemberExpr)) and isinstance(expr.node, TypeInfo):
        return None
    return compat.lookup_type_or_none(api, expr)


def _is_dynamic_class(fullname: str, api: CheckerPluginInterface, dynamic: DynamicClasses) -> bool:
    if fullname in dynamic.fullnames:
        return True
    modules = compat.checker_modules(api)
    module, _, name = fullname.rpartition(".")
    symbol = modules[module].names.get(name) if module in modules else None
    node = symbol.node if symbol is not None else None
    return isinstance(node, TypeInfo) and any(b.fullname in dynamic.fullnames for b in node.mro)
