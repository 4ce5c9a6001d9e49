"""The classes a check names, and the Python type ("int", "float"...) a class stands for."""

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
    ProperType,
    TupleType,
    Type,
    TypeType,
    UnionType,
    get_proper_type,
)

from .. import _mypy_compat as compat
from ..config import ProxyTypesConfig
from ..constants import (
    DYNAMIC_PYTHON_TYPES,
    ISINSTANCE_FUNCTIONS,
    STATIC_BUILTIN_TYPES,
    STATIC_NUMBER_CLASSES,
    STATIC_PYTHON_TYPES,
)
from ..number_table import table as _table
from .dynamic import DynamicClasses, first_in_members
from .flow import names_static_only_alias
from .legacy import legacy_bases


def isinstance_functions(config: ProxyTypesConfig) -> dict[str, tuple[str, tuple[int, int]]]:
    """``isinstance``, ``issubclass`` and the configured wrappers of them, by fully qualified
    name: the function each stands for, and the positions of its value and its classes."""
    found = {name: (name.rpartition(".")[2], positions)
             for name, positions in config.isinstance_functions.items()}
    found.update({name: (function, (0, 1)) for name, function in ISINSTANCE_FUNCTIONS.items()})
    return found


def python_type_of(info: TypeInfo) -> str:
    """"int", "float", "complex", "bool" or (unknown) "number" for a dynamic class."""
    for base in legacy_bases(info):
        if base in STATIC_BUILTIN_TYPES:
            return STATIC_BUILTIN_TYPES[base]
    for ancestor in info.mro:
        if ancestor.fullname in DYNAMIC_PYTHON_TYPES:
            return DYNAMIC_PYTHON_TYPES[ancestor.fullname]
    return "number"


def python_type_of_value(typ: Type, dynamic: DynamicClasses) -> str:
    """The Python type ("int", "bool"...) a value of ``typ`` stands for; "number" if unknown.

    A dynamic member of a union decides (``int | SymFloat`` stands for a float
    when it is dynamic); else a static one, which is what a flow source
    (an ``int`` parameter of a traced function) is declared as.
    """
    def of_dynamic(proper: ProperType) -> str | None:
        if isinstance(proper, Instance) and any(
            base.fullname in dynamic.fullnames for base in proper.type.mro
        ):
            return python_type_of(proper.type)
        return None

    def of_static(proper: ProperType) -> str | None:
        if isinstance(proper, Instance):
            for base in proper.type.mro:
                found = STATIC_PYTHON_TYPES.get(base.fullname) or DYNAMIC_PYTHON_TYPES.get(
                    base.fullname)
                if found is not None:
                    return found
        return None

    return first_in_members(typ, of_dynamic) or first_in_members(typ, of_static) or "number"


def accepted_python_types(static: list[str]) -> frozenset[str]:
    """The Python number types (``"int"``...) whose values pass a check against ``static``."""
    return frozenset(python_type for python_type, classes in _table.STATIC_CLASSES_OF.items()
                     if not set(classes).isdisjoint(static))


def static_classes_checked(
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
    if not static or any(is_dynamic_class(name, ctx.api, dynamic) for name in classes):
        return None
    if names_static_only_alias(classes_expr, frozenset(config.static_only_aliases)):
        return None  # `isinstance(x, IntWithoutSymInt)`: static numbers only, on purpose
    return classes_expr, static


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


def is_dynamic_class(fullname: str, api: CheckerPluginInterface, dynamic: DynamicClasses) -> bool:
    if fullname in dynamic.fullnames:
        return True
    modules = compat.checker_modules(api)
    module, _, name = fullname.rpartition(".")
    symbol = modules[module].names.get(name) if module in modules else None
    node = symbol.node if symbol is not None else None
    return isinstance(node, TypeInfo) and any(b.fullname in dynamic.fullnames for b in node.mro)
