"""A dynamic number hashed as a dict key or set member: ``{p: 1}``, ``d[p]``, ``s.add(p)``.

Hashing calls ``__hash__``, which our proxies refuse, torch's ``SymInt``
refuses and ``SymFloat``/``SymBool`` guard on (``proxy_types/_table.py``).
mypy checks ``d[p]`` and ``s.add(p)`` as method calls; displays and
comprehensions as calls of made-up functions (``<dict>``, ``<set-comprehension>``,
see ``constants.DISPLAY_FUNCTIONS``).  ``hash(p)`` is a conversion (conversions.py).
A call of a function under ``functools.lru_cache``/``functools.cache`` hashes each
argument into the cache key: torch 2.13 raises ``TypeError: unhashable type:
non-nested SymInt`` under make_fx and torch.export there; torch.compile traces
through the cache wrapper (tests/runtime/test_cached_calls_runtime.py).
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import BytesExpr, CallExpr, Expression, MemberExpr, NameExpr, StarExpr, StrExpr, TupleExpr
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext
from mypy.types import Instance, Type, get_proper_type

from .. import errors
from ..analysis.cross_call import TRACED_ONLY_SOURCES, call_site_env, in_traced_code
from ..analysis.dynamic import ANY_OBJECT, DynamicClasses, dynamic_in_expression
from ..config import ProxyTypesConfig
from ..constants import CACHED_CALL_METHOD, DISPLAY_FUNCTIONS, HASH_OPERATION, HASHING_METHODS
from ..analysis.severity import reported_outcome
from ..hooks import FUNCTION, METHOD, Env, Hook

#: Keys that cannot be numbers: not worth inferring a type for.
_TEXT = (StrExpr, BytesExpr)
_TEXT_TYPES = frozenset({"builtins.str", "builtins.bytes"})


def _is_text(typ: Type) -> bool:
    proper = get_proper_type(typ)
    return isinstance(proper, Instance) and proper.type.fullname in _TEXT_TYPES


def check_hashing_method(
    ctx: MethodContext, operation: str, config: ProxyTypesConfig, dynamic: DynamicClasses
) -> None:
    """``d[p]``, ``d.get(p)``, ``s.add(p)``, ``p in s``: the first argument is hashed."""
    if not ctx.args:
        return
    for key, key_type in zip(ctx.args[0], ctx.arg_types[0]):
        if not _is_text(key_type):  # most dicts are keyed by str: no need to infer again
            _check_hashed(ctx.api, key, operation, dynamic)


def check_cached_call(ctx: MethodContext, env: Env) -> None:
    """``grid(n)`` with ``grid`` under ``functools.lru_cache``: every argument is hashed.

    A value dynamic only by a flow (a tensor size) counts only in code a compiler runs,
    as for the call-site reports: a constructor's cached ``grid(x.shape[0])`` is eager.
    """
    call = ctx.context
    callee = call.callee if isinstance(call, CallExpr) else None
    name = callee.name if isinstance(callee, (NameExpr, MemberExpr)) else "the function"
    operation = f"Argument of cached {name}() (functools.lru_cache)"
    for group, types in zip(ctx.args, ctx.arg_types):
        for argument, argument_type in zip(group, types):
            if not _is_text(argument_type):
                _check_hashed(ctx.api, argument, operation, env.dynamic,
                              lambda: in_traced_code(ctx, env.state(call_site_env)))


def check_display(
    ctx: FunctionContext, display: str, operation: str, config: ProxyTypesConfig,
    dynamic: DynamicClasses,
) -> None:
    """The keys of a dict display or comprehension, the members of a set one."""
    if not ctx.args:
        return
    for item in ctx.args[0]:
        if display == "<dict>":
            # Each ``key: value`` comes as a pair; ``**mapping`` as the mapping.
            if not (isinstance(item, TupleExpr) and len(item.items) == 2):
                continue
            item = item.items[0]
        if not isinstance(item, StarExpr):
            _check_hashed(ctx.api, item, operation, dynamic)


def _check_hashed(
    api: CheckerPluginInterface, key: Expression, operation: str, dynamic: DynamicClasses,
    traced: Callable[[], bool] | None = None,
) -> None:
    """``traced``, if given, says whether flow-sourced values count here."""
    if isinstance(key, _TEXT):
        return
    found = dynamic_in_expression(api, key, dynamic, ANY_OBJECT)
    if found is None or (traced is not None and found.reason.source in TRACED_ONLY_SOURCES
                         and not traced()):
        return
    outcome = reported_outcome(api, key, found, HASH_OPERATION, dynamic)
    if outcome is not None:
        errors.hashed(api, key, operation, found.name, outcome=outcome, reason=found.reason)


#: mypy checks dict and set displays as calls of made-up functions; hashing methods
#: are those of the builtin containers.
HOOKS = (Hook(FUNCTION, names=DISPLAY_FUNCTIONS),
         Hook(METHOD, names={*HASHING_METHODS, CACHED_CALL_METHOD}))


def check(ctx: FunctionContext | MethodContext, env: Env) -> None:
    if isinstance(ctx, MethodContext) and env.fullname == CACHED_CALL_METHOD:
        check_cached_call(ctx, env)
    elif isinstance(ctx, MethodContext):
        check_hashing_method(ctx, HASHING_METHODS[env.fullname], env.config, env.dynamic)
    else:
        check_display(ctx, env.fullname, DISPLAY_FUNCTIONS[env.fullname], env.config,
                      env.dynamic)
