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

from collections.abc import Iterator

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
    ForStmt,
    FuncDef,
    GeneratorExpr,
    IfStmt,
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
    WhileStmt,
    WithStmt,
)

from .literals import real_value
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


class DecidedWalk:
    """The comparisons and conversions of one function that repeat an earlier guard."""

    def __init__(self, function: FuncDef) -> None:
        #: Comparison and conversion-call nodes whose guard an earlier one installed.
        self.decided: set[Expression] = set()
        self._tested: set[Expression] = set()
        self._block(function.body, frozenset())

    def _block(self, block: Block, known: Known) -> Known:
        for statement in block.body:
            known = self._statement(statement, known)
        return known

    def _statement(self, node: Statement, known: Known) -> Known:
        if isinstance(node, (FuncDef, OverloadedFuncDef, Decorator, ClassDef)):
            return known  # walked on its own when mypy checks it
        self._tested.update(_truth_tested(node))
        # Names the statement may rebind, worked out only when a guard is known: a
        # walk of everything inside, for each statement at every depth.
        changed = _Assigned(node)
        if isinstance(node, IfStmt):
            after_test = self._expression(node.expr[0], known, certain=True)
            for test in node.expr[1:]:
                self._expression(test, after_test, certain=False)
            for body in node.body:
                self._block(body, after_test)
            if node.else_body is not None:
                self._block(node.else_body, after_test)
            return _forget(after_test, changed)
        if isinstance(node, (ForStmt, WhileStmt)):
            head = node.expr
            after_head = self._expression(head, known, certain=True)
            # A later iteration may see what the body assigns: forget it on entry.
            self._block(node.body, _forget(after_head, changed))
            if node.else_body is not None:
                self._block(node.else_body, _forget(after_head, changed))
            return _forget(after_head, changed)
        if isinstance(node, WithStmt):
            for expr in node.expr:
                known = self._expression(expr, known, certain=True)
            self._block(node.body, known)
            return _forget(known, changed)
        blocks = [child for child in _children(node) if isinstance(child, Block)]
        if blocks:  # try, match: any part may be left early
            for block in blocks:
                self._block(block, _forget(known, changed))
            return _forget(known, changed)
        for child in _children(node):
            if isinstance(child, Expression):
                known = self._expression(child, known, certain=True)
        return _forget(known, changed)

    def _expression(self, expr: Expression, known: Known, *, certain: bool) -> Known:
        """Visit ``expr`` in evaluation order; what it certainly guards is added to
        ``known`` when ``certain`` (the expression always runs)."""
        if isinstance(expr, (LambdaExpr, GeneratorExpr, DictionaryComprehension)):
            return known  # runs later, or not at all
        if isinstance(expr, OpExpr) and expr.op in ("and", "or"):
            known = self._expression(expr.left, known, certain=certain)
            self._expression(expr.right, known, certain=False)
            return known
        if isinstance(expr, ConditionalExpr):
            known = self._expression(expr.cond, known, certain=certain)
            self._expression(expr.if_expr, known, certain=False)
            self._expression(expr.else_expr, known, certain=False)
            return known
        if isinstance(expr, CallExpr):
            condition = requirement_condition(expr)
            if condition is not None:
                self._tested.update(_also_tested(condition))
        for child in _children(expr):
            if isinstance(child, Expression):
                known = self._expression(child, known, certain=certain)
        key = self._key(expr)
        if key is None:
            return known
        if key in known:
            self.decided.add(expr)
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


#: ``torch.jit.is_scripting`` as mypy resolves it, and as it is written.
SCRIPTING_TESTS = frozenset({"torch._jit_internal.is_scripting", "torch.jit.is_scripting"})


def scripting_only_lines(function: FuncDef) -> list[tuple[int, int]]:
    """The line ranges of branches that run only under TorchScript: the body of
    ``if torch.jit.is_scripting():`` and the ``else`` of ``if not ...``.  In Python
    (eager, make_fx, torch.compile) ``is_scripting()`` returns False."""
    ranges: list[tuple[int, int]] = []
    # Statements only: an `if` is never inside an expression (a lambda's body is one
    # expression), and expressions are most of a function's nodes.
    for node in walk(function.body, _enters_statements):
        if not isinstance(node, IfStmt) or len(node.expr) != 1:
            continue
        test, negated = node.expr[0], False
        if isinstance(test, UnaryExpr) and test.op == "not":
            test, negated = test.expr, True
        if not (isinstance(test, CallExpr) and isinstance(test.callee, RefExpr)
                and test.callee.fullname in SCRIPTING_TESTS):
            continue
        branch = node.else_body if negated else node.body[0]
        if branch is not None and branch.body:
            ranges.append((branch.body[0].line,
                           max(part.end_line or part.line for part in branch.body)))
    return ranges


def _enters_statements(node: Node) -> bool:
    """A ``descend`` for :func:`walk`: blocks and statements, but not nested functions
    or classes (checked on their own) nor expressions."""
    return isinstance(node, (Block, Statement)) and not isinstance(node, (FuncDef, ClassDef))


def _only_raises(block: Block) -> bool:
    return len(block.body) == 1 and isinstance(block.body[0], RaiseStmt)


def _truth_tested(node: Statement) -> Iterator[Expression]:
    for part in walk(node, lambda n: not isinstance(n, (FuncDef, ClassDef, Block))):
        for condition in truth_tested_by(part):
            yield from also_truth_tested(condition)


def _also_tested(condition: Expression) -> list[Expression]:
    return also_truth_tested(condition)


def _assigned_names(node: Statement) -> set[str]:
    """Every local name ``node`` (with what it contains) may bind or delete."""
    names: set[str] = set()
    for part in walk(node, everywhere):
        targets: list[Node] = []
        if isinstance(part, AssignmentStmt):
            targets = list(part.lvalues)
        elif isinstance(part, (OperatorAssignmentStmt,)):
            targets = [part.lvalue]
        elif isinstance(part, ForStmt):
            targets = [part.index]
        elif isinstance(part, WithStmt):
            targets = [target for target in part.target if target is not None]
        elif isinstance(part, AssignmentExpr):
            targets = [part.target]
        elif isinstance(part, DelStmt):
            targets = [part.expr]
        for target in targets:
            names.update(name.name for name in walk(target, everywhere)
                         if isinstance(name, NameExpr))
    return names


class _Assigned:
    """The names a statement may bind, found on first use (:func:`_assigned_names`)."""

    def __init__(self, node: Statement) -> None:
        self.node = node
        self._names: set[str] | None = None

    def names(self) -> set[str]:
        if self._names is None:
            self._names = _assigned_names(self.node)
        return self._names


def _forget(known: Known, assigned: _Assigned) -> Known:
    if not known:
        return known
    names = assigned.names()
    if not names:
        return known
    return frozenset(key for key in known if key[1] not in names)


def _children(node: Node) -> list[object]:
    """The direct children of ``node``, in source order."""
    return [child for child in walk(node, lambda n: False) if child is not node]
