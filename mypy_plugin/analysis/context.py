"""Small helpers shared by the checker-phase hooks."""

from __future__ import annotations

from mypy.nodes import MypyFile
from mypy.plugin import CheckerPluginInterface

from .. import _mypy_compat as compat


def current_file(api: CheckerPluginInterface) -> MypyFile | None:
    """The module being checked (mypy's TypeChecker keeps it as ``tree``)."""
    return compat.checked_tree(api)
