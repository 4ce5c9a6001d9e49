"""proxy-concretize for conditions: ``if n >= 0:`` specializes on a traced value.

No mypy hook sees an ``if``.  Instead the top-level statement holding a
comparison with a dynamic operand is walked (once) to collect the spans of
expressions whose truth value Python asks for; the comparison-method hooks
report the comparison if it stands at one of those spans.
"""

from __future__ import annotations

import math

from mypy.nodes import (
    CallExpr,
    ComparisonExpr,
    FloatExpr,
    IntExpr,
    RefExpr,
    StrExpr,
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
    UnaryExpr,
    WhileStmt,
)
from mypy.plugin import MethodContext

from .. import errors
from ..analysis.context import current_file
from ..config import ProxyTypesConfig
from ..analysis.dynamic import (
    Dynamic,
    DynamicClasses,
    dynamic_in_expression,
    is_requirement,
    reads_of_value,
    repeats_a_guard,
)
from ..analysis.walk import StatementLines, everywhere, walk
from ..constants import TRUTH_TEST_OPERATION
from ..findings import Reason
from .severity import flows_may_be_reported, outcome_of

Span = tuple[int, int, int, int]


def _tested_spans(statement: Statement) -> frozenset[Span]:
    """The spans of every expression ``statement`` evaluates for its truth value."""
    spans: set[Span] = set()
    for node in walk(statement, everywhere):
        for condition in truth_tested_by(node):
            spans.update(span_of(expr) for expr in also_truth_tested(condition))
    return frozenset(spans)


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


def span_of(node: Context) -> Span:
    """Where ``node`` stands in its file: (line, column, end line, end column)."""
    return (node.line, node.column, node.end_line or -1, node.end_column or -1)


class _ModuleContexts:
    """One module's top-level statements with the spans found in each, walked on demand."""

    def __init__(self, tree: MypyFile) -> None:
        self.tree = tree
        # The statement list as walked (a daemon's merge of a new parse replaces it).
        self.defs = tree.defs
        self.count = len(tree.defs)
        self.lines = StatementLines(tree.defs)
        self._spans: dict[int, frozenset[Span]] = {}

    def statement_spans(self, index: int) -> frozenset[Span]:
        spans = self._spans.get(index)
        if spans is None:
            spans = self._spans[index] = _tested_spans(self.tree.defs[index])
        return spans


class BooleanContexts:
    """Per-module cache of boolean-context spans; rebuilt when the tree changes.

    Only the top-level statements whose lines hold the node asked about are walked
    (each once), not the whole module.  A node no statement's lines hold falls
    back to walking every statement.

    Speed trick: the walk was the comparison check's main cost. Measured: the
    comparison hooks 0.456 -> 0.124 s of a torch-refs profile (docs/performance.md).
    """

    def __init__(self) -> None:
        self._cache: dict[str, _ModuleContexts] = {}

    def is_tested(self, tree: MypyFile, node: Context) -> bool:
        """Whether Python tests ``node`` (an expression of ``tree``) for truth."""
        module = self._cache.get(tree.fullname)
        if module is None or module.tree is not tree or module.defs is not tree.defs \
                or module.count != len(tree.defs):
            module = self._cache[tree.fullname] = _ModuleContexts(tree)
        span = span_of(node)
        holders = module.lines.holding(node.line)
        if not holders:
            holders = list(range(len(module.lines.ranges)))
        return any(span in module.statement_spans(index) for index in holders)


def check_comparison(
    ctx: MethodContext,
    config: ProxyTypesConfig,
    dynamic: DynamicClasses,
    contexts: BooleanContexts,
) -> None:
    """Report a comparison with a dynamic operand that Python tests for truth."""
    tree = current_file(ctx.api)
    if tree is None:
        return
    operands = [ctx.type, *(arg_type for arg_types in ctx.arg_types for arg_type in arg_types)]
    comparison = ctx.context if isinstance(ctx.context, Expression) else None
    found = dynamic_in_expression(
        ctx.api, comparison, dynamic, types=operands,
        follow_flows=flows_may_be_reported(ctx.api, TRUTH_TEST_OPERATION, dynamic))
    if found is None:
        return
    if guards_only_a_range(comparison, found):
        return
    # A comparison's result stands for a bool, whatever the operands are.
    outcome = outcome_of(TRUTH_TEST_OPERATION, found, "bool")
    if errors.shown_code(ctx.api, outcome) is None:
        return  # first: the walks below only hold back a report nobody would see
    if comparison is not None and found.kind in GUARDING_KINDS \
            and repeats_a_guard(ctx.api, dynamic, comparison):
        return  # the guard an earlier `p == 1` installed answers this one
    if comparison is not None and found.kind in GUARDING_KINDS \
            and is_requirement(ctx.api, dynamic, comparison):
        # `if two != 2: raise`: where it passes, the value is 2 anyway;
        # `torch._check(n != 0)`: where it passes, a Ne guard, which pins nothing
        return
    if contexts.is_tested(tree, ctx.context):
        errors.dynamic_condition(ctx.api, ctx.context, found.name, outcome=outcome,
                                 reason=found.reason)
        return
    # `is_even = p % 2 == 0` ... `if not is_even:`: the test of the stored result.
    for read in reads_of_value(ctx.api, dynamic, comparison) if comparison is not None else ():
        if contexts.is_tested(tree, read):
            errors.dynamic_condition(ctx.api, read, found.name, outcome=outcome,
                                     reason=found.reason)


#: Kinds whose comparisons install a guard instead of returning a trace-time answer.
GUARDING_KINDS = frozenset({"torch", "guarded"})
#: Sources that make a value only maybe dynamic (its type says static).
_MAYBE_DYNAMIC = frozenset({"flow", "shape"})
#: Sizes torch specializes anyway (a symbolic size is assumed to be at least 2).
_SPECIALIZED_SIZES = frozenset({0, 1})


def guards_only_a_range(expr: Expression | None, found: Dynamic) -> bool:
    """True if testing ``expr`` for truth leaves the maybe-dynamic torch number ``found``
    symbolic: ``expr`` is a comparison of it that pins no value (see pins_a_value)."""
    if found.kind not in GUARDING_KINDS or found.reason.source not in _MAYBE_DYNAMIC:
        return False
    return not (isinstance(expr, ComparisonExpr) and pins_a_value(expr, found.reason))


def pins_a_value(comparison: ComparisonExpr, reason: Reason) -> bool:
    """True if ``comparison`` tests equality with a number literal.

    For a maybe-dynamic torch number only such a condition is worth a report: an
    order comparison installs a range guard and leaves the value symbolic, while
    ``n == 3`` (or ``!=``) taken at trace time pins the traced graph to one value.
    Tensor sizes compared with 0 or 1 are left out: torch specializes those anyway;
    so are the items of a sequence-of-int parameter (``output_size``, ``shape``).
    Sizes compared with a negative literal (the ``-1`` of "not given") are left out
    too: a size is at least 0 by its value range, so torch decides that with no guard.
    So is infinity: torch makes no infinite float symbolic, so the guard is a ``Ne``.
    """
    for operator, left, right in zip(comparison.operators, comparison.operands,
                                     comparison.operands[1:]):
        if operator not in ("==", "!="):
            continue
        for operand in (left, right):
            value = _literal_number(operand)
            if value is None:
                continue
            sizes = reason.source == "shape" or reason.sizes
            if sizes and (value in _SPECIALIZED_SIZES or value < 0) or math.isinf(value):
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
