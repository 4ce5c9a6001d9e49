"""Answers "may this static type hold a dynamic number?" for mypy types."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from mypy.nodes import (
    ComparisonExpr,
    Expression,
    MypyFile,
    NameExpr,
    SliceExpr,
    TypeInfo,
    Var,
)
from mypy.plugin import CheckerPluginInterface
from mypy.semanal import SemanticAnalyzer
from mypy.types import (
    ProperType,
    AnyType,
    CallableType,
    Instance,
    Overloaded,
    Type,
    TypeType,
    TypeVarType,
    UnionType,
    get_proper_type,
)

from .. import _mypy_compat as compat
from ..constants import DEFAULT_DYNAMIC_CLASSES, SUBCLASSABLE_NUMBER_BUILTINS
from ..findings import Reason
from .context import current_module
from .kinds import GUARDED, OWN, SILENT, TORCH, Dynamic
from .literals import is_number_literal
from .flow import STATIC, Evaluator, Flow, FlowTooLarge, FlowValue, FunctionFacts
from .subclasses import DynamicSubclasses
from .reaching import Assigned

if TYPE_CHECKING:
    from .flow import FlowAnalysis

_TORCH_CLASSES = frozenset(name for name in DEFAULT_DYNAMIC_CLASSES if name.startswith("torch."))


_Found = TypeVar("_Found")


def first_in_members(
    typ: Type, find: Callable[[ProperType], _Found | None], depth: int = 0
) -> _Found | None:
    """``find``'s first answer other than None for ``typ`` or, through unions and
    TypeVars (bound and value restrictions), for the types it may stand for."""
    if depth > 20:  # guards against pathological recursive types
        return None
    proper = get_proper_type(typ)
    if isinstance(proper, UnionType):
        members: list[Type] = list(proper.items)
    elif isinstance(proper, TypeVarType):
        members = [proper.upper_bound, *proper.values]
    else:
        return find(proper)
    for member in members:
        found = first_in_members(member, find, depth + 1)
        if found is not None:
            return found
    return None


_LITERAL_CLASSES = SUBCLASSABLE_NUMBER_BUILTINS | {"builtins.object"}


class DynamicClasses:
    """The set of dynamic number classes (defaults plus configured ones)."""

    def __init__(self, fullnames: frozenset[str], guarded: frozenset[str] = frozenset()) -> None:
        self.fullnames = fullnames
        #: Configured classes that guard like torch's instead of returning values silently.
        self.guarded = guarded
        #: Number literals are int/float/complex: static unless those are configured dynamic.
        self.literals_static = _LITERAL_CLASSES.isdisjoint(fullnames)
        #: Traced functions and tensor sizes (set by the plugin from its settings).
        self.flow: FlowAnalysis | None = None
        self.subclasses = DynamicSubclasses(self)

    @property
    def flows_anywhere(self) -> bool:
        """True if some function may have a flow source (traced functions, tensor sizes)."""
        flow = self.flow
        return flow is not None and (flow.symbolic_shapes or flow.traces_functions)

    def is_dynamic_class(self, info: TypeInfo) -> bool:
        """True if ``info`` is a dynamic class or derives from one."""
        return any(base.fullname in self.fullnames for base in info.mro)

    def describe_base(
        self,
        typ: Type,
        modules: Mapping[str, MypyFile],
        current: MypyFile | None,
        *,
        where: Callable[[TypeInfo], bool] | None = None,
        complete: bool = True,
    ) -> Dynamic | None:
        """The dynamic number ``typ`` may hold as a base class of dynamic classes, or None.

        ``complete`` is False while the semantic analyzer is still inside ``current``.
        """

        def dynamic(member: ProperType) -> Dynamic | None:
            if not isinstance(member, Instance):
                return None
            return self._as_base(member, modules, current, where, complete)

        return first_in_members(typ, dynamic)

    def _as_base(self, instance: Instance, modules: Mapping[str, MypyFile],
                 current: MypyFile | None, where: Callable[[TypeInfo], bool] | None,
                 complete: bool) -> Dynamic | None:
        info = instance.type
        if self.is_dynamic_class(info):
            return None
        subclasses = [sub for sub in self.subclasses.of(info, modules, current, complete=complete)
                      if where is None or where(sub)]
        if not subclasses:
            return None
        names = [sub.name for sub in subclasses]
        shown = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
        return Dynamic(subclasses[0].name, self.kind_of(subclasses[0]),
                       Reason("base", f'"{info.name}" has dynamic subclasses: {shown}'))

    def describe(
        self,
        typ: Type,
        *,
        include_top: bool = False,
        where: Callable[[TypeInfo], bool] | None = None,
    ) -> Dynamic | None:
        """The dynamic number ``typ`` may hold (by its declared type), or None."""
        def dynamic(member: ProperType) -> Dynamic | None:
            if isinstance(member, Instance):
                return self._declared(member, include_top, where)
            if isinstance(member, AnyType) and include_top:
                return Dynamic("Any", SILENT, Reason("any", 'typed "Any"'))
            return None

        return first_in_members(typ, dynamic)

    def _declared(self, instance: Instance, include_top: bool,
                  where: Callable[[TypeInfo], bool] | None) -> Dynamic | None:
        info = instance.type
        if self.is_dynamic_class(info):
            if where is not None and not where(info):
                return None
            return Dynamic(info.name, self.kind_of(info),
                           Reason("declared", f'declared as "{info.name}"'))
        if include_top and info.fullname == "builtins.object":
            return Dynamic("object", SILENT, Reason("any", 'declared as "object"'))
        return None

    def kind_of(self, info: TypeInfo) -> str:
        """What conversions do to instances of dynamic class ``info`` (OWN, TORCH...)."""
        names = [base.fullname for base in info.mro]
        if any(name in _TORCH_CLASSES for name in names):
            return TORCH
        if any(name in self.guarded for name in names):
            return GUARDED
        if any(name.startswith("proxy_types.") for name in names):
            return OWN
        return SILENT

    def class_name(
        self,
        typ: Type,
        *,
        include_top: bool = False,
        where: Callable[[TypeInfo], bool] | None = None,
    ) -> str | None:
        """Name of a dynamic number class ``typ`` may hold, or None.

        ``include_top`` also counts ``Any`` and ``object`` (strict isinstance mode);
        ``where`` limits the search to the dynamic classes it accepts.
        """
        found = self.describe(typ, include_top=include_top, where=where)
        return found.name if found is not None else None

    def class_of_type_object(self, typ: Type) -> str | None:
        """Like :meth:`class_name` for a class object (``type[X]`` or ``X`` used as a value)."""
        proper = get_proper_type(typ)
        if isinstance(proper, TypeType):
            return self.class_name(proper.item)
        if isinstance(proper, (CallableType, Overloaded)) and proper.is_type_obj():
            info = proper.type_object()
            if self.is_dynamic_class(info):
                return info.name
        return None


def expression_type(api: CheckerPluginInterface, expr: Expression) -> Type:
    """Type of ``expr`` without reporting its errors twice (the call checks it again)."""
    with compat.errors_hidden(api):
        return api.get_expression_type(expr)


class Asked(NamedTuple):
    """How a check asks :func:`dynamic_in_expression`; each field is explained there."""

    types: Sequence[Type] | None = None
    include_top: bool = False
    where: Callable[[TypeInfo], bool] | None = None
    python_types: Collection[str] | None = None
    check: Expression | None = None
    lookup: Callable[[Expression], Type | None] | None = None
    presumes_number: bool = True
    follow_flows: bool = True


#: An expression used where any object will do (a dict key, a truth test).
ANY_OBJECT = Asked(presumes_number=False)


def dynamic_in_expression(
    api: CheckerPluginInterface | SemanticAnalyzer,
    expr: Expression | None,
    dynamic: DynamicClasses,
    asked: Asked = Asked(),
) -> Dynamic | None:
    """The dynamic number ``expr`` may evaluate to, and why; None if it holds none.

    The one question every check asks.  The sources, in this order: the declared
    type names a dynamic class; it is a base class of dynamic classes; the value
    flows from a traced function's parameter or a tensor size (:mod:`.flow`);
    ``Any``/``object`` when ``include_top`` (strict isinstance mode).  None where
    the code narrowed a local name to a static number, for a ``check``
    (isinstance call) the code excludes dynamic numbers from on purpose, and in a
    branch that runs only under TorchScript.

    ``types`` are what mypy already inferred: the type of ``expr`` or, for a
    comparison, of its operands (saves inferring them again); ``expr`` may be
    None when only a type is known.  ``where`` limits the dynamic classes found
    by type; ``python_types`` (the Python numbers a check accepts) limits the flows
    to those whose dynamic numbers may stand for one of them.
    ``lookup`` finds types for the flow (the semantic analyzer passes declared types).
    For a ``check``, a container of maybe-dynamic numbers counts as well: checking
    ``isinstance(shape, int)`` says the code expects a number there, whatever
    ``shape``'s annotation says.  Where the operation works on any object (a dict
    key, a truth test: ``presumes_number=False``), values that are only one kind of
    object among others are left out: those typed as a base class of dynamic
    classes, and flows from values of unknown type (an unannotated parameter) that
    nothing has shown to be a number.
    A comparison with a dynamic operand counts whatever its declared type: torch
    types ``SymInt.__lt__`` as ``-> bool`` but it returns a SymBool.
    ``follow_flows=False`` leaves the flow source out (a check that would drop
    whatever it finds there).
    """
    types, include_top, where, python_types, check, lookup, presumes_number, follow_flows = asked
    if expr is not None and dynamic.literals_static and is_number_literal(expr):
        return None  # xs[0], xs[-1], range(10): no need to infer the type again
    if isinstance(expr, SliceExpr):
        for part in (expr.begin_index, expr.end_index, expr.stride):
            found = dynamic_in_expression(
                api, part, dynamic, Asked(lookup=lookup, follow_flows=follow_flows)
            ) if part is not None else None
            if found is not None:
                return found
        return None
    if types is None:
        types = _types_of(api, expr) if expr is not None else []
    site = _Site(api, dynamic, lookup)
    found = None
    for typ in types:
        found = found or dynamic.describe(typ, where=where)
    for typ in types if found is None and presumes_number else ():
        found = found or dynamic.describe_base(typ, site.modules, site.tree, where=where,
                                               complete=not site.analyzing)
    if found is None and expr is not None and follow_flows and site.flow_possible:
        flow = site.flow_value(expr, items_too=check is not None)
        if flow is STATIC:
            return None
        if isinstance(flow, Flow) and (python_types is None or flow.may_stand_for(python_types)) \
                and (presumes_number or flow.typed):
            found = flow.dynamic
    for typ in types if found is None and include_top else ():
        found = found or dynamic.describe(typ, include_top=True, where=where)
    if found is None:
        return None
    facts = site.facts
    if facts is not None and expr is not None and (
            facts.is_static(expr) or (check is not None and facts.is_excluded(check))
            or facts.runs_only_in_torchscript(expr)):
        return None
    return found


def dynamic_items(api: CheckerPluginInterface, expr: Expression,
                  dynamic: DynamicClasses) -> Dynamic | None:
    """The dynamic number the items of ``expr`` may be, by a flow: ``*x.shape`` and
    ``*x.size()`` spread sizes over a call's parameters.  None if they hold none."""
    site = _Site(api, dynamic, None)
    if not site.flow_possible:
        return None
    flow = site.flow_value(expr, items_too=True)
    items = flow.deeper(1) if isinstance(flow, Flow) else None
    if items is None or not items.is_value:
        return None
    facts = site.facts
    if facts is not None and facts.runs_only_in_torchscript(expr):
        return None
    return items.dynamic


