"""proxy-cast: ``typing.cast(int, n)`` of a dynamic number, found during semantic analysis.

mypy's semantic analyzer turns ``cast(T, x)`` into a ``CastExpr`` that no
check-time hook sees.  The one plugin hook that runs for it is the
type-analysis hook of the target class, called while the analyzer is inside
the statement holding the cast: the hook finds that ``CastExpr`` and judges
its source by the source's *declared* type (parameters, annotated variables,
attributes, return types of called functions and classes).  Inferred local
variables and narrowing are only known later, at check time, so they are
not seen.
"""

from __future__ import annotations

from mypy.nodes import (
    Argument,
    CallExpr,
    CastExpr,
    ComparisonExpr,
    Decorator,
    Expression,
    FuncDef,
    MemberExpr,
    Node,
    OpExpr,
    OverloadedFuncDef,
    RefExpr,
    TypeInfo,
    UnaryExpr,
    Var,
)
from mypy.plugin import AnalyzeTypeContext
from mypy.semanal import SemanticAnalyzer
from mypy.typevars import fill_typevars_with_any
from mypy.types import CallableType, Instance, NoneType, Type, UnboundType, UnionType, get_proper_type

from ..number_table import table as _table

from .. import _mypy_compat as compat
from .. import errors
from ..constants import STATIC_NUMBER_CLASSES
from ..analysis.dynamic import Asked, DynamicClasses, dynamic_in_expression
from ..analysis.semanal import semantic_analyzer
from ..analysis.walk import walk
from ..hooks import TYPE_ANALYZE, Env, Hook

_UNION_FORMS = frozenset(
    {"typing.Optional", "typing.Union", "typing_extensions.Optional", "typing_extensions.Union"}
)
#: Operators whose result is a dynamic number when an operand is one.
_ARITHMETIC_SYMBOLS = frozenset(
    operator.symbol for operator in _table.OPERATORS if operator.kind != "compare"
)
_COMPARISON_SYMBOLS = frozenset(
    operator.symbol for operator in _table.OPERATORS if operator.kind == "compare"
)


class CastChecker:
    """The type-analysis hook for static number classes, reporting casts onto them."""

    def __init__(self, dynamic: DynamicClasses) -> None:
        self.dynamic = dynamic
        # The calls in the statement seen last: the hook runs once per target class
        # name, all while the analyzer is in the same statement.
        self._statement: Node | None = None
        self._calls: list[CallExpr] = []

    def wants(self, fullname: str) -> bool:
        """True if ``fullname`` is a static number class whose analysis we watch."""
        return fullname in STATIC_NUMBER_CLASSES

    def check(self, ctx: AnalyzeTypeContext) -> None:
        """Report the cast whose target ``ctx.type`` is, if it casts a dynamic number.

        Runs after mypy's own analysis of the type.
        """
        semanal = semantic_analyzer(ctx)
        if semanal is None:
            return
        cast = self._cast_with_target(semanal, ctx.type)
        if cast is None:
            return
        targets = _static_targets(semanal, cast.type, ctx.type)
        if not targets:
            return
        found = dynamic_in_expression(semanal, cast.expr, self.dynamic, Asked(
            types=[declared_type(cast.expr) or NoneType()], lookup=declared_type))
        if found is not None:
            errors.static_cast(ctx.api, cast, tuple(targets), found.name, reason=found.reason)

    def _cast_with_target(self, semanal: SemanticAnalyzer, target: UnboundType) -> CastExpr | None:
        statement = compat.analyzed_statement(semanal)
        if statement is None:
            return None
        if statement is not self._statement:
            self._statement = statement
            # Only this statement's expressions: nested statements are analyzed later.
            nodes = walk(statement, lambda node: isinstance(node, (Expression, Argument)))
            self._calls = [node for node in nodes if isinstance(node, CallExpr)]
        # The analyzer turns a call of cast() into a CastExpr stored on the call, and
        # each later pass over the statement stores a new one: read them afresh.
        for call in self._calls:
            cast = call.analyzed
            if isinstance(cast, CastExpr) and any(
                item is target for item in _union_items(semanal, cast.type)
            ):
                return cast
        return None


