"""Helpers for the checks that run inside mypy's semantic analyzer (casts, bare conditions).

Both are reported from a type-analysis hook: mypy's analysis of a class name
such as ``int`` or ``torch.SymBool``.  Such a hook replaces mypy's own
analysis, so :class:`DefaultAnalysis` gets that analysis by re-entering it
with the hook switched off.
"""

from __future__ import annotations

from mypy.nodes import MypyFile
from mypy.plugin import AnalyzeTypeContext
from mypy.semanal import SemanticAnalyzer
from mypy.types import Type

from .. import _mypy_compat as compat
from ..config import ProxyTypesConfig, is_installed_library


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


class ReportedModules:
    """Whether the module being analyzed gets reports, answered once per module.

    It also remembers the semantic analyzer its last caller ran in, so that
    :meth:`current_module_hidden` can answer before any hook runs.
    """

    def __init__(self, config: ProxyTypesConfig) -> None:
        self.config = config
        self._answers: dict[tuple[str, str], bool] = {}
        self._semanal: SemanticAnalyzer | None = None
        # The module current_module_hidden answered for last, and its answer.
        self._last_tree: MypyFile | None = None
        self._last_hidden = False

    @property
    def analyzer(self) -> SemanticAnalyzer | None:
        """The semantic analyzer the hooks last ran in (the same one for a whole build)."""
        return self._semanal

    def includes(self, semanal: SemanticAnalyzer) -> bool:
        """False for stubs, exempt modules and installed libraries (errors never shown)."""
        self._semanal = semanal
        module = semanal.cur_mod_id
        tree = compat.analyzed_module(semanal)
        key = (module, tree.path if tree is not None else "")  # a daemon may see a module move
        answer = self._answers.get(key)
        if answer is None:
            answer = not (
                semanal.is_stub_file
                or self.config.is_exempt(module)
                or is_installed_library(key[1])
            )
            self._answers[key] = answer
        return answer

    def current_module_hidden(self) -> bool:
        """True if the module the remembered analyzer is in gets no reports.

        False when unknown (no analyzer seen yet), so callers then do the full check.
        Type analysis with that analyzer as API always happens inside its current
        module, so a hook it would run there reports nothing when this is True.
        """
        semanal = self._semanal
        if semanal is None:
            return False
        tree = compat.analyzed_module(semanal)
        if tree is None:  # between modules
            return False
        if tree is not self._last_tree:  # asked ~35k times a run, mostly in one module
            self._last_hidden = not self.includes(semanal)
            self._last_tree = tree
        return self._last_hidden


def semantic_analyzer(ctx: AnalyzeTypeContext) -> SemanticAnalyzer | None:
    """The semantic analyzer behind a type-analysis hook's API."""
    return compat.semantic_analyzer_of(ctx.api)
