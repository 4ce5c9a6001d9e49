"""Number literals, read one way: ``1``, ``-2.5``, ``+3j`` (a sign, then a literal)."""

from __future__ import annotations

import math

from mypy.nodes import (
    CallExpr,
    ComplexExpr,
    Expression,
    FloatExpr,
    IntExpr,
    RefExpr,
    StrExpr,
    UnaryExpr,
)

_NUMBER_LITERALS = (IntExpr, FloatExpr, ComplexExpr)
_MATH_CONSTANTS = {"math.inf": math.inf, "math.pi": math.pi, "math.e": math.e}


def is_number_literal(expr: Expression) -> bool:
    """``1``, ``2.5``, ``3j``, ``-1`` and the like (complex literals included)."""
    if isinstance(expr, UnaryExpr) and expr.op in ("-", "+"):
        expr = expr.expr
    return isinstance(expr, _NUMBER_LITERALS)


def real_value(expr: Expression) -> float | None:
    """The value of ``3``, ``-1.5``, ``float("inf")`` or ``math.inf``; None for others.

    A complex literal is a number literal but has no real value (None): callers
    compare the value with 0 or infinity.
    """
    sign = 1
    if isinstance(expr, UnaryExpr) and expr.op == "-":
        sign, expr = -1, expr.expr
    if isinstance(expr, (IntExpr, FloatExpr)):
        return sign * expr.value
    if (isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr)
            and expr.callee.fullname == "builtins.float" and len(expr.args) == 1
            and isinstance(expr.args[0], StrExpr)):
        try:
            return sign * float(expr.args[0].value)
        except ValueError:
            return None
    if isinstance(expr, RefExpr) and expr.fullname in _MATH_CONSTANTS:
        return sign * _MATH_CONSTANTS[expr.fullname]
    return None
