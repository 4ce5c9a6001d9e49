"""Small helpers shared by the checker-phase hooks."""

from __future__ import annotations

from mypy.nodes import MypyFile
from mypy.plugin import CheckerPluginInterface

from .. import _mypy_compat as compat
from ..config import ProxyTypesConfig


def current_file(api: CheckerPluginInterface) -> MypyFile | None:
    """The module being checked (mypy's TypeChecker keeps it as ``tree``)."""
    return compat.checked_tree(api)


def current_module(api: CheckerPluginInterface) -> str:
    """Fully qualified name of the module being checked, "" if unknown."""
    tree = current_file(api)
    return tree.fullname if tree is not None else ""


def reports_hidden(api: CheckerPluginInterface) -> bool:
    """True if mypy discards this module's errors (installed library, silent import, ignore_errors).

    Checks that only report can skip such modules: torch's own code is most of a cold run.
    """
    return compat.reports_hidden(api)


def gets_no_reports(api: CheckerPluginInterface, config: ProxyTypesConfig) -> bool:
    """True if reports in the module being checked would be discarded or are unwanted.

    mypy discards them (see :func:`reports_hidden`), or the module is exempt.
    """
    return reports_hidden(api) or config.is_exempt(current_module(api))
