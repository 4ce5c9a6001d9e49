"""Values that may be dynamic numbers although their declared type is static.

Sources (besides declared types, see :mod:`.dynamic`):

* parameters of *traced functions* (``traced_functions``) whose declared type is a
  static number type, ``Any`` or missing, or a container of such numbers;
* tensor sizes (``symbolic_shapes``): ``t.shape``, ``t.size()``, ``t.stride()``,
  ``t.numel()``, ``t.storage_offset()`` and ``torch.Size`` items.

A value computed from such a value stays maybe dynamic (arithmetic, ``abs``/
``min``/``max``/``sum``, packing, indexing, unpacking, loop targets, assignments,
conditional expressions) until the code narrows it (:mod:`.reaching`).  Values are
followed *depth*-wise: depth 0 is the value itself, depth 1 the items of a
container (``shape: Sequence[int]``), and so on.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import TYPE_CHECKING, NamedTuple, Union

from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    AssignmentExpr,
    BytesExpr,
    CallExpr,
    CastExpr,
    ComparisonExpr,
    ConditionalExpr,
    Decorator,
    Expression,
    FakeInfo,
    FuncDef,
    GeneratorExpr,
    ImportFrom,
    IndexExpr,
    IntExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    OpExpr,
    RefExpr,
    SetComprehension,
    SetExpr,
    SliceExpr,
    StarExpr,
    StrExpr,
    TupleExpr,
    TypeAlias,
    TypeInfo,
    UnaryExpr,
    Var,
)
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    Overloaded,
    TupleType,
    Type,
    TypeType,
    TypeVarType,
    UnionType,
    get_proper_type,
)

from ..constants import (
    DEFAULT_DYNAMIC_CLASSES,
    DYNAMIC_PYTHON_TYPES,
    STATIC_NUMBER_CLASSES,
    STATIC_PYTHON_TYPES,
)
from ..findings import Reason
from .kinds import GUARDED, SILENT, TORCH, Dynamic
from .literals import is_number_literal
from .walk import walk as walk_tree
from .decided import DecidedWalk, requirement_comparisons, scripting_only_lines
from .reaching import Assigned, Augmented, Binding, Definition, FunctionWalk, Param
from .returns import EVERY as RETURNED_EVERY_DEPTH
from .returns import Origin, Returns, positional_names
from .shown_paths import location_path, shown_path
from .schemas import Schemas
from .sources_sinks import DATA_DEPENDENT_METHODS
from .summaries import Summaries, Target, target_of

if TYPE_CHECKING:
    from ..config import ProxyTypesConfig
    from .dynamic import DynamicClasses

#: Depth marker: the value and its items at every depth (``Any``, no annotation).
EVERY_DEPTH = -1
_EVERY = frozenset({EVERY_DEPTH})
_VALUE = frozenset({0})
_ITEMS = frozenset({1})
#: ``*args``/``**kwargs`` of unknown type: the tuple or dict itself is no number.
_STAR_DEPTHS = frozenset({1, 2, 3})

#: The Python numbers a value declared as each Python number type may be (a bool
#: passed for an int is left out: ``not isinstance(n, bool)`` is how code excludes them).
_STANDS_FOR = {
    "bool": frozenset({"bool"}),
    "int": frozenset({"int"}),
    "float": frozenset({"int", "float"}),
    "complex": frozenset({"int", "float", "complex"}),
    "number": frozenset({"int", "float", "complex", "bool"}),
}
#: torch's dynamic class for each Python number type (torch has no symbolic complex).
_TORCH_NAME = {python_type: fullname.rpartition(".")[2]
               for fullname, python_type in DYNAMIC_PYTHON_TYPES.items()
               if fullname.startswith("torch.")}

_TENSOR_BASES = frozenset({"torch._C.TensorBase", "torch._tensor.Tensor", "torch.Tensor"})
_SIZE_CLASSES = frozenset({"torch._C.Size", "torch.Size"})
_MODULE_CLASSES = frozenset({"torch.nn.modules.module.Module", "torch.nn.Module"})
#: Tensor methods that return one size (with a dimension argument) or all of them.
_SIZE_METHODS = frozenset({"size", "stride", "sym_size", "sym_stride"})
_ONE_SIZE_METHODS = frozenset({"numel", "sym_numel", "storage_offset", "sym_storage_offset"})

_STATIC_GUARDS = frozenset({"proxy_types.is_static_number", "proxy_types._guards.is_static_number"})
_DYNAMIC_GUARDS = frozenset(
    {"proxy_types.is_dynamic_number", "proxy_types._guards.is_dynamic_number"})
#: Calls whose result holds the same values as their first argument, one depth down
#: (``max(shape)``) or at the same depth (``tuple(shape)``, ``abs(n)``).
_ITEM_OF_ARGUMENT = frozenset({"builtins.min", "builtins.max", "builtins.sum"})
_SAME_AS_ARGUMENT = frozenset({"builtins.abs", "builtins.tuple", "builtins.list",
                               "builtins.sorted", "builtins.reversed", "builtins.set"})
#: torch's symbolic helpers: the result is dynamic when an argument is.
_SYMBOLIC_HELPERS = frozenset({"torch.sym_max", "torch.sym_min", "torch.sym_int",
                               "torch.sym_float", "torch.sym_not", "torch.sym_ite",
                               "torch.sym_sum"})

TypeLookup = Callable[[Expression], Union[Type, None]]


class Flow(NamedTuple):
    """Why values derived from some source may be dynamic, and at which depths."""

    dynamic: Dynamic
    depths: frozenset[int]
    python_type: str = "number"
    #: False for a value of unknown type (``Any``, no annotation) that nothing has
    #: shown to be a number yet (arithmetic or a comparison with a number literal does).
    typed: bool = True

    @property
    def is_value(self) -> bool:
        """True if the value itself (not only its items) may be dynamic."""
        return 0 in self.depths or EVERY_DEPTH in self.depths

    def may_stand_for(self, python_types: Collection[str]) -> bool:
        """True if the dynamic numbers of this flow may stand for one of ``python_types``.

        A parameter declared ``float`` also takes ints (and ``complex`` both), and
        torch has no symbolic complex: ``isinstance(x, complex)`` sorts a torch flow
        right whatever its declared type.
        """
        candidates = _STANDS_FOR[self.python_type]
        if self.dynamic.kind == TORCH:
            candidates = candidates - {"complex"}
        return not candidates.isdisjoint(python_types)

    def deeper(self, steps: int) -> Flow | None:
        """The flow of the values ``steps`` levels down (negative: packed into containers)."""
        if EVERY_DEPTH in self.depths or steps == 0:
            return self
        depths = frozenset(depth - steps for depth in self.depths if depth - steps >= 0)
        return self._replace(depths=depths) if depths else None


def union(first: Flow | None, second: Flow | None) -> Flow | None:
    """Both flows at once; the first one's reason is kept."""
    if first is None:
        return second
    if second is None:
        return first
    depths = first.depths | second.depths
    python_type = first.python_type if first.python_type == second.python_type else "number"
    return first._replace(depths=_EVERY if EVERY_DEPTH in depths else depths,
                          python_type=python_type, typed=first.typed or second.typed)


