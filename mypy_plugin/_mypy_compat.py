"""The one place where the plugin touches mypy beyond its documented plugin interface.

Every attribute of mypy's checker, semantic analyzer, error store and tree
nodes that the plugin reads or writes outside ``mypy.plugin`` is reached
through a function here.  :func:`check_features` probes them once, when the
plugin is built: a mypy release that moves one turns the feature that needs
it off, and :func:`startup_notices` says which and why, once per run, instead
of the plugin quietly doing less.  The tested mypy range is declared here too.
"""

from __future__ import annotations

import inspect
import operator
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING, Any, ContextManager, NamedTuple, Union

from mypy.errorcodes import ErrorCode
from mypy.plugin import (
    CheckerPluginInterface,
    Plugin,
    SemanticAnalyzerPluginInterface,
    TypeAnalyzerPluginInterface,
)
from mypy.version import __version__ as MYPY_VERSION

if TYPE_CHECKING:
    from mypy.errorcodes import ErrorCode
    from mypy.errors import ErrorInfo, Errors
    from mypy.nodes import Expression, FuncDef, MypyFile, Statement, TypeInfo
    from mypy.options import Options
    from mypy.semanal import SemanticAnalyzer
    from mypy.types import Instance, Type

AnyPluginInterface = Union[
    CheckerPluginInterface, SemanticAnalyzerPluginInterface, TypeAnalyzerPluginInterface
]

#: The mypy releases the whole test suite runs on (CI: both ends, each in its own venv).
OLDEST_TESTED = "1.11.2"
NEWEST_TESTED = "2.4.1"


def version_tuple(version: str) -> tuple[int, ...]:
    """``(2, 4, 1)`` for ``"2.4.1"`` and ``"2.4.1+dev.abc"``; non-numeric parts end it."""
    numbers: list[int] = []
    for part in version.split("+")[0].split("."):
        head = len(part) - len(part.lstrip("0123456789"))
        if head == 0:  # "dev3"
            break
        numbers.append(int(part[:head]))
        if head < len(part):  # "0rc1": the numeric head only
            break
    return tuple(numbers)


def version_notice(version: str = MYPY_VERSION) -> str | None:
    """A line saying ``version`` is outside the tested range, or None inside it."""
    found = version_tuple(version)
    if version_tuple(OLDEST_TESTED) <= found[:3] <= version_tuple(NEWEST_TESTED):
        return None
    return (f"proxy-types: mypy {version} is outside the tested range "
            f"{OLDEST_TESTED} to {NEWEST_TESTED}; the plugin runs, but unchecked internals may "
            "change what it reports (set PROXY_TYPES_DEBUG=1 to see internal errors as tracebacks)")


# -- features: what each needs from mypy, probed once ---------------------------


class Feature(NamedTuple):
    """Something the plugin does that needs mypy internals."""

    name: str
    #: What is lost without it, as the notice says.
    without: str
    #: ``(module, class, attribute)`` for each internal it reads or writes.
    needs: tuple[tuple[str, str, str], ...]


