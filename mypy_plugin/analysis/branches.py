"""The branches of a function that run only where a test call has one outcome.

``if torch.jit.is_scripting():`` runs its body only under TorchScript, and
``if not torch.compiler.is_compiling():`` its body only in eager code: no traced
value reaches either.  Which tests count, and for which outcome, is the caller's
(:data:`.sources_sinks.SCRIPTING_TESTS`, :data:`.sources_sinks.COMPILING_TESTS`).
"""

from __future__ import annotations

from collections.abc import Collection

from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    AssertStmt,
    Block,
    CallExpr,
    ClassDef,
    Expression,
    ExpressionStmt,
    FuncDef,
    IfStmt,
    LambdaExpr,
    Node,
    RaiseStmt,
    RefExpr,
    Statement,
    UnaryExpr,
)

from .. import _mypy_compat as compat
from .sources_sinks import CHECK_MESSAGE_POSITIONS
from .walk import everywhere, walk


def lines_where(function: FuncDef, true: Collection[str] = (),
                false: Collection[str] = ()) -> list[tuple[int, int]]:
    """The line ranges (first, last) of the branches of ``function`` that run only
    where a call to one of ``true`` returned True or one of ``false`` returned False:
    ``if f():`` / ``if not f():`` with one test, nested ones included, nested
    functions and classes left out (they are checked on their own)."""
    ranges: list[tuple[int, int]] = []
    # Statements only: an `if` is never inside an expression, and expressions are
    # most of a function's nodes.
    for node in walk(function.body, _statements_only):
        if not isinstance(node, IfStmt) or len(node.expr) != 1:
            continue
        test, negated = node.expr[0], False
        if isinstance(test, UnaryExpr) and test.op == "not":
            test, negated = test.expr, True
        if not (isinstance(test, CallExpr) and isinstance(test.callee, RefExpr)):
            continue
        name = test.callee.fullname
        if name in true:
            branch = node.else_body if negated else node.body[0]
        elif name in false:
            branch = node.body[0] if negated else node.else_body
        else:
            continue
        if branch is not None and branch.body:
            ranges.append((branch.body[0].line,
                           max(part.end_line or part.line for part in branch.body)))
    return ranges


def _statements_only(node: Node) -> bool:
    return isinstance(node, (Block, Statement)) and not isinstance(node, (FuncDef, ClassDef))


def built_only_on_failure(api: object, expr: Expression) -> bool:
    """True if ``expr`` is part of an ``assert``'s message, of a ``raise``, or of the
    message function of a ``torch._check`` (:data:`.sources_sinks.CHECK_MESSAGE_POSITIONS`)
    in the function mypy is checking: Python builds those only when the assertion or the
    check fails or the exception is raised, so a trace of a working program never
    evaluates them (``assert x.shape[1] == c, f"got {x.shape[1]}"``;
    tests/runtime/test_tracer_formatting.py, tests/runtime/test_check_messages_runtime.py).
    """
    chain = compat.enclosing_functions(api)
    if not chain:
        return False
    for node in walk(chain[-1].body, _statements_only):
        if isinstance(node, AssertStmt):
            message = node.msg
        elif isinstance(node, RaiseStmt):
            message = node.expr
        elif isinstance(node, ExpressionStmt):
            message = check_message(node.expr)
        else:
            continue
        if message is not None and message.line <= expr.line and any(
                part is expr for part in walk(message, everywhere)):
            return True
    return False


def check_message(call: Expression) -> LambdaExpr | None:
    """The message function of a ``torch._check(cond, lambda: ...)`` statement, if a lambda."""
    if not (isinstance(call, CallExpr) and isinstance(call.callee, RefExpr)):
        return None
    position = CHECK_MESSAGE_POSITIONS.get(call.callee.fullname)
    if position is None:
        return None
    for index, (arg, kind, name) in enumerate(zip(call.args, call.arg_kinds, call.arg_names)):
        if (kind == ARG_POS and index == position) or (kind == ARG_NAMED and name == "message"):
            return arg if isinstance(arg, LambdaExpr) else None
    return None