class _Static:
    """The value read was narrowed to a static number on every path to the read."""


STATIC = _Static()
#: What :meth:`Evaluator.value` finds: a flow, STATIC, or nothing.
FlowValue = Union[Flow, _Static, None]


class FunctionFacts:
    """What one function's parameters and local names may hold (cached per function)."""

    def __init__(self, analysis: FlowAnalysis, chain: list[FuncDef], tree: MypyFile | None,
                 cacheable: bool, modules: Mapping[str, MypyFile] | None = None) -> None:
        self.function = chain[-1]
        self._tree = tree
        self._build_modules = modules
        #: The build's modules (None while the semantic analyzer asks).
        self.build_modules = modules
        self._cacheable = cacheable
        self.signature = self.function.type
        self.traced = analysis.is_traced(chain, tree, complete=cacheable)
        self.params: dict[str, Flow] = analysis.parameter_flows(self.function, tree) \
            if self.traced else {}
        self._analysis = analysis
        self._walk: FunctionWalk | None = None
        self._decided: DecidedWalk | None = None
        self._required: set[ComparisonExpr] | None = None
        self._scripting_only: list[tuple[int, int]] | None = None
        #: Set once following the function's flows passed a limit (reported then).
        self.too_large = False
        #: id -> (expression, its flow), shared by the function's report sites where no
        #: flow depends on types (no symbolic_shapes) and the function's tree is final:
        #: a site reading the end of a chain ``x = x + 1``... reuses what earlier ones found.
        self.shared_flows: dict[int, tuple[Expression, Flow | None]] | None = (
            {} if cacheable and not analysis.symbolic_shapes else None)

    @property
    def label(self) -> str:
        """``Class.method`` or ``function``, as users call it."""
        return _function_label(self.function)

    @property
    def walk(self) -> FunctionWalk:
        """The reaching definitions of the function's reads, worked out on first use."""
        if self._walk is None:
            analysis, modules, tree = self._analysis, self._build_modules, self._tree
            complete = self._cacheable
            self._walk = FunctionWalk(self.function, lambda check: analysis.narrowing(
                check, modules, tree, complete=complete))
        return self._walk

    def is_static(self, expr: Expression) -> bool:
        """True if ``expr`` reads a local name narrowed to a static number there."""
        if not isinstance(expr, NameExpr):
            return False
        binding = self.walk.reads.get(expr)
        return binding is not None and binding.static

    def repeats_a_guard(self, expr: Expression) -> bool:
        """True for a comparison or conversion whose guard an earlier line installed."""
        if self._decided is None:
            self._decided = DecidedWalk(self.function)
        return expr in self._decided.decided

    def is_requirement(self, comparison: Expression) -> bool:
        """True for ``e != c`` or ``e == c`` that the code raises on when it fails
        (``if ...: raise``, ``assert``, ``torch._check``)."""
        if self._required is None:
            self._required = requirement_comparisons(self.function)
        return comparison in self._required

    def runs_only_in_torchscript(self, expr: Expression) -> bool:
        """True inside ``if torch.jit.is_scripting():``, where no traced value goes."""
        if self._scripting_only is None:
            self._scripting_only = scripting_only_lines(self.function)
        return any(first <= expr.line <= last for first, last in self._scripting_only)

    def is_excluded(self, call: Expression) -> bool:
        """True for an isinstance call the code excludes dynamic numbers from on purpose."""
        return isinstance(call, CallExpr) and call in self.walk.excluded_calls


