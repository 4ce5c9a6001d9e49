"""Record dynamic numbers passed to parameters annotated with static number types.

Not a check: mypy reports these calls itself (``arg-type``).  While ``proxy-types
fix`` collects (``collectors.collecting_arguments``), this records each one as
data, at the argument's position, so ``fix`` can rewrite the callee's
annotation without reading mypy's wording.
"""

from __future__ import annotations

from mypy.nodes import CallExpr, Decorator, Expression, FakeInfo, FuncDef
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import CallableType, Instance, Overloaded, Type, UnionType, get_proper_type

from .. import _mypy_compat as compat
from .. import collectors, findings
from ..analysis.dynamic import DynamicClasses
from ..constants import STATIC_NUMBER_CLASSES
from ..gate import RUNS_WHERE_VISIBLE
from ..hooks import FUNCTION, METHOD, Env, Hook, Shared


def record_passed_arguments(ctx: FunctionContext | MethodContext,
                            dynamic: DynamicClasses) -> None:
    """Keep a :class:`findings.PassedArgument` for each dynamic argument of a static parameter."""
    path = compat.current_path(ctx.api)
    collectors.note_checked_file(path)
    call = ctx.context
    if not isinstance(call, CallExpr):
        return
    callee = get_proper_type(compat.lookup_type_or_none(ctx.api, call.callee))
    if isinstance(callee, Overloaded):
        # Which variant an argument meets is unknown: every dynamic argument is recorded,
        # if some variant names a static number type at all (round() names none).
        if any(_names_static_number(typ) for item in callee.items for typ in item.arg_types):
            for actuals, actual_types in zip(ctx.args, ctx.arg_types):
                _keep(call, actuals, actual_types, dynamic, path, "", None,
                      "the callee is overloaded; annotate the parameter of each variant by hand")
        return
    if not isinstance(callee, CallableType):
        return
    if list(ctx.callee_arg_names) != list(callee.arg_names):
        # mypy expanded the signature (**kwargs: Unpack[...], *args of a TypeVarTuple)
        if any(_names_static_number(typ) for typ in callee.arg_types):
            for actuals, actual_types in zip(ctx.args, ctx.arg_types):
                _keep(call, actuals, actual_types, dynamic, path, "", None,
                      "mypy expands the callee's signature; annotate the parameter by hand")
        return
    function, cls = _shown_callee(callee)
    unsupported = None if function else "the callee is not a plain function or method"
    # ctx.args groups the call's arguments by the callee's parameters, as callee lists them.
    for expected, actuals, actual_types in zip(callee.arg_types, ctx.args, ctx.arg_types):
        if _names_static_number(expected):
            _keep(call, actuals, actual_types, dynamic, path, function or "", cls, unsupported)


def _keep(call: CallExpr, actuals: list[Expression], actual_types: list[Type],
          dynamic: DynamicClasses, path: str, function: str, cls: str | None,
          unsupported: str | None) -> None:
    for actual, actual_type in zip(actuals, actual_types):
        names = _dynamic_members(actual_type, dynamic)
        position = _position_in(call, actual)
        if not names or position is None:
            continue
        collectors.keep_argument(findings.PassedArgument(
            function=function, cls=cls, number=position + 1,
            keyword=call.arg_names[position], dynamic=names,
            file=path, line=actual.line, column=actual.column, unsupported=unsupported))


def _shown_callee(callee: CallableType) -> tuple[str | None, str | None]:
    """(function, class) as mypy names the callee in its messages."""
    if callee.is_type_obj():
        return callee.type_object().name, None  # a constructor: the class's name
    definition = callee.definition
    if isinstance(definition, Decorator):  # @classmethod, @staticmethod, ...
        definition = definition.func
    if not isinstance(definition, FuncDef):
        return None, None
    # A function's info is mypy's placeholder, which answers no question.
    info = definition.info
    return definition.name, None if isinstance(info, FakeInfo) else info.name


def _members(typ: Type) -> list[Type]:
    proper = get_proper_type(typ)
    if isinstance(proper, UnionType):
        return [member for item in proper.items for member in _members(item)]
    return [proper]


def _names_static_number(expected: Type) -> bool:
    return any(isinstance(member, Instance) and member.type.fullname in STATIC_NUMBER_CLASSES
               for member in _members(expected))


def _dynamic_members(actual: Type, dynamic: DynamicClasses) -> tuple[str, ...]:
    names = [member.type.name for member in _members(actual)
             if isinstance(member, Instance) and dynamic.is_dynamic_class(member.type)]
    return tuple(dict.fromkeys(names))


def _position_in(call: CallExpr, actual: Expression) -> int | None:
    for position, argument in enumerate(call.args):
        if argument is actual:
            return position
    return None


def _recording(shared: Shared) -> bool:
    return shared.record_arguments


def _every_call(fullname: str) -> bool:
    return True


#: While ``fix`` collects (``collectors.recording_arguments``), every call is hooked.
HOOKS = (
    Hook(FUNCTION, matches=_every_call, runs=RUNS_WHERE_VISIBLE, when=_recording),
    Hook(METHOD, matches=_every_call, runs=RUNS_WHERE_VISIBLE, when=_recording),
)


def check(ctx: FunctionContext | MethodContext, env: Env) -> None:
    record_passed_arguments(ctx, env.dynamic)
