"""proxy-isinstance: isinstance/issubclass against static number classes only."""

from __future__ import annotations

from mypy.nodes import Expression, TypeInfo
from mypy.plugin import FunctionContext
from mypy.types import CallableType, Overloaded, TypeType, get_proper_type

from .. import errors
from ..analysis import legacy
from ..analysis.classes import (
    accepted_python_types,
    isinstance_functions,
    python_type_of,
    static_classes_checked,
)
from ..analysis.dynamic import Asked, DynamicClasses, dynamic_in_expression, narrowed_static
from ..analysis.sources_sinks import ISINSTANCE
from ..analysis.tracers import failing_tracers
from ..config import ProxyTypesConfig
from ..hooks import FUNCTION, Env, Hook


def check_isinstance_call(
    ctx: FunctionContext,
    function: str,
    config: ProxyTypesConfig,
    dynamic: DynamicClasses,
    positions: tuple[int, int] = (0, 1),
) -> None:
    """Report ``isinstance(x, int)`` when ``x`` may hold a dynamic number.

    ``positions`` are the indexes of the value and the classes parameters
    (an ``isinstance_functions`` wrapper may take them elsewhere).
    """
    checked = static_classes_checked(ctx, config, dynamic, positions)
    if checked is None:
        return
    classes_expr, static = checked
    value_at = positions[0]
    subject = ctx.arg_types[value_at][0]
    if function == "issubclass":
        proper = get_proper_type(subject)
        if isinstance(proper, TypeType):
            subject = proper.item
        elif isinstance(proper, (CallableType, Overloaded)) and proper.is_type_obj():
            subject = proper.items[0].ret_type
        elif not config.strict_isinstance:
            return
    shown = tuple(static)
    if config.migrate_classes:
        match = legacy.legacy_match(subject, static)
        if match is not None:
            errors.true_through_legacy_base(ctx.api, ctx.context, function, shown,
                                            match.info.name, match.base.rpartition(".")[2])
            return
    value_expr = ctx.args[value_at][0]
    check = ctx.context if isinstance(ctx.context, Expression) else None
    found = dynamic_in_expression(
        ctx.api, None if function == "issubclass" else value_expr, dynamic, Asked(
            types=[subject], include_top=config.strict_isinstance,
            where=lambda info: _may_pass(info, static),
            python_types=accepted_python_types(static), check=check))
    if found is None and config.migrate_classes and config.strict_isinstance:
        hidden_behind = legacy.may_hide_legacy_proxy(subject)
        if hidden_behind is not None and not legacy.made_by_standard_library(ctx.api, value_expr) \
                and not narrowed_static(ctx.api, dynamic, value_expr, check):
            errors.may_be_legacy_proxy(ctx.api, ctx.context, function, shown, hidden_behind)
        return
    if found is None:
        return
    errors.misclassifying_isinstance(ctx.api, ctx.context, function, shown, found.name,
                                     reason=found.reason,
                                     tracers=failing_tracers(ISINSTANCE, found, config))


def _may_pass(info: TypeInfo, static: list[str]) -> bool:
    """False when the check is only against ``bool`` and ``info`` is no dynamic bool.

    ``not isinstance(n, bool)`` (excluding Python bools) sends a ``SymInt`` to the
    branch a plain int takes, so it misclassifies nothing.
    """
    if any(name != "builtins.bool" for name in static):
        return True
    return python_type_of(info) in ("bool", "number")


HOOKS = (Hook(FUNCTION, names=lambda shared: isinstance_functions(shared.config)),)


def check(ctx: FunctionContext, env: Env) -> None:
    function, positions = isinstance_functions(env.config)[env.fullname]
    check_isinstance_call(ctx, function, env.config, env.dynamic, positions)
