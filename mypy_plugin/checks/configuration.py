"""proxy-config: configured class names that name no class.

Reported at line 1 of each module that runs an isinstance check, because the
config file itself is not a module mypy reports into; in exempt modules too
(a set-up report).  Reported again at each check: mypy drops the errors of
some trial checks.
"""

from __future__ import annotations

from typing import Any

from mypy.nodes import Context, TypeAlias, TypeInfo
from mypy.plugin import FunctionContext

from .. import errors
from ..analysis.classes import isinstance_functions
from ..analysis.context import current_module
from ..analysis.imports import imports_of
from ..gate import RUNS_WHERE_VISIBLE
from ..hooks import FUNCTION, Env, Hook, Shared

_KIND_NAMES = {
    "FuncDef": "function",
    "OverloadedFuncDef": "function",
    "Decorator": "function",
    "Var": "variable",
    "MypyFile": "module",
}


def _configured_classes(config: Any) -> list[tuple[str, str]]:
    """(setting, name) of every configured class."""
    return [("dynamic_number_classes", name) for name in config.dynamic_number_classes] + [
        ("migrate_classes", name) for name in config.migrate_classes]


def _configures_classes(shared: Shared) -> bool:
    return bool(_configured_classes(shared.config))


HOOKS = (Hook(FUNCTION, names=lambda shared: isinstance_functions(shared.config),
              runs=RUNS_WHERE_VISIBLE, when=_configures_classes),)


def check(ctx: FunctionContext, env: Env) -> None:
    tree = current_module(ctx.api)
    if tree is None:
        return
    # Only modules this one imports: they are loaded in every worker (mypy -n).
    visible = imports_of(tree).modules | {tree.fullname}
    first_line = Context(line=1, column=0)
    config_file = env.config.config_file
    shared = env.shared
    for setting, name in _configured_classes(env.config):
        module = name.rpartition(".")[0]
        modules = shared.build_modules()
        if modules is None or module not in modules or module not in visible:
            continue  # not part of this build (inert) or not imported here
        symbol = shared.lookup_fully_qualified(name)
        if symbol is None:
            errors.no_such_class(ctx.api, context=first_line, config_file=config_file,
                                 name=name, setting=setting)
            continue
        node = symbol.node
        if node is None or isinstance(node, (TypeInfo, TypeAlias)):
            continue
        kind = _KIND_NAMES.get(type(node).__name__, type(node).__name__)
        errors.not_a_class(ctx.api, context=first_line, config_file=config_file, name=name,
                           kind=kind, setting=setting)