def repeats_a_guard(api: CheckerPluginInterface, dynamic: DynamicClasses,
                    expr: Expression) -> bool:
    """True if ``expr`` (a comparison, or an ``int()``/``float()`` call) asks again for a
    guard that an earlier line of its function installed on every path to it."""
    facts = _Site(api, dynamic, None).facts
    return facts is not None and facts.repeats_a_guard(expr)


def is_requirement(api: CheckerPluginInterface, dynamic: DynamicClasses,
                   comparison: Expression) -> bool:
    """True if the code raises where ``comparison`` (``e != c``, ``e == c``) fails: the
    value either is the literal the code requires or is not the one it rejects."""
    facts = _Site(api, dynamic, None).facts
    return facts is not None and facts.is_requirement(comparison)


def narrowed_static(api: CheckerPluginInterface, dynamic: DynamicClasses, expr: Expression,
                    check: Expression | None) -> bool:
    """True if the code has ruled dynamic numbers out of ``expr`` here: a local name read
    after a branch took the dynamic classes (``if isinstance(x, NumberProxy): return``,
    an earlier ``elif``), or a ``check`` that excludes them on purpose."""
    facts = _Site(api, dynamic, None).facts
    return facts is not None and (
        facts.is_static(expr) or (check is not None and facts.is_excluded(check)))


