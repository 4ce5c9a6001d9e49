"""proxy-concretize for conditions: ``if n >= 0:`` specializes on a traced value.

No mypy hook sees an ``if``.  Instead the top-level statement holding a
comparison with a dynamic operand is walked (once) to collect the spans of
expressions whose truth value Python asks for; the comparison-method hooks
report the comparison if it stands at one of those spans.
"""

from __future__ import annotations

import math
import sys

from mypy.nodes import (
    Argument,
    Block,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    RefExpr,
    StrExpr,
    FloatExpr,
    IntExpr,
    Node,
    Statement,
    AssertStmt,
    ConditionalExpr,
    Context,
    DictionaryComprehension,
    Expression,
    GeneratorExpr,
    IfStmt,
    MatchStmt,
    MypyFile,
    OpExpr,
    OverloadedFuncDef,
    UnaryExpr,
    WhileStmt,
)
from mypy.plugin import MethodContext

from .. import errors
from ..analysis.context import current_file, gets_no_reports
from ..config import ProxyTypesConfig
from ..analysis.dynamic import DynamicClasses, dynamic_in_expression, reads_of_value
from ..findings import Reason

Span = tuple[int, int, int, int]


class _BooleanContextCollector:
    """Collects the spans of expressions evaluated for their truth value.

    A hand-written walk: compiled mypy refuses interpreted subclasses of its
    ``TraverserVisitor`` trait.
    """

    # Attributes that point back into the symbol graph rather than down the tree.
    _NOT_CHILDREN = frozenset({"node", "info", "original_def", "impl", "def_or_infer_vars"})

    def __init__(self) -> None:
        self.spans: set[Span] = set()
        self._seen: set[int] = set()

    def walk(self, node: Node) -> None:
        pending: list[Node] = [node]
        while pending:
            current = pending.pop()
            if id(current) in self._seen:
                continue
            self._seen.add(id(current))
            self._mark_conditions_of(current)
            pending.extend(_children(current, self._NOT_CHILDREN))

    def _mark_conditions_of(self, node: Node) -> None:
        for condition in truth_tested_by(node):
            self.spans.update(span_of(expr) for expr in also_truth_tested(condition))


def truth_tested_by(node: Node) -> list[Expression]:
    """The expressions whose truth value ``node`` itself asks for."""
    if isinstance(node, IfStmt):
        return list(node.expr)
    if isinstance(node, (WhileStmt, AssertStmt)):
        return [node.expr]
    if isinstance(node, MatchStmt):
        return [guard for guard in node.guards if guard is not None]
    if isinstance(node, ConditionalExpr):
        return [node.cond]
    if isinstance(node, OpExpr) and node.op in ("and", "or"):
        # `a and b` always tests `a`; `b` only when the whole is tested.
        return [node.left]
    if isinstance(node, UnaryExpr) and node.op == "not":
        return [node.expr]
    if isinstance(node, (GeneratorExpr, DictionaryComprehension)):
        return [c for group in node.condlists for c in group]
    return []


def also_truth_tested(expr: Expression) -> list[Expression]:
    """``expr`` plus the operands whose truth its own truth test asks for."""
    if isinstance(expr, OpExpr) and expr.op in ("and", "or"):
        return [expr, *also_truth_tested(expr.right)]
    if isinstance(expr, UnaryExpr) and expr.op == "not":
        return [expr, *also_truth_tested(expr.expr)]
    return [expr]


def _attribute_names(cls: type) -> list[str]:
    compiled = getattr(cls, "__mypyc_attrs__", None)
    if compiled is not None:
        return [name for name in compiled if not name.startswith("_")]
    names: list[str] = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    return [name for name in names if not name.startswith("_")]


_TREE_NODES = (Statement, Expression, Block, Argument)
# Child attribute names per node class: computing them per node was most of the walk.
_child_attributes: dict[tuple[type, frozenset[str]], list[str]] = {}


def _children(node: Node, skip: frozenset[str]) -> list[Node]:
    found: list[Node] = []
    key = (type(node), skip)
    names = _child_attributes.get(key)
    if names is None:
        names = [name for name in _attribute_names(type(node)) if name not in skip]
        _child_attributes[key] = names
    for name in names:
        value = getattr(node, name, None)
        if not isinstance(value, (list, tuple)):  # most attributes: no list to unpack
            if isinstance(value, _TREE_NODES):
                found.append(value)
            continue
        stack: list[object] = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, _TREE_NODES):
                found.append(item)
            elif isinstance(item, (list, tuple)):
                stack.extend(item)
    return found


def span_of(node: Context) -> Span:
    """Where ``node`` stands in its file: (line, column, end line, end column)."""
    return (node.line, node.column, node.end_line or -1, node.end_column or -1)


def _line_range(statement: Statement) -> tuple[int, int]:
    """First and last line of a top-level statement, decorators included.

    A statement without an end line is taken to run to the end of the file.
    """
    if isinstance(statement, OverloadedFuncDef) and statement.items:
        parts: list[Statement] = [*statement.items]
        if statement.impl is not None:
            parts.append(statement.impl)
        ranges = [_line_range(part) for part in parts]
        return min(first for first, _ in ranges), max(last for _, last in ranges)
    first = statement.line
    if isinstance(statement, ClassDef) and statement.decorators:
        first = min(first, *(decorator.line for decorator in statement.decorators))
    last = statement.end_line if statement.end_line is not None else sys.maxsize
    return first, last


