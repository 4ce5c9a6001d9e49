"""The mypy ``Plugin``: routes each hook by fully qualified name to one feature module."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from functools import cached_property, partial
from typing import TYPE_CHECKING, Any, TypeVar

from mypy.nodes import Context, MypyFile, TypeAlias, TypeInfo
from mypy.options import Options
from mypy.semanal import SemanticAnalyzer
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
from .config import ProxyTypesConfig, is_installed_library
from .gate import (
    RUNS_EVERYWHERE,
    RUNS_WHERE_REPORTED,
    RUNS_WHERE_VISIBLE,
    ReportGate,
    Verdict,
    VerdictName,
)
from .analysis.sources_sinks import SIZE_SINK_FUNCTIONS
from .constants import (
    ABC_REGISTER_METHODS,
    DEFAULT_DYNAMIC_CLASSES,
    DISPLAY_FUNCTIONS,
    DYNAMIC_BOOL_CLASSES,
    HASHING_METHODS,
    INDEXING_METHODS,
    INDEXING_OPERATION,
    ISINSTANCE_FUNCTIONS,
    ITEMS_TRUTH_FUNCTIONS,
    STATIC_NUMBER_CLASSES,
    STR_FORMAT_METHOD,
    TYPE_FUNCTION,
    concretizing_operation,
    is_comparison_method,
)

# Speed trick (lazy imports): the checking modules are imported on a hook's first
# use, through cached_property, because a warm run (everything cached) asks for no
# hook. Measured: warm import and construction 3.6 -> 1.4 ms (docs/performance.md).
if TYPE_CHECKING:
    from .analysis.imports import MissingModules
    from .checks.bare_conditions import BareConditionChecker
    from .checks.casts import CastChecker
    from .checks.comparisons import BooleanContexts
    from .checks.type_comparisons import TypeComparisons
    from .analysis.dynamic import DynamicClasses

#: Functions (and mypy's made-up display functions) whose calls may use a dynamic number
#: as a static one; ``concretizing_functions`` adds the configured helpers.
_SINK_FUNCTIONS: frozenset[str] = (
    frozenset(DISPLAY_FUNCTIONS) | frozenset(ITEMS_TRUTH_FUNCTIONS) | {TYPE_FUNCTION}
)

#: Every class name either type-analysis hook wants (casts.wants, bare_conditions.wants).
_TYPE_HOOK_CLASSES: frozenset[str] = STATIC_NUMBER_CLASSES | frozenset(DYNAMIC_BOOL_CLASSES)

#: Imported with the first hook (a warm run, which asks for none, never imports it).
_REPORTING = f"{__package__}.reporting"

_Ctx = TypeVar("_Ctx")
_Result = TypeVar("_Result")

#: ``PROXY_TYPES_DEBUG=1``: an error inside a check propagates (a traceback) instead
#: of becoming a proxy-internal report.  The test suite runs with it on.
DEBUG_VARIABLE = "PROXY_TYPES_DEBUG"


def debugging() -> bool:
    """True if internal errors should propagate (``PROXY_TYPES_DEBUG=1``)."""
    return os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")


def _context_of(ctx: Any) -> Context:
    """Where a hook's code stands: ``ctx.context``, or the class of a class hook."""
    context = getattr(ctx, "context", None)
    return context if isinstance(context, Context) else ctx.cls


def _raised_at(error: Exception) -> str:
    """`` (casts.py:42)``: where the error was raised (the last frame)."""
    frames = traceback.extract_tb(error.__traceback__)
    return f" ({os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""


def _explained(error: Exception) -> str:
    """``ValueError: message (casts.py:42)``: the exception and where it was raised."""
    message = " ".join(str(error).split())
    shown = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return shown + _raised_at(error)


