"""Helpers for the checks that run inside mypy's semantic analyzer (casts, bare conditions).

Both are reported from a type-analysis hook: mypy's analysis of a class name
such as ``int`` or ``torch.SymBool``.  Such a hook replaces mypy's own
analysis, so :class:`DefaultAnalysis` gets that analysis by re-entering it
with the hook switched off.
"""

from __future__ import annotations

from mypy.plugin import AnalyzeTypeContext
from mypy.semanal import SemanticAnalyzer
from mypy.types import Type

from .. import _mypy_compat as compat


class DefaultAnalysis:
    """mypy's own analysis of a type whose analysis hook this plugin took over."""

    def __init__(self) -> None:
        self.active = False

    def __call__(self, ctx: AnalyzeTypeContext) -> Type:
        self.active = True
        try:
            # While active, the plugin returns no hook, so mypy analyzes as usual.
            return ctx.api.analyze_type(ctx.type)
        finally:
            self.active = False


def semantic_analyzer(ctx: AnalyzeTypeContext) -> SemanticAnalyzer | None:
    """The semantic analyzer behind a type-analysis hook's API."""
    return compat.semantic_analyzer_of(ctx.api)