class FlowAnalysis:
    """The flow sources configured for a build, and the per-function facts about them."""

    def __init__(self, config: ProxyTypesConfig, dynamic: DynamicClasses) -> None:
        self.dynamic = dynamic
        self.symbolic_shapes = config.symbolic_shapes
        self.migrating = bool(config.migrate_classes)
        self.static_only_aliases = frozenset(config.static_only_aliases)
        self._static_parameters = config.static_parameters
        self._name_patterns = [entry for entry in config.traced_functions
                               if not entry.startswith(("@", "!"))]
        self._excluded_patterns = [entry[1:] for entry in config.traced_functions
                                   if entry.startswith("!")]
        self._decorator_patterns = [entry[1:] for entry in config.traced_functions
                                    if entry.startswith("@")]
        configured = [name for name in (*config.dynamic_number_classes, *config.migrate_classes)
                      if name not in DEFAULT_DYNAMIC_CLASSES]
        # A flow has no class of its own: it is shown as the first configured class.
        self._configured_name = configured[0].rpartition(".")[2] if configured else ""
        guarded = bool(configured) and all(name in dynamic.guarded for name in configured)
        self._configured_kind = GUARDED if guarded else SILENT
        #: The kinds (``Dynamic.kind``) of the dynamic numbers flows may find.
        self.kinds = frozenset(
            ([self._configured_kind if configured else TORCH] if self.traces_functions else [])
            + ([TORCH] if self.symbolic_shapes else []))
        # module -> (its tree, facts per function); a new tree (a re-check) starts afresh
        self._facts: dict[str, tuple[MypyFile, dict[FuncDef, FunctionFacts]]] = {}
        self._decorators: dict[str, tuple[MypyFile, dict[FuncDef, list[str]]]] = {}
        self.schemas = Schemas()
        #: What callees return (:mod:`.returns`); their source files are parsed once.
        self.returns = new_returns()

    @property
    def traces_functions(self) -> bool:
        return bool(self._name_patterns or self._decorator_patterns)

    # -- facts per function --------------------------------------------------------

    def facts(self, chain: list[FuncDef], tree: MypyFile | None, *,
              cacheable: bool = True,
              modules: Mapping[str, MypyFile] | None = None) -> FunctionFacts:
        """The facts of the innermost function of ``chain`` (outermost first).

        Speed trick (and issue #13's "per function and cached"): every sink of a
        traced function asks. Measured: a cold thunder run asks 7,379 times and
        works out 1,603 functions (182 us each): about 1.05 s saved.

        Not ``cacheable`` while the semantic analyzer is still inside the function.
        ``modules`` (the build's) let a check against a base class of the dynamic
        classes narrow (see :meth:`narrowing`).
        """
        if not cacheable or tree is None:
            return FunctionFacts(self, chain, tree, cacheable=False, modules=modules)
        cached = self._facts.get(tree.fullname)
        if cached is None or cached[0] is not tree:
            cached = self._facts[tree.fullname] = (tree, {})
        by_function = cached[1]
        function = chain[-1]
        facts = by_function.get(function)
        if facts is None or facts.signature is not function.type:
            facts = by_function[function] = FunctionFacts(self, chain, tree, cacheable=True,
                                                          modules=modules)
        return facts

    def is_traced(self, chain: list[FuncDef], tree: MypyFile | None, *,
                  complete: bool = True) -> bool:
        """True if a function of ``chain`` matches ``traced_functions``: a nested
        function runs while its traced parent does, so it is traced too.

        Not ``complete`` while the semantic analyzer is still in ``tree``: later
        decorators are not resolved yet, so what is found then is not kept.
        """
        if not self.traces_functions or not chain:
            return False
        if self._is_excluded(chain):
            return False
        for function, qualified in zip(chain, _qualified_names(chain)):
            if any(fnmatch.fnmatchcase(qualified, pattern) for pattern in self._name_patterns):
                return True
            if self._decorator_patterns and tree is not None:
                for decorator in self._decorators_of(function, tree, complete):
                    if any(fnmatch.fnmatchcase(decorator, pattern)
                           for pattern in self._decorator_patterns):
                        return True
        return False

    def _is_excluded(self, chain: list[FuncDef]) -> bool:
        """True if a function of ``chain`` matches a ``!`` entry: it runs on values, not
        on traced numbers (a prologue check, an implementation), and so do its nested functions."""
        if not self._excluded_patterns:
            return False
        return any(fnmatch.fnmatchcase(qualified, pattern)
                   for qualified in _qualified_names(chain) for pattern in self._excluded_patterns)

    def _decorators_of(self, function: FuncDef, tree: MypyFile, complete: bool) -> list[str]:
        cached = self._decorators.get(tree.fullname)
        if not complete or cached is None or cached[0] is not tree:
            found: dict[FuncDef, list[str]] = {}
            for node in walk_tree(tree.defs, _is_statement_container):
                if isinstance(node, Decorator):
                    found[node.func] = [name for decorator in node.decorators
                                        for name in _decorator_names(decorator, tree)]
            if not complete:
                return found.get(function, [])
            cached = self._decorators[tree.fullname] = (tree, found)
        return cached[1].get(function, [])

    # -- sources -------------------------------------------------------------------

    def parameter_flows(self, function: FuncDef, tree: MypyFile | None = None) -> dict[str, Flow]:
        """The parameters of traced ``function`` that may hold dynamic numbers (those its
        aten operator's schema types as static numbers do not: :mod:`.schemas`)."""
        static = self.schemas.static_parameters(function, tree) if tree is not None \
            and function.is_decorated else frozenset()
        signature = function.type
        arg_types: list[Type | None]
        arguments = list(function.arguments)
        if isinstance(signature, CallableType):
            arg_types = list(signature.arg_types)
        else:  # unannotated: mypy gives self (or cls) its class, everything else Any
            if _is_method(function) and not function.is_static:
                arguments = arguments[1:]
            arg_types = [None] * len(arguments)
        flows: dict[str, Flow] = {}
        label = _function_label(function)
        for argument, arg_type in zip(arguments, arg_types):
            name = argument.variable.name
            if name in static or any(fnmatch.fnmatchcase(name, pattern)
                                     for pattern in self._static_parameters):
                continue  # static by its schema, or by the project's convention (dims...)
            found = _number_depths(arg_type)
            if found is None:
                continue
            depths, python_type = found
            if argument.kind in (ARG_STAR, ARG_STAR2):  # a tuple or dict of such values
                depths = _STAR_DEPTHS if EVERY_DEPTH in depths else frozenset(
                    depth + 1 for depth in depths)
            reason = Reason("flow", f'parameter "{name}" of traced function "{label}" '
                                    f"(line {function.line})",
                            sizes=python_type == "int" and depths.isdisjoint({0, EVERY_DEPTH}))
            typed = arg_type is not None and not isinstance(get_proper_type(arg_type), AnyType)
            flows[name] = Flow(self.flow_dynamic(python_type, reason), depths, python_type, typed)
        return flows

    def flow_dynamic(self, python_type: str, reason: Reason) -> Dynamic:
        """The dynamic number a flow-sourced value of ``python_type`` stands for."""
        if self._configured_name:
            return Dynamic(self._configured_name, self._configured_kind, reason)
        return Dynamic(_TORCH_NAME.get(python_type, "SymInt | SymFloat"), TORCH, reason)

    def data_flow(self, spelled: str, depths: frozenset[int]) -> Flow:
        """A number read from a tensor's data: data-dependent (unbacked) when traced."""
        reason = Reason("shape", f'"{spelled}" is read from tensor data, a data-dependent '
                                 "number under dynamic shapes (symbolic_shapes)", data=True)
        return Flow(Dynamic("SymInt | SymFloat", TORCH, reason), depths, "number")

    def returned_flow(self, call: str, origin: Origin, depths: frozenset[int]) -> Flow | None:
        """The value a call returns that a tensor size or data read in the callee makes."""
        kept = frozenset(EVERY_DEPTH if depth == RETURNED_EVERY_DEPTH else depth
                         for depth in depths if depth >= 0)
        if not kept:
            return None
        where = f"{shown_path(origin.file)}:{origin.line}"
        what = "a tensor size" if origin.kind == "size" else \
            "a number read from tensor data (data-dependent)"
        reason = Reason("shape", f'"{call}" returns {what}: "{origin.name}" in '
                                 f"{origin.function} ({where}), symbolic under dynamic "
                                 "shapes (symbolic_shapes)",
                        steps=(f"{location_path(origin.file)}:{origin.line}: {origin.name} returned by "
                               f"{origin.function}",))
        if origin.kind == "size":
            return Flow(Dynamic("SymInt", TORCH, reason), _EVERY if EVERY_DEPTH in kept
                        else kept, "int")
        return Flow(Dynamic("SymInt | SymFloat", TORCH, reason), _EVERY if EVERY_DEPTH in kept
                    else kept, "number")

    def shape_flow(self, spelled: str, depths: frozenset[int]) -> Flow:
        reason = Reason("shape", f'"{spelled}" is a tensor size, symbolic under dynamic '
                                 "shapes (symbolic_shapes)")
        return Flow(Dynamic("SymInt", TORCH, reason), depths, "int")

    # -- narrowing (for the walk) ----------------------------------------------------

    def narrowing(self, check: Expression, modules: Mapping[str, MypyFile] | None = None,
                  tree: MypyFile | None = None, *,
                  complete: bool = True) -> tuple[set[str], set[str]]:
        """(names static when ``check`` is true, names static when it is false).

        ``modules`` and ``tree`` (the module checked) let a base class of a dynamic
        class count as taking it: see :meth:`_takes_dynamic_classes`.
        """
        if isinstance(check, ComparisonExpr):
            return self._type_is_narrowing(check)
        if not isinstance(check, CallExpr) or not isinstance(check.callee, RefExpr):
            return set(), set()
        if not check.args or not isinstance(check.args[0], NameExpr):
            return set(), set()
        name = check.args[0].name
        callee = check.callee.fullname
        if callee in _STATIC_GUARDS:
            return {name}, set()
        if callee in _DYNAMIC_GUARDS:
            return set(), {name}
        if callee != "builtins.isinstance" or len(check.args) != 2:
            return set(), set()
        classes = classes_named(check.args[1])
        if classes is None:
            return set(), set()
        if self.static_only_aliases and _names_static_only_alias(
                check.args[1], self.static_only_aliases):
            return {name}, set()
        if any(self._takes_dynamic_classes(info, modules, tree, complete) for info in classes):
            return set(), {name}  # not the dynamic classes: a static value (or no number)
        if not self.migrating and all(_static_when_instance(info) for info in classes):
            return {name}, set()  # e.g. `isinstance(x, int)` is never true for a SymInt
        return set(), set()

    def _takes_dynamic_classes(self, info: TypeInfo, modules: Mapping[str, MypyFile] | None,
                               tree: MypyFile | None, complete: bool) -> bool:
        """True if every instance of a dynamic class (or of one configured family) is
        an instance of ``info``: ``info`` is a dynamic class, or a base class of a
        configured or default one (thunder's ``Proxy`` above ``NumberProxy``).

        A base of some subclasses only (``Node`` above ``LegacyNumber(Node,
        NumberProxy)``) does not count: a value outside it may still be a proxy.
        """
        if self.dynamic.is_dynamic_class(info):
            return True
        if modules is None:
            return False
        return any(sub.fullname in self.dynamic.fullnames for sub in
                   self.dynamic.subclasses.of(info, modules, tree, complete=complete))

    def _type_is_narrowing(self, check: ComparisonExpr) -> tuple[set[str], set[str]]:
        """``type(x) is int`` (or ``==``) is true only for a static number."""
        if len(check.operators) != 1 or check.operators[0] not in ("is", "=="):
            return set(), set()
        left, right = check.operands
        if (isinstance(left, CallExpr) and isinstance(left.callee, RefExpr)
                and left.callee.fullname == "builtins.type" and len(left.args) == 1
                and isinstance(left.args[0], NameExpr) and isinstance(right, RefExpr)
                and isinstance(right.node, TypeInfo)
                and right.node.fullname in STATIC_NUMBER_CLASSES):
            return {left.args[0].name}, set()
        return set(), set()


