"""What a check declares and what it is handed: the one interface of ``checks/``.

A check module declares its hooks as data, a module-level ``HOOKS`` tuple of
:class:`Hook`, and has one entry, ``check(ctx, env)``: ``ctx`` is mypy's hook
context, ``env`` an :class:`Env` (the settings, the dynamic classes, the hooked
name, state the check keeps for the run).  ``registry.py`` lists the check
modules; ``runner.py`` runs each check isolated (an error becomes one
proxy-internal report), only where the gate lets it, and settles mypy's trials.
A check never imports another check, nor the routing layer.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar, Union

from .config import ProxyTypesConfig
from .gate import RUNS_WHERE_REPORTED, ReportGate, VerdictName

if TYPE_CHECKING:
    from mypy.nodes import MypyFile, SymbolTableNode
    from mypy.options import Options

    from .analysis.dynamic import DynamicClasses

#: Which mypy hook a check runs from (``Plugin.get_<kind>_hook``), with its context class.
FUNCTION: Literal["function"] = "function"  # FunctionContext: a call's return type
METHOD: Literal["method"] = "method"  # MethodContext
FUNCTION_SIGNATURE: Literal["function_signature"] = "function_signature"  # FunctionSigContext
METHOD_SIGNATURE: Literal["method_signature"] = "method_signature"  # MethodSigContext
#: AnalyzeTypeContext: a class name in an annotation (also a cast()'s target), analyzed
#: by mypy first; the check runs after that analysis and reports only.
TYPE_ANALYZE: Literal["type_analyze"] = "type_analyze"
#: AnalyzeTypeContext: a name no check lists (``matches``), after mypy's own analysis
#: made it the Any of a name from a module it cannot find.
UNRESOLVED_TYPE: Literal["unresolved_type"] = "unresolved_type"
#: The context of the first checker hook to run in a module (each check of it, a
#: daemon's again too), before that hook's checks.
MODULE_CHECK_START: Literal["module_check_start"] = "module_check_start"
BASE_CLASS: Literal["base_class"] = "base_class"  # ClassDefContext, keyed by a base's name
CUSTOMIZE_CLASS_MRO: Literal["customize_class_mro"] = "customize_class_mro"  # by the class

HookKind = Literal["function", "method", "function_signature", "method_signature",
                   "type_analyze", "unresolved_type", "module_check_start", "base_class",
                   "customize_class_mro"]
#: The kinds mypy's type checker asks for (the others run in the semantic analyzer).
CHECKER_KINDS: frozenset[HookKind] = frozenset(
    {FUNCTION, METHOD, FUNCTION_SIGNATURE, METHOD_SIGNATURE})

#: Hooked names: fixed, or worked out from the settings (``concretizing_functions``).
Names = Union[Collection[str], Callable[["Shared"], Collection[str]]]


def _always(shared: Shared) -> bool:
    return True


class Hook(NamedTuple):
    """One mypy hook a check runs from."""

    kind: HookKind
    #: The fully qualified names it is asked for.
    names: Names = ()
    #: Names decided one at a time, for sets too large to list (every ``__lt__``).
    matches: Callable[[str], bool] | None = None
    #: The gate's verdicts (``gate.py``) of the modules it runs in.
    runs: frozenset[VerdictName] = RUNS_WHERE_REPORTED
    #: Settings it needs (``migrate_classes`` for migration mode): off otherwise.
    when: Callable[[Shared], bool] = _always
    #: Asked at each lookup whether the hook is wanted, with the name and the build at
    #: hand (``env.fullname``, ``env.shared.build_modules()``).  Type analysis asks at
    #: every analysis (the analysis of ``int`` in a module that cannot call cast() needs
    #: no cast check); the other kinds once per name (``registry.HooksByName``), so there
    #: it may depend on the name, the settings and the build, not on the module asking.
    wanted: Callable[[Env], bool] | None = None

    def hooked_names(self, shared: Shared) -> Collection[str]:
        return self.names(shared) if callable(self.names) else self.names


_State = TypeVar("_State")


class Shared:
    """What every check's :class:`Env` refers to: one per plugin (one per mypy run)."""

    def __init__(self, config: ProxyTypesConfig, gate: ReportGate,
                 dynamic_fullnames: frozenset[str], record_arguments: bool,
                 dynamic: Callable[[], DynamicClasses],
                 lookup_fully_qualified: Callable[[str], SymbolTableNode | None],
                 build_modules: Callable[[], dict[str, MypyFile] | None],
                 options: Options) -> None:
        self.config = config
        #: mypy's options for the build.
        self.options = options
        self.gate = gate
        #: The configured and default dynamic classes, by name.
        self.dynamic_fullnames = dynamic_fullnames
        #: ``proxy-types fix`` collects passed arguments: every call is hooked.
        self.record_arguments = record_arguments
        self._dynamic = dynamic
        self.lookup_fully_qualified = lookup_fully_qualified
        self.build_modules = build_modules
        self.states: dict[object, Any] = {}


class Env:
    """What a check is handed with each hook context: the settings, the dynamic classes,
    the name it is hooked by, and state it keeps for the run (:meth:`state`)."""

    def __init__(self, shared: Shared, kind: HookKind, fullname: str) -> None:
        self.shared = shared
        self.config = shared.config
        self.gate = shared.gate
        self.kind = kind
        #: The fully qualified name mypy asked the hook for (``builtins.isinstance``).
        self.fullname = fullname

    @property
    def dynamic(self) -> DynamicClasses:
        """The dynamic classes and the shared analysis of values (built on first use)."""
        return self.shared._dynamic()

    def state(self, make: Callable[[Env], _State]) -> _State:
        """The one object ``make`` builds for the whole run (a check's memo of walks)."""
        states = self.shared.states
        found = states.get(make)
        if found is None:
            found = states[make] = make(self)
        state: _State = found
        return state
