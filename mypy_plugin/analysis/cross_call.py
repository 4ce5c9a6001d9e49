"""What the cross-call checks share for a run (``checks/call_sites.py``,
``checks/size_sinks.py``, cached calls in ``checks/hashing.py``): the callees' summaries, the entry points of traced
code, and whether a call stands in code a compiler runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

from mypy.nodes import MypyFile
from mypy.plugin import FunctionContext, MethodContext

from .. import _mypy_compat as compat
from .dynamic import DynamicClasses
from .entry_points import EntryPoints
from .flow import FlowAnalysis, new_returns
from .summaries import Summaries, module_of

if TYPE_CHECKING:
    from ..hooks import Env


#: Flow sources that make a value dynamic only where a compiler traces the code.
TRACED_ONLY_SOURCES = frozenset({"flow", "shape"})


class CallSiteEnv(NamedTuple):
    """What the cross-call checks need, one for the run (:func:`call_site_env`)."""

    dynamic: DynamicClasses
    flow: FlowAnalysis | None
    summaries: Summaries
    entry_points: EntryPoints


def call_site_env(env: Env) -> CallSiteEnv:
    """Built once, as ``env.state(call_site_env)``: both checks share its memos."""
    dynamic = env.dynamic
    flow = dynamic.flow
    # one set of summaries and parses with the flows' return values, which they use
    returns = flow.returns if flow is not None else new_returns()
    return CallSiteEnv(dynamic, flow, returns.summaries,
                       EntryPoints(env.config.traced_entry_points))


def in_python_source(fullname: str, modules: Mapping[str, MypyFile] | None) -> bool:
    """True if the longest module prefix of ``fullname`` in the build is a ``.py`` file."""
    if not modules:
        return False
    module = module_of(fullname, modules)
    return module is not None and modules[module].path.endswith(".py")


def in_traced_code(ctx: FunctionContext | MethodContext, env: CallSiteEnv) -> bool:
    """True if the call is in code a compiler runs (entry points, ``traced_functions``),
    outside its eager-only branches."""
    modules = compat.checker_modules(ctx.api)
    chain = compat.enclosing_functions(ctx.api)
    tree = compat.checked_tree(ctx.api)
    if not chain or tree is None:
        return False
    if env.entry_points.untraced_at(chain[-1], ctx.context.line):
        return False
    if env.flow is not None and env.flow.is_traced(chain, tree):
        return True
    return any(function in env.entry_points.traced(tree, modules) for function in chain)
