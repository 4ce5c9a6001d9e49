"""proxy-config: a module that defines dynamic classes and that mypy cannot find.

Without ``torch`` installed, ``torch.SymInt`` is Any to mypy and nothing about it
can be checked; each import of such a module is reported
(:meth:`..analysis.imports.MissingModules.report`).  Two hooks:

- the analysis of a name from such a module (``x: torch.SymInt``), once mypy's
  own analysis made it the Any of an unimported name;
- the start of each check of a module: its imports, again at every check (a
  daemon checks the same tree again after an edit and shows only the messages
  of that check).
"""

from __future__ import annotations

from typing import Any

from ..analysis.context import current_module
from ..analysis.imports import MissingModules
from ..config import is_installed_library
from ..gate import RUNS_WHERE_VISIBLE
from ..hooks import MODULE_CHECK_START, UNRESOLVED_TYPE, Env, Hook


def _missing_modules(env: Env) -> MissingModules:
    return MissingModules(env.shared.dynamic_fullnames, env.shared.options)


def _any_name(fullname: str) -> bool:
    return True


def _from_missing_module(env: Env) -> bool:
    """``torch.SymInt`` while mypy cannot find ``torch``."""
    modules = env.state(_missing_modules)
    return modules.unresolved_for_name(env.fullname, env.shared.build_modules()) is not None


HOOKS = (
    Hook(UNRESOLVED_TYPE, matches=_any_name, runs=RUNS_WHERE_VISIBLE,
         wanted=_from_missing_module),
    Hook(MODULE_CHECK_START, matches=_any_name, runs=RUNS_WHERE_VISIBLE),
)


def check(ctx: Any, env: Env) -> None:
    tree = current_module(ctx.api)
    if tree is None:
        return
    modules = env.state(_missing_modules)
    if env.kind == MODULE_CHECK_START:
        modules.report(ctx.api, tree, env.shared.build_modules(), again=True)
    elif not is_installed_library(tree.path):
        modules.report(ctx.api, tree, env.shared.build_modules())
