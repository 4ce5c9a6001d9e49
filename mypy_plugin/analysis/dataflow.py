"""One forward dataflow walk over a function body, with the analyses plugged in as rules.

:class:`Dataflow` holds the control-flow rules, once for every analysis:

- ``if``/``elif``/``else``: each test is evaluated where the tests before it were
  false; a branch starts where its test was true; the paths meet after the ``if``.
- ``while``/``for`` (with ``else``): the head is where the entry, the end of the
  body and each ``continue`` meet, settled in at most three rounds; the loop is
  left where the test is false (or the items run out), through ``else``, or at a
  ``break``.
- ``try``: any statement of the body may raise, so a handler starts where every
  state of the body meets (:meth:`Dataflow.anywhere`); ``else`` follows the body;
  ``finally`` runs after the body, a handler or ``else`` raised too, and the code
  after it continues from the paths that completed.
- ``with``: each manager is evaluated and its target bound in turn; the body runs
  to its end (a manager that swallows exceptions is not modelled, as everywhere
  outside ``try`` a raise only leaves the function).
- ``match``: each case starts from the subject with its captures bound and its
  guard true; no case matching is a path too.
- ``return``/``raise``/``break``/``continue`` end a path (None: no path);
  ``assert`` continues where its test is true, its message where it is false.
- Nested functions and classes are checked on their own: the walk binds their name
  (:meth:`Dataflow.define`).  Lambdas and comprehensions are expressions, which
  each analysis evaluates itself (:meth:`Dataflow.evaluate`).

An analysis subclasses :class:`Dataflow` with its state type and gives the rules:
how an expression is evaluated and a condition narrows, what simple statements
and bindings do, and how states meet (:meth:`Dataflow.join`).  Merges stay linear
in the function: an analysis counts the names it binds (:meth:`Dataflow.mark`),
so a join looks only at what changed since its branches started.

Why not mypy's ``TraverserVisitor``: compiled mypy (1.11.2, 2.4.1) lets an
interpreted class subclass it but refuses to instantiate the subclass
(``tests/plugin/test_walk.py`` pins this), and its ``visit_*`` methods return
nothing in a fixed order, where a dataflow walk passes a state into each
statement, gets one back (or None) and joins them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from mypy.nodes import (
    LDEF,
    AssertStmt,
    Block,
    BreakStmt,
    ClassDef,
    ContinueStmt,
    Decorator,
    Expression,
    ForStmt,
    FuncDef,
    IfStmt,
    MatchStmt,
    NameExpr,
    OverloadedFuncDef,
    RaiseStmt,
    ReturnStmt,
    Statement,
    TryStmt,
    WhileStmt,
    WithStmt,
)
from mypy.patterns import Pattern

from .walk import children

S = TypeVar("S")

#: Rounds a loop's head gets to settle (the states only grow, or only shrink; two
#: rounds settle nearly every loop).
LOOP_ROUNDS = 3


class Dataflow(ABC, Generic[S]):
    """A forward walk of one function body; None as a state means no path gets there."""

    def __init__(self) -> None:
        self._loops: list[tuple[list[S], list[S]]] = []  # (breaks, continues) per loop
        #: ``finally`` blocks being walked: :meth:`carry` needs every binding there.
        self.in_finally = 0

    # -- the rules an analysis gives ----------------------------------------------------

    @abstractmethod
    def evaluate(self, expr: Expression, state: S) -> S:
        """The state after ``expr`` is evaluated in ``state``."""

    @abstractmethod
    def narrow(self, condition: Expression, state: S, outcome: bool) -> S:
        """``state`` (where ``condition`` was just evaluated) where it was ``outcome``."""

    @abstractmethod
    def simple(self, node: Statement, state: S) -> S:
        """The state after a statement without blocks or jumps (an assignment, ``del``,
        an import, an expression...)."""

    @abstractmethod
    def iterate(self, target: Expression, iterable: Expression, state: S) -> S:
        """``target`` bound to the next item of ``iterable`` (a ``for`` loop)."""

    @abstractmethod
    def bind_unknown(self, target: Expression, state: S) -> S:
        """``target`` bound to a value the analysis does not follow (``with ... as``,
        ``except ... as``)."""

    @abstractmethod
    def capture(self, pattern: Pattern, state: S) -> S:
        """The names of a ``case`` pattern bound."""

    @abstractmethod
    def define(self, node: FuncDef | OverloadedFuncDef | Decorator | ClassDef, state: S) -> S:
        """A nested function or class defined (its body is checked on its own)."""

    @abstractmethod
    def mark(self) -> int:
        """Where the walk is in the analysis's log of bindings (for the next three)."""

    @abstractmethod
    def join(self, states: Sequence[S | None], base: S, since: int) -> S | None:
        """Where the paths ending in ``states`` meet (None if none does); each is ``base``
        changed by the bindings since ``since`` only."""

    @abstractmethod
    def anywhere(self, base: S, since: int) -> S:
        """Where every state since ``since`` (from ``base`` on) meets: where a handler
        starts, as any statement of a ``try`` body may raise."""

    @abstractmethod
    def carry(self, end: S, onto: S, since: int) -> S:
        """``onto`` changed as the code since ``since`` changed what left it at ``end``
        (a ``finally`` walked once, from every path, continued on the completed ones)."""

    def settled(self, head: S, new_head: S, since: int) -> bool:
        """True if a loop's head did not change in a round."""
        return head == new_head

    # -- the control-flow rules --------------------------------------------------------

    def block(self, block: Block, state: S | None) -> S | None:
        for statement in block.body:
            if state is None:
                return None  # unreachable: mypy does not check it either
            state = self.statement(statement, state)
        return state

    def statement(self, node: Statement, state: S) -> S | None:
        if type(node) not in _CONTROL_FLOW:  # speed: most statements are simple ones
            return self.simple(node, state)
        if isinstance(node, IfStmt):
            return self._if(node, state)
        if isinstance(node, (ReturnStmt, RaiseStmt)):
            for part in children(node):
                if isinstance(part, Expression):
                    state = self.evaluate(part, state)
            return None
        if isinstance(node, AssertStmt):
            state = self.evaluate(node.expr, state)
            if node.msg is not None:  # evaluated only to raise
                self.evaluate(node.msg, self.narrow(node.expr, state, False))
            return self.narrow(node.expr, state, True)
        if isinstance(node, ForStmt):
            return self._for(node, state)
        if isinstance(node, WhileStmt):
            return self._while(node, state)
        if isinstance(node, TryStmt):
            return self._try(node, state)
        if isinstance(node, WithStmt):
            for expr, target in zip(node.expr, node.target):
                state = self.evaluate(expr, state)
                if target is not None:
                    state = self.bind_unknown(target, state)
            return self.block(node.body, state)
        if isinstance(node, Block):
            return self.block(node, state)
        if isinstance(node, (BreakStmt, ContinueStmt)):
            if self._loops:
                self._loops[-1][isinstance(node, ContinueStmt)].append(state)
            return None
        if isinstance(node, MatchStmt):
            return self._match(node, state)
        if isinstance(node, (FuncDef, OverloadedFuncDef, Decorator, ClassDef)):
            return self.define(node, state)
        return self.simple(node, state)

    def _if(self, node: IfStmt, state: S) -> S | None:
        since = self.mark()
        ends: list[S | None] = []
        current = state
        for condition, body in zip(node.expr, node.body):
            current = self.evaluate(condition, current)
            ends.append(self.block(body, self.narrow(condition, current, True)))
            current = self.narrow(condition, current, False)
        ends.append(self.block(node.else_body, current) if node.else_body is not None
                    else current)
        return self.join(ends, state, since)

    def _for(self, node: ForStmt, state: S) -> S | None:
        state = self.evaluate(node.expr, state)
        head, breaks, since = self._loop(
            state, lambda head: self.iterate(node.index, node.expr, head), node.body)
        after: S | None = head
        if node.else_body is not None:
            after = self.block(node.else_body, head)
        return self.join([after, *breaks], head, since)

    def _while(self, node: WhileStmt, state: S) -> S | None:
        tested: list[tuple[S, S]] = []  # the last head the test ran at, and after it

        def enter(head: S) -> S:
            after_test = self.evaluate(node.expr, head)
            tested[:] = [(head, after_test)]
            return self.narrow(node.expr, after_test, True)

        # The test runs at the head, before each round: once per head, never twice.
        head, breaks, since = self._loop(state, enter, node.body)
        entered, after_test = tested[0]
        if entered is not head:  # the rounds ran out before the head settled
            after_test = self.evaluate(node.expr, head)
        after: S | None = self.narrow(node.expr, after_test, False)
        if node.else_body is not None:
            after = self.block(node.else_body, after)
        return self.join([after, *breaks], head, since)

    def _loop(self, state: S, enter: Callable[[S], S], body: Block) -> tuple[S, list[S], int]:
        """The state at the loop head once the body's has flowed back, at each
        ``break``, and the mark where the last round started (the head and those
        differ only by what was bound since)."""
        head = state
        breaks: list[S] = []
        since = self.mark()
        for _ in range(LOOP_ROUNDS):
            since = self.mark()
            self._loops.append(([], []))
            end = self.block(body, enter(head))
            breaks, continues = self._loops.pop()
            new_head = self.join([head, end, *continues], head, since)
            if new_head is None or self.settled(head, new_head, since):
                break
            head = new_head
        return head, breaks, since

    def _try(self, node: TryStmt, state: S) -> S | None:
        since = self.mark()
        end = self.block(node.body, state)
        raised = self.anywhere(state, since)
        ends: list[S | None] = []
        for kind, var, handler in zip(node.types, node.vars, node.handlers):
            start = raised
            if kind is not None:
                start = self.evaluate(kind, start)
            if var is not None:
                start = self.bind_unknown(var, start)
            ends.append(self.block(handler, start))
        if node.else_body is not None and end is not None:
            end = self.block(node.else_body, end)
        ends.append(end)
        after = self.join(ends, state, since)
        if node.finally_body is None:
            return after
        entered = self.mark()
        self.in_finally += 1
        finally_end = self.block(node.finally_body, self.anywhere(state, since))
        self.in_finally -= 1
        if after is None or finally_end is None:
            return None
        return self.carry(finally_end, after, entered)

    def _match(self, node: MatchStmt, state: S) -> S | None:
        state = self.evaluate(node.subject, state)
        since = self.mark()
        ends: list[S | None] = []
        for pattern, guard, body in zip(node.patterns, node.guards, node.bodies):
            case = self.capture(pattern, state)
            if guard is not None:
                case = self.narrow(guard, self.evaluate(guard, case), True)
            ends.append(self.block(body, case))
        ends.append(state)  # no case matched
        return self.join(ends, state, since)


#: The statements :meth:`Dataflow.statement` does not hand to :meth:`Dataflow.simple`.
_CONTROL_FLOW: frozenset[type] = frozenset({
    IfStmt, ReturnStmt, RaiseStmt, AssertStmt, ForStmt, WhileStmt, TryStmt, WithStmt, Block,
    BreakStmt, ContinueStmt, MatchStmt, FuncDef, OverloadedFuncDef, Decorator, ClassDef})


def is_local(expr: Expression) -> bool:
    """True for a name local to the function being walked."""
    return isinstance(expr, NameExpr) and expr.kind == LDEF


__all__ = ["Dataflow", "LOOP_ROUNDS", "is_local"]
