"""proxy-concretize for conditions: ``if n >= 0:`` specializes on a traced value.

No mypy hook sees an ``if``.  Instead the top-level statement holding a
comparison with a dynamic operand is walked (once) to collect the spans of
expressions whose truth value Python asks for; the comparison-method hooks
report the comparison if it stands at one of those spans.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import (
    ARG_POS,
    AssertStmt,
    CallExpr,
    Context,
    Expression,
    ForStmt,
    MypyFile,
    NameExpr,
    Statement,
    TupleExpr,
)
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext
from mypy.types import Instance, LiteralType, get_proper_type

from .. import _mypy_compat as compat
from .. import errors
from ..analysis.context import current_module
from ..config import ProxyTypesConfig
from ..analysis.dynamic import (
    Asked,
    DynamicClasses,
    dynamic_in_expression,
    expression_type,
    is_requirement,
    reads_of_value,
    repeats_a_guard,
)
from ..analysis.kinds import GUARDING_KINDS, TORCH, Dynamic
from ..analysis.severity import flows_may_be_reported, guards_only_a_range, outcome_of
from ..analysis.truth import also_truth_tested, truth_tested_by
from ..analysis.walk import StatementLines, everywhere, walk
from ..analysis.tracers import failing_tracers
from ..constants import TENSOR_ASSERT_OPERATION, TRUTH_TEST_OPERATION, is_comparison_method
from ..analysis.cross_call import call_site_env, in_traced_code
from ..analysis.flow import _TENSOR_BASES, _has_base
from ..findings import Reason
from ..analysis.sources_sinks import TENSOR_ITERATIONS, TENSOR_TRUTH_BUILTINS
from ..hooks import FUNCTION, METHOD, Env, Hook, Shared

Span = tuple[int, int, int, int]


def _tested_spans(statement: Statement) -> frozenset[Span]:
    """The spans of every expression ``statement`` evaluates for its truth value."""
    spans: set[Span] = set()
    for node in walk(statement, everywhere):
        for condition in truth_tested_by(node):
            spans.update(span_of(expr) for expr in also_truth_tested(condition))
    return frozenset(spans)


def span_of(node: Context) -> Span:
    """Where ``node`` stands in its file: (line, column, end line, end column)."""
    return (node.line, node.column, node.end_line or -1, node.end_column or -1)


class _ModuleContexts:
    """One module's top-level statements with the spans found in each, walked on demand."""

    def __init__(self, tree: MypyFile) -> None:
        self.tree = tree
        # The statement list as walked (a daemon's merge of a new parse replaces it).
        self.defs = tree.defs
        self.count = len(tree.defs)
        self.lines = StatementLines(tree.defs)
        self._spans: dict[int, frozenset[Span]] = {}

    def statement_spans(self, index: int) -> frozenset[Span]:
        spans = self._spans.get(index)
        if spans is None:
            spans = self._spans[index] = _tested_spans(self.tree.defs[index])
        return spans


class BooleanContexts:
    """Per-module cache of boolean-context spans; rebuilt when the tree changes.

    Only the top-level statements whose lines hold the node asked about are walked
    (each once), not the whole module.  A node no statement's lines hold falls
    back to walking every statement.

    Speed trick: the walk was the comparison check's main cost. Measured: the
    comparison hooks 0.456 -> 0.124 s of a torch-refs profile (docs/performance.md).
    """

    def __init__(self) -> None:
        self._cache: dict[str, _ModuleContexts] = {}

    def is_tested(self, tree: MypyFile, node: Context) -> bool:
        """Whether Python tests ``node`` (an expression of ``tree``) for truth."""
        module = self._cache.get(tree.fullname)
        if module is None or module.tree is not tree or module.defs is not tree.defs \
                or module.count != len(tree.defs):
            module = self._cache[tree.fullname] = _ModuleContexts(tree)
        span = span_of(node)
        holders = module.lines.holding(node.line)
        if not holders:
            holders = list(range(len(module.lines.ranges)))
        return any(span in module.statement_spans(index) for index in holders)