FEATURES: tuple[Feature, ...] = (
    Feature("trial-safe reports",
            "a report made while mypy tries an overload or infers a lambda may change "
            "what mypy infers there", (("mypy.errors", "Errors", "_watchers"),
                                       ("mypy.errors", "Errors", "error_info_map"))),
    Feature("trial outcomes",
            "reports made during mypy's trial checks are all kept, also those of trials "
            "mypy discards", (("mypy.checker", "TypeChecker", "_type_maps"),)),
    Feature("end-of-module confirmation",
            "reports of mypy's trial checks are confirmed at the next plugin hook rather "
            "than at the end of each module, and dmypy keeps a caller's call-site reports "
            "when only a callee's body changes, until the caller is edited or the daemon "
            "restarts", (("mypy.plugin", "Plugin",
                                                "get_additional_indirect_deps"),)),
    Feature("module of the checked call",
            "configured-class validation, missing-module reports and condition checks are off",
            (("mypy.checker", "TypeChecker", "tree"),)),
    Feature("hidden-module skipping",
            "checks also run in modules whose errors mypy hides (slower, same output)",
            (("mypy.errors", "Errors", "ignored_files"),)),
    Feature("statement under analysis",
            "cast() and bare `if flag:` checks are off",
            (("mypy.semanal", "SemanticAnalyzer", "statement"),
             ("mypy.semanal", "SemanticAnalyzer", "cur_mod_node"),
             ("mypy.typeanal", "TypeAnalyser", "api"))),
    Feature("expression types",
            "isinstance() against `int | float` operands and migration-mode narrowing are off",
            (("mypy.checker", "TypeChecker", "lookup_type_or_none"),
             ("mypy.checker", "TypeChecker", "lookup_type"),
             ("mypy.checker", "TypeChecker", "store_type"))),
    Feature("loaded modules",
            "isinstance() against a subclass of a dynamic class is treated as static",
            (("mypy.checker", "TypeChecker", "modules"),)),
    Feature("class bases edits",
            "migration mode cannot hide legacy proxies' static number bases",
            (("mypy.nodes", "TypeInfo", "bases"), ("mypy.nodes", "TypeInfo", "mro"),
             ("mypy.mro", "", "calculate_mro"), ("mypy.mro", "", "MroError"))),
    Feature("cache follows the plugin's code",
            "mypy's cache may keep results of an older version of the plugin's checks",
            (("mypy.build", "", "take_module_snapshot"),)),
    Feature("per-module import settings",
            "a module skipped by follow_imports = skip is reported as not found",
            (("mypy.options", "Options", "clone_for_module"),)),
    Feature("error code settings",
            "bare-condition reports ignore whether truthy-bool is enabled",
            (("mypy.errors", "Errors", "is_error_code_enabled"),)),
    Feature("function around a check",
            "traced_functions, symbolic_shapes and narrowing find nothing: the function "
            "around a check is unknown",
            (("mypy.checker", "TypeChecker", "scope"),
             ("mypy.semanal", "SemanticAnalyzer", "function_stack"))),
    Feature("silent type queries",
            "dynamic arguments of conversions are not found",
            (("mypy.messages", "MessageBuilder", "filter_errors"),
             ("mypy.messages", "MessageBuilder", "errors"))),
)

#: Feature name -> available; filled by :func:`check_features` (everything on until then).
AVAILABLE: dict[str, bool] = {feature.name: True for feature in FEATURES}
#: Feature name -> the internals it needs that were not found.
MISSING: dict[str, list[str]] = {}


def _has_attribute(module_name: str, class_name: str, attribute: str) -> bool:
    """Whether ``module.class`` defines ``attribute`` (compiled or interpreted mypy)."""
    import importlib

    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return False
    if not class_name:
        return hasattr(module, attribute)
    cls = getattr(module, class_name, None)
    if cls is None:
        return False
    if hasattr(cls, attribute):  # methods; every attribute of a compiled class
        return True
    if any(attribute in vars(klass).get("__annotations__", {}) for klass in cls.__mro__):
        return True
    try:  # interpreted mypy: attributes only assigned in methods
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return False
    return f"self.{attribute} =" in source or f"self.{attribute}:" in source


def check_features(probe: Callable[[str, str, str], bool] | None = None) -> list[str]:
    """Probe every feature's internals once; the names of the features turned off."""
    probe = probe or _has_attribute
    missing: list[str] = []
    MISSING.clear()
    for feature in FEATURES:
        absent = [f"{cls or module}.{attribute}" for module, cls, attribute in feature.needs
                  if not probe(module, cls, attribute)]
        AVAILABLE[feature.name] = not absent
        if absent:
            MISSING[feature.name] = absent
            missing.append(feature.name)
    return missing