class _AnswersByName(dict[str, Any]):
    """A hook lookup's answers, kept by name; the lookup runs for new names only.

    Speed trick: mypy asks before every call it checks and keeps no answer.
    Measured: thunder cold, lookups running Python 528k -> 72k (docs/performance.md).

    Installed in place of the lookup method (its bound ``__getitem__``), so a
    repeated question runs no Python code at all: mypy asks before every call
    it checks (263k times on thunder) and keeps no answer itself.
    """

    def __init__(self, lookup: Callable[[str], Any], name: str,
                 failed: Callable[[str, str, Exception], None]) -> None:
        super().__init__()
        self.lookup = lookup
        self.name = name
        self.failed = failed

    def __missing__(self, fullname: str) -> Any:
        try:
            answer = self.lookup(fullname)
        except Exception as error:  # no hook for this name, said once on stderr
            self.failed(self.name, fullname, error)
            answer = None
        self[fullname] = answer
        return answer


class _NoneForOtherNames(dict[str, Any]):
    """Like :class:`_AnswersByName` for a lookup whose answer for ``wanted`` names
    depends on more than the name: those are asked every time, the others once,
    of ``other`` (None for nearly all of them).

    Speed trick: mypy asks about every name of every annotation (211k times a
    torch-refs run). Measured: torch-refs cold 1.054x -> 1.025x (docs/performance.md).
    """

    def __init__(self, lookup: Callable[[str], Any], wanted: frozenset[str],
                 other: Callable[[str], Any], failed: Callable[[str, str, Exception], None],
                 gate: ReportGate) -> None:
        super().__init__()
        self.lookup = lookup
        self.wanted = wanted
        self.other = other
        self.failed = failed
        self.gate = gate

    def __missing__(self, fullname: str) -> Any:
        if fullname in self.wanted:
            # Speed trick: torch's and typeshed's annotations, nearly all of them (41,000
            # on thunder), where the analyzer's module gets no reports: answered without
            # a call. Measured: thunder, these lookups 2.57 M -> 1.25 M bytecodes.
            gate = self.gate
            try:
                if _analyzed_module(gate.analyzer) is gate.unreported_tree:
                    return None
            except AttributeError:  # no analyzer seen yet, or it is in no module yet
                pass
            try:
                return self.lookup(fullname)
            except Exception as error:
                self.failed("get_type_analyze_hook", fullname, error)
                return None
        answer = self.other(fullname)
        if answer is None:  # nearly every name: never asked again
            self[fullname] = None
        return answer


#: The analyzer's module, read without a Python call (see _NoneForOtherNames).
_analyzed_module = compat.ANALYZED_MODULE_GETTER

#: Lookups whose answer depends only on the name and the settings.
_NAME_ONLY_LOOKUPS = (
    "get_function_hook",
    "get_function_signature_hook",
    "get_method_signature_hook",
    "get_method_hook",
    "get_base_class_hook",
)


def _default_return(ctx: FunctionContext | MethodContext) -> Type:
    return ctx.default_return_type


def _default_signature(ctx: FunctionSigContext | MethodSigContext) -> FunctionLike:
    return ctx.default_signature


def _nothing(ctx: Any) -> None:
    return None


def _check_bare_condition(checker: BareConditionChecker, fullname: str,
                          ctx: AnalyzeTypeContext) -> None:
    checker.check(ctx, fullname)


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


def _in_python_source(fullname: str, modules: dict[str, MypyFile] | None) -> bool:
    """True if the longest module prefix of ``fullname`` in the build is a ``.py`` file."""
    if not modules:
        return False
    name = fullname
    while "." in name:
        name = name.rpartition(".")[0]
        module = modules.get(name)
        if module is not None:
            return module.path.endswith(".py")
    return False