def check_comparison(
    ctx: MethodContext,
    config: ProxyTypesConfig,
    dynamic: DynamicClasses,
    contexts: BooleanContexts,
) -> None:
    """Report a comparison with a dynamic operand that Python tests for truth."""
    tree = current_module(ctx.api)
    if tree is None:
        return
    operands = [ctx.type, *(arg_type for arg_types in ctx.arg_types for arg_type in arg_types)]
    comparison = ctx.context if isinstance(ctx.context, Expression) else None
    found = dynamic_in_expression(
        ctx.api, comparison, dynamic, Asked(
            types=operands,
            follow_flows=flows_may_be_reported(ctx.api, TRUTH_TEST_OPERATION, dynamic)))
    if found is None:
        return
    if guards_only_a_range(comparison, found, _static_number(ctx.api, dynamic)):
        return
    # A comparison's result stands for a bool, whatever the operands are.
    outcome = outcome_of(TRUTH_TEST_OPERATION, found, "bool")
    if errors.shown_code(ctx.api, outcome) is None:
        return  # first: the walks below only hold back a report nobody would see
    if comparison is not None and found.kind in GUARDING_KINDS \
            and repeats_a_guard(ctx.api, dynamic, comparison):
        return  # the guard an earlier `p == 1` installed answers this one
    if comparison is not None and found.kind in GUARDING_KINDS \
            and is_requirement(ctx.api, dynamic, comparison):
        # `if two != 2: raise`: where it passes, the value is 2 anyway;
        # `torch._check(n != 0)`: where it passes, a Ne guard, which pins nothing
        return
    if contexts.is_tested(tree, ctx.context):
        errors.dynamic_condition(ctx.api, ctx.context, found.name, outcome=outcome,
                                 reason=found.reason)
        return
    # `is_even = p % 2 == 0` ... `if not is_even:`: the test of the stored result.
    for read in reads_of_value(ctx.api, dynamic, comparison) if comparison is not None else ():
        if contexts.is_tested(tree, read):
            errors.dynamic_condition(ctx.api, read, found.name, outcome=outcome,
                                     reason=found.reason)


def _static_number(api: CheckerPluginInterface, dynamic: DynamicClasses
                   ) -> Callable[[Expression], bool]:
    """Whether an operand is a static ``int`` or ``float`` by its type, and no source
    makes it maybe dynamic (a config value, a parameter's shape, ``len()`` of a list)."""
    def static(operand: Expression) -> bool:
        typ = get_proper_type(expression_type(api, operand))
        if isinstance(typ, LiteralType):
            typ = typ.fallback
        if not isinstance(typ, Instance) or typ.type.fullname not in _STATIC_NUMBERS:
            return False
        if isinstance(operand, CallExpr) and any(
                dynamic_in_expression(api, argument, dynamic) is not None
                for argument in operand.args):
            return False  # `int(scale) == scale`: the conversion is where it is pinned
        return dynamic_in_expression(api, operand, dynamic, Asked(types=[typ])) is None
    return static


_STATIC_NUMBERS = frozenset({"builtins.int", "builtins.float"})


#: Tensor methods whose result code tests for truth (``if (x > 0).any():``).
#: mypy names a method by the receiver's class (``Tensor``), not the defining one.
_TENSOR_TRUTH_METHODS = {f"{cls}.{name}": f"Tensor.{name}()"
                         for cls in ("torch._tensor.Tensor", "torch._C.TensorBase")
                         for name in ("any", "all")}


def _symbolic_shapes(shared: Shared) -> bool:
    return shared.config.symbolic_shapes


#: Every class's rich comparisons (``__lt__``...), tensor reductions to a bool, and
#: builtin ``all()``/``any()`` (of a tensor: each item tested).
HOOKS = (Hook(METHOD, matches=is_comparison_method),
         Hook(METHOD, names=frozenset(_TENSOR_TRUTH_METHODS), when=_symbolic_shapes),
         Hook(FUNCTION, names=frozenset(TENSOR_TRUTH_BUILTINS), when=_symbolic_shapes),
         Hook(FUNCTION, names=TENSOR_ITERATIONS, when=_symbolic_shapes),
         Hook(METHOD, names=TENSOR_ITERATIONS, when=_symbolic_shapes))


def _contexts(env: Env) -> BooleanContexts:
    return BooleanContexts()