# -- evaluating expressions at a report site --------------------------------------------


#: Evaluation steps (a value or a definition followed) the flows reaching one report
#: site may take.  Each binding and definition is followed once per site, so a
#: function of ``k`` nested ``x += ...`` under ``if``\s takes about ``k * k / 2``
#: steps; past the limit the function is reported once as too large to follow.
FLOW_STEP_LIMIT = 200_000
#: Values nested in one another followed at once: each link of a chain ``x2 = x1 + 1``,
#: ``x3 = x2 + 1``... is three (the name, its binding, the expression), five Python
#: frames: 1,000 links stay well inside mypy's recursion limit (2 ** 14).
FLOW_DEPTH_LIMIT = 3_000


_NO_CUT = 1 << 62


class FlowTooLarge(Exception):
    """A function's flows took more work than the limits allow."""


class Evaluator:
    """Decides which flows reach an expression of one function."""

    def __init__(self, analysis: FlowAnalysis, facts: FunctionFacts | None,
                 lookup: TypeLookup) -> None:
        self.analysis = analysis
        self.facts = facts
        self.lookup = lookup
        self._done: dict[int, Flow | None] = {}
        self._shared = facts.shared_flows if facts is not None else None
        #: The expressions being followed -> how deep; a value reached through itself
        #: (a loop) is cut there, and what depends on the cut is not shared.
        self._active: dict[int, int] = {}
        self._lowest_cut = _NO_CUT
        # id -> (the binding or definition, its flow): each is followed once per site
        self._bindings: dict[int, tuple[Binding, Flow | None]] = {}
        self._definitions: dict[int, tuple[Definition, Flow | None]] = {}
        self._steps = 0
        self._depth = 0
        self._parameter_order: dict[str, int] | None = None

    def value(self, expr: Expression, *, items_too: bool = False) -> Flow | _Static | None:
        """The flow reaching ``expr`` itself (or, ``items_too``, its items); STATIC if the
        code narrowed it."""
        if self.facts is not None and self.facts.is_static(expr):
            return STATIC
        flow = self.flow(expr)
        if flow is None or not (flow.is_value or (items_too and 1 in flow.depths)):
            return None
        return flow

    def flow(self, expr: Expression) -> Flow | None:
        key = id(expr)
        if key in self._done:
            return self._done[key]
        shared = self._shared
        if shared is not None and key in shared:
            return shared[key][1]
        position = self._active.get(key)
        if position is not None:
            self._lowest_cut = min(self._lowest_cut, position)
            return None  # a definition reached through itself (loops): nothing new
        self._step()
        position = self._active[key] = len(self._active)
        outer_cut, self._lowest_cut = self._lowest_cut, _NO_CUT
        self._enter()
        try:
            found = self._flow(expr)
        finally:
            del self._active[key]
            self._depth -= 1
            inner_cut = self._lowest_cut
            # cut at a value still being followed (above this one): the result is partial
            self._lowest_cut = min(outer_cut, inner_cut if inner_cut < position else _NO_CUT)
        self._done[key] = found
        if shared is not None and inner_cut >= position:
            shared[key] = (expr, found)
        return found

    def _flow(self, expr: Expression) -> Flow | None:
        if isinstance(expr, NameExpr):
            return self._name(expr)
        if isinstance(expr, OpExpr):
            combined = union(self.flow(expr.left), self.flow(expr.right))
            if combined is not None and expr.op not in ("and", "or") and (
                    is_number_literal(expr.left) or is_number_literal(expr.right)):
                combined = combined._replace(typed=True)  # `x + 1`: x is a number
            return combined
        if isinstance(expr, UnaryExpr):
            return None if expr.op == "not" else self.flow(expr.expr)
        if isinstance(expr, ComparisonExpr):
            if any(op in ("is", "is not", "in", "not in") for op in expr.operators) or any(
                    isinstance(operand, (StrExpr, BytesExpr)) for operand in expr.operands):
                return None  # identity, membership, or `padding == "same"`: no number compared
            literal = any(is_number_literal(operand) for operand in expr.operands)
            for operand in expr.operands:
                compared = self.flow(operand)
                if compared is not None and compared.is_value:
                    return compared._replace(depths=_VALUE, python_type="bool",
                                             typed=compared.typed or literal)
            return None
        if isinstance(expr, IndexExpr):
            return self._index(expr)
        if isinstance(expr, MemberExpr):
            return self._typed_as_size(expr)
        if isinstance(expr, CallExpr):
            return self._call(expr)
        if isinstance(expr, (TupleExpr, ListExpr, SetExpr)):
            found: Flow | None = None
            for item in expr.items:
                if isinstance(item, StarExpr):
                    found = union(found, self.flow(item.expr))
                else:
                    item_flow = self.flow(item)
                    found = union(found, item_flow.deeper(-1) if item_flow else None)
            return found
        if isinstance(expr, (ListComprehension, SetComprehension)):
            return self._generated(expr.generator)
        if isinstance(expr, GeneratorExpr):
            return self._generated(expr)
        if isinstance(expr, ConditionalExpr):
            return union(self.flow(expr.if_expr), self.flow(expr.else_expr))
        if isinstance(expr, (AssignmentExpr, CastExpr)):
            return self.flow(expr.value if isinstance(expr, AssignmentExpr) else expr.expr)
        if isinstance(expr, StarExpr):
            return self.flow(expr.expr)
        return None

    def _generated(self, expr: GeneratorExpr) -> Flow | None:
        element = self.flow(expr.left_expr)
        return element.deeper(-1) if element is not None else None

    def _name(self, expr: NameExpr) -> Flow | None:
        facts = self.facts
        binding = facts.walk.reads.get(expr) if facts is not None else None
        if binding is not None and binding.static:
            return None
        found = self._binding(binding) if binding is not None else None
        return found or self._typed_as_size(expr)

    def _step(self) -> None:
        self._steps += 1
        if self._steps > FLOW_STEP_LIMIT:
            raise FlowTooLarge(f"more than {FLOW_STEP_LIMIT} steps (FLOW_STEP_LIMIT)")

    def _enter(self) -> None:
        self._depth += 1
        if self._depth > FLOW_DEPTH_LIMIT:
            raise FlowTooLarge(f"more than {FLOW_DEPTH_LIMIT} values nested in one another "
                               "(FLOW_DEPTH_LIMIT)")

    def _binding(self, binding: Binding) -> Flow | None:
        """The flows of every definition of ``binding``, each definition followed once.

        The definitions are combined in source order (parameters first): the first
        one's reason is the one shown, the same under any hash seed.
        """
        known = self._bindings.get(id(binding))
        if known is not None:
            return known[1]
        flows: list[tuple[tuple[int, int, int, int], str, Flow]] = []
        self._enter()
        try:
            for definition in binding.definitions:
                self._step()
                found = self._definition(definition)
                if found is not None:
                    flows.append((self._source_order(definition), found.dynamic.reason.detail,
                                   found))
        finally:
            self._depth -= 1
        flows.sort(key=lambda entry: entry[:2])
        combined: Flow | None = None
        for _, _, found in flows:
            combined = union(combined, found)
        self._bindings[id(binding)] = (binding, combined)
        return combined

    def _definition(self, definition: Definition) -> Flow | None:
        known = self._definitions.get(id(definition))
        if known is not None:
            return known[1]
        found: Flow | None = None
        if isinstance(definition, Param):
            assert self.facts is not None
            found = self.facts.params.get(definition.name)
        elif isinstance(definition, Assigned):
            value = self.flow(definition.expr)
            found = value.deeper(definition.depth) if value else None
        elif isinstance(definition, Augmented):
            added = self.flow(definition.expr)
            if added is not None and definition.item:
                added = added.deeper(-1)
            found = union(added, self._binding(definition.before))
        self._definitions[id(definition)] = (definition, found)
        return found

    def _source_order(self, definition: Definition) -> tuple[int, int, int, int]:
        """Parameters in their order, then assignments by place."""
        if isinstance(definition, Param):
            if self._parameter_order is None:
                assert self.facts is not None
                self._parameter_order = {
                    argument.variable.name: index
                    for index, argument in enumerate(self.facts.function.arguments)}
            return 0, self._parameter_order.get(definition.name, -1), 0, 0
        if isinstance(definition, (Assigned, Augmented)):
            depth = definition.depth if isinstance(definition, Assigned) else -1
            return 1, definition.expr.line, definition.expr.column, depth
        return 2, 0, 0, 0

    def _index(self, expr: IndexExpr) -> Flow | None:
        base = self.flow(expr.base)
        if base is None:
            return None
        if isinstance(expr.index, SliceExpr):
            return base  # a slice holds the same kind of items
        return base.deeper(1)

    def _call(self, expr: CallExpr) -> Flow | None:
        found = self._known_call(expr)
        if found is None:
            found = self._returned(expr)
        return found

    def _returned(self, expr: CallExpr) -> Flow | None:
        """What a function with Python source returns (:mod:`.returns`): a size it
        reads, or the flow of the argument it passes back."""
        modules = self.facts.build_modules if self.facts is not None else None
        target = self._call_target(expr.callee, modules) if modules else None
        if target is None or modules is None:
            return None
        returns = self.analysis.returns
        value = returns.returned(target, modules)
        if not value:
            return None
        found: Flow | None = None
        arguments: dict[str, Expression] | None = None
        for origin, depths in sorted(value.items()):  # the same reason under any hash seed
            if origin.kind != "parameter":
                if self.analysis.symbolic_shapes:
                    found = union(found, self.analysis.returned_flow(_spelled(expr), origin,
                                                                     depths))
                continue
            if arguments is None:
                arguments = _arguments_by_name(
                    expr, positional_names(returns.summaries, target, modules))
            argument = arguments.get(origin.name)
            passed = self.flow(argument) if argument is not None else None
            if passed is None:
                continue
            for depth in sorted(depths):
                found = union(found, passed._replace(depths=_EVERY)
                              if depth == RETURNED_EVERY_DEPTH else passed.deeper(-depth))
        return found

    def _call_target(self, callee: Expression,
                     modules: Mapping[str, MypyFile]) -> Target | None:
        """The function with Python source a call runs: a function, or a method found
        through the receiver's type (constructors return no number)."""
        if not isinstance(callee, RefExpr) or callee.fullname.startswith("builtins."):
            return None
        node = callee.node
        if isinstance(node, (FuncDef, Decorator)):
            return target_of(node, modules)
        if isinstance(callee, MemberExpr) and node is None:
            receiver = get_proper_type(self.lookup(callee.expr))
            if isinstance(receiver, Instance):
                method = receiver.type.get_method(callee.name)
                return target_of(method, modules) if method is not None else None
        return None

    def _known_call(self, expr: CallExpr) -> Flow | None:
        callee = expr.callee
        if isinstance(callee, MemberExpr) and self.analysis.symbolic_shapes:
            found = self._size_call(expr, callee)
            if found is not None:
                return found
        if not isinstance(callee, RefExpr) or not expr.args:
            return None
        name = callee.fullname
        if name in _SAME_AS_ARGUMENT:
            return self.flow(expr.args[0])
        if name in _ITEM_OF_ARGUMENT:
            if len(expr.args) == 1 or name == "builtins.sum":
                items = self.flow(expr.args[0])
                first = items.deeper(1) if items is not None else None
                return union(first, self.flow(expr.args[1]) if len(expr.args) > 1 else None)
            found = None
            for argument in expr.args:
                found = union(found, self.flow(argument))
            return found
        if name in _SYMBOLIC_HELPERS:
            found = None
            for argument in expr.args:
                argument_flow = self.flow(argument)
                if argument_flow is not None and not argument_flow.is_value:
                    argument_flow = argument_flow.deeper(1)  # sym_sum(list)
                found = union(found, argument_flow)
            return found
        return None  # to_static(), len() and any other call: a new value

    def _size_call(self, expr: CallExpr, callee: MemberExpr) -> Flow | None:
        method = callee.name
        if method in DATA_DEPENDENT_METHODS:
            return self._data_call(expr, callee, DATA_DEPENDENT_METHODS[method])
        if method not in _SIZE_METHODS and method not in _ONE_SIZE_METHODS:
            return None
        receiver = self.lookup(callee.expr)
        if receiver is None or not _has_base(receiver, _TENSOR_BASES | _SIZE_CLASSES) \
                or self._module_state(callee.expr):
            return None
        one = method in _ONE_SIZE_METHODS or bool(expr.args)
        return self.analysis.shape_flow(_spelled(expr), _VALUE if one else _ITEMS)

    def _data_call(self, expr: CallExpr, callee: MemberExpr, value: bool) -> Flow | None:
        """``t.item()`` (the value) or ``t.tolist()`` (its items): data-dependent numbers."""
        receiver = self.lookup(callee.expr)
        if expr.args or receiver is None or not _has_base(receiver, _TENSOR_BASES):
            return None
        return self.analysis.data_flow(_spelled(expr), _VALUE if value else _EVERY)

    def _typed_as_size(self, expr: Expression) -> Flow | None:
        """``t.shape``, or any name or attribute typed ``torch.Size``."""
        if not self.analysis.symbolic_shapes:
            return None
        typ = self.lookup(expr)
        if typ is None or not _has_base(typ, _SIZE_CLASSES) or (
                isinstance(expr, MemberExpr) and self._module_state(expr.expr)):
            return None
        return self.analysis.shape_flow(_spelled(expr), _ITEMS)

    def _module_state(self, expr: Expression) -> bool:
        """True for ``self.weight`` (``self.a.b``...) in a method of a ``torch.nn.Module``
        subclass: a parameter or buffer, whose sizes are static under make_fx, export and
        torch.compile's defaults (tests/runtime/test_sink_rules_runtime.py)."""
        facts = self.facts
        if facts is None or not isinstance(expr, MemberExpr):
            return False
        function = facts.function
        if not _is_method(function) or function.is_static or not function.arguments \
                or not any(base.fullname in _MODULE_CLASSES for base in function.info.mro):
            return False
        root: Expression = expr
        while isinstance(root, MemberExpr):
            root = root.expr
        return isinstance(root, NameExpr) and root.name == function.arguments[0].variable.name


