"""The mypy ``Plugin``: routes each hook by fully qualified name to one feature module."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cached_property, partial
from typing import TYPE_CHECKING, Any, TypeVar

from mypy.nodes import Context, MypyFile, TypeAlias, TypeInfo
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

from . import findings
from .analysis.context import current_file, reports_hidden
from .analysis.imports import imports_of
from .config import ProxyTypesConfig, is_installed_library
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

# The checking modules are imported on a hook's first use, not here: a warm run
# (everything cached) asks for no hook, and their import was a fifth of its
# plugin overhead (docs/performance.md).
if TYPE_CHECKING:
    from .checks.bare_conditions import BareConditionChecker
    from .checks.casts import CastChecker
    from .checks.comparisons import BooleanContexts
    from .checks.type_comparisons import TypeComparisons
    from .analysis.dynamic import DynamicClasses
    from .analysis.semanal import ReportedModules

#: Functions (and mypy's made-up display functions) whose calls may use a dynamic number
#: as a static one; ``concretizing_functions`` adds the configured helpers.
_SINK_FUNCTIONS: frozenset[str] = (
    frozenset(DISPLAY_FUNCTIONS) | frozenset(ITEMS_TRUTH_FUNCTIONS) | {TYPE_FUNCTION}
)

#: Every class name either type-analysis hook wants (casts.wants, bare_conditions.wants).
_TYPE_HOOK_CLASSES: frozenset[str] = STATIC_NUMBER_CLASSES | frozenset(DYNAMIC_BOOL_CLASSES)

_Ctx = TypeVar("_Ctx")
_Result = TypeVar("_Result")


def _never_crash(
    body: Callable[[_Ctx], _Result], default: Callable[[_Ctx], _Result]
) -> Callable[[_Ctx], _Result]:
    """Run ``body``; on any unexpected error give mypy its own default answer."""

    def hook(ctx: _Ctx) -> _Result:
        try:
            return body(ctx)
        except Exception:
            return default(ctx)

    return hook


class _AnswersByName(dict[str, Any]):
    """A hook lookup's answers, kept by name; the lookup runs for new names only.

    Installed in place of the lookup method (its bound ``__getitem__``), so a
    repeated question runs no Python code at all: mypy asks before every call
    it checks (263k times on thunder) and keeps no answer itself.
    """

    def __init__(self, lookup: Callable[[str], Any]) -> None:
        super().__init__()
        self.lookup = lookup

    def __missing__(self, fullname: str) -> Any:
        answer = self[fullname] = self.lookup(fullname)
        return answer


class _NoneForOtherNames(dict[str, Any]):
    """Like :class:`_AnswersByName` for a lookup whose answer for ``wanted`` names
    depends on more than the name: those are asked every time, the others never again."""

    def __init__(self, lookup: Callable[[str], Any], wanted: frozenset[str]) -> None:
        super().__init__()
        self.lookup = lookup
        self.wanted = wanted

    def __missing__(self, fullname: str) -> Any:
        if fullname in self.wanted:
            return self.lookup(fullname)
        self[fullname] = None
        return None


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


def _nothing(ctx: ClassDefContext) -> None:
    return None


class ProxyTypesPlugin(Plugin):
    """Reports places where dynamic numbers are treated as static ones."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.config = ProxyTypesConfig(options.config_file)
        self.dynamic_fullnames = (
            DEFAULT_DYNAMIC_CLASSES
            | frozenset(self.config.dynamic_number_classes)
            | frozenset(self.config.migrate_classes)
        )
        self._configured_classes = [
            ("dynamic_number_classes", name) for name in self.config.dynamic_number_classes
        ] + [("migrate_classes", name) for name in self.config.migrate_classes]
        # Per module (keyed by name, checked against the tree): the same in every worker.
        self._reports_by_module: dict[str, tuple[MypyFile, int, list[Callable[[Any], None]]]] = {}
        # Asked once per module on every run, warm ones included: answer from a constant.
        self._config_data = self.config.to_data()
        if "mypy.dmypy_server" in sys.modules:
            # dmypy: a changed plugin version restarts the daemon.  Plain mypy relies
            # on report_config_data instead, which keeps the cache of installed
            # libraries (torch) valid across settings changes.
            _fold_config_into_version(self.config.fingerprint())
        # The class's lookup methods stay the reference; these shadow them per instance.
        for name in _NAME_ONLY_LOOKUPS:
            setattr(self, name, _AnswersByName(getattr(self, name)).__getitem__)
        wanted = _NoneForOtherNames(self.get_type_analyze_hook, _TYPE_HOOK_CLASSES)
        setattr(self, "get_type_analyze_hook", wanted.__getitem__)
        if not self.config.migrate_classes:  # asked once per class: None, from C
            setattr(self, "get_customize_class_mro_hook", {}.get)

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
    def reported_modules(self) -> ReportedModules:
        from .analysis.semanal import ReportedModules

        return ReportedModules(self.config)

    @cached_property
    def casts(self) -> CastChecker:
        from .checks.casts import CastChecker

        return CastChecker(self.reported_modules, self.dynamic)

    @cached_property
    def bare_conditions(self) -> BareConditionChecker:
        from .checks.bare_conditions import BareConditionChecker

        return BareConditionChecker(self.reported_modules)

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        """Settings stored in mypy's cache, so changing them rechecks modules.

        Installed libraries (torch...) are left out: their errors are never shown,
        and rechecking them on each settings change would cost the most time.
        """
        if is_installed_library(ctx.path):
            return None
        # While the command line collects reports, modules with reports are rechecked.
        return findings.cache_data(ctx.path, ctx.is_check, self._config_data)

    # -- checker hooks ------------------------------------------------------

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname in _SINK_FUNCTIONS or fullname in self.config.concretizing_functions:
            return self._sink_function_hook(fullname)
        function = ISINSTANCE_FUNCTIONS.get(fullname)
        positions = (0, 1)
        if function is None and fullname in self.config.isinstance_functions:
            function = fullname.rpartition(".")[2]
            positions = self.config.isinstance_functions[fullname]
        if function is None:
            return None
        name = function
        from .checks import isinstance_calls

        def check(ctx: FunctionContext) -> Type:
            self._validate_configured_classes(ctx.api)
            isinstance_calls.check_isinstance_call(
                ctx, name, self.config, self.dynamic, positions
            )
            return ctx.default_return_type

        return _never_crash(check, _default_return)

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

        return _never_crash(hook, _default_return)

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

        return _never_crash(check, _default_signature)

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

        return _never_crash(check, _default_signature)

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        if fullname in HASHING_METHODS:
            from .checks import hashing

            operation = HASHING_METHODS[fullname]

            def check_hashing(ctx: MethodContext) -> Type:
                hashing.check_hashing_method(ctx, operation, self.config, self.dynamic)
                return ctx.default_return_type

            return _never_crash(check_hashing, _default_return)
        if fullname == STR_FORMAT_METHOD:
            from .checks import format_specs

            def check_format(ctx: MethodContext) -> Type:
                format_specs.check_str_format(ctx, self.config, self.dynamic)
                return ctx.default_return_type

            return _never_crash(check_format, _default_return)
        if fullname in ABC_REGISTER_METHODS:
            from .checks import bases

            def check_register(ctx: MethodContext) -> Type:
                bases.check_abc_register(ctx, self.config, self.dynamic)
                return ctx.default_return_type

            return _never_crash(check_register, _default_return)
        if is_comparison_method(fullname):
            from .checks import comparisons

            def check_comparison(ctx: MethodContext) -> Type:
                comparisons.check_comparison(
                    ctx, self.config, self.dynamic, self.boolean_contexts
                )
                return ctx.default_return_type

            return _never_crash(check_comparison, _default_return)
        return None

    # -- semantic analyzer hooks --------------------------------------------

    def get_type_analyze_hook(
        self, fullname: str
    ) -> Callable[[AnalyzeTypeContext], Type] | None:
        # The only hooks that run for typing.cast() and for `if flag:`: the analysis of
        # the cast's target type and of the flag parameter's annotation.
        if fullname not in _TYPE_HOOK_CLASSES:  # the instance's dict filters these out first
            return None
        if self.reported_modules.current_module_hidden():
            # Both hooks only report, and would report nothing here (torch's own code,
            # stubs): leave the analysis to mypy instead of re-entering it.
            return None
        if self.casts.wants(fullname):
            return self.casts.analyze
        if self.bare_conditions.wants(fullname):
            return self.bare_conditions.hook(fullname)
        return None

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        # Every offending class lists a static number class or a known dynamic one
        # among its bases (hooks are keyed by the base named in the class statement).
        if fullname not in STATIC_NUMBER_CLASSES and fullname not in self.dynamic_fullnames:
            return None
        from .checks import bases

        def check(ctx: ClassDefContext) -> None:
            bases.check_class_bases(ctx, self.config, self.dynamic)

        return _never_crash(check, _nothing)

    def get_customize_class_mro_hook(
        self, fullname: str
    ) -> Callable[[ClassDefContext], None] | None:
        # Keyed by the class itself: the hook decides by the class's MRO.
        if not self.config.migrate_classes:
            return None
        from .checks import migrate

        def hide(ctx: ClassDefContext) -> None:
            migrate.hide_static_bases(ctx, self.config)

        return _never_crash(hide, _nothing)

    # -- configuration ------------------------------------------------------

    def _validate_configured_classes(self, api: CheckerPluginInterface) -> None:
        """Report configured names that resolve to something other than a class.

        Reported at line 1 of each module that runs an isinstance check, because
        the config file itself is not a module mypy reports into.  Reported again
        at each check: mypy drops the errors of some trial checks.
        """
        if not self._configured_classes:
            return
        tree = current_file(api)
        if tree is None or reports_hidden(api):
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
        visible = imports_of(tree).modules | {tree.fullname}
        first_line = Context(line=1, column=0)
        config_file = self.config.config_file
        reports: list[Callable[[Any], None]] = []
        for setting, name in self._configured_classes:
            module = name.rpartition(".")[0]
            if self._modules is None or module not in self._modules or module not in visible:
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


def _fold_config_into_version(fingerprint: str) -> None:
    # mypy snapshots the entry module's __version__ right after constructing the
    # plugin; dmypy restarts when the snapshot changes.
    import mypy_plugin

    base = mypy_plugin.__version__.split("+")[0]
    mypy_plugin.__version__ = f"{base}+config.{fingerprint}"
