"""The mypy ``Plugin``: answers each hook lookup from the checks' declarations.

Which checks a name gets is data (``registry.py``, each check's ``HOOKS``); how a
check runs (isolated, gated, past mypy's trials) is ``runner.py``.  This module
only routes: it builds the lookups and hands mypy the hooks.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any

from mypy.nodes import MypyFile
from mypy.options import Options
from mypy.plugin import (
    AnalyzeTypeContext,
    ClassDefContext,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.types import FunctionLike, Type

from . import _mypy_compat as compat
from . import codes as _codes  # (importing it registers the error codes with mypy)
from . import collectors, daemon_deps
from .config import ProxyTypesConfig, is_installed_library
from .constants import DEFAULT_DYNAMIC_CLASSES
from .daemon_deps import SourceReads
from .gate import ReportGate
from .hooks import (
    BASE_CLASS,
    CHECKER_KINDS,
    CUSTOMIZE_CLASS_MRO,
    FUNCTION,
    FUNCTION_SIGNATURE,
    METHOD,
    METHOD_SIGNATURE,
    MODULE_CHECK_START,
    TYPE_ANALYZE,
    UNRESOLVED_TYPE,
    Env,
    HookKind,
    Shared,
)
from .registry import HooksByName, TypeHooksByName
from .runner import DEFAULTS, Part, Runner

# Speed trick (lazy imports): the checks wait for the first hook lookup, which a warm run
# never makes; saves 12% of a warm quick run, 1.7% of a cold one (measured 2026-12-03).
if TYPE_CHECKING:
    from .analysis.dynamic import DynamicClasses
    from .analysis.semanal import DefaultAnalysis
    from .registry import HookTable

#: Imported with the first hook (a warm run, which asks for none, never imports it).
_REPORTING = f"{__package__}.reporting"


#: Lookups whose answer depends only on the name and the settings.
_NAME_ONLY_LOOKUPS = (
    "get_function_hook",
    "get_function_signature_hook",
    "get_method_signature_hook",
    "get_method_hook",
    "get_base_class_hook",
    "get_customize_class_mro_hook",
)


def _in_worker_process() -> bool:
    """True in a worker of mypy's parallel checking (the coordinator speaks for the run)."""
    # The coordinator starts each worker as `python -m mypy.build_worker`.
    return "mypy.build_worker.worker" in sys.modules