# -- types ------------------------------------------------------------------------------


def new_returns() -> Returns:
    """Return-value summaries (with their own call-site summaries and parses)."""
    return Returns(Summaries(), lambda typ: _has_base(typ, _TENSOR_BASES),
                   lambda typ: _number_depths(typ) is not None)


def _number_depths(typ: Type | None, depth: int = 0) -> tuple[frozenset[int], str] | None:
    """Depths at which a value of declared type ``typ`` holds static numbers (None: none).

    ``None`` (no annotation) and ``Any`` may hold anything at any depth.
    """
    if typ is None:
        return _EVERY, "number"
    if depth > 4:
        return None
    proper = get_proper_type(typ)
    if isinstance(proper, AnyType):
        return _EVERY, "number"
    if isinstance(proper, LiteralType):
        return None  # a literal is a static value
    if isinstance(proper, Instance):
        python_type = STATIC_PYTHON_TYPES.get(proper.type.fullname)
        if python_type is not None:
            return (_VALUE, python_type) if proper.last_known_value is None else None
        if proper.type.fullname in ("builtins.str", "builtins.bytes"):
            return None
        args = list(proper.args)
        if not proper.type.has_base("typing.Iterable"):
            # no items: an `Any` argument (left out, or a TypeVar's default) is no number
            args = [arg for arg in args if not isinstance(get_proper_type(arg), AnyType)]
        if not args and proper.type.tuple_type is not None:
            args = [proper.type.tuple_type]  # torch.Size is a tuple[int, ...]
        return _join([_shifted(_number_depths(arg, depth + 1)) for arg in args])
    if isinstance(proper, TupleType):
        return _join([_shifted(_number_depths(item, depth + 1)) for item in proper.items])
    if isinstance(proper, UnionType):
        return _join([_number_depths(item, depth + 1) for item in proper.items])
    if isinstance(proper, TypeVarType):
        return _join([_number_depths(item, depth + 1)
                      for item in [proper.upper_bound, *proper.values]])
    return None