def reads_of_value(
    api: CheckerPluginInterface, dynamic: DynamicClasses, expr: Expression
) -> list[NameExpr]:
    """The reads of local names that hold the value of ``expr`` as assigned
    (``ok = n > 0`` ... ``if ok:``), in the function being checked."""
    facts = _Site(api, dynamic, None).facts
    if facts is None:
        return []
    return [read for read, binding in facts.walk.reads.items()
            if not binding.static and any(
                isinstance(definition, Assigned) and definition.expr is expr
                and definition.depth == 0 for definition in binding.definitions)]


class _Site:
    """Where a check runs: the module, the functions around it and their facts."""

    def __init__(self, api: CheckerPluginInterface | SemanticAnalyzer, dynamic: DynamicClasses,
                 lookup: Callable[[Expression], Type | None] | None) -> None:
        self.api = api
        self.dynamic = dynamic
        self.analyzing = isinstance(api, SemanticAnalyzer)
        self._lookup = lookup
        self._facts: FunctionFacts | None | bool = False  # False: not worked out yet
        self._evaluator: Evaluator | None = None

    @cached_property
    def tree(self) -> MypyFile | None:
        return current_module(self.api)

    @property
    def modules(self) -> dict[str, MypyFile]:
        if isinstance(self.api, SemanticAnalyzer):
            return compat.analyzer_modules(self.api)
        return compat.checker_modules(self.api)

    @property
    def facts(self) -> FunctionFacts | None:
        """The facts of the innermost function around the site; None at module level."""
        if self._facts is False:
            flow = self.dynamic.flow
            chain = compat.enclosing_functions(self.api) if flow is not None else []
            self._facts = flow.facts(chain, self.tree, cacheable=not self.analyzing,
                                     modules=self.modules) \
                if flow is not None and chain else None
        return self._facts if isinstance(self._facts, FunctionFacts) else None

    @property
    def flow_possible(self) -> bool:
        flow = self.dynamic.flow
        if flow is None:
            return False
        if flow.symbolic_shapes:
            return True
        if not flow.traces_functions:
            # No source a flow can start from: no need for the facts (speed trick;
            # measured: thunder, 7,833 walks up the checker's scope -> 0).
            return False
        facts = self.facts
        return facts is not None and facts.traced

    @property
    def evaluator(self) -> Evaluator:
        if self._evaluator is None:
            assert self.dynamic.flow is not None
            self._evaluator = Evaluator(self.dynamic.flow, self.facts, self.lookup)
        return self._evaluator

    def flow_value(self, expr: Expression, *, items_too: bool) -> FlowValue:
        """The flow reaching ``expr``; None in a function too large to follow, which is
        reported once, at its definition."""
        facts = self.facts
        if facts is not None and facts.too_large:
            return None
        try:
            return self.evaluator.value(expr, items_too=items_too)
        except FlowTooLarge as error:
            if facts is None:
                raise
            facts.too_large = True
            from .. import errors

            errors.flow_too_large(self.api, facts.function, facts.label, str(error))
            return None

    def lookup(self, expr: Expression) -> Type | None:
        """The type of a part of the checked expression, as far as it is known."""
        if self._lookup is not None:
            return self._lookup(expr)
        found = compat.lookup_type_or_none(self.api, expr) if isinstance(
            self.api, CheckerPluginInterface) else None
        if found is None and isinstance(expr, NameExpr) and isinstance(expr.node, Var):
            found = expr.node.type
        return found


def _types_of(api: CheckerPluginInterface | SemanticAnalyzer, expr: Expression) -> list[Type]:
    """Types to judge ``expr`` by: its own, and its operands' for a comparison (none
    while the semantic analyzer runs)."""
    if not isinstance(api, CheckerPluginInterface):
        if isinstance(api, SemanticAnalyzer):
            return []
        raise TypeError(f"no types to judge by for {type(api).__name__}")
    found = [expression_type(api, expr)]
    if isinstance(expr, ComparisonExpr) and not _IDENTITY_OR_MEMBERSHIP.intersection(
            expr.operators):
        found += [expression_type(api, operand) for operand in expr.operands]
    return found


#: Operators whose result is a plain bool whatever the operands (``p is None``).
_IDENTITY_OR_MEMBERSHIP = frozenset({"is", "is not", "in", "not in"})