class _ModuleContexts:
    """One module's top-level statements with the spans found in each, walked on demand."""

    def __init__(self, tree: MypyFile, fingerprint: int) -> None:
        self.tree = tree
        self.fingerprint = fingerprint
        self.ranges = [_line_range(statement) for statement in tree.defs]
        self._spans: dict[int, frozenset[Span]] = {}

    def statement_spans(self, index: int) -> frozenset[Span]:
        spans = self._spans.get(index)
        if spans is None:
            collector = _BooleanContextCollector()
            collector.walk(self.tree.defs[index])
            spans = self._spans[index] = frozenset(collector.spans)
        return spans


class BooleanContexts:
    """Per-module cache of boolean-context spans; rebuilt when the tree changes.

    Only the top-level statements whose lines hold the node asked about are walked
    (each once), not the whole module: the walk was the comparison check's main
    cost.  A node no statement's lines hold falls back to walking every statement.
    """

    def __init__(self) -> None:
        self._cache: dict[str, _ModuleContexts] = {}

    def is_tested(self, tree: MypyFile, node: Context) -> bool:
        """Whether Python tests ``node`` (an expression of ``tree``) for truth."""
        fingerprint = hash(tuple(span_of(d) for d in tree.defs))
        module = self._cache.get(tree.fullname)
        if module is None or module.tree is not tree or module.fingerprint != fingerprint:
            module = self._cache[tree.fullname] = _ModuleContexts(tree, fingerprint)
        span = span_of(node)
        holders = [index for index, (first, last) in enumerate(module.ranges)
                   if first <= node.line <= last]
        if not holders:
            holders = list(range(len(module.ranges)))
        return any(span in module.statement_spans(index) for index in holders)


def check_comparison(
    ctx: MethodContext,
    config: ProxyTypesConfig,
    dynamic: DynamicClasses,
    contexts: BooleanContexts,
) -> None:
    """Report a comparison with a dynamic operand that Python tests for truth."""
    tree = current_file(ctx.api)
    if tree is None or gets_no_reports(ctx.api, config):
        return
    operands = [ctx.type, *(arg_type for arg_types in ctx.arg_types for arg_type in arg_types)]
    comparison = ctx.context if isinstance(ctx.context, Expression) else None
    found = dynamic_in_expression(ctx.api, comparison, dynamic, types=operands)
    if found is None:
        return
    if found.kind in _GUARDING_KINDS and found.reason.source in _MAYBE_DYNAMIC and not (
            isinstance(comparison, ComparisonExpr) and pins_a_value(comparison, found.reason)):
        return
    if contexts.is_tested(tree, ctx.context):
        errors.dynamic_condition(ctx.api, ctx.context, found.name, reason=found.reason)
        return
    # `is_even = p % 2 == 0` ... `if not is_even:`: the test of the stored result.
    for read in reads_of_value(ctx.api, dynamic, comparison) if comparison is not None else ():
        if contexts.is_tested(tree, read):
            errors.dynamic_condition(ctx.api, read, found.name, reason=found.reason)


#: Kinds whose comparisons install a guard instead of returning a trace-time answer.
_GUARDING_KINDS = frozenset({"torch", "guarded"})
#: Sources that make a value only maybe dynamic (its type says static).
_MAYBE_DYNAMIC = frozenset({"flow", "shape"})
#: Sizes torch specializes anyway (a symbolic size is assumed to be at least 2).
_SPECIALIZED_SIZES = frozenset({0, 1})


def pins_a_value(comparison: ComparisonExpr, reason: Reason) -> bool:
    """True if ``comparison`` tests equality with a number literal.

    For a maybe-dynamic torch number only such a condition is worth a report: an
    order comparison installs a range guard and leaves the value symbolic, while
    ``n == 3`` (or ``!=``) taken at trace time pins the traced graph to one value.
    Tensor sizes compared with 0 or 1 are left out: torch specializes those anyway.
    """
    for operator, left, right in zip(comparison.operators, comparison.operands,
                                     comparison.operands[1:]):
        if operator not in ("==", "!="):
            continue
        for operand in (left, right):
            value = _literal_number(operand)
            if value is None:
                continue
            if reason.source == "shape" and value in _SPECIALIZED_SIZES:
                continue
            return True
    return False


def _literal_number(expr: Expression) -> float | None:
    """The value of ``3``, ``-1.5``, ``float("inf")`` or ``math.inf``; None for others."""
    sign = 1
    if isinstance(expr, UnaryExpr) and expr.op == "-":
        sign, expr = -1, expr.expr
    if isinstance(expr, (IntExpr, FloatExpr)):
        return sign * expr.value
    if (isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr)
            and expr.callee.fullname == "builtins.float" and len(expr.args) == 1
            and isinstance(expr.args[0], StrExpr)):
        try:
            return sign * float(expr.args[0].value)
        except ValueError:
            return None
    if isinstance(expr, RefExpr) and expr.fullname in _MATH_CONSTANTS:
        return sign * _MATH_CONSTANTS[expr.fullname]
    return None


_MATH_CONSTANTS = {"math.inf": math.inf, "math.pi": math.pi, "math.e": math.e}
