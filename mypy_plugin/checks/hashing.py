"""A dynamic number hashed as a dict key or set member: ``{p: 1}``, ``d[p]``, ``s.add(p)``.

Hashing calls ``__hash__``, which our proxies refuse, torch's ``SymInt``
refuses and ``SymFloat``/``SymBool`` guard on (``proxy_types/_table.py``).
mypy checks ``d[p]`` and ``s.add(p)`` as method calls; displays and
comprehensions as calls of made-up functions (``<dict>``, ``<set-comprehension>``,
see ``constants.DISPLAY_FUNCTIONS``).  ``hash(p)`` is a conversion (conversions.py).
"""

from __future__ import annotations

from mypy.nodes import BytesExpr, Expression, StarExpr, StrExpr, TupleExpr
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext
from mypy.types import Instance, Type, get_proper_type

from .. import errors
from ..analysis.dynamic import CHECKED_ANY_OBJECT, DynamicClasses, dynamic_in_expression
from ..config import ProxyTypesConfig
from ..constants import DISPLAY_FUNCTIONS, HASH_OPERATION, HASHING_METHODS
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
    api: CheckerPluginInterface, key: Expression, operation: str, dynamic: DynamicClasses
) -> None:
    if isinstance(key, _TEXT):
        return
    found = dynamic_in_expression(api, key, dynamic, CHECKED_ANY_OBJECT)
    if found is None:
        return
    outcome = reported_outcome(api, key, found, HASH_OPERATION, dynamic, checked=True)
    if outcome is not None:
        errors.hashed(api, key, operation, found.name, outcome=outcome, reason=found.reason)


#: mypy checks dict and set displays as calls of made-up functions; hashing methods
#: are those of the builtin containers.
HOOKS = (Hook(FUNCTION, names=DISPLAY_FUNCTIONS), Hook(METHOD, names=HASHING_METHODS))


def check(ctx: FunctionContext | MethodContext, env: Env) -> None:
    if isinstance(ctx, MethodContext):
        check_hashing_method(ctx, HASHING_METHODS[env.fullname], env.config, env.dynamic)
    else:
        check_display(ctx, env.fullname, DISPLAY_FUNCTIONS[env.fullname], env.config,
                      env.dynamic)
