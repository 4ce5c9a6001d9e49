"""Which module is being checked or analyzed: one answer for every plugin API."""

from __future__ import annotations

from mypy.nodes import MypyFile
from mypy.plugin import CheckerPluginInterface, TypeAnalyzerPluginInterface
from mypy.semanal import SemanticAnalyzer

from .. import _mypy_compat as compat


def current_module(api: compat.AnyPluginInterface | SemanticAnalyzer | None) -> MypyFile | None:
    """The module mypy's checker, semantic analyzer or type analyzer (``api``) is in;
    None where mypy does not say (a feature off in ``_mypy_compat``, no module yet)."""
    if api is None:
        return None
    if isinstance(api, CheckerPluginInterface):
        return compat.checked_tree(api)
    if isinstance(api, SemanticAnalyzer):
        return compat.analyzed_module(api)
    if isinstance(api, TypeAnalyzerPluginInterface):
        semanal = compat.semantic_analyzer_of(api)
        return compat.analyzed_module(semanal) if semanal is not None else None
    return None
