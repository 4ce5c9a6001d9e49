"""proxy-concretize for conversions: ``float(p)``, ``math.sqrt(p)``, ``xs[p]``."""

from __future__ import annotations

from mypy.nodes import Context
from mypy.plugin import FunctionSigContext, MethodSigContext
from mypy.types import CallableType

from .. import errors
from ..analysis.context import gets_no_reports
from ..config import ProxyTypesConfig
from ..analysis.dynamic import DynamicClasses, dynamic_in_expression


def check_conversion(
    ctx: FunctionSigContext | MethodSigContext,
    operation: str,
    config: ProxyTypesConfig,
    dynamic: DynamicClasses,
) -> CallableType:
    """Report dynamic arguments of a concretizing call.

    The signature stays mypy's own: the plugin never changes what mypy infers or
    reports, so where the stubs give a proxy no conversion (``float()`` of an
    ``IntegerProxy``) mypy's own arg-type error stands next to the report.
    """
    signature = ctx.default_signature
    if gets_no_reports(ctx.api, config):
        return signature
    for formal, actuals in enumerate(ctx.args):
        if isinstance(ctx, MethodSigContext) and formal > 0:
            break  # only the index of xs[i] = v is converted, never the value
        for actual in actuals:
            found = dynamic_in_expression(ctx.api, actual, dynamic)
            if found is None:
                continue
            context: Context = actual if isinstance(ctx, FunctionSigContext) else ctx.context
            errors.implicit_conversion(ctx.api, context, operation, found.name)
    return signature
