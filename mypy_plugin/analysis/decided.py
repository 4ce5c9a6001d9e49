"""Guards a function has already installed where a later line asks for the same one,
and checks that allow one value only.

torch's ShapeEnv answers a condition it has guarded once from that guard: a second
``p == 1`` (or ``p != 1``) on the same value, or a second ``int(s)``, records
nothing new and pins nothing the first did not.  This syntactic walk (cached per
function with its other facts) finds the comparisons and conversions of a local
name that repeat one Python certainly evaluated before them on every path, with
the name unchanged in between.

The guards it remembers: a comparison of a name with a number literal that Python
tests for truth (an ``if``/``while``/``assert`` test, the left operand of
``and``/``or``, the condition a ``torch._check`` call tests), the first item of a
membership test ``p in (2, 1, inf)`` (CPython compares and tests it first), and
``int(p)``/``float(p)``.

A check that raises unless a value equals one literal (``if two != 2: raise``,
``torch._check(a.size(dim) == 3)``) pins it too, but where it passes the value is
that literal anyway; one that raises on a literal (``torch._check(n != 0)``) pins
nothing where it passes.  Either guard costs the program nothing
(:func:`requirement_comparisons`).

And the branches that run only under TorchScript, which no traced value reaches
(:func:`scripting_only_lines`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from mypy.nodes import (
    AssertStmt,
    AssignmentExpr,
    AssignmentStmt,
    Block,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    ConditionalExpr,
    Decorator,
    DelStmt,
    DictionaryComprehension,
    Expression,
    FuncDef,
    GeneratorExpr,
    IfStmt,
    Import,
    ImportFrom,
    LambdaExpr,
    ListExpr,
    NameExpr,
    Node,
    OpExpr,
    OperatorAssignmentStmt,
    OverloadedFuncDef,
    RaiseStmt,
    RefExpr,
    Statement,
    TupleExpr,
    UnaryExpr,
)
from mypy.patterns import Pattern

from .branches import lines_where
from .dataflow import Dataflow
from .literals import real_value
from .sources_sinks import SCRIPTING_TESTS
from .truth import also_truth_tested, truth_tested_by
from .walk import everywhere, walk

#: ("==", name, literal) for a comparison, ("int"/"float", name, None) for a conversion.
Key = tuple[str, str, object]
Known = frozenset[Key]

#: torch's checks that raise unless their condition holds, with the position of it.
REQUIRING_CALLS = {"torch._check": 0, "torch._check_value": 0, "torch._check_index": 0,
                   "torch._check_type": 0, "torch._check_not_implemented": 0,
                   "torch._check_with": 1}
_CONVERSIONS = {"builtins.int": "int", "builtins.float": "float"}


def requirement_condition(call: CallExpr) -> Expression | None:
    """The condition a ``torch._check``-like call raises unless true; None for other calls."""
    if not isinstance(call.callee, RefExpr):
        return None
    position = REQUIRING_CALLS.get(call.callee.fullname)
    return call.args[position] if position is not None and len(call.args) > position else None


def literal_value(expr: Expression) -> object | None:
    """The value of a number literal (``3``, ``-1.5``); None for anything else."""
    return real_value(expr)


class DecidedWalk(Dataflow[Known]):
    """The comparisons and conversions of one function that repeat an earlier guard:
    the rules of :class:`.dataflow.Dataflow` for the guards Python certainly
    evaluated on every path, the names in them unchanged since."""

    def __init__(self, function: FuncDef) -> None:
        super().__init__()
        self._tested = _tested_in(function)
        self._bound: list[str] = []  # every name bound, in order (see mark)
        # Each comparison or conversion -> whether its guard was known there; a loop's
        # body is walked again until its head settles, and the last walk is the answer.
        self._repeats: dict[Expression, bool] = {}
        self.block(function.body, frozenset())
        #: Comparison and conversion-call nodes whose guard an earlier one installed.
        self.decided: set[Expression] = {expr for expr, known in self._repeats.items() if known}

    # -- the rules of the walk -------------------------------------------------------------

    def mark(self) -> int:
        return len(self._bound)

    def join(self, states: Sequence[Known | None], base: Known, since: int) -> Known | None:
        live = [state for state in states if state is not None]
        if not live:
            return None
        first = live[0]
        if all(state is first for state in live):
            return first  # no path changed it (most branches)
        return first.intersection(*live[1:])

    def anywhere(self, base: Known, since: int) -> Known:
        return _forget(base, self._bound[since:])

    def carry(self, end: Known, onto: Known, since: int) -> Known:
        return _forget(onto, self._bound[since:]) | end

    def evaluate(self, expr: Expression, state: Known) -> Known:
        return self._expression(expr, state, certain=True)

    def narrow(self, condition: Expression, state: Known, outcome: bool) -> Known:
        return state  # what a test guards was known once it was evaluated

    def simple(self, node: Statement, state: Known) -> Known:
        for child in _children(node):
            if isinstance(child, Expression):
                state = self._expression(child, state, certain=True)
        if not state and not self.in_finally:
            # Nothing to forget, and no guard of a name bound here reaches past it
            # (carry, after a finally, needs those bound there); speed: a walk of
            # each statement otherwise.
            return state
        return self._rebind(_assigned_names(node), state)

    def iterate(self, target: Expression, iterable: Expression, state: Known) -> Known:
        return self._rebind(_names_in(target), state)

    def bind_unknown(self, target: Expression, state: Known) -> Known:
        return self._rebind(_names_in(target), state)

    def capture(self, pattern: Pattern, state: Known) -> Known:
        return self._rebind(_names_in(pattern), state)

    def define(self, node: FuncDef | OverloadedFuncDef | Decorator | ClassDef,
               state: Known) -> Known:
        return self._rebind([node.name], state)

    def _rebind(self, names: Iterable[str], known: Known) -> Known:
        """``known`` without the guards of ``names``, which now hold other values."""
        names = list(names)
        if not names:
            return known
        self._bound += names
        return _forget(known, names)

    def _expression(self, expr: Expression, known: Known, *, certain: bool) -> Known:
        """Visit ``expr`` in evaluation order; what it certainly guards is added to
        ``known`` when ``certain`` (the expression always runs)."""
        if isinstance(expr, (LambdaExpr, GeneratorExpr, DictionaryComprehension)):
            # Runs later, or not at all; but `:=` in a comprehension binds here.
            return self._rebind(_walrus_targets(expr), known)
        if isinstance(expr, OpExpr) and expr.op in ("and", "or"):
            known = self._expression(expr.left, known, certain=certain)
            # The right operand may not run: it guards nothing for sure, but its `:=`
            # may have rebound a name.
            return self._expression(expr.right, known, certain=False)
        if isinstance(expr, ConditionalExpr):
            known = self._expression(expr.cond, known, certain=certain)
            return (self._expression(expr.if_expr, known, certain=False)
                    & self._expression(expr.else_expr, known, certain=False))
        for child in _children(expr):
            if isinstance(child, Expression):
                known = self._expression(child, known, certain=certain)
        if isinstance(expr, AssignmentExpr):
            return self._rebind([expr.target.name], known)
        key = self._key(expr)
        if key is None:
            return known
        self._repeats[expr] = key in known
        return known | {key} if certain else known

    def _key(self, expr: Expression) -> Key | None:
        if isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr) \
                and expr.callee.fullname in _CONVERSIONS and len(expr.args) == 1 \
                and isinstance(expr.args[0], NameExpr):
            return (_CONVERSIONS[expr.callee.fullname], expr.args[0].name, None)
        if not isinstance(expr, ComparisonExpr) or len(expr.operators) != 1:
            return None
        operator = expr.operators[0]
        left, right = expr.operands
        if operator in ("in", "not in") and isinstance(left, NameExpr) \
                and isinstance(right, (TupleExpr, ListExpr)) and right.items:
            value = literal_value(right.items[0])  # compared, and tested, first
            return None if value is None else ("==", left.name, value)
        if operator not in ("==", "!=") or expr not in self._tested:
            return None
        for name, other in ((left, right), (right, left)):
            value = literal_value(other)
            if isinstance(name, NameExpr) and value is not None:
                return ("==", name.name, value)
        return None


def requirement_comparisons(function: FuncDef) -> set[ComparisonExpr]:
    """Equality tests of a value (no arithmetic result) with another value whose failing
    outcome, where Python evaluates them, makes the code raise: parts of the test of
    ``if ...: raise`` or of the condition of an ``assert`` or ``torch._check``.

    Where such a check passes, the value either is the literal the code requires
    (``if two != 2: raise``: any other value raises, traced or not) or is not the
    literal it rejects (``torch._check(split_size != 0)``: a ``Ne`` guard, which pins
    nothing).
    """
    found: set[ComparisonExpr] = set()
    for node in walk(function.body, lambda n: not isinstance(n, (FuncDef, ClassDef))):
        if isinstance(node, IfStmt) and len(node.expr) == 1 and _only_raises(node.body[0]):
            found.update(_equality_parts(node.expr[0], raising=True))
        elif isinstance(node, AssertStmt):
            found.update(_equality_parts(node.expr, raising=False))
        elif isinstance(node, CallExpr):
            condition = requirement_condition(node)
            if condition is not None:
                found.update(_equality_parts(condition, raising=False))
    return found


def _equality_parts(expr: Expression, raising: bool) -> Iterator[ComparisonExpr]:
    """The comparisons of ``expr`` whose outcome ``raising``, where Python evaluates
    them, makes all of ``expr`` ``raising``: every operand of ``or`` for True, of
    ``and`` for False, and the right one otherwise (it runs only after the left one
    let the whole wait for it)."""
    if isinstance(expr, OpExpr) and expr.op in ("and", "or"):
        if raising == (expr.op == "or"):
            yield from _equality_parts(expr.left, raising)
        yield from _equality_parts(expr.right, raising)
    elif isinstance(expr, UnaryExpr) and expr.op == "not":
        yield from _equality_parts(expr.expr, not raising)
    elif isinstance(expr, ComparisonExpr) and expr.operators in (["=="], ["!="]) and not any(
            isinstance(operand, OpExpr) for operand in expr.operands):
        # With a literal or any other value: `assert x.shape[1] == self.weight.shape[0]`
        # pins a size that every other value fails anyway (tests/runtime/test_sink_rules_runtime.py).
        # A value itself (`two`, `x.shape[-1]`), not a remainder or a sum: the
        # ground truth counts `in_channels % groups != 0` as pinning a size.
        yield expr


def scripting_only_lines(function: FuncDef) -> list[tuple[int, int]]:
    """The line ranges of branches that run only under TorchScript: the body of
    ``if torch.jit.is_scripting():`` and the ``else`` of ``if not ...``.  In Python
    (eager, make_fx, torch.compile) ``is_scripting()`` returns False."""
    return lines_where(function, true=SCRIPTING_TESTS)


def _only_raises(block: Block) -> bool:
    return len(block.body) == 1 and isinstance(block.body[0], RaiseStmt)


def _tested_in(function: FuncDef) -> set[Expression]:
    """The expressions of ``function`` (nested functions and classes left out) whose
    truth Python tests: conditions, and what ``torch._check``-like calls require."""
    tested: set[Expression] = set()
    for node in walk(function.body, lambda n: not isinstance(n, (FuncDef, ClassDef))):
        for condition in truth_tested_by(node):
            tested.update(also_truth_tested(condition))
        if isinstance(node, CallExpr):
            required = requirement_condition(node)
            if required is not None:
                tested.update(also_truth_tested(required))
    return tested


def _assigned_names(node: Statement) -> list[str]:
    """Every local name ``node`` (with what it contains) may bind or delete."""
    names: list[str] = []
    for part in walk(node, everywhere):
        targets: list[Node] = []
        if isinstance(part, AssignmentStmt):
            targets = list(part.lvalues)
        elif isinstance(part, OperatorAssignmentStmt):
            targets = [part.lvalue]
        elif isinstance(part, AssignmentExpr):
            targets = [part.target]
        elif isinstance(part, DelStmt):
            targets = [part.expr]
        elif isinstance(part, Import):
            names += [(alias or module).partition(".")[0] for module, alias in part.ids]
        elif isinstance(part, ImportFrom):
            names += [alias or name for name, alias in part.names]
        for target in targets:
            names += _names_in(target)
    return names


def _names_in(target: Node) -> list[str]:
    """The names a binding target (or a ``case`` pattern) binds."""
    return [name.name for name in walk(target, everywhere) if isinstance(name, NameExpr)]


def _walrus_targets(expr: Expression) -> list[str]:
    return [part.target.name for part in walk(expr, everywhere)
            if isinstance(part, AssignmentExpr)]


def _forget(known: Known, names: Iterable[str]) -> Known:
    if not known:
        return known
    forgotten = set(names)
    if not forgotten:
        return known
    return frozenset(key for key in known if key[1] not in forgotten)


def _children(node: Node) -> list[object]:
    """The direct children of ``node``, in source order."""
    return [child for child in walk(node, lambda n: False) if child is not node]
