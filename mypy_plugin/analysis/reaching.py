"""Which definitions of a local name reach each place it is read, inside one function.

A syntactic walk over a function body (no types needed, so its result can be
cached for the function): for every read of a local name it records the
assignments, loop targets and parameters that may have produced the value read
there, and whether the code has narrowed the name to a static number on every
path to it (``is_static_number(x)``, the true branch of ``isinstance(x, int)``,
the rest of a function after ``if isinstance(x, SymInt): return``).  It also
records ``isinstance`` calls the code excludes dynamic numbers from on purpose
(``isinstance(x, int) and not isinstance(x, SymInt)``).

What the definitions *mean* (whether a value is a dynamic number) is decided
later, at a report site, by :mod:`.flow`, when mypy knows the types involved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple, Union

from mypy.nodes import (
    ARG_POS,
    AssignmentExpr,
    AssignmentStmt,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    ConditionalExpr,
    Decorator,
    DelStmt,
    DictionaryComprehension,
    Expression,
    ExpressionStmt,
    FuncDef,
    GeneratorExpr,
    Import,
    ImportAll,
    ImportFrom,
    LambdaExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    OperatorAssignmentStmt,
    OverloadedFuncDef,
    RefExpr,
    StarExpr,
    Statement,
    TupleExpr,
    UnaryExpr,
)
from mypy.patterns import Pattern

from .dataflow import Dataflow, is_local
from .walk import children as _children, everywhere, walk as walk_tree


class Param(NamedTuple):
    """The value a parameter had on entry."""

    name: str


class Assigned(NamedTuple):
    """The value of ``expr``, taken ``depth`` items deep (``a, b = shape``: depth 1)."""

    expr: Expression
    depth: int


class Augmented(NamedTuple):
    """``x op= expr``: the value of ``expr`` combined with what ``x`` held before; with
    ``item``, ``expr`` is added as one item (``xs.append(v)``)."""

    expr: Expression
    before: Binding
    item: bool = False


class Unknown(NamedTuple):
    """A value this walk does not follow (``with ... as x``, ``except E as x``, imports)."""


Definition = Union[Param, Assigned, Augmented, Unknown]
UNKNOWN = Unknown()


class Binding(NamedTuple):
    """What a name may hold at one place: its reaching definitions, and whether the
    code narrowed it to a static number on every path there."""

    definitions: frozenset[Definition]
    static: bool = False


Env = dict[str, Binding]

#: What a check in a condition (a call such as ``isinstance(x, int)``, or a comparison
#: such as ``type(x) is int``) tells about a name: (names static when the check is
#: true, names static when it is false).
Narrowing = Callable[[Expression], tuple[set[str], set[str]]]


class FunctionWalk(Dataflow[Env]):
    """The reaching definitions of every local-name read in one function body: the
    rules of :class:`.dataflow.Dataflow` for definitions and static narrowing."""

    def __init__(self, function: FuncDef, narrowing: Narrowing) -> None:
        super().__init__()
        self.function = function
        self.narrowing = narrowing
        #: Each read of a local name -> what it may hold there.
        self.reads: dict[NameExpr, Binding] = {}
        #: isinstance calls whose dynamic numbers the surrounding code excludes on purpose.
        self.excluded_calls: set[CallExpr] = set()
        #: Every name bound, in order, with its binding (None inside a lambda or a
        #: comprehension, whose names are their own): the names a branch may have
        #: changed are those bound since it started, so a merge looks at them only
        #: (linear in the function).
        self._written: list[str] = []
        self._values: list[Binding | None] = []
        self._inner = 0  # lambdas and comprehensions being walked
        env: Env = {
            argument.variable.name: Binding(frozenset({Param(argument.variable.name)}))
            for argument in function.arguments
        }
        self.block(function.body, env)

    def _set(self, env: Env, name: str, binding: Binding) -> None:
        env[name] = binding
        self._written.append(name)
        self._values.append(None if self._inner else binding)

    def _names_since(self, since: int) -> dict[str, None]:
        return dict.fromkeys(self._written[since:])

    # -- the rules of the walk -------------------------------------------------------------

    def mark(self) -> int:
        return len(self._written)

    def join(self, states: Sequence[Env | None], base: Env, since: int) -> Env | None:
        return merge(states, base, self._names_since(since))

    def settled(self, head: Env, new_head: Env, since: int) -> bool:
        return all(new_head.get(name) == head.get(name) for name in self._names_since(since))

    def anywhere(self, base: Env, since: int) -> Env:
        merged = dict(base)
        for name, binding in zip(self._written[since:], self._values[since:]):
            found = merged.get(name)
            if binding is None or found == binding:
                continue
            merged[name] = binding if found is None else Binding(
                found.definitions | binding.definitions, found.static and binding.static)
        return merged

    def carry(self, end: Env, onto: Env, since: int) -> Env:
        carried = dict(onto)
        for name in self._names_since(since):
            if name in end:
                carried[name] = end[name]
        return carried

    def evaluate(self, expr: Expression, state: Env) -> Env:
        self._expression(expr, state)
        return state

    def narrow(self, condition: Expression, state: Env, outcome: bool) -> Env:
        return self._narrowed(condition, state, outcome)

    def simple(self, node: Statement, state: Env) -> Env:
        env = state
        if isinstance(node, AssignmentStmt):
            self._expression(node.rvalue, env)
            env = dict(env)
            for target in node.lvalues:
                self._bind(target, node.rvalue, 0, env)
            return env
        if isinstance(node, OperatorAssignmentStmt):
            self._expression(node.rvalue, env)
            self._expression(node.lvalue, env)
            env = dict(env)
            if isinstance(node.lvalue, NameExpr) and is_local(node.lvalue):
                name = node.lvalue.name
                before = env.get(name, Binding(frozenset({UNKNOWN})))
                self._set(env, name, Binding(frozenset({Augmented(node.rvalue, before)})))
            return env
        if isinstance(node, (Import, ImportFrom, ImportAll)):
            return self._imported(node, env)
        if isinstance(node, DelStmt):
            self._expression(node.expr, env)
            env = dict(env)
            self._bind_unknown(node.expr, env)
            return env
        # expressions, pass, global, nonlocal, type aliases...: no values of interest
        for part in _parts(node):
            self._expression(part, env)
        if isinstance(node, ExpressionStmt):
            return self._grown(node.expr, env)
        return env

    def iterate(self, target: Expression, iterable: Expression, state: Env) -> Env:
        inside = dict(state)
        self._bind_iteration(target, iterable, inside)
        return inside

    def bind_unknown(self, target: Expression, state: Env) -> Env:
        env = dict(state)
        self._bind_unknown(target, env)
        return env

    def capture(self, pattern: Pattern, state: Env) -> Env:
        case = dict(state)
        for captured in walk_tree(pattern, everywhere):
            if isinstance(captured, NameExpr):
                self._set(case, captured.name, Binding(frozenset({UNKNOWN})))
        return case

    def define(self, node: FuncDef | OverloadedFuncDef | Decorator | ClassDef,
               state: Env) -> Env:
        env = dict(state)
        self._set(env, node.name, Binding(frozenset({UNKNOWN})))
        if isinstance(node, Decorator):
            for decorator in node.decorators:
                self._expression(decorator, env)
        return env

    def _imported(self, node: Import | ImportFrom | ImportAll, env: Env) -> Env:
        env = dict(env)
        if isinstance(node, Import):
            names = [(alias or module).partition(".")[0] for module, alias in node.ids]
        elif isinstance(node, ImportFrom):
            names = [alias or name for name, alias in node.names]
        else:
            names = []
        for name in names:
            self._set(env, name, Binding(frozenset({UNKNOWN})))
        return env

    # -- binding names -----------------------------------------------------------------

    def _bind(self, target: Expression, value: Expression, depth: int, env: Env) -> None:
        """Bind ``target`` to ``value`` taken ``depth`` items deep."""
        if isinstance(target, NameExpr):
            if is_local(target):
                self._set(env, target.name, Binding(frozenset({Assigned(value, depth)})))
            return
        if isinstance(target, (TupleExpr, ListExpr)):
            items = target.items
            if depth == 0 and isinstance(value, (TupleExpr, ListExpr)) and len(
                value.items) == len(items) and not any(
                    isinstance(item, StarExpr) for item in (*items, *value.items)):
                for item, item_value in zip(items, value.items):
                    self._bind(item, item_value, 0, env)
                return
            for item in items:
                if isinstance(item, StarExpr):
                    self._bind(item.expr, value, depth, env)  # a list of the same items
                else:
                    self._bind(item, value, depth + 1, env)
            return
        if isinstance(target, StarExpr):
            self._bind(target.expr, value, depth, env)
            return
        self._expression(target, env)  # obj.attr = v, xs[i] = v: reads obj, xs and i

    def _bind_iteration(self, target: Expression, iterable: Expression, env: Env) -> None:
        """Bind a loop or comprehension target to the items of ``iterable``."""
        if isinstance(iterable, CallExpr) and isinstance(iterable.callee, RefExpr) and isinstance(
                target, (TupleExpr, ListExpr)):
            callee = iterable.callee.fullname
            if callee == "builtins.enumerate" and iterable.args and len(target.items) == 2:
                self._bind_unknown(target.items[0], env)  # the count is a plain int
                self._bind_iteration(target.items[1], iterable.args[0], env)
                return
            if callee == "builtins.zip" and len(iterable.args) == len(target.items):
                for item, source in zip(target.items, iterable.args):
                    self._bind_iteration(item, source, env)
                return
        self._bind(target, iterable, 1, env)

    def _grown(self, call: Expression, env: Env) -> Env:
        """``xs.append(v)``, ``xs.insert(i, v)``, ``xs.extend(vs)`` on a local list: its
        items may now also be ``v`` (or the items of ``vs``)."""
        if not (isinstance(call, CallExpr) and isinstance(call.callee, MemberExpr)
                and isinstance(call.callee.expr, NameExpr) and is_local(call.callee.expr)):
            return env
        position = _GROWING_METHODS.get(call.callee.name)
        if position is None or len(call.args) != position + 1 or any(
                kind != ARG_POS for kind in call.arg_kinds):
            return env
        name = call.callee.expr.name
        before = env.get(name)
        if before is None:
            return env  # not bound in this function: nothing to add to
        grown = dict(env)
        self._set(grown, name, Binding(frozenset({Augmented(
            call.args[position], before, item=call.callee.name != "extend")})))
        return grown

    def _bind_unknown(self, target: Expression, env: Env) -> None:
        for node in walk_tree(target, everywhere):
            if isinstance(node, NameExpr) and is_local(node):
                self._set(env, node.name, Binding(frozenset({UNKNOWN})))

    # -- expressions -------------------------------------------------------------------

    def _expression(self, expr: Expression, env: Env) -> None:
        """Record the reads in ``expr`` (evaluated with ``env``), honouring ``and``/``or``,
        conditional expressions, comprehensions, lambdas and ``:=``."""
        if isinstance(expr, NameExpr):
            binding = env.get(expr.name)
            if binding is not None and is_local(expr):
                self.reads[expr] = binding
            return
        if isinstance(expr, OpExpr) and expr.op in ("and", "or"):
            self._expression(expr.left, env)
            right_env = self._narrowed(expr.left, env, expr.op == "and")
            self._expression(expr.right, right_env)
            if expr.op == "and":
                self._exclude_on_purpose(expr)
            return
        if isinstance(expr, ConditionalExpr):
            self._expression(expr.cond, env)
            self._expression(expr.if_expr, self._narrowed(expr.cond, env, True))
            self._expression(expr.else_expr, self._narrowed(expr.cond, env, False))
            return
        if isinstance(expr, (GeneratorExpr, DictionaryComprehension)):
            self._comprehension(expr, env)
            return
        if isinstance(expr, LambdaExpr):
            self._inner += 1
            inner = dict(env)
            for argument in expr.arguments:
                self._set(inner, argument.variable.name, Binding(frozenset({UNKNOWN})))
            self.block(expr.body, inner)
            self._inner -= 1
            return
        if isinstance(expr, AssignmentExpr):
            self._expression(expr.value, env)
            if is_local(expr.target):
                self._set(env, expr.target.name, Binding(frozenset({Assigned(expr.value, 0)})))
            return
        for child in _children(expr):
            if isinstance(child, Expression):
                self._expression(child, env)

    def _comprehension(self, expr: GeneratorExpr | DictionaryComprehension, env: Env) -> None:
        self._inner += 1
        inner = dict(env)
        for index, sequence, conditions in zip(expr.indices, expr.sequences, expr.condlists):
            self._expression(sequence, inner)
            self._bind_iteration(index, sequence, inner)
            for condition in conditions:
                self._expression(condition, inner)
                inner = self._narrowed(condition, inner, True)
        if isinstance(expr, GeneratorExpr):
            self._expression(expr.left_expr, inner)
        else:
            for part in (expr.key, expr.value):
                if part is not None:
                    self._expression(part, inner)
        self._inner -= 1

    # -- narrowing ---------------------------------------------------------------------

    def _narrowed(self, condition: Expression, env: Env, outcome: bool) -> Env:
        """``env`` where ``condition`` evaluated to ``outcome``."""
        static = self._static_when(condition, outcome)
        if not static:
            return env
        narrowed = dict(env)
        for name in static:
            binding = narrowed.get(name)
            if binding is not None:
                self._set(narrowed, name, binding._replace(static=True))
        return narrowed

    def _static_when(self, condition: Expression, outcome: bool) -> set[str]:
        """Names that hold a static number whenever ``condition`` is ``outcome``."""
        if isinstance(condition, UnaryExpr) and condition.op == "not":
            return self._static_when(condition.expr, not outcome)
        if isinstance(condition, OpExpr) and condition.op in ("and", "or"):
            left = self._static_when(condition.left, outcome)
            right = self._static_when(condition.right, outcome)
            # `a and b` true: both true; false: either false (only what both tell).
            both = (condition.op == "and") == outcome
            return left | right if both else left & right
        if isinstance(condition, AssignmentExpr):
            return self._static_when(condition.value, outcome)
        if isinstance(condition, (CallExpr, ComparisonExpr)):
            when_true, when_false = self.narrowing(condition)
            return when_true if outcome else when_false
        return set()

    def _exclude_on_purpose(self, expr: OpExpr) -> None:
        """``isinstance(x, int) and not isinstance(x, SymInt)``: the first check is meant."""
        excluded_later = self._static_when(expr.right, True)
        if not excluded_later:
            return
        for conjunct in _conjuncts(expr.left):
            if isinstance(conjunct, CallExpr) and conjunct.args and isinstance(
                    conjunct.args[0], NameExpr) and conjunct.args[0].name in excluded_later:
                self.excluded_calls.add(conjunct)


def merge(envs: Iterable[Env | None], base: Env | None = None,
          changed: Iterable[str] | None = None) -> Env | None:
    """What each name may hold where the paths ending in ``envs`` meet (None: no path).

    With ``base`` and ``changed``: every env is ``base`` with only (some of) the
    ``changed`` names bound again, so only those are merged (speed: an ``if`` costs
    what its branches bound, not every local of the function).
    """
    live = [env for env in envs if env is not None]
    if not live:
        return None
    if len(live) == 1:
        return live[0]
    if base is None or changed is None:
        merged: Env = {}
        names: Iterable[str] = dict.fromkeys(name for env in live for name in env)
    else:
        merged = dict(base)
        names = changed
    for name in names:
        found: Binding | None = None
        for env in live:
            binding = env.get(name)
            if binding is None:
                continue
            if found is None:
                found = binding
            elif found != binding:
                found = Binding(found.definitions | binding.definitions,
                                found.static and binding.static)
        # A name unbound on some path keeps the bindings of the others; the static flag
        # must hold on every path that binds it.
        if found is not None:
            merged[name] = found
    return merged


#: Methods that add to a list in place -> the position of what they add.
_GROWING_METHODS = {"append": 0, "insert": 1, "extend": 0}


def _conjuncts(expr: Expression) -> list[Expression]:
    if isinstance(expr, OpExpr) and expr.op == "and":
        return [*_conjuncts(expr.left), *_conjuncts(expr.right)]
    return [expr]


def _parts(node: Statement) -> list[Expression]:
    return [child for child in _children(node) if isinstance(child, Expression)]


__all__ = [
    "Assigned", "Augmented", "Binding", "Definition", "FunctionWalk", "Param", "Unknown",
    "UNKNOWN", "merge",
]
