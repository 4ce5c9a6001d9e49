"""proxy-isinstance for ``type(x) is int``, ``type(x) == float``, ``type(x) in (int, float)``.

The type of a dynamic number is never a static number class, so such a test
sends it down the "not a number" branch exactly like ``isinstance``.  No hook
sees an ``is`` comparison: the ``builtins.type`` function hook finds the
comparison its call stands in by walking the innermost function around it, or
outside functions the module's top-level statements, once the value is found dynamic.
"""

from __future__ import annotations

from collections.abc import Sequence

from mypy.nodes import (
    ARG_POS,
    CallExpr,
    ComparisonExpr,
    Expression,
    ListExpr,
    SetExpr,
    Statement,
    TupleExpr,
)
from mypy.plugin import FunctionContext

from .. import _mypy_compat as compat
from .. import errors
from ..analysis.context import current_module
from ..analysis.dynamic import (
    DynamicClasses,
    dynamic_in_expression,
    expression_type,
)
from ..config import ProxyTypesConfig
from ..analysis.walk import everywhere, walk
from ..constants import STATIC_NUMBER_CLASSES, TYPE_FUNCTION
from ..analysis.classes import checked_classes, is_dynamic_class, python_type_of_value
from ..hooks import FUNCTION, Env, Hook

#: Comparison operators that test a type's identity, and those that test membership.
_IDENTITY = frozenset({"is", "is not", "==", "!="})
_MEMBERSHIP = frozenset({"in", "not in"})


def _comparison_of(
    call: CallExpr, statements: Sequence[Statement]
) -> tuple[ComparisonExpr, str, Expression] | None:
    """The comparison in ``statements`` that ``call`` is an operand of, its operator and
    the other operand (a call on the right only for identity tests)."""
    for statement in statements:
        for node in walk(statement, everywhere):
            if not isinstance(node, ComparisonExpr):
                continue
            operands = node.operands
            for position, operator in enumerate(node.operators):
                left, right = operands[position], operands[position + 1]
                if left is call:
                    return node, operator, right
                if right is call and operator in _IDENTITY:
                    return node, operator, left
    return None


def check_type_call(
    ctx: FunctionContext,
    config: ProxyTypesConfig,
    dynamic: DynamicClasses,
) -> None:
    """Report ``type(x)`` compared with static number classes when ``x`` may be dynamic."""
    call = ctx.context
    if not (isinstance(call, CallExpr) and call.arg_kinds == [ARG_POS]):
        return
    tree = current_module(ctx.api)
    if tree is None:
        return
    # The value first: most type() calls see no dynamic number, and the walk that
    # finds the comparison costs more than inferring the value's type again.
    value = call.args[0]
    found = dynamic_in_expression(ctx.api, value, dynamic)
    if found is None and config.strict_isinstance:
        found = dynamic.describe(expression_type(ctx.api, value),
                                 include_top=True)
    if found is None:
        return
    functions = compat.enclosing_functions(ctx.api)
    located = _comparison_of(call, [functions[-1]] if functions else tree.defs)
    if located is None:
        return
    comparison, operator, other = located
    classes = _compared_classes(ctx, operator, other)
    if not classes:
        return
    static = tuple(name for name in classes if name in STATIC_NUMBER_CLASSES)
    if not static or any(is_dynamic_class(name, ctx.api, dynamic) for name in classes):
        return
    if all(name == "builtins.bool" for name in static) and python_type_of_value(
        expression_type(ctx.api, value), dynamic
    ) not in ("bool", "number"):
        return  # `type(n) is bool` answers right for a dynamic int
    errors.static_type_comparison(ctx.api, comparison, f"type() {operator}", static,
                                  found.name, reason=found.reason)


def _compared_classes(ctx: FunctionContext, operator: str, other: Expression) -> list[str] | None:
    if operator in _IDENTITY:
        return checked_classes(other, None, ctx.api)
    if operator in _MEMBERSHIP and isinstance(other, (TupleExpr, ListExpr, SetExpr)):
        names: list[str] = []
        for item in other.items:
            found = checked_classes(item, None, ctx.api)
            if found is None:
                return None
            names += found
        return names
    return None


HOOKS = (Hook(FUNCTION, names={TYPE_FUNCTION}),)


def check(ctx: FunctionContext, env: Env) -> None:
    check_type_call(ctx, env.config, env.dynamic)
