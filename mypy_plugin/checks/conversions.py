"""proxy-concretize / proxy-specialize for conversions: ``float(p)``, ``math.sqrt(p)``, ``xs[p]``."""

from __future__ import annotations

from mypy.nodes import ComparisonExpr, Context, Expression, OpExpr, SliceExpr, StrExpr, UnaryExpr
from mypy.plugin import FunctionSigContext, MethodSigContext
from mypy.types import CallableType

from .. import errors
from ..config import ProxyTypesConfig
from ..analysis.dynamic import (
    Asked,
    DynamicClasses,
    dynamic_in_expression,
    expression_type,
    repeats_a_guard,
)
from ..constants import (
    FORMAT_OPERATION,
    INDEXING_METHODS,
    INDEXING_OPERATION,
    concretizing_operation,
)
from ..number_table import table as _table
from ..analysis.classes import python_type_of_value
from ..analysis.branches import built_only_on_failure
from ..analysis.kinds import GUARDING_KINDS, Dynamic
from ..analysis.tracers import failing_tracers
from ..analysis.severity import (
    flows_may_be_reported,
    guards_only_a_range,
    most_serious_outcome,
    outcome_of,
)
from ..hooks import FUNCTION_SIGNATURE, METHOD_SIGNATURE, Env, Hook

#: Conversions that do not presume a number: ``bool(x)`` of an unannotated ``x``.
_TRUTH_TESTS = frozenset({"bool()", "operator.truth()", "operator.not_()"})


def check_conversion(
    ctx: FunctionSigContext | MethodSigContext,
    operation: str,
    config: ProxyTypesConfig,
    dynamic: DynamicClasses,
    table_operation: str,
) -> CallableType:
    """Report dynamic arguments of a converting call, by what the conversion does.

    ``operation`` is how the code spells the call (``float()``, ``indexing list``),
    ``table_operation`` the table's name for it (``builtins.float``, ``indexing``).
    The signature stays mypy's own: the plugin never changes what mypy infers or
    reports, so where the stubs give a proxy no conversion (``float()`` of an
    ``IntegerProxy``) mypy's own arg-type error stands next to the report.
    """
    signature = ctx.default_signature
    converts = _table.conversion(table_operation)
    format_spec = converts is not None and converts.dunder == FORMAT_OPERATION and (
        _has_format_spec(ctx))
    follow_flows = flows_may_be_reported(ctx.api, table_operation, dynamic,
                                         format_spec=format_spec)
    # str(x) and format(x) take any object, as a truth test does.
    presumes_number = operation not in _TRUTH_TESTS and not (
        converts is not None and converts.result == "str" and not format_spec)
    for formal, actuals in enumerate(ctx.args):
        if formal > 0 and (isinstance(ctx, MethodSigContext) or format_spec):
            break  # only the index of xs[i] = v is converted, never the value; nor a spec
        for actual in actuals:
            found = dynamic_in_expression(ctx.api, actual, dynamic, Asked(
                presumes_number=presumes_number, follow_flows=follow_flows))
            if found is None or (isinstance(actual, ComparisonExpr)
                                 and guards_only_a_range(actual, found)):
                continue  # `bool(step > 0)`: a range guard, as in a condition
            converted = _converted_part(ctx, actual, dynamic)
            python_type = python_type_of_value(expression_type(ctx.api, converted), dynamic)
            if python_type == "number" and _is_arithmetic(converted):
                # `math.ceil(n / k)` with `k: Any`: a sum or quotient is no bool, so the
                # bool column (SymBool has no __ceil__) does not apply
                outcome = most_serious_outcome(table_operation, found, _ARITHMETIC_RESULTS,
                                               format_spec=format_spec)
            else:
                outcome = outcome_of(table_operation, found, python_type,
                                     format_spec=format_spec)
            if errors.shown_code(ctx.api, outcome) is None:
                continue  # before the walk below, which only holds back reports
            if found.kind in GUARDING_KINDS and isinstance(ctx.context, Expression) \
                    and repeats_a_guard(ctx.api, dynamic, ctx.context):
                continue  # a second `int(s)`: the first one's guard answers it
            context: Context = actual if isinstance(ctx, FunctionSigContext) else ctx.context
            if converts is not None and converts.result == "str" and not format_spec:
                _report_text(ctx, context, operation, found, outcome,
                             failing_tracers(table_operation, found, config))
                continue
            errors.implicit_conversion(ctx.api, context, operation, found.name,
                                       outcome=outcome, reason=found.reason)
    return signature


def _report_text(ctx: FunctionSigContext | MethodSigContext, context: Context, operation: str,
                 found: Dynamic, outcome: str, tracers: tuple[str, ...] | None) -> None:
    """``str(n)``, ``format(n)``: text of a SymInt, which only torch.compile needs the
    value of; never when the call builds an assert's message or a raised exception."""
    if isinstance(ctx.context, Expression) and built_only_on_failure(ctx.api, ctx.context):
        return
    errors.formatted_text(ctx.api, context, operation, found.name, outcome=outcome,
                          reason=found.reason, tracers=tracers)


#: What arithmetic on numbers gives: never a bool (``True + True`` is 2).
_ARITHMETIC_RESULTS = ("int", "float", "complex")
_ARITHMETIC_OPERATORS = frozenset({"+", "-", "*", "/", "//", "%", "**", "@"})


def _is_arithmetic(expr: Expression) -> bool:
    return (isinstance(expr, OpExpr) and expr.op in _ARITHMETIC_OPERATORS) or (
        isinstance(expr, UnaryExpr) and expr.op in ("-", "+"))


def _has_format_spec(ctx: FunctionSigContext | MethodSigContext) -> bool:
    """``format(p, spec)`` with a spec other than the literal ``""``."""
    if len(ctx.args) < 2 or not ctx.args[1]:
        return False
    spec: Expression = ctx.args[1][0]
    return not (isinstance(spec, StrExpr) and spec.value == "")


def _converted_part(
    ctx: FunctionSigContext | MethodSigContext, actual: Expression, dynamic: DynamicClasses
) -> Expression:
    """The expression whose value is converted: for ``xs[a:b]``, the dynamic bound."""
    if not isinstance(actual, SliceExpr):
        return actual
    parts = [part for part in (actual.begin_index, actual.end_index, actual.stride)
             if part is not None]
    return next((part for part in parts if dynamic_in_expression(ctx.api, part, dynamic)),
                actual)


#: Converting calls (``float(p)``, ``math.sqrt(p)``: any the table names) and indexing of
#: builtin sequences (``xs[p]``).
HOOKS = (
    Hook(FUNCTION_SIGNATURE, matches=lambda fullname: concretizing_operation(fullname) is not None),
    Hook(METHOD_SIGNATURE, names=INDEXING_METHODS),
)


def check(ctx: FunctionSigContext | MethodSigContext, env: Env) -> CallableType:
    if isinstance(ctx, MethodSigContext):
        return check_conversion(ctx, INDEXING_METHODS[env.fullname], env.config, env.dynamic,
                                INDEXING_OPERATION)
    operation = concretizing_operation(env.fullname)
    assert operation is not None  # the hook's names
    return check_conversion(ctx, operation, env.config, env.dynamic, env.fullname)
