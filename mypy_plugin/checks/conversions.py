"""proxy-concretize for conversions: ``float(p)``, ``math.sqrt(p)``, ``xs[p]``."""

from __future__ import annotations

from mypy.nodes import Context
from mypy.plugin import FunctionSigContext, MethodSigContext
from mypy.types import AnyType, CallableType, Type, TypeOfAny

from .. import errors
from ..analysis.context import gets_no_reports
from ..config import ProxyTypesConfig
from ..analysis.dynamic import DynamicClasses, dynamic_in_expression


#: Sources whose values mypy types as static numbers.
_TYPED_STATIC = frozenset({"flow", "shape"})


def check_conversion(
    ctx: FunctionSigContext | MethodSigContext,
    operation: str,
    config: ProxyTypesConfig,
    dynamic: DynamicClasses,
) -> CallableType:
    """Report dynamic arguments of a concretizing call.

    The reported parameters are widened to ``Any`` so mypy does not add a second,
    vaguer error (such as "no overload matches") at the same place.
    """
    signature = ctx.default_signature
    if gets_no_reports(ctx.api, config):
        # Also leaves the signature as plain mypy has it in installed libraries.
        return signature
    arg_types: list[Type] = list(signature.arg_types)
    changed = False
    for formal, actuals in enumerate(ctx.args):
        if isinstance(ctx, MethodSigContext) and formal > 0:
            break  # only the index of xs[i] = v is converted, never the value
        for actual in actuals:
            found = dynamic_in_expression(ctx.api, actual, dynamic)
            if found is None:
                continue
            context: Context = actual if isinstance(ctx, FunctionSigContext) else ctx.context
            errors.implicit_conversion(ctx.api, context, operation, found.name,
                                       reason=found.reason)
            if found.reason.source in _TYPED_STATIC:
                continue  # mypy accepts the static type it has: no vaguer error to replace
            if formal < len(arg_types):
                arg_types[formal] = AnyType(TypeOfAny.special_form)
                changed = True
    return signature.copy_modified(arg_types=arg_types) if changed else signature
