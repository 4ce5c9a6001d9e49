"""proxy-base: dynamic number classes made static by inheritance or registration."""

from __future__ import annotations

from mypy.nodes import TypeInfo
from mypy.plugin import ClassDefContext, MethodContext
from mypy.types import CallableType, Instance, Overloaded, TypeType, get_proper_type

from .. import errors
from ..config import ProxyTypesConfig
from ..constants import ABC_REGISTER_METHODS, STATIC_NUMBER_ABCS, STATIC_NUMBER_CLASSES
from ..gate import RUNS_EVERYWHERE
from ..analysis.dynamic import DynamicClasses
from ..hooks import BASE_CLASS, METHOD, Env, Hook, Shared


def check_class_bases(
    ctx: ClassDefContext, config: ProxyTypesConfig, dynamic: DynamicClasses
) -> None:
    """Report ``class C(SomeProxy, float)``: one base dynamic, another static.

    Also in exempt modules: a class definition is wrong wherever it is.
    """
    bases = [base.type for base in ctx.cls.info.bases]
    for dynamic_base in bases:
        dynamic_name = _first_in_mro(dynamic_base, dynamic.fullnames)
        if dynamic_name is None:
            continue
        for static_base in bases:
            static_name = _first_in_mro(static_base, STATIC_NUMBER_CLASSES)
            if static_base is not dynamic_base and static_name is not None:
                errors.static_and_dynamic_bases(
                    ctx.api, ctx.cls, ctx.cls.name, dynamic_name, static_name
                )
                return


def check_abc_register(
    ctx: MethodContext, config: ProxyTypesConfig, dynamic: DynamicClasses
) -> None:
    """Report ``numbers.Integral.register(SomeProxy)`` (exempt modules included)."""
    if not ctx.arg_types or not ctx.arg_types[0]:
        return
    receiver = get_proper_type(ctx.type)
    abc: TypeInfo | None = None
    if isinstance(receiver, (CallableType, Overloaded)) and receiver.is_type_obj():
        abc = receiver.type_object()
    elif isinstance(receiver, TypeType):
        item = get_proper_type(receiver.item)
        abc = item.type if isinstance(item, Instance) else None
    if abc is None or abc.fullname not in STATIC_NUMBER_ABCS:
        return
    found = dynamic.class_of_type_object(ctx.arg_types[0][0])
    if found is not None:
        errors.registered_as_static(ctx.api, ctx.context, abc.fullname, found)


def _first_in_mro(info: TypeInfo, names: frozenset[str]) -> str | None:
    for base in info.mro:
        if base.fullname in names:
            return base.name
    return None


def _number_classes(shared: Shared) -> frozenset[str]:
    # Every offending class lists a static number class or a known dynamic one among
    # its bases (base class hooks are keyed by the base named in the class statement).
    return STATIC_NUMBER_CLASSES | shared.dynamic_fullnames


#: A class definition is wrong wherever it is written: exempt modules too.
HOOKS = (
    Hook(BASE_CLASS, names=_number_classes, runs=RUNS_EVERYWHERE),
    Hook(METHOD, names=ABC_REGISTER_METHODS, runs=RUNS_EVERYWHERE),
)


def check(ctx: ClassDefContext | MethodContext, env: Env) -> None:
    if isinstance(ctx, MethodContext):
        check_abc_register(ctx, env.config, env.dynamic)
    else:
        check_class_bases(ctx, env.config, env.dynamic)