def _shifted(found: tuple[frozenset[int], str] | None) -> tuple[frozenset[int], str] | None:
    if found is None or EVERY_DEPTH in found[0]:
        return found
    return frozenset(depth + 1 for depth in found[0]), found[1]


def _join(parts: list[tuple[frozenset[int], str] | None]) -> tuple[frozenset[int], str] | None:
    present = [part for part in parts if part is not None]
    if not present:
        return None
    depths = frozenset().union(*(part[0] for part in present))
    types = {part[1] for part in present}
    return (_EVERY if EVERY_DEPTH in depths else depths,
            types.pop() if len(types) == 1 else "number")


def _has_base(typ: Type, fullnames: frozenset[str]) -> bool:
    proper = get_proper_type(typ)
    if isinstance(proper, TupleType):
        proper = proper.partial_fallback
    return isinstance(proper, Instance) and any(
        base.fullname in fullnames for base in proper.type.mro)


def classes_named(expr: Expression) -> list[TypeInfo] | None:
    """The classes an isinstance classes argument names, from semantic analysis alone."""
    if isinstance(expr, (TupleExpr, ListExpr)):
        found: list[TypeInfo] = []
        for item in expr.items:
            part = classes_named(item)
            if part is None:
                return None
            found += part
        return found
    if isinstance(expr, OpExpr) and expr.op == "|":
        left, right = classes_named(expr.left), classes_named(expr.right)
        return None if left is None or right is None else left + right
    if not isinstance(expr, RefExpr):
        return None
    node = expr.node
    if isinstance(node, TypeInfo):
        return [node]
    if isinstance(node, TypeAlias):
        return _classes_of_type(node.target)
    if isinstance(node, Var) and node.type is not None:
        return _classes_of_type(node.type, objects=True)
    return None


