"""Calls that use tensor sizes as Python values in traced code: ``len(t)``
(``analysis.sources_sinks.SIZE_SINK_FUNCTIONS``; builtin ``min``/``max`` over sizes
are not sinks, see there), and tensors made from sizes, ``torch.tensor([n, m])``,
``torch.as_tensor(x.shape)`` (``TENSOR_DATA_SINK_FUNCTIONS``).

Under ``symbolic_shapes``, and for sizes only in code a compiler runs (entry points
and ``traced_functions``, as for the call-site reports): ``len()`` of a tensor, and
sizes in a tensor's data (a declared ``torch.SymInt`` there counts anywhere).  Each is a guard or a
specialization, not an error: reported as ``proxy-specialize``.
"""

from __future__ import annotations

from collections.abc import Iterator

from mypy.nodes import CallExpr, Expression, ListExpr, RefExpr, TupleExpr
from mypy.plugin import FunctionContext
from mypy.types import Instance, get_proper_type

from .. import errors
from ..analysis.classes import isinstance_functions
from ..analysis.cross_call import TRACED_ONLY_SOURCES, call_site_env, in_traced_code
from ..analysis.dynamic import Asked, dynamic_in_expression, expression_type
from ..analysis.flow import _TENSOR_BASES, _has_base
from ..analysis.kinds import TORCH
from ..analysis.severity import value_read_outcome
from ..analysis.sources_sinks import SIZE_SINK_FUNCTIONS, TENSOR_DATA_SINK_FUNCTIONS
from ..analysis.tracers import failing_tracers
from ..hooks import FUNCTION, Env, Hook, Shared

_SIZES = frozenset({"torch.Size", "torch._C.Size"})
#: Calls that pass their one argument's items on unchanged: ``torch.tensor(list(x.shape))``.
_ITEM_PRESERVING_CALLS = frozenset({"builtins.list", "builtins.tuple"})


def _size_sinks(shared: Shared) -> frozenset[str]:
    """The sinks, unless the settings name one as a helper the plugin checks as such."""
    config = shared.config
    return (frozenset(SIZE_SINK_FUNCTIONS) | frozenset(TENSOR_DATA_SINK_FUNCTIONS)) \
        - frozenset(config.concretizing_functions) - frozenset(isinstance_functions(config))


def _symbolic_shapes(shared: Shared) -> bool:
    return shared.config.symbolic_shapes


HOOKS = (Hook(FUNCTION, names=_size_sinks, when=_symbolic_shapes),)


def check(ctx: FunctionContext, env: Env) -> None:
    if env.fullname in TENSOR_DATA_SINK_FUNCTIONS:
        _check_tensor_data(ctx, env)
    else:
        _check_length(ctx, env)


def _check_length(ctx: FunctionContext, env: Env) -> None:
    """Report ``len()`` of a tensor."""
    fullname = env.fullname
    sites = env.state(call_site_env)
    call = ctx.context
    flow = sites.flow
    if not isinstance(call, CallExpr) or flow is None or not flow.symbolic_shapes:
        return
    actuals = [actual for group in ctx.args for actual in group]
    if len(actuals) != 1 or not _has_base(expression_type(ctx.api, actuals[0]),
                                          _TENSOR_BASES):
        return
    found = flow.shape_flow(f"{_shown(actuals[0])}.shape", frozenset({0})).dynamic
    if not in_traced_code(ctx, sites):
        return
    outcome = value_read_outcome(found)
    if errors.code_of(outcome) is not None:
        errors.implicit_conversion(ctx.api, call, SIZE_SINK_FUNCTIONS[fullname], found.name,
                                   outcome=outcome, reason=found.reason)


def _check_tensor_data(ctx: FunctionContext, env: Env) -> None:
    """Report the first torch Sym number in ``torch.tensor(data)``'s data."""
    if not ctx.args or not ctx.args[0]:
        return
    sites = env.state(call_site_env)
    traced: bool | None = None  # worked out at the first item found
    # A torch.Size holds sizes: its items count, as in a check of the container (not
    # those of any list: a traced function's ``list[int]`` parameter holds Python ints).
    call = ctx.context
    sizes = Asked(check=call if isinstance(call, CallExpr) else None)
    for item in _data_items(ctx.args[0][0]):
        found = dynamic_in_expression(ctx.api, item, sites.dynamic,
                                      sizes if _is_size(ctx, item) else Asked())
        if found is None or found.kind != TORCH or found.reason.data:
            continue  # other numbers' tensors are not torch's; .item() values: not measured
        if found.reason.source in TRACED_ONLY_SOURCES:
            if traced is None:
                traced = in_traced_code(ctx, sites)
            if not traced:
                continue
        outcome = value_read_outcome(found)
        operation = TENSOR_DATA_SINK_FUNCTIONS[env.fullname]
        if errors.code_of(outcome) is not None:
            errors.implicit_conversion(ctx.api, item, f"{operation}() of a size", found.name,
                                       outcome=outcome, reason=found.reason,
                                       tracers=failing_tracers(operation, found, env.config))
        return  # one report per call


def _is_size(ctx: FunctionContext, expr: Expression) -> bool:
    typ = get_proper_type(expression_type(ctx.api, expr))
    return isinstance(typ, Instance) and typ.type.fullname in _SIZES


def _data_items(data: Expression) -> Iterator[Expression]:
    """The numbers a tensor's data may hold: list and tuple displays' items (nested),
    ``list(...)``/``tuple(...)``'s argument, else the expression itself."""
    if isinstance(data, (ListExpr, TupleExpr)):
        for item in data.items:
            yield from _data_items(item)
    elif isinstance(data, CallExpr) and isinstance(data.callee, RefExpr) \
            and data.callee.fullname in _ITEM_PRESERVING_CALLS and len(data.args) == 1:
        yield from _data_items(data.args[0])
    else:
        yield data


def _shown(expr: object) -> str:
    name = getattr(expr, "name", None)
    return name if isinstance(name, str) else "..."