class ProxyTypesPlugin(Plugin):
    """Reports places where dynamic numbers are treated as static ones."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.debug = debugging()
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
        self._configured_classes = [
            ("dynamic_number_classes", name) for name in self.config.dynamic_number_classes
        ] + [("migrate_classes", name) for name in self.config.migrate_classes]
        # Speed trick: worked out once per module tree, not at every isinstance call
        # (keyed by name, checked against the tree: the same in every worker).
        # Measured on thunder-0.2.6: 3,646 questions, 113 worked out (44 us each).
        self._reports_by_module: dict[str, tuple[MypyFile, int, list[Callable[[Any], None]]]] = {}
        # Speed trick: asked once per module on every run, warm ones included, so the
        # answer is a constant. Measured: to_data() takes 6.4 us, on 1,685 modules a run.
        self._config_data = self.config.to_data()
        #: Every module of the build by name (set_modules); None before mypy sets it.
        self.build_modules: dict[str, MypyFile] | None = None
        # Internal errors already reported: (check or lookup, exception and where it was
        # raised, file).
        self._internal_errors: set[tuple[str, str, str]] = set()
        # `fix` collects the arguments mypy's arg-type errors are about: every call is hooked.
        self.record_arguments = collectors.recording_arguments()
        collectors.note_cache(options.cache_dir, options.python_version,
                              options.incremental and not options.bazel)
        self._analyzing_unresolved = False
        # mypy's cache follows the plugin's code: its version carries a hash of the
        # sources.  dmypy: a changed version also restarts the daemon, so the settings'
        # hash goes in too.  Plain mypy relies on report_config_data for settings
        # instead, which keeps the cache of installed libraries (torch) valid.
        from .source_version import plugin_version

        daemon = "mypy.dmypy_server" in sys.modules
        import mypy_plugin

        compat.set_plugin_version(plugin_version(
            mypy_plugin.__version__.split("+")[0], options.cache_dir,
            self.config.fingerprint() if daemon else None))
        # The class's lookup methods stay the reference; these shadow them per instance.
        for name in _NAME_ONLY_LOOKUPS:
            setattr(self, name,
                    _AnswersByName(getattr(self, name), name, self._lookup_failed).__getitem__)
        wanted = _NoneForOtherNames(self.get_type_analyze_hook, _TYPE_HOOK_CLASSES,
                                    self._unresolved_type_hook, self._lookup_failed, self.gate)
        setattr(self, "get_type_analyze_hook", wanted.__getitem__)

    @cached_property
    def missing_modules(self) -> MissingModules:
        from .analysis.imports import MissingModules

        return MissingModules(self.dynamic_fullnames, self.options)

    @cached_property
    def dynamic(self) -> DynamicClasses:
        from .analysis.dynamic import DynamicClasses
        from .analysis.flow import FlowAnalysis

        dynamic = DynamicClasses(self.dynamic_fullnames,
                                 guarded=frozenset(self.config.guarded_number_classes))
        dynamic.flow = FlowAnalysis(self.config, dynamic)
        return dynamic

    @cached_property
    def boolean_contexts(self) -> BooleanContexts:
        from .checks.comparisons import BooleanContexts

        return BooleanContexts()

    @cached_property
    def type_comparisons(self) -> TypeComparisons:
        from .checks.type_comparisons import TypeComparisons

        return TypeComparisons()

    @cached_property
    def casts(self) -> CastChecker:
        from .checks.casts import CastChecker

        return CastChecker(self.gate, self.dynamic)

    @cached_property
    def bare_conditions(self) -> BareConditionChecker:
        from .checks.bare_conditions import BareConditionChecker

        return BareConditionChecker()

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        """Settings stored in mypy's cache, so changing them rechecks modules.

        Installed libraries (torch...) are left out: their errors are never shown,
        and rechecking them on each settings change would cost the most time.
        """
        if is_installed_library(ctx.path):
            return None
        # While the command line collects reports, modules with reports are rechecked.
        return collectors.cache_data(ctx.id, ctx.path, ctx.is_check, self._config_data)

    # -- every hook runs through this ---------------------------------------

    def _guarded(self, check: str, body: Callable[[_Ctx], _Result],
                 default: Callable[[_Ctx], _Result],
                 runs: frozenset[VerdictName] = RUNS_WHERE_REPORTED,
                 ) -> Callable[[_Ctx], _Result]:
        """``body`` as a semantic-analysis hook: an error in it becomes one
        proxy-internal report and mypy gets its own ``default`` answer
        (``PROXY_TYPES_DEBUG=1``: the error propagates).  ``body`` runs only in
        modules whose verdict (``gate.py``) is in ``runs``.  Checker hooks:
        :meth:`_checker_hook`.
        """
        everywhere = runs == RUNS_EVERYWHERE

        def hook(ctx: _Ctx) -> _Result:
            api = ctx.api  # type: ignore[attr-defined]  # every hook context has one
            try:
                verdict = Verdict.REPORTED if everywhere else self._analysis_verdict(api)
            except Exception as error:
                self._failed(api, ctx, check, error)
                return default(ctx)
            if verdict not in runs:
                return default(ctx)  # torch's own code, mostly: nothing can be reported
            try:
                answer = body(ctx)
            except Exception as error:
                self._failed(api, ctx, check, error)
                return default(ctx)
            return default(ctx) if answer is None else answer

        return hook

    def _checker_hook(self, check: str, body: Callable[[_Ctx], _Result],
                      default: Callable[[_Ctx], _Result],
                      runs: frozenset[VerdictName] = RUNS_WHERE_REPORTED,
                      also: tuple[tuple[str, Callable[[_Ctx], object], frozenset[VerdictName]],
                                  ...] = ()) -> Callable[[_Ctx], _Result]:
        """:meth:`_guarded` for a checker hook (function, method and signature hooks).

        Each ``(check, part, runs)`` of ``also`` runs after ``body`` under its own
        verdicts (its answer unused).  Checker hooks also settle reports made during
        mypy's trials, once before anything runs, and report modules defining dynamic
        classes that the module imports but mypy cannot find.
        Speed trick: the checker hooks run 19,000 times a cold thunder run; the module
        is asked about once per module, the rest is one C call and a comparison.
        Measured: thunder, the wrapper 1.64 M -> 1.08 M bytecodes.
        """
        from . import reporting

        provisional = reporting.provisional
        gate = self.gate
        checked_tree = compat.CHECKED_TREE_GETTER
        parts = ((check, body, runs), *also)
        runs_somewhere = frozenset().union(*(part_runs for _, _, part_runs in parts))
        single = not also

        def first_in_module(api: CheckerPluginInterface) -> VerdictName:
            verdict = self._checker_verdict(api)
            if verdict in RUNS_WHERE_VISIBLE:
                self._report_missing_modules(api)
            return verdict

        def hook(ctx: _Ctx) -> _Result:
            api = ctx.api  # type: ignore[attr-defined]  # every hook context has one
            try:
                if provisional:
                    reporting.settle_at_hook(api)
                verdict = gate.checked_verdict if checked_tree(api) is gate.checked_tree \
                    else first_in_module(api)
            except Exception as error:
                self._failed(api, ctx, check, error)
                return default(ctx)
            if verdict not in runs_somewhere:
                return default(ctx)  # torch's own code, mostly: nothing can be reported
            start = len(provisional)
            answer: _Result | None = None
            if single:  # nearly every hook
                try:
                    answer = body(ctx)
                except Exception as error:
                    self._failed(api, ctx, check, error)
            else:
                answer = self._run_parts(ctx, api, parts, verdict)
            if len(provisional) > start:
                try:  # after every part: a part may rewrite a type another one reported on
                    reporting.hook_done(start)
                except Exception as error:
                    self._failed(api, ctx, check, error)
            return default(ctx) if answer is None else answer

        return hook

    def _failed(self, api: Any, ctx: _Ctx, check: str, error: Exception) -> None:
        """An error in a hook's part: one proxy-internal report (``PROXY_TYPES_DEBUG=1``:
        the error propagates)."""
        if self.debug:
            raise error
        self._internal_error(api, _context_of(ctx), check, error)

    def _run_parts(self, ctx: _Ctx, api: Any,
                   parts: tuple[tuple[str, Callable[[_Ctx], Any], frozenset[VerdictName]], ...],
                   verdict: VerdictName) -> Any:
        """Each part that runs under ``verdict``, its errors reported; the first one's answer."""
        answer = None
        for index, (name, part, part_runs) in enumerate(parts):
            if verdict not in part_runs:
                continue
            try:
                result = part(ctx)
                if index == 0:
                    answer = result
            except Exception as error:
                self._failed(api, ctx, name, error)
        return answer

    def _checker_verdict(self, api: CheckerPluginInterface) -> VerdictName:
        """The gate's verdict for the module a checker hook runs in, asked once per module.

        In a module whose errors mypy discards the plugin leaves the module's
        checker, unless migration mode keeps branches there (a type effect).
        Speed trick: torch's own modules then stop asking about each call they check.
        Measured: thunder cold, hook calls 27,989 -> 19,019, 1.0281x -> 1.0240x mypy's
        instructions.
        """
        verdict = self.gate.in_checker(api)
        if verdict == Verdict.HIDDEN and not self.config.migrate_classes \
                and compat.reports_hidden(api):
            compat.leave_checked_module(api, self)
        return verdict

    def _analysis_verdict(self, api: Any) -> VerdictName:
        """The gate's verdict for a semantic-analysis hook (its API is the analyzer or a
        type analyzer); REPORTED when the analyzer cannot be found (the check decides)."""
        semanal = api if isinstance(api, SemanticAnalyzer) else compat.semantic_analyzer_of(api)
        return Verdict.REPORTED if semanal is None else self.gate.in_analyzer(semanal)

    def _analysis_hook(
        self, check: str, default_analysis: Callable[[AnalyzeTypeContext], Type],
        body: Callable[[AnalyzeTypeContext], None],
    ) -> Callable[[AnalyzeTypeContext], Type]:
        """A type-analysis hook: mypy's own analysis, then ``body`` guarded."""
        guarded = self._guarded(check, body, _nothing)

        def hook(ctx: AnalyzeTypeContext) -> Type:
            analyzed = default_analysis(ctx)
            guarded(ctx)
            return analyzed

        return hook

    def _internal_error(self, api: Any, context: Context, check: str, error: Exception) -> None:
        """One proxy-internal line per distinct error and file: the check, the place, the
        exception.  None in files whose errors mypy hides (nobody would see it)."""
        explained = _explained(error)
        from . import errors

        try:
            path = compat.current_path(api)
            if compat.file_hidden(compat.errors_of(api), path):
                return
            if (check, explained, path) in self._internal_errors:
                return
            self._internal_errors.add((check, explained, path))
            errors.internal_error(api, context, check, f"{path}:{context.line}", explained)
        except Exception as reporting_error:  # even reporting failed: mypy's stderr, once
            print(f"proxy-types: internal error in check {check!r}: {explained}; reporting it "
                  f"failed too: {_explained(reporting_error)}", file=sys.stderr)

    def _lookup_failed(self, lookup: str, fullname: str, error: Exception) -> None:
        """One stderr line per lookup and kind of error (the first name it failed for)."""
        if self.debug:
            raise error
        explained = _explained(error)
        kind = type(error).__name__ + _raised_at(error)
        if (lookup, kind, "") not in self._internal_errors:
            self._internal_errors.add((lookup, kind, ""))
            print(f"proxy-types: internal error in {lookup}({fullname!r}): {explained}; "
                  "checks of this name are off", file=sys.stderr)

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

    # -- checker hooks ------------------------------------------------------

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        return self._recording_arguments(self._function_hook(fullname))

    def _recording_arguments(self, hook: Callable[[_Ctx], Type] | None
                             ) -> Callable[[_Ctx], Type] | None:
        """``hook``, also recording passed arguments while ``fix`` collects them."""
        if not self.record_arguments:
            return hook
        from .checks import passed_arguments

        def record(ctx: Any) -> Type:
            passed_arguments.record_passed_arguments(ctx, self.dynamic)
            return _default_return(ctx)

        recorded = self._checker_hook("passed_arguments", record, _default_return,
                                      RUNS_WHERE_VISIBLE)

        def both(ctx: Any) -> Type:
            recorded(ctx)
            return hook(ctx) if hook is not None else _default_return(ctx)

        return both

    def _function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname in _SINK_FUNCTIONS or fullname in self.config.concretizing_functions:
            return self._sink_function_hook(fullname)
        function = ISINSTANCE_FUNCTIONS.get(fullname)
        positions = (0, 1)
        if function is None and fullname in self.config.isinstance_functions:
            function = fullname.rpartition(".")[2]
            positions = self.config.isinstance_functions[fullname]
        if function is None and fullname in SIZE_SINK_FUNCTIONS and self.config.symbolic_shapes:
            return self._size_sink_hook(fullname)
        if function is None:
            return self._call_site_hook(fullname)
        name = function
        from .checks import isinstance_calls

        def validate(ctx: FunctionContext) -> Type:
            self._validate_configured_classes(ctx.api)
            return ctx.default_return_type

        def check(ctx: FunctionContext) -> Type:
            isinstance_calls.check_isinstance_call(
                ctx, name, self.config, self.dynamic, positions
            )
            return ctx.default_return_type

        def keep_branches(ctx: FunctionContext) -> Type:
            isinstance_calls.keep_legacy_branches(ctx, self.config, self.dynamic, positions)
            return ctx.default_return_type

        # Set-up reports where anything is shown; the check where reports are wanted;
        # migration mode's branch keeping (a type effect, no report) everywhere.
        also: tuple[tuple[str, Callable[[FunctionContext], object], frozenset[VerdictName]], ...] = (
            ("configuration", validate, RUNS_WHERE_VISIBLE),)
        if self.config.migrate_classes and name == "isinstance":
            also += (("migrate", keep_branches, RUNS_EVERYWHERE),)
        return self._checker_hook("isinstance_calls", check, _default_return, also=also)

    def _sink_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type]:
        """The hook of a call that may use a dynamic number as a static one."""
        check: Callable[[FunctionContext], None]
        if fullname == TYPE_FUNCTION:
            from .checks import type_comparisons

            comparisons = self.type_comparisons

            def check(ctx: FunctionContext) -> None:
                type_comparisons.check_type_call(ctx, self.config, self.dynamic, comparisons)
        elif fullname in ITEMS_TRUTH_FUNCTIONS:
            from .checks import items_truth

            shown = ITEMS_TRUTH_FUNCTIONS[fullname]

            def check(ctx: FunctionContext) -> None:
                items_truth.check_items_truth(ctx, shown, self.config, self.dynamic)
        elif fullname in DISPLAY_FUNCTIONS:
            from .checks import hashing

            operation = DISPLAY_FUNCTIONS[fullname]

            def check(ctx: FunctionContext) -> None:
                hashing.check_display(ctx, fullname, operation, self.config, self.dynamic)
        else:
            from .checks import concretizing_calls

            def check(ctx: FunctionContext) -> None:
                concretizing_calls.check_concretizing_call(ctx, fullname, self.config,
                                                           self.dynamic)

        def hook(ctx: FunctionContext) -> Type:
            check(ctx)
            return ctx.default_return_type

        name = {TYPE_FUNCTION: "type_comparisons"}.get(fullname) or (
            "items_truth" if fullname in ITEMS_TRUTH_FUNCTIONS
            else "hashing" if fullname in DISPLAY_FUNCTIONS else "concretizing_calls")
        return self._checker_hook(name, hook, _default_return)

    def get_function_signature_hook(
        self, fullname: str
    ) -> Callable[[FunctionSigContext], FunctionLike] | None:
        operation = concretizing_operation(fullname)
        if operation is None:
            return None
        from .checks import conversions

        def check(ctx: FunctionSigContext) -> FunctionLike:
            return conversions.check_conversion(ctx, operation, self.config, self.dynamic,
                                                fullname)

        return self._checker_hook("conversions", check, _default_signature)

    def get_method_signature_hook(
        self, fullname: str
    ) -> Callable[[MethodSigContext], FunctionLike] | None:
        operation = INDEXING_METHODS.get(fullname)
        if operation is None:
            return None
        from .checks import conversions

        def check(ctx: MethodSigContext) -> FunctionLike:
            return conversions.check_conversion(ctx, operation, self.config, self.dynamic,
                                                INDEXING_OPERATION)

        return self._checker_hook("conversions", check, _default_signature)

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        return self._recording_arguments(self._method_hook(fullname))

    def _method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if fullname in HASHING_METHODS:
            from .checks import hashing

            operation = HASHING_METHODS[fullname]

            def check_hashing(ctx: MethodContext) -> Type:
                hashing.check_hashing_method(ctx, operation, self.config, self.dynamic)
                return ctx.default_return_type

            return self._checker_hook("hashing", check_hashing, _default_return)
        if fullname == STR_FORMAT_METHOD:
            from .checks import format_specs

            def check_format(ctx: MethodContext) -> Type:
                format_specs.check_str_format(ctx, self.config, self.dynamic)
                return ctx.default_return_type

            return self._checker_hook("format_specs", check_format, _default_return)
        if fullname in ABC_REGISTER_METHODS:
            from .checks import bases

            def check_register(ctx: MethodContext) -> Type:
                bases.check_abc_register(ctx, self.config, self.dynamic)
                return ctx.default_return_type

            return self._checker_hook("bases", check_register, _default_return, RUNS_EVERYWHERE)
        if is_comparison_method(fullname):
            from .checks import comparisons

            def check_comparison(ctx: MethodContext) -> Type:
                comparisons.check_comparison(
                    ctx, self.config, self.dynamic, self.boolean_contexts
                )
                return ctx.default_return_type

            return self._checker_hook("comparisons", check_comparison, _default_return)
        return self._call_site_hook(fullname)

    def _call_site_hook(self, fullname: str) -> Callable[[Any], Type] | None:
        """Calls of a function with Python source: arguments reaching its sinks (call_sites)."""
        if not _in_python_source(fullname, self.build_modules):
            return None  # builtins, stubs: nothing is imported for them
        from .checks import call_sites

        target = call_sites.target_for(fullname, self.build_modules)
        if target is None:
            return None
        env = self.call_site_env

        def check(ctx: Any) -> Type:
            call_sites.check(ctx, env, target)
            return _default_return(ctx)

        return self._checker_hook("call_sites", check, _default_return)

    def _size_sink_hook(self, fullname: str) -> Callable[[FunctionContext], Type]:
        """``len(t)``, ``min``/``max`` over sizes in traced code (size_sinks)."""
        from .checks import size_sinks

        env = self.call_site_env

        def check(ctx: FunctionContext) -> Type:
            size_sinks.check(ctx, env, fullname)
            return ctx.default_return_type

        return self._checker_hook("size_sinks", check, _default_return)

    @cached_property
    def call_site_env(self) -> Any:
        from .analysis.entry_points import EntryPoints
        from .analysis.summaries import Summaries
        from .checks.call_sites import CallSiteEnv

        return CallSiteEnv(self.dynamic, self.dynamic.flow, Summaries(),
                           EntryPoints(self.config.traced_entry_points))

    # -- semantic analyzer hooks --------------------------------------------

    def get_type_analyze_hook(
        self, fullname: str
    ) -> Callable[[AnalyzeTypeContext], Type] | None:
        # The only hooks that run for typing.cast() and for `if flag:`: the analysis of
        # the cast's target type and of the flag parameter's annotation.
        if fullname not in _TYPE_HOOK_CLASSES:  # the instance's dict filters these out first
            return None
        if not self.gate.current_analysis_reported():
            # Both hooks only report, and would report nothing here (torch's own code,
            # stubs): leave the analysis to mypy instead of re-entering it.
            return None
        if self.casts.wants(fullname):
            return self._cast_hook
        if self.bare_conditions.wants(fullname):
            return self._bare_condition_hooks[fullname]
        return None

    @cached_property
    def _cast_hook(self) -> Callable[[AnalyzeTypeContext], Type]:
        return self._analysis_hook("casts", self.casts.default_analysis, self.casts.check)

    @cached_property
    def _bare_condition_hooks(self) -> dict[str, Callable[[AnalyzeTypeContext], Type]]:
        checker = self.bare_conditions
        return {
            fullname: self._analysis_hook("bare_conditions", checker.default_analysis,
                                          partial(_check_bare_condition, checker, fullname))
            for fullname in DYNAMIC_BOOL_CLASSES
        }

    def _unresolved_type_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        """For a name in a module that defines dynamic classes and that mypy cannot find
        (``torch.SymInt`` without torch): a hook reporting that module.

        Asked again each time such a name is analyzed (not kept in the lookup's
        dict), so that while the hook runs mypy's own analysis it answers None.
        """
        if self._analyzing_unresolved:
            return None
        try:
            module = self.missing_modules.unresolved_for_name(fullname, self.build_modules)
        except Exception as error:
            self._lookup_failed("get_type_analyze_hook", fullname, error)
            return None
        return None if module is None else self._unresolved_hook

    @cached_property
    def _unresolved_hook(self) -> Callable[[AnalyzeTypeContext], Type]:
        from mypy.types import AnyType, TypeOfAny, get_proper_type

        def report(ctx: AnalyzeTypeContext) -> None:
            semanal = compat.semantic_analyzer_of(ctx.api)
            tree = compat.analyzed_module(semanal) if semanal is not None else None
            if tree is not None and not is_installed_library(tree.path):
                self.missing_modules.report(ctx.api, tree, self.build_modules)

        guarded = self._guarded("imports", report, _nothing, RUNS_WHERE_VISIBLE)

        def hook(ctx: AnalyzeTypeContext) -> Type:
            self._analyzing_unresolved = True
            try:
                analyzed = ctx.api.analyze_type(ctx.type)
            finally:
                self._analyzing_unresolved = False
            proper = get_proper_type(analyzed)
            # mypy's own verdict: the name comes from a module it could not find.
            if isinstance(proper, AnyType) and proper.type_of_any == TypeOfAny.from_unimported_type:
                guarded(ctx)
            return analyzed

        return hook

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        # Every offending class lists a static number class or a known dynamic one
        # among its bases (hooks are keyed by the base named in the class statement).
        if fullname not in STATIC_NUMBER_CLASSES and fullname not in self.dynamic_fullnames:
            return None
        from .checks import bases

        def check(ctx: ClassDefContext) -> None:
            bases.check_class_bases(ctx, self.config, self.dynamic)

        return self._guarded("bases", check, _nothing, RUNS_EVERYWHERE)

    def get_customize_class_mro_hook(
        self, fullname: str
    ) -> Callable[[ClassDefContext], None] | None:
        # Keyed by the class itself: the hook decides by the class's MRO.
        if not self.config.migrate_classes:
            return None
        from .checks import migrate

        def hide(ctx: ClassDefContext) -> None:
            migrate.hide_static_bases(ctx, self.config)

        return self._guarded("migrate", hide, _nothing, RUNS_EVERYWHERE)

    # -- modules defining dynamic classes that mypy cannot find -------------

    def _report_missing_modules(self, api: CheckerPluginInterface) -> None:
        """At a checker's first hook in a module: its imports of missing modules."""
        tree = compat.checked_tree(api)
        if tree is not None:
            self.missing_modules.report(api, tree, self.build_modules, again=True)

    # -- configuration ------------------------------------------------------

    def _validate_configured_classes(self, api: CheckerPluginInterface) -> None:
        """Report configured names that resolve to something other than a class.

        Reported at line 1 of each module that runs an isinstance check, because
        the config file itself is not a module mypy reports into.  Reported again
        at each check: mypy drops the errors of some trial checks.
        """
        if not self._configured_classes:
            return
        tree = compat.checked_tree(api)
        if tree is None:
            return
        for report in self._configuration_reports(tree):
            report(api)

    def _configuration_reports(self, tree: MypyFile) -> list[Callable[[Any], None]]:
        """The reports about configured names for ``tree``, worked out once per module tree."""
        cached = self._reports_by_module.get(tree.fullname)
        if cached is not None and cached[0] is tree and cached[1] == len(tree.imports):
            return cached[2]
        from . import errors

        # Only modules this one imports: they are loaded in every worker (mypy -n).
        from .analysis.imports import imports_of

        visible = imports_of(tree).modules | {tree.fullname}
        first_line = Context(line=1, column=0)
        config_file = self.config.config_file
        reports: list[Callable[[Any], None]] = []
        for setting, name in self._configured_classes:
            module = name.rpartition(".")[0]
            modules = self.build_modules
            if modules is None or module not in modules or module not in visible:
                continue  # not part of this build (inert) or not imported here
            symbol = self.lookup_fully_qualified(name)
            if symbol is None:
                reports.append(partial(errors.no_such_class, context=first_line,
                                       config_file=config_file, name=name, setting=setting))
                continue
            node = symbol.node
            if node is None or isinstance(node, (TypeInfo, TypeAlias)):
                continue
            kind = _KIND_NAMES.get(type(node).__name__, type(node).__name__)
            reports.append(partial(errors.not_a_class, context=first_line,
                                   config_file=config_file, name=name, kind=kind,
                                   setting=setting))
        self._reports_by_module[tree.fullname] = (tree, len(tree.imports), reports)
        return reports


_KIND_NAMES = {
    "FuncDef": "function",
    "OverloadedFuncDef": "function",
    "Decorator": "function",
    "Var": "variable",
    "MypyFile": "module",
}

