"""Calls of Python's ``random`` module in traced code (``random.random()``,
``random.uniform(a, b)``, ``from random import random``, methods of a ``random.Random``),
and of numpy's (``np.random.rand()``, ``np.random.default_rng().random()``):
``analysis.sources_sinks.RANDOM_FUNCTIONS`` and ``RANDOM_METHODS``.

Under ``symbolic_shapes``, in code a compiler runs (entry points and ``traced_functions``,
outside eager-only branches), as for the size sinks.  No dynamic number is involved: the
value is drawn once at trace time and baked in, like a specialization, so it is reported
as ``proxy-specialize``.
"""

from __future__ import annotations

from mypy.nodes import CallExpr
from mypy.plugin import FunctionContext, MethodContext

from .. import errors
from ..analysis.cross_call import call_site_env, in_traced_code
from ..analysis.sources_sinks import RANDOM_FUNCTIONS, RANDOM_METHODS
from ..hooks import FUNCTION, METHOD, Env, Hook, Shared


#: How a report names the call: the module path a user writes, not mypy's.
_SHOWN_PREFIXES = (
    ("numpy.random.mtrand.RandomState.", "RandomState."),
    ("numpy.random._generator.Generator.", "Generator."),
    ("numpy.random.mtrand.", "np.random."),
    ("random.", ""),
)


def shown_name(fullname: str) -> str:
    """``random.uniform`` -> ``uniform``, ``numpy.random.mtrand.rand`` -> ``np.random.rand``."""
    for prefix, shown in _SHOWN_PREFIXES:
        if fullname.startswith(prefix):
            return shown + fullname[len(prefix):]
    return fullname


def _symbolic_shapes(shared: Shared) -> bool:
    return shared.config.symbolic_shapes


HOOKS = (
    Hook(FUNCTION, names=RANDOM_FUNCTIONS, when=_symbolic_shapes),
    Hook(METHOD, names=RANDOM_METHODS, when=_symbolic_shapes),
)


def check(ctx: FunctionContext | MethodContext, env: Env) -> None:
    if not isinstance(ctx.context, CallExpr):
        return
    if errors.shown_code(ctx.api, "breaks") is None:  # proxy-specialize off here: skip the walk
        return
    if not in_traced_code(ctx, env.state(call_site_env)):
        return
    errors.random_call(ctx.api, ctx.context, shown_name(env.fullname))
