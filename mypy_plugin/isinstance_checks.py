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

from . import errors
from .config import ProxyTypesConfig
from .constants import STATIC_NUMBER_CLASSES
from .dynamic import DynamicClasses
from .checker_context import current_module


def check_isinstance_call(
    ctx: FunctionContext, function: str, config: ProxyTypesConfig, dynamic: DynamicClasses
) -> None:
    """Report ``isinstance(x, int)`` when ``x`` may hold a dynamic number."""
    if len(ctx.args) < 2 or len(ctx.args[0]) != 1 or len(ctx.args[1]) != 1:
        return
    if config.is_exempt(current_module(ctx.api)):
        return
    classes = checked_classes(ctx.args[1][0], ctx.arg_types[1][0], ctx.api)
    if not classes:
        return
    static = [name for name in classes if name in STATIC_NUMBER_CLASSES]
    if not static or any(_is_dynamic_class(name, ctx.api, dynamic) for name in classes):
        return
    subject = ctx.arg_types[0][0]
    if function == "issubclass":
        proper = get_proper_type(subject)
        if isinstance(proper, TypeType):
            subject = proper.item
        elif isinstance(proper, (CallableType, Overloaded)) and proper.is_type_obj():
            subject = proper.items[0].ret_type
        elif not config.strict_isinstance:
            return
    found = dynamic.class_name(subject, include_top=config.strict_isinstance)
    if found is None:
        return
    shown = ", ".join(name.rpartition(".")[2] if name.startswith("builtins.") else name
                      for name in static)
    errors.misclassifying_isinstance(ctx.api, ctx.context, function, shown, found)


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
    lookup = getattr(api, "lookup_type_or_none", None)
    if lookup is None:
        return None
    found = lookup(expr)
    return found if isinstance(found, Type) else None


def _is_dynamic_class(fullname: str, api: CheckerPluginInterface, dynamic: DynamicClasses) -> bool:
    if fullname in dynamic.fullnames:
        return True
    modules = getattr(api, "modules", {})
    module, _, name = fullname.rpartition(".")
    symbol = modules[module].names.get(name) if module in modules else None
    node = symbol.node if symbol is not None else None
    return isinstance(node, TypeInfo) and any(b.fullname in dynamic.fullnames for b in node.mro)