def feature_notice(name: str) -> str:
    """The line saying feature ``name`` is off, what that costs and what is missing."""
    feature = next(feature for feature in FEATURES if feature.name == name)
    absent = ", ".join(MISSING.get(name, ()))
    return (f"proxy-types: {feature.name} is off on mypy {MYPY_VERSION} ({absent} not found): "
            f"{feature.without}")


def startup_notices() -> list[str]:
    """The lines to show once per run: mypy outside the tested range, features turned off."""
    notices = [feature_notice(name) for name in check_features()]
    outside = version_notice()
    return ([outside] if outside else []) + notices


# -- the file and module being checked ------------------------------------------


def current_path(api: AnyPluginInterface) -> str:
    """The file mypy reports into, as it names it in its messages.

    The checker declares ``path``; the semantic analyzer reports through its
    ``msg.errors``; a type analyzer through the semantic analyzer it serves.
    """
    if isinstance(api, CheckerPluginInterface):
        return api.path
    return errors_of(api).file


def errors_of(api: AnyPluginInterface) -> Errors:
    """mypy's store of reported errors (one per build), reached from any plugin API."""
    if isinstance(api, (CheckerPluginInterface, SemanticAnalyzerPluginInterface)):
        return api.msg.errors
    semantic_analyzer = api.api  # type: ignore[attr-defined]  # TypeAnalyser.api
    errors: Errors = semantic_analyzer.msg.errors
    return errors


def file_hidden(errors: Errors, file: str) -> bool:
    """True if mypy discards the errors of ``file`` (installed library, silenced module)."""
    if not AVAILABLE["hidden-module skipping"]:
        return False
    return file in errors.ignored_files


def import_skipped(options: Options, module: str) -> bool:
    """True if the config makes mypy skip ``module`` (``follow_imports = skip``)."""
    if not AVAILABLE["per-module import settings"]:
        return False
    return options.clone_for_module(module).follow_imports == "skip"


def _no_checked_tree(api: object) -> object:
    """Without ``TypeChecker.tree``: an object that is no module, so the routing layer
    asks the gate at every call (which then decides without the module)."""
    return _no_checked_tree


def checked_tree_getter() -> Callable[[object], object]:
    """Reads the checked module with one C call (for the routing layer's checker hooks),
    chosen by the probe: ask after :func:`check_features` has run."""
    if AVAILABLE["module of the checked call"]:
        return operator.attrgetter("tree")
    return _no_checked_tree


def checked_tree(api: CheckerPluginInterface) -> MypyFile | None:
    """The module the checker is in (``TypeChecker.tree``), or None without the feature."""
    if not AVAILABLE["module of the checked call"]:
        return None
    tree: MypyFile | None = getattr(api, "tree", None)
    return tree


def reports_hidden(api: CheckerPluginInterface) -> bool:
    """True if mypy discards this module's errors (installed library, silent import...)."""
    hidden = getattr(api, "can_skip_diagnostics", None)  # TypeChecker of mypy >= 1.16
    if isinstance(hidden, bool):
        return hidden
    if not AVAILABLE["hidden-module skipping"]:
        return False
    return api.path in api.msg.errors.ignored_files


def checker_modules(api: CheckerPluginInterface) -> dict[str, MypyFile]:
    """Every module of the build, by name (``TypeChecker.modules``); {} without the feature."""
    if not AVAILABLE["loaded modules"]:
        return {}
    modules: dict[str, MypyFile] = getattr(api, "modules")
    return modules


# -- the semantic analyzer behind a type-analysis hook ----------------------------


def semantic_analyzer_of(api: TypeAnalyzerPluginInterface) -> SemanticAnalyzer | None:
    """The semantic analyzer a type analyzer serves (``TypeAnalyser.api``)."""
    from mypy.semanal import SemanticAnalyzer

    if not AVAILABLE["statement under analysis"]:
        return None
    semanal = getattr(api, "api", None)
    return semanal if isinstance(semanal, SemanticAnalyzer) else None