def _union_items(semanal: SemanticAnalyzer, target: Type) -> list[Type]:
    """Top-level members of a not yet analyzed cast target (``int | None`` -> int, None)."""
    if isinstance(target, UnionType):
        return list(target.items)
    if isinstance(target, UnboundType) and target.args:
        symbol = semanal.lookup_qualified(target.name, target, suppress_errors=True)
        if symbol is not None and symbol.fullname in _UNION_FORMS:
            return list(target.args)
    return [target]


def _static_targets(semanal: SemanticAnalyzer, target: Type, analyzing: UnboundType) -> list[str]:
    """Names of the static classes a static-only target lists; [] otherwise.

    Also [] unless ``analyzing`` is the first of them, so a union target is
    reported once although the hook runs for each of its classes.
    """
    names: list[str] = []
    first: Type | None = None
    for item in _union_items(semanal, target):
        if isinstance(item, NoneType) or (isinstance(item, UnboundType) and item.name == "None"):
            continue
        if not isinstance(item, UnboundType) or item.args:
            return []
        symbol = semanal.lookup_qualified(item.name, item, suppress_errors=True)
        if symbol is None or symbol.fullname not in STATIC_NUMBER_CLASSES:
            return []
        if first is None:
            first = item
        names.append(symbol.fullname.rpartition(".")[2])
    return names if first is analyzing else []



def _checker(env: Env) -> CastChecker:
    return CastChecker(env.dynamic)


def _wanted(env: Env) -> bool:
    return env.state(_checker).wants(env.fullname)


#: The analysis of a static number class's name, also as the target of a cast().
HOOKS = (Hook(TYPE_ANALYZE, names=STATIC_NUMBER_CLASSES, wanted=_wanted),)


def check(ctx: AnalyzeTypeContext, env: Env) -> None:
    env.state(_checker).check(ctx)

def declared_type(expr: Expression) -> Type | None:
    """The type ``expr`` is declared to have, as far as semantic analysis knows it."""
    if isinstance(expr, RefExpr) and isinstance(expr.node, Var):
        return expr.node.type
    if isinstance(expr, MemberExpr) and expr.node is None:
        return _value_type(_member_of(declared_type(expr.expr), expr.name))
    if isinstance(expr, CallExpr) and expr.analyzed is None:
        callee = expr.callee
        if isinstance(callee, RefExpr) and isinstance(callee.node, TypeInfo):
            return fill_typevars_with_any(callee.node)
        if isinstance(callee, RefExpr) and isinstance(callee.node, FuncDef):
            return _return_type(callee.node)
        if isinstance(callee, MemberExpr) and callee.node is None:
            method = _member_of(declared_type(callee.expr), callee.name)
            return _return_type(method) if isinstance(method, FuncDef) else None
    if isinstance(expr, OpExpr) and expr.op in _ARITHMETIC_SYMBOLS:
        operands = [declared_type(expr.left), declared_type(expr.right)]
        return UnionType([operand for operand in operands if operand is not None])
    if isinstance(expr, UnaryExpr) and expr.op in _ARITHMETIC_SYMBOLS:
        return declared_type(expr.expr)
    if isinstance(expr, ComparisonExpr) and set(expr.operators) <= _COMPARISON_SYMBOLS:
        # A comparison with a dynamic operand is a dynamic bool (SymInt.__lt__ is typed bool).
        operands = [declared_type(operand) for operand in expr.operands]
        return UnionType([operand for operand in operands if operand is not None])
    return None


def _member_of(owner: Type | None, name: str) -> Node | None:
    proper = get_proper_type(owner) if owner is not None else None
    if not isinstance(proper, Instance):
        return None
    symbol = proper.type.get(name)
    return symbol.node if symbol is not None else None


def _value_type(member: Node | None) -> Type | None:
    """Declared type of an attribute: a variable or a property."""
    if isinstance(member, Var):
        return member.type
    if isinstance(member, Decorator) and member.var.is_property:
        return _return_type(member.func)
    if isinstance(member, OverloadedFuncDef) and member.is_property and member.items:
        first = member.items[0]
        return _return_type(first.func) if isinstance(first, Decorator) else None
    if isinstance(member, FuncDef) and member.is_property:
        return _return_type(member)
    return None


def _return_type(function: FuncDef) -> Type | None:
    signature = function.type
    return signature.ret_type if isinstance(signature, CallableType) else None

