"""Builtins that use tensor sizes as Python values in traced code: ``len(t)``
(``analysis.sources_sinks.SIZE_SINK_FUNCTIONS``; builtin ``min``/``max`` over sizes
are not sinks, see there).

Only tensor sizes (a ``shape`` reason) under ``symbolic_shapes``, and only in code
a compiler runs (entry points and ``traced_functions``, as for the call-site
reports).  Each is a guard, not an error: reported as ``proxy-specialize``.
"""

from __future__ import annotations

from mypy.nodes import CallExpr
from mypy.plugin import FunctionContext

from .. import errors
from ..analysis.classes import isinstance_functions
from ..analysis.cross_call import call_site_env, in_traced_code
from ..analysis.dynamic import expression_type
from ..analysis.flow import _TENSOR_BASES, _has_base
from ..analysis.severity import value_read_outcome
from ..analysis.sources_sinks import SIZE_SINK_FUNCTIONS
from ..hooks import FUNCTION, Env, Hook, Shared


def _size_sinks(shared: Shared) -> frozenset[str]:
    """The builtins, unless the settings name one as a helper the plugin checks as such."""
    config = shared.config
    return frozenset(SIZE_SINK_FUNCTIONS) - frozenset(config.concretizing_functions) \
        - frozenset(isinstance_functions(config))


def _symbolic_shapes(shared: Shared) -> bool:
    return shared.config.symbolic_shapes


HOOKS = (Hook(FUNCTION, names=_size_sinks, when=_symbolic_shapes),)


def check(ctx: FunctionContext, env: Env) -> None:
    """Report ``len()`` of a tensor."""
    fullname = env.fullname
    sites = env.state(call_site_env)
    call = ctx.context
    flow = sites.flow
    if not isinstance(call, CallExpr) or flow is None or not flow.symbolic_shapes:
        return
    actuals = [actual for group in ctx.args for actual in group]
    if len(actuals) != 1 or not _has_base(expression_type(ctx.api, actuals[0], checked=True),
                                          _TENSOR_BASES):
        return
    found = flow.shape_flow(f"{_shown(actuals[0])}.shape", frozenset({0})).dynamic
    if not in_traced_code(ctx, sites):
        return
    outcome = value_read_outcome(found)
    if errors.code_of(outcome) is not None:
        errors.implicit_conversion(ctx.api, call, SIZE_SINK_FUNCTIONS[fullname], found.name,
                                   outcome=outcome, reason=found.reason)


def _shown(expr: object) -> str:
    name = getattr(expr, "name", None)
    return name if isinstance(name, str) else "..."
