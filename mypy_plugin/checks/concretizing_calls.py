"""Calls of ``concretizing_functions`` helpers (thunder's ``pyval``) on maybe-dynamic values.

Such a helper reads its argument's value outright, so each kind of dynamic
class answers it as it answers a truth test (``severity.value_read_outcome``):
our proxies refuse, torch's and guarded classes guard, the rest bake it in.
"""

from __future__ import annotations

from mypy.plugin import FunctionContext

from .. import errors
from ..analysis.dynamic import DynamicClasses, dynamic_in_expression
from ..config import ProxyTypesConfig
from ..constants import DISPLAY_FUNCTIONS, ITEMS_TRUTH_FUNCTIONS, TYPE_FUNCTION
from ..analysis.severity import value_read_outcome
from ..hooks import FUNCTION, Env, Hook, Shared


def check_concretizing_call(
    ctx: FunctionContext, fullname: str, config: ProxyTypesConfig, dynamic: DynamicClasses
) -> None:
    """Report each argument of the helper ``fullname`` that may be a dynamic number."""
    shown = f"{fullname.rpartition('.')[2]}()"
    for actuals in ctx.args:
        for actual in actuals:
            found = dynamic_in_expression(ctx.api, actual, dynamic)
            if found is None:
                continue
            outcome = value_read_outcome(found)
            if errors.code_of(outcome) is not None:
                errors.concretizing_call(ctx.api, actual, shown, found.name, outcome=outcome,
                                         reason=found.reason)


#: Calls other checks already look at as sinks: a helper configured with one of these
#: names is left to them.
_OTHER_SINKS = frozenset(DISPLAY_FUNCTIONS) | frozenset(ITEMS_TRUTH_FUNCTIONS) | {TYPE_FUNCTION}


def _helpers(shared: Shared) -> frozenset[str]:
    return frozenset(shared.config.concretizing_functions) - _OTHER_SINKS


HOOKS = (Hook(FUNCTION, names=_helpers),)


def check(ctx: FunctionContext, env: Env) -> None:
    check_concretizing_call(ctx, env.fullname, env.config, env.dynamic)
