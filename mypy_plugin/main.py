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
    CheckerPluginInterface,
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
from . import codes as _codes  # noqa: F401  (registers the error codes with mypy at load)
from . import collectors
from .analysis.context import current_module
from .config import ProxyTypesConfig, is_installed_library
from .constants import DEFAULT_DYNAMIC_CLASSES
from .gate import RUNS_WHERE_VISIBLE, ReportGate
from .hooks import (
    BASE_CLASS,
    CHECKER_KINDS,
    CUSTOMIZE_CLASS_MRO,
    FUNCTION,
    FUNCTION_SIGNATURE,
    METHOD,
    METHOD_SIGNATURE,
    TYPE_ANALYZE,
    Env,
    HookKind,
    Shared,
)
from .registry import HooksByName, TypeHooksByName
from .runner import Part, Runner

# Speed trick (lazy imports): the checks are imported with the first hook lookup, because
# a warm run (everything cached) asks for none. Measured: warm import and construction
# 3.6 -> 1.4 ms (docs/performance.md).
if TYPE_CHECKING:
    from .analysis.dynamic import DynamicClasses
    from .analysis.imports import MissingModules
    from .analysis.semanal import DefaultAnalysis
    from .registry import HookTable

#: Imported with the first hook (a warm run, which asks for none, never imports it).
_REPORTING = f"{__package__}.reporting"


def _default_return(ctx: FunctionContext | MethodContext) -> Type:
    return ctx.default_return_type


def _default_signature(ctx: FunctionSigContext | MethodSigContext) -> FunctionLike:
    return ctx.default_signature


def _nothing(ctx: Any) -> None:
    return None


#: What mypy gets from a hook of each kind when no check answers.
_DEFAULTS: dict[HookKind, Callable[[Any], Any]] = {
    FUNCTION: _default_return, METHOD: _default_return,
    FUNCTION_SIGNATURE: _default_signature, METHOD_SIGNATURE: _default_signature,
    BASE_CLASS: _nothing, CUSTOMIZE_CLASS_MRO: _nothing,
}


#: Lookups whose answer depends only on the name and the settings.
_NAME_ONLY_LOOKUPS = (
    "get_function_hook",
    "get_function_signature_hook",
    "get_method_signature_hook",
    "get_method_hook",
    "get_base_class_hook",
    "get_customize_class_mro_hook",
)