class ProxyTypesPlugin(Plugin):
    """Reports places where dynamic numbers are treated as static ones."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        notices = compat.startup_notices()
        if notices and not _in_worker_process():
            print("\n".join(notices), file=sys.stderr)
        self.config = ProxyTypesConfig(options.config_file)
        _codes.apply_settings(options, self.config.enable_error_code,
                              self.config.disable_error_code)
        #: Whether a module gets reports: asked here, before any check runs.
        self.gate = ReportGate(self.config)
        self.dynamic_fullnames = (
            DEFAULT_DYNAMIC_CLASSES
            | frozenset(self.config.dynamic_number_classes)
            | frozenset(self.config.migrate_classes)
        )
        #: Every module of the build by name (set_modules); None before mypy sets it.
        self.build_modules: dict[str, MypyFile] | None = None
        self.runner = Runner(self.config, self.gate, lambda: self._module_start)
        #: dmypy: which targets read which modules' sources (None in plain mypy).
        self.source_reads = SourceReads(lambda: self.build_modules or {}) \
            if daemon_deps.wanted(options) else None
        self.runner.source_reads = self.source_reads
        self.shared = Shared(self.config, self.gate, self.dynamic_fullnames,
                             collectors.recording_arguments(), lambda: self.dynamic,
                             self.lookup_fully_qualified, lambda: self.build_modules, options)
        collectors.note_cache(options.cache_dir, options.python_version,
                              options.incremental and not options.bazel)
        # mypy's cache follows the plugin's code: its version carries a hash of the
        # sources.  dmypy: a changed version also restarts the daemon, so the settings'
        # hash goes in too.  Plain mypy relies on report_config_data for settings
        # instead, which keeps the cache of installed libraries (torch) valid.
        from .source_version import plugin_version

        daemon = "mypy.dmypy_server" in sys.modules
        compat.set_plugin_version(plugin_version(
            compat.plugin_release(), options.cache_dir,
            self.config.fingerprint() if daemon else None))
        # The class's lookup methods stay the reference; these shadow them per instance.
        for name in _NAME_ONLY_LOOKUPS:
            setattr(self, name,
                    HooksByName(getattr(self, name), name, self.runner.lookup_failed).__getitem__)
        setattr(self, "get_type_analyze_hook", TypeHooksByName(
            lambda: self.table.names(TYPE_ANALYZE), self.get_type_analyze_hook,
            self.unresolved_type_hook, self.runner.lookup_failed).__getitem__)
        # Type-analysis hooks depend on more than the name (see TypeHooksByName).
        self._type_candidates: dict[str, list[tuple[Callable[[Env], bool] | None, Part]]] = {}
        self._type_hooks: dict[tuple[Part, ...], Callable[[AnalyzeTypeContext], Type]] = {}
        self._unresolved_hooks: dict[str, Callable[[AnalyzeTypeContext], Type]] = {}

    @cached_property
    def table(self) -> HookTable:
        """Which checks each name gets (imports every check)."""
        from .registry import HookTable, registered

        return HookTable(self.shared, registered())

    @cached_property
    def dynamic(self) -> DynamicClasses:
        from .analysis.dynamic import DynamicClasses
        from .analysis.flow import FlowAnalysis

        dynamic = DynamicClasses(self.dynamic_fullnames,
                                 guarded=frozenset(self.config.guarded_number_classes))
        dynamic.flow = FlowAnalysis(self.config, dynamic)
        if self.source_reads is not None:
            summaries = dynamic.flow.returns.summaries
            summaries.on_read = self.source_reads.read
            self.source_reads.on_change = summaries.forget
        return dynamic

    @cached_property
    def default_analysis(self) -> DefaultAnalysis:
        """mypy's own analysis of a name whose type-analysis hook the plugin took: while
        it runs, every type-analysis lookup answers None."""
        from .analysis.semanal import DefaultAnalysis

        return DefaultAnalysis()

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        """Settings stored in mypy's cache, so changing them rechecks modules.

        Installed libraries (torch...) are left out: their errors are never shown,
        and rechecking them on each settings change would cost the most time.
        """
        if is_installed_library(ctx.path):
            return None
        # While the command line collects reports, modules with reports are rechecked.
        return collectors.cache_data(ctx.id, ctx.path, ctx.is_check,
                                     self.config.to_data())

    def set_modules(self, modules: dict[str, MypyFile]) -> None:
        super().set_modules(modules)
        self.build_modules = modules
        collectors.retain(modules)

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        """Called when mypy parses a module: dmypy notes whether its source changed."""
        if self.source_reads is not None:
            self.source_reads.parsed(file)
        return []

    def get_additional_indirect_deps(self, file: MypyFile) -> set[str]:
        """Called at the end of each module's check: settle its trial reports.

        The answers kept for the module checked last end with its check too: a
        daemon checks the same tree object again after merging a new parse into it.
        """
        self.gate.checked_tree = None
        if self.source_reads is not None:
            self.source_reads.module_checked(file)
        # Not imported yet (a warm run reports nothing): nothing to settle.
        if _REPORTING in sys.modules:
            from . import reporting

            if reporting.pending():
                reporting.settle_module(file)
        return set()

    # -- the lookups ------------------------------------------------------------

    def _hook(self, kind: HookKind, fullname: str) -> Callable[[Any], Any] | None:
        """The hook running every check of ``kind`` hooked by ``fullname``, or None."""
        parts = self._parts(kind, fullname)
        if not parts:
            return None
        if kind in CHECKER_KINDS:
            # mypy's own hook where it has one (functools.partial): the plugin's hides it
            return self._checker_hook(parts, compat.mypy_own_hook(fullname) or DEFAULTS[kind])
        return self.runner.analysis_hook(parts, DEFAULTS[kind])

    def _checker_hook(self, parts: list[Part], default: Callable[[Any], Any]
                      ) -> Callable[[Any], Any]:
        return self.runner.checker_hook(parts, default)

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return self._hook(FUNCTION, fullname)

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return self._hook(METHOD, fullname)

    def get_function_signature_hook(
        self, fullname: str
    ) -> Callable[[FunctionSigContext], FunctionLike] | None:
        return self._hook(FUNCTION_SIGNATURE, fullname)

    def get_method_signature_hook(
        self, fullname: str
    ) -> Callable[[MethodSigContext], FunctionLike] | None:
        return self._hook(METHOD_SIGNATURE, fullname)

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        # Keyed by the base named in the class statement.
        return self._hook(BASE_CLASS, fullname)

    def get_customize_class_mro_hook(
        self, fullname: str
    ) -> Callable[[ClassDefContext], None] | None:
        return self._hook(CUSTOMIZE_CLASS_MRO, fullname)

    def get_type_analyze_hook(
        self, fullname: str
    ) -> Callable[[AnalyzeTypeContext], Type] | None:
        # The only hooks that run for typing.cast() and for `if flag:`: the analysis of
        # the cast's target type and of the flag parameter's annotation.
        if self.default_analysis.active or not self.gate.current_analysis_reported():
            # Re-entered by the hook itself; or nothing could be reported here (torch's
            # own code, stubs): leave the analysis to mypy instead of re-entering it.
            return None
        candidates = self._type_candidates.get(fullname)
        if candidates is None:
            env = Env(self.shared, TYPE_ANALYZE, fullname)
            candidates = self._type_candidates[fullname] = [
                (entry.hook.wanted, Part(entry.name, entry.check, env, entry.hook.runs))
                for entry in self.table.checks_for(TYPE_ANALYZE, fullname)]
        parts = tuple(part for wanted, part in candidates if wanted is None or wanted(part.env))
        if not parts:
            return None
        hook = self._type_hooks.get(parts)
        if hook is None:
            hook = self._type_hooks[parts] = self.runner.type_analysis_hook(
                parts, self.default_analysis)
        return hook

    # -- names no check lists, and the start of each module's check ---------------

    def _parts(self, kind: HookKind, fullname: str) -> list[Part]:
        """The checks of ``kind`` hooked by ``fullname`` and wanted there, as runner parts."""
        env = Env(self.shared, kind, fullname)
        return list(Part(entry.name, entry.check, env, entry.hook.runs)
                     for entry in self.table.checks_for(kind, fullname)
                     if entry.hook.wanted is None or entry.hook.wanted(env))

    def unresolved_type_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        """The hook of a name no check lists (``torch.SymInt`` without torch), or None.

        Asked again each time such a name is analyzed (not kept in the lookup's
        dict), so that while the hook runs mypy's own analysis it answers None.
        """
        if self.default_analysis.active:
            return None
        try:
            parts = self._parts(UNRESOLVED_TYPE, fullname)
        except Exception as error:
            self.runner.lookup_failed("get_type_analyze_hook", fullname, error)
            return None
        if not parts:
            return None
        hook = self._unresolved_hooks.get(fullname)
        if hook is None:
            hook = self._unresolved_hooks[fullname] = self.runner.unresolved_type_hook(
                parts, self.default_analysis)
        return hook

    @cached_property
    def _module_start(self) -> list[Part]:
        return self._parts(MODULE_CHECK_START, "")
