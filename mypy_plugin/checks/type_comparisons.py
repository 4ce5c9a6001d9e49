"""proxy-isinstance for ``type(x) is int``, ``type(x) == float``, ``type(x) in (int, float)``.

The type of a dynamic number is never a static number class, so such a test
sends it down the "not a number" branch exactly like ``isinstance``.  No hook
sees an ``is`` comparison: the ``builtins.type`` function hook finds the
comparison its call stands in by walking the enclosing top-level statement
(each statement once per module tree, as the condition check does).
"""

from __future__ import annotations

from mypy.nodes import (
    ARG_POS,
    CallExpr,
    ComparisonExpr,
    Context,
    Expression,
    ListExpr,
    MypyFile,
    Node,
    SetExpr,
    TupleExpr,
)
from mypy.plugin import FunctionContext

from .. import errors
from ..analysis.context import current_file, gets_no_reports
from ..analysis.dynamic import DynamicClasses, dynamic_in_expression, expression_type
from ..config import ProxyTypesConfig
from ..constants import STATIC_NUMBER_CLASSES
from .comparisons import _children, _line_range
from .isinstance_calls import _is_dynamic_class, checked_classes
from .severity import python_type_of_value

#: Comparison operators that test a type's identity, and those that test membership.
_IDENTITY = frozenset({"is", "is not", "==", "!="})
_MEMBERSHIP = frozenset({"in", "not in"})
_NOT_CHILDREN = frozenset({"node", "info", "original_def", "impl", "def_or_infer_vars"})


class _Comparisons:
    """The comparisons of one module tree's top-level statements, collected on demand."""

    def __init__(self, tree: MypyFile) -> None:
        self.tree = tree
        self.statement_count = len(tree.defs)
        self.ranges = [_line_range(statement) for statement in tree.defs]
        self._by_statement: dict[int, list[ComparisonExpr]] = {}

    def holding(self, node: Context) -> list[ComparisonExpr]:
        found: list[ComparisonExpr] = []
        for index, (first, last) in enumerate(self.ranges):
            if first <= node.line <= last:
                found += self._of_statement(index)
        return found

    def _of_statement(self, index: int) -> list[ComparisonExpr]:
        known = self._by_statement.get(index)
        if known is None:
            known = self._by_statement[index] = []
            pending: list[Node] = [self.tree.defs[index]]
            seen: set[int] = set()
            while pending:
                current = pending.pop()
                if id(current) in seen:
                    continue
                seen.add(id(current))
                if isinstance(current, ComparisonExpr):
                    known.append(current)
                pending.extend(_children(current, _NOT_CHILDREN))
        return known


class TypeComparisons:
    """Per-module index of comparisons, rebuilt when mypy hands over a new tree."""

    def __init__(self) -> None:
        self._modules: dict[str, _Comparisons] = {}

    def operand_of(self, tree: MypyFile, call: CallExpr) -> tuple[ComparisonExpr, str, Expression] | None:
        """The comparison ``call`` is an operand of, its operator and the other operand."""
        module = self._modules.get(tree.fullname)
        if module is None or module.tree is not tree or module.statement_count != len(tree.defs):
            module = self._modules[tree.fullname] = _Comparisons(tree)
        for comparison in module.holding(call):
            operands = comparison.operands
            for index, operator in enumerate(comparison.operators):
                if operands[index] is call:
                    return comparison, operator, operands[index + 1]
                if operands[index + 1] is call and operator in _IDENTITY:
                    return comparison, operator, operands[index]
        return None


def check_type_call(
    ctx: FunctionContext,
    config: ProxyTypesConfig,
    dynamic: DynamicClasses,
    comparisons: TypeComparisons,
) -> None:
    """Report ``type(x)`` compared with static number classes when ``x`` may be dynamic."""
    call = ctx.context
    if not (isinstance(call, CallExpr) and call.arg_kinds == [ARG_POS]):
        return
    tree = current_file(ctx.api)
    if tree is None or gets_no_reports(ctx.api, config):
        return
    located = comparisons.operand_of(tree, call)
    if located is None:
        return
    comparison, operator, other = located
    classes = _compared_classes(ctx, operator, other)
    if not classes:
        return
    static = tuple(name for name in classes if name in STATIC_NUMBER_CLASSES)
    if not static or any(_is_dynamic_class(name, ctx.api, dynamic) for name in classes):
        return
    value = call.args[0]
    found = dynamic_in_expression(ctx.api, value, dynamic)
    if found is None and config.strict_isinstance:
        found = dynamic.describe(expression_type(ctx.api, value), include_top=True)
    if found is None:
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