def _apply_error_codes(options: Options, config: ProxyTypesConfig) -> None:
    """Turn the plugin codes of the plugin's section on and off in mypy's options.

    mypy processes the ``[mypy]`` codes after loading plugins, so these mix with
    them as mypy's own do (an enabled code wins); modules' options copy them.
    """
    if not config.enable_error_code and not config.disable_error_code:
        return
    by_name = {code.code: code for code in _codes.ALL_CODES}
    for name in config.disable_error_code:
        options.disabled_error_codes.add(by_name[name])
        options.enabled_error_codes.discard(by_name[name])
    for name in config.enable_error_code:
        options.enabled_error_codes.add(by_name[name])
        options.disabled_error_codes.discard(by_name[name])


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
        _apply_error_codes(options, self.config)
        #: Whether a module gets reports: asked here, before any check runs.
        self.gate = ReportGate(self.config)
        self.dynamic_fullnames = (
            DEFAULT_DYNAMIC_CLASSES
            | frozenset(self.config.dynamic_number_classes)
            | frozenset(self.config.migrate_classes)
        )
        #: Every module of the build by name (set_modules); None before mypy sets it.
        self.build_modules: dict[str, MypyFile] | None = None
        self.runner = Runner(self, self.config, self.gate, self._report_missing_modules)
        self.shared = Shared(self.config, self.gate, self.dynamic_fullnames,
                             collectors.recording_arguments(), lambda: self.dynamic,
                             self.lookup_fully_qualified, lambda: self.build_modules)
        # Speed trick: asked once per module on every run, warm ones included, so the
        # answer is a constant. Measured: to_data() takes 6.4 us, on 1,685 modules a run.
        self._config_data = self.config.to_data()
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
            self.unresolved_type_hook, self.runner.lookup_failed, self.gate).__getitem__)
        # Type-analysis hooks depend on more than the name (see TypeHooksByName).
        self._type_candidates: dict[str, list[tuple[Callable[[Env], bool] | None, Part]]] = {}
        self._type_hooks: dict[tuple[Part, ...], Callable[[AnalyzeTypeContext], Type]] = {}

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
        return dynamic

    @cached_property
    def missing_modules(self) -> MissingModules:
        from .analysis.imports import MissingModules

        return MissingModules(self.dynamic_fullnames, self.options)

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
        return collectors.cache_data(ctx.id, ctx.path, ctx.is_check, self._config_data)

    def set_modules(self, modules: dict[str, MypyFile]) -> None:
        super().set_modules(modules)
        self.build_modules = modules
        collectors.retain(modules)

    def get_additional_indirect_deps(self, file: MypyFile) -> set[str]:
        """Called at the end of each module's check: settle its trial reports.

        The answers kept for the module checked last end with its check too: a
        daemon checks the same tree object again after merging a new parse into it.
        """
        self.gate.checked_tree = None
        # Not imported yet (a warm run reports nothing): nothing to settle.
        if _REPORTING in sys.modules:
            from . import reporting

            if reporting.pending():
                reporting.settle_module(file)
        return set()

    # -- the lookups ------------------------------------------------------------

    def _hook(self, kind: HookKind, fullname: str) -> Callable[[Any], Any] | None:
        """The hook running every check of ``kind`` hooked by ``fullname``, or None."""
        env = Env(self.shared, kind, fullname)
        parts = [Part(entry.name, entry.check, env, entry.hook.runs)
                 for entry in self.table.checks_for(kind, fullname)
                 if entry.hook.wanted is None or entry.hook.wanted(env)]
        if not parts:
            return None
        if kind in CHECKER_KINDS:
            # mypy's own hook where it has one (functools.partial): the plugin's hides it
            return self._checker_hook(parts, compat.mypy_own_hook(fullname) or _DEFAULTS[kind])
        return self.runner.analysis_hook(parts, _DEFAULTS[kind])

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

    # -- modules defining dynamic classes that mypy cannot find -------------

    def unresolved_type_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        """For a name in a module that defines dynamic classes and that mypy cannot find
        (``torch.SymInt`` without torch): a hook reporting that module.

        Asked again each time such a name is analyzed (not kept in the lookup's
        dict), so that while the hook runs mypy's own analysis it answers None.
        """
        if self.default_analysis.active:
            return None
        try:
            module = self.missing_modules.unresolved_for_name(fullname, self.build_modules)
        except Exception as error:
            self.runner.lookup_failed("get_type_analyze_hook", fullname, error)
            return None
        return None if module is None else self._unresolved_hook

    @cached_property
    def _unresolved_hook(self) -> Callable[[AnalyzeTypeContext], Type]:
        from mypy.types import AnyType, TypeOfAny, get_proper_type

        def report(ctx: AnalyzeTypeContext, env: Env) -> None:
            tree = current_module(ctx.api)
            if tree is not None and not is_installed_library(tree.path):
                self.missing_modules.report(ctx.api, tree, self.build_modules)

        part = Part("imports", report, Env(self.shared, TYPE_ANALYZE, ""), RUNS_WHERE_VISIBLE)
        guarded = self.runner.analysis_hook([part], _nothing)
        default_analysis = self.default_analysis

        def hook(ctx: AnalyzeTypeContext) -> Type:
            analyzed = default_analysis(ctx)
            proper = get_proper_type(analyzed)
            # mypy's own verdict: the name comes from a module it could not find.
            if isinstance(proper, AnyType) and proper.type_of_any == TypeOfAny.from_unimported_type:
                guarded(ctx)
            return analyzed

        return hook

    def _report_missing_modules(self, api: CheckerPluginInterface) -> None:
        """At a checker's first hook in a module: its imports of missing modules."""
        tree = current_module(api)
        if tree is not None:
            self.missing_modules.report(api, tree, self.build_modules, again=True)