def analyzed_statement(semanal: SemanticAnalyzer) -> Statement | None:
    """The statement the semantic analyzer is in (``SemanticAnalyzer.statement``)."""
    statement: Statement | None = semanal.statement
    return statement


def analyzer_modules(semanal: SemanticAnalyzer) -> dict[str, MypyFile]:
    """Every module of the build, by name, as the semantic analyzer sees them."""
    modules: dict[str, MypyFile] = getattr(semanal, "modules", None) or {}
    return modules


#: The semantic analyzer's attribute holding its module (unset before the first).
ANALYZED_MODULE_ATTRIBUTE = "cur_mod_node"


def analyzed_module(semanal: SemanticAnalyzer) -> MypyFile | None:
    """The module the semantic analyzer is in (``cur_mod_node``; unset before the first)."""
    tree: MypyFile | None = getattr(semanal, ANALYZED_MODULE_ATTRIBUTE, None)
    return tree


def error_code_enabled(api: AnyPluginInterface, code: ErrorCode) -> bool:
    """Whether mypy shows errors with ``code`` in the module being analyzed (True if unknown)."""
    if not AVAILABLE["error code settings"]:
        return True
    return bool(errors_of(api).is_error_code_enabled(code))


def enclosing_functions(api: object) -> list[FuncDef]:
    """The functions around the code mypy is checking or analyzing, outermost first.

    Lambdas are left out (their bodies belong to the function around them).  The
    checker keeps its scope as ``scope.stack`` (classes and functions); the semantic
    analyzer keeps ``function_stack``.
    """
    from mypy.nodes import FuncDef
    from mypy.semanal import SemanticAnalyzer

    if not AVAILABLE["function around a check"]:
        return []
    if isinstance(api, SemanticAnalyzer):
        stack: object = api.function_stack
    else:
        stack = getattr(getattr(api, "scope", None), "stack", None)
    if not isinstance(stack, list):
        return []
    return [item for item in stack if isinstance(item, FuncDef)]


# -- expression types ---------------------------------------------------------------


def errors_hidden(api: CheckerPluginInterface) -> ContextManager[object]:
    """A block whose mypy errors are dropped (``MessageBuilder.filter_errors``)."""
    if not AVAILABLE["silent type queries"]:
        return nullcontext()
    return api.msg.filter_errors()


def lookup_type_or_none(api: CheckerPluginInterface, expr: Expression) -> Type | None:
    """The type mypy stored for ``expr`` so far, or None."""
    if not AVAILABLE["expression types"]:
        return None
    found: Type | None = api.lookup_type_or_none(expr)  # type: ignore[attr-defined]
    return found


def replace_stored_type(
    api: CheckerPluginInterface, expr: Expression, change: Callable[[Type], Type]
) -> bool:
    """Rewrite the type mypy stored for ``expr`` (a type map rewrite); False if impossible."""
    if not AVAILABLE["expression types"]:
        return False
    try:
        original = api.lookup_type(expr)  # type: ignore[attr-defined]
    except KeyError:
        return False
    api.store_type(expr, change(original))  # type: ignore[attr-defined]
    return True


# -- class bases (migration mode) ---------------------------------------------------


def hide_bases(info: TypeInfo, kept: list[Instance], object_type: Callable[[], Instance]) -> bool:
    """Give ``info`` only the ``kept`` bases and recompute its MRO; False (unchanged) if
    that MRO is inconsistent or the feature is off."""
    if not AVAILABLE["class bases edits"]:
        return False
    from mypy.mro import MroError, calculate_mro

    original_bases, original_mro = info.bases, info.mro
    info.bases = kept or [object_type()]
    info.mro = []  # calculate_mro keeps an existing MRO
    try:
        calculate_mro(info, object_type)
    except MroError:
        info.bases, info.mro = original_bases, original_mro
        return False
    return True


# -- mypy's trial checks (errors.emit reports around them) --------------------------