def check(ctx: FunctionContext | MethodContext, env: Env) -> None:
    if env.fullname in TENSOR_ITERATIONS:
        check_tested_items(ctx, env)
        return
    if isinstance(ctx, FunctionContext):  # all()/any()
        if len(ctx.arg_types) == 1 and len(ctx.arg_types[0]) == 1 \
                and _has_base(ctx.arg_types[0][0], _TENSOR_BASES):
            check_tensor_condition(ctx, env)
        return
    if env.config.symbolic_shapes and (env.fullname in _TENSOR_TRUTH_METHODS or any(
            _has_base(typ, _TENSOR_BASES)
            for typ in (ctx.type, *(arg for args in ctx.arg_types for arg in args)))):
        check_tensor_condition(ctx, env)
        return
    check_comparison(ctx, env.config, env.dynamic, env.state(_contexts))


def check_tensor_condition(ctx: FunctionContext | MethodContext, env: Env) -> None:
    """Report tensor data tested for truth in traced code: ``bool()`` of a tensor reads
    its value, an unbacked symbol there (tests/runtime/test_sink_rules_runtime.py)."""
    tree = current_module(ctx.api)
    if tree is None or not env.state(_contexts).is_tested(tree, ctx.context):
        return
    sites = env.state(call_site_env)
    if not in_traced_code(ctx, sites):
        return
    found = Dynamic("SymBool", TORCH, Reason("shape"))
    outcome = outcome_of(TRUTH_TEST_OPERATION, found, "bool")
    if errors.shown_code(ctx.api, outcome) is not None:
        tracers = failing_tracers(TENSOR_ASSERT_OPERATION, found, env.config) \
            if _tested_by_an_assert(ctx) else None
        errors.tensor_condition(ctx.api, ctx.context,
                                _TENSOR_TRUTH_METHODS.get(env.fullname) or TENSOR_TRUTH_BUILTINS.get(
                                    env.fullname, "a tensor comparison"),
                                outcome, tracers=tracers)


def check_tested_items(ctx: FunctionContext | MethodContext, env: Env) -> None:
    """Report the items of a tensor a ``for`` loop iterates (``ctx.context`` is its
    iterable: the tensor, or ``zip()`` of it) where its body tests them for truth."""
    chain = compat.enclosing_functions(ctx.api)
    if not chain:
        return
    loop = next((node for node in walk(chain[-1].body, everywhere)
                 if isinstance(node, ForStmt) and node.expr is ctx.context), None)
    if loop is None:
        return
    if isinstance(ctx, FunctionContext):  # zip(layers, to_drop): the tensors' positions
        iterables = [typ for types, kinds in zip(ctx.arg_types, ctx.arg_kinds)
                     for typ, kind in zip(types, kinds) if kind == ARG_POS]
        if not isinstance(loop.index, TupleExpr) or len(loop.index.items) != len(iterables):
            return
        targets = [target for target, typ in zip(loop.index.items, iterables)
                   if _has_base(typ, _TENSOR_BASES)]
    else:
        targets = [loop.index]
    names = {target.name for target in targets if isinstance(target, NameExpr)}
    if not names or not in_traced_code(ctx, env.state(call_site_env)):
        return
    found = Dynamic("SymBool", TORCH, Reason("shape"))
    outcome = outcome_of(TRUTH_TEST_OPERATION, found, "bool")
    if errors.shown_code(ctx.api, outcome) is None:
        return
    for node in walk(loop.body, everywhere):
        for tested in truth_tested_by(node):
            for expr in also_truth_tested(tested):
                if isinstance(expr, NameExpr) and expr.name in names:
                    tracers = failing_tracers(TENSOR_ASSERT_OPERATION, found, env.config) \
                        if isinstance(node, AssertStmt) else None
                    errors.tensor_condition(ctx.api, expr, "an item of a tensor", outcome,
                                            tracers=tracers)


def _tested_by_an_assert(ctx: FunctionContext | MethodContext) -> bool:
    """True if ``ctx.context`` is the whole test of an ``assert`` of the innermost function:
    torch.compile turns that into ``torch._assert``, but branches on ``a and b``."""
    chain = compat.enclosing_functions(ctx.api)
    if not chain:
        return False
    return any(isinstance(node, AssertStmt) and node.expr is ctx.context
               for node in walk(chain[-1].body, everywhere))
