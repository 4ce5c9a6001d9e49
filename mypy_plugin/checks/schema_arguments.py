"""Dynamic numbers passed to an aten operator's static parameters: ``torch.istft(spec,
n_fft, length=x.shape[-1])``.  istft's schema types ``length`` as ``int?``, not
``SymInt?``, so the dispatcher turns the size into a plain number: make_fx replaces its
symbol by the traced value, export fails ("Constraints violated"), torch.compile
recompiles per size (tests/runtime/test_schema_arguments_runtime.py).

Only where the Python function is the operator itself: ``torch.<name>`` and
``Tensor.<name>`` as mypy resolves them to torch's generated stubs
(``torch._C._VariableFunctions``, ``torch._C.TensorBase``).  Python wrappers
(``torch.functional.stft``, ``torch._tensor.Tensor.split``) are left alone.  A
parameter is static when every overload of the operator that has it types it ``int``,
``float``, ``bool`` or a list of those (``analysis.schemas``).  Under
``symbolic_shapes``, for sizes (only in traced code, as for the size sinks) and
values declared as torch's Sym types, not for every parameter of a traced function;
reported as ``proxy-specialize``, kind ``static-schema-argument``.
"""

from __future__ import annotations

from mypy.nodes import CallExpr
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import Instance, get_proper_type

from .. import errors
from ..analysis.cross_call import TRACED_ONLY_SOURCES, call_site_env, in_traced_code
from ..analysis.dynamic import dynamic_in_expression
from ..analysis.kinds import TORCH
from ..analysis.schemas import Schemas
from ..analysis.severity import value_read_outcome
from ..hooks import FUNCTION, METHOD, Env, Hook, Shared

#: Where mypy finds the operators: ``torch.<name>``, and the methods of tensors, which
#: mypy names by the receiver's class; a method is the operator only where torch's
#: ``TensorBase`` stub defines it, not ``torch._tensor.Tensor`` (checked at the call).
OPERATOR_FUNCTIONS = "torch._C._VariableFunctions."
OPERATOR_METHODS = ("torch._C.TensorBase.", "torch._tensor.Tensor.",
                    "torch.nn.parameter.Parameter.")
TENSOR_BASE = "torch._C.TensorBase"


def _operator_function(fullname: str) -> bool:
    return fullname.startswith(OPERATOR_FUNCTIONS) and not fullname.endswith("__")


def _operator_method(fullname: str) -> bool:
    return fullname.startswith(OPERATOR_METHODS) and not fullname.endswith("__")


def _symbolic_shapes(shared: Shared) -> bool:
    return shared.config.symbolic_shapes


HOOKS = (
    Hook(FUNCTION, matches=_operator_function, when=_symbolic_shapes),
    Hook(METHOD, matches=_operator_method, when=_symbolic_shapes),
)


def _schemas(env: Env) -> Schemas:
    flow = env.dynamic.flow
    return flow.schemas if flow is not None else Schemas()


def _defined_by_tensor_base(ctx: MethodContext, name: str) -> bool:
    receiver = get_proper_type(ctx.type)
    if not isinstance(receiver, Instance):
        return False
    defining = receiver.type.get_containing_type_info(name)
    return defining is not None and defining.fullname == TENSOR_BASE


def check(ctx: FunctionContext | MethodContext, env: Env) -> None:
    call = ctx.context
    if not isinstance(call, CallExpr) or errors.shown_code(ctx.api, "guards") is None:
        return
    operator = env.fullname.rpartition(".")[2]
    if isinstance(ctx, MethodContext) and not _defined_by_tensor_base(ctx, operator):
        return
    schemas = env.state(_schemas)
    sites = env.state(call_site_env)
    traced: bool | None = None  # worked out at the first argument found
    for parameter, actuals in zip(ctx.callee_arg_names, ctx.args):
        if parameter is None or not actuals:
            continue
        declared = schemas.static_argument_type(operator, parameter)
        if declared is None:
            continue
        for actual in actuals:
            found = dynamic_in_expression(ctx.api, actual, sites.dynamic)
            if found is None or found.kind != TORCH or found.reason.data:
                continue  # .item() values: not measured
            if found.reason.source == "flow":
                continue  # a traced function's parameter: symbolic only if a caller says so
            if found.reason.source in TRACED_ONLY_SOURCES:
                if traced is None:
                    traced = in_traced_code(ctx, sites)
                if not traced:
                    continue
            if errors.code_of(value_read_outcome(found)) is None:
                continue
            shown = f"torch.{operator}" if isinstance(ctx, FunctionContext) \
                else f"Tensor.{operator}"
            errors.static_schema_argument(ctx.api, actual, shown, parameter, declared,
                                          found.name, reason=found.reason)
