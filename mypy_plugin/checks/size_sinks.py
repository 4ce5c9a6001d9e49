"""Builtins that use tensor sizes as Python values in traced code: ``len(t)``,
``min(a, b)``/``max(a, b)`` over sizes (``analysis.sources_sinks.SIZE_SINK_FUNCTIONS``).

Only tensor sizes (a ``shape`` reason) under ``symbolic_shapes``, and only in code
a compiler runs (entry points and ``traced_functions``, as for the call-site
reports).  Each is a guard, not an error: reported as ``proxy-specialize``.
"""

from __future__ import annotations

from mypy.nodes import CallExpr
from mypy.plugin import FunctionContext

from .. import errors
from ..analysis.dynamic import Dynamic, dynamic_in_expression, expression_type
from ..analysis.flow import _TENSOR_BASES, _has_base
from ..analysis.sources_sinks import SIZE_SINK_FUNCTIONS
from .call_sites import CallSiteEnv, in_traced_code
from .severity import value_read_outcome

#: The hooks this check runs under.
HOOKS = {"function": tuple(SIZE_SINK_FUNCTIONS)}


def check(ctx: FunctionContext, env: CallSiteEnv, fullname: str) -> None:
    """Report ``len()`` of a tensor, or ``min``/``max`` over a maybe-dynamic size."""
    call = ctx.context
    flow = env.flow
    if not isinstance(call, CallExpr) or flow is None or not flow.symbolic_shapes:
        return
    actuals = [actual for group in ctx.args for actual in group]
    if fullname == "builtins.len":
        if len(actuals) != 1 or not _has_base(expression_type(ctx.api, actuals[0], checked=True),
                                              _TENSOR_BASES):
            return
        found: Dynamic | None = flow.shape_flow(f"{_shown(actuals[0])}.shape",
                                                frozenset({0})).dynamic
    else:
        found = None
        # min(sizes): the items of one iterable argument count (``check`` asks for them)
        items_of = call if len(actuals) == 1 else None
        for actual in actuals:
            found = found or dynamic_in_expression(ctx.api, actual, env.dynamic, checked=True,
                                                   check=items_of)
        if found is not None and found.reason.source != "shape":
            return  # tensor sizes only: a traced function's int parameters are often static
    if found is None or not in_traced_code(ctx, env):
        return
    outcome = value_read_outcome(found)
    if errors.code_of(outcome) is not None:
        errors.implicit_conversion(ctx.api, call, SIZE_SINK_FUNCTIONS[fullname], found.name,
                                   outcome=outcome, reason=found.reason)


def _shown(expr: object) -> str:
    name = getattr(expr, "name", None)
    return name if isinstance(name, str) else "..."