def trial_depth(errors: Errors) -> int:
    """How many of mypy's error watchers (trial checks, filtered regions) are active."""
    if not AVAILABLE["trial-safe reports"]:
        return 0
    return len(errors._watchers)


@contextmanager
def outside_trials(errors: Errors) -> Iterator[None]:
    """Report past every active error watcher: no trial of mypy's sees the report.

    mypy decides an overload, a lambda's inferred type or an operator's method
    by whether errors appeared while it tried; a report of the plugin there
    would make the trial fail and change what mypy infers.
    """
    if not AVAILABLE["trial-safe reports"]:
        yield
        return
    watchers = errors._watchers
    saved = list(watchers)
    watchers.clear()
    try:
        yield
    finally:
        watchers[:] = saved


def reported_in(errors: Errors, file: str) -> list[ErrorInfo]:
    """The errors recorded so far for ``file`` (the live list)."""
    if not AVAILABLE["trial-safe reports"]:
        return []
    return errors.error_info_map.get(file, [])


def withdraw(errors: Errors, file: str, info: ErrorInfo) -> None:
    """Remove an error recorded for ``file`` before mypy shows it."""
    recorded = errors.error_info_map.get(file, [])
    for index, candidate in enumerate(recorded):
        if candidate is info:
            del recorded[index]
            return


def type_maps(api: AnyPluginInterface) -> list[dict[Expression, Type]] | None:
    """The checker's stack of type maps (the first is the module's; the others belong to
    trials in progress), or None without the feature or outside the checker."""
    if not AVAILABLE["trial outcomes"] or not isinstance(api, CheckerPluginInterface):
        return None
    maps: list[dict[Expression, Type]] | None = getattr(api, "_type_maps", None)
    return maps


# -- the plugin's version as mypy's cache records it ------------------------------


def set_plugin_version(version: str) -> None:
    """Make ``version`` the plugin's version in mypy's cache snapshot.

    mypy records the entry module's ``__version__`` (and the hash of that one
    file) right after building the plugin, and treats its whole cache as stale
    when the record changes (``mypy.build.take_module_snapshot``).
    """
    setattr(_entry_module(), "__version__", version)


def plugin_release() -> str:
    """The package's release (``0.1.0``), without what :func:`set_plugin_version` added."""
    return str(getattr(_entry_module(), "__version__")).split("+")[0]


def _entry_module() -> Any:
    """The package mypy loads the plugin from; always loaded before its modules (read
    from ``sys.modules``: importing it here would close an import cycle)."""
    return sys.modules[__name__.rpartition(".")[0]]


# -- tree nodes ---------------------------------------------------------------------


def node_attributes(cls: type) -> list[str]:
    """The data attributes of a mypy node class (compiled: ``__mypyc_attrs__``)."""
    compiled: Any = getattr(cls, "__mypyc_attrs__", None)
    if compiled is not None:
        return list(compiled)
    names: list[str] = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    return names


#: Names mypy's own plugin hooks that the plugin hooks too: ``functools.partial``
#: (its constructor, a function hook, and ``__call__``, a method hook).
PARTIAL_NAMES = ("functools.partial", "functools.partial.__call__")


def mypy_own_hook(fullname: str) -> Callable[[Any], Any] | None:
    """mypy's own checker hook for ``fullname``, or None.

    A plugin's hook hides those of the plugins after it, mypy's own last: the
    plugin's hook for such a name answers what mypy's would.  mypy 1.11 added
    the ``functools.partial`` hooks; without them (or under another layout) the
    plugin hooks none of these names.
    """
    if fullname not in PARTIAL_NAMES:
        return None
    try:
        from mypy.plugins import functools as mypy_functools
    except ImportError:  # pragma: no cover - every supported mypy has the module
        return None
    name = "partial_new_callback" if fullname == PARTIAL_NAMES[0] else "partial_call_callback"
    found = getattr(mypy_functools, name, None)
    return found if callable(found) else None
