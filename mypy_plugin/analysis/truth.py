"""Where Python asks for the truth value of an expression (``if``, ``while``, ``and``...)."""

from __future__ import annotations

from mypy.nodes import (
    AssertStmt,
    ConditionalExpr,
    DictionaryComprehension,
    Expression,
    GeneratorExpr,
    IfStmt,
    MatchStmt,
    Node,
    OpExpr,
    UnaryExpr,
    WhileStmt,
)


def truth_tested_by(node: Node) -> list[Expression]:
    """The expressions whose truth value ``node`` itself asks for."""
    if isinstance(node, IfStmt):
        return list(node.expr)
    if isinstance(node, (WhileStmt, AssertStmt)):
        return [node.expr]
    if isinstance(node, MatchStmt):
        return [guard for guard in node.guards if guard is not None]
    if isinstance(node, ConditionalExpr):
        return [node.cond]
    if isinstance(node, OpExpr) and node.op in ("and", "or"):
        # `a and b` always tests `a`; `b` only when the whole is tested.
        return [node.left]
    if isinstance(node, UnaryExpr) and node.op == "not":
        return [node.expr]
    if isinstance(node, (GeneratorExpr, DictionaryComprehension)):
        return [c for group in node.condlists for c in group]
    return []


def also_truth_tested(expr: Expression) -> list[Expression]:
    """``expr`` plus the operands whose truth its own truth test asks for."""
    if isinstance(expr, OpExpr) and expr.op in ("and", "or"):
        return [expr, *also_truth_tested(expr.right)]
    if isinstance(expr, UnaryExpr) and expr.op == "not":
        return [expr, *also_truth_tested(expr.expr)]
    return [expr]