def _classes_of_type(typ: Type, objects: bool = False) -> list[TypeInfo] | None:
    proper = get_proper_type(typ)
    if objects and isinstance(proper, TypeType):
        return _classes_of_type(proper.item)
    if objects and isinstance(proper, (CallableType, Overloaded)) and proper.is_type_obj():
        return [proper.type_object()]
    if isinstance(proper, Instance) and not objects:
        return [proper.type]
    parts: list[Type] | None = None
    if isinstance(proper, UnionType):
        parts = list(proper.items)
    elif isinstance(proper, TupleType) and objects:
        parts = list(proper.items)
    if parts is None:
        return None
    found: list[TypeInfo] = []
    for part in parts:
        classes = _classes_of_type(part, objects)
        if classes is None:
            return None
        found += classes
    return found


def _static_when_instance(info: TypeInfo) -> bool:
    """True if an instance of ``info`` is a static number (``isinstance(x, int)``: x is one).

    Not for other classes: ``isinstance(shape, list)`` says nothing of its items.
    """
    return info.fullname in STATIC_NUMBER_CLASSES


def _names_static_only_alias(expr: Expression, aliases: frozenset[str]) -> bool:
    """True if ``expr`` (a classes argument) names a ``static_only_aliases`` entry."""
    if isinstance(expr, (TupleExpr, ListExpr)):
        return any(_names_static_only_alias(item, aliases) for item in expr.items)
    if isinstance(expr, OpExpr) and expr.op == "|":
        return (_names_static_only_alias(expr.left, aliases)
                or _names_static_only_alias(expr.right, aliases))
    return isinstance(expr, RefExpr) and expr.fullname in aliases


def names_static_only_alias(expr: Expression, aliases: frozenset[str]) -> bool:
    """Public form of :func:`_names_static_only_alias` for the isinstance check."""
    return bool(aliases) and _names_static_only_alias(expr, aliases)


# -- small helpers ---------------------------------------------------------------------


def _decorator_names(decorator: Expression, tree: MypyFile) -> list[str]:
    """The names ``@deco``, ``@deco(...)`` and ``@pkg.deco(...)`` go by: where the
    decorator is defined (``jax._src.api.jit``) and the public name the code imports
    it by (``jax.jit``, also for ``from jax import jit``), which is what users configure."""
    if isinstance(decorator, CallExpr):
        decorator = decorator.callee
    if not isinstance(decorator, RefExpr) or not decorator.fullname:
        return []
    names = [decorator.fullname]
    if isinstance(decorator, MemberExpr) and isinstance(decorator.expr, RefExpr) \
            and isinstance(decorator.expr.node, MypyFile):
        names.append(f"{decorator.expr.node.fullname}.{decorator.name}")
    elif isinstance(decorator, NameExpr):
        names += [f"{imported.id}.{name}" for imported in tree.imports
                  if isinstance(imported, ImportFrom) and not imported.relative
                  for name, alias in imported.names if (alias or name) == decorator.name]
    return list(dict.fromkeys(names))


def _is_statement_container(node: object) -> bool:
    from mypy.nodes import Block, Statement

    return isinstance(node, (Block, Statement))


def _qualified_names(chain: list[FuncDef]) -> Iterator[str]:
    """``pkg.mod.outer``, ``pkg.mod.outer.inner``, ...: each function of a nesting chain."""
    qualified = chain[0].fullname
    yield qualified
    for function in chain[1:]:
        qualified = f"{qualified}.{function.name}"
        yield qualified


def _is_method(function: FuncDef) -> bool:
    return not isinstance(function.info, FakeInfo)


def _function_label(function: FuncDef) -> str:
    """``Class.method`` or ``function``, as users call it."""
    if _is_method(function):
        return f"{function.info.name}.{function.name}"
    return function.name


def _arguments_by_name(call: CallExpr, positional: list[str]) -> dict[str, Expression]:
    """The call's arguments by the callee's parameter names (up to a ``*args``)."""
    found: dict[str, Expression] = {}
    index = 0
    for argument, kind, name in zip(call.args, call.arg_kinds, call.arg_names):
        if kind == ARG_POS:
            if index < len(positional):
                found[positional[index]] = argument
            index += 1
        elif kind == ARG_NAMED and name is not None:
            found[name] = argument
        else:
            index = len(positional)  # *args: which parameter gets what is not known
    return found


def _spelled(expr: Expression) -> str:
    """A short source-like spelling of a size expression (``x.shape``, ``t.size(0)``)."""
    if isinstance(expr, NameExpr):
        return expr.name
    if isinstance(expr, MemberExpr):
        return f"{_spelled(expr.expr)}.{expr.name}"
    if isinstance(expr, CallExpr):
        arguments = ", ".join(_spelled(argument) for argument in expr.args)
        return f"{_spelled(expr.callee)}({arguments})"
    if isinstance(expr, IntExpr):
        return str(expr.value)
    if isinstance(expr, UnaryExpr) and expr.op == "-":
        return f"-{_spelled(expr.expr)}"
    if isinstance(expr, IndexExpr):
        return f"{_spelled(expr.base)}[{_spelled(expr.index)}]"
    return "..."
