"""proxy-concretize for a bare dynamic bool parameter used as a condition (``if flag:``).

No mypy hook sees a name.  This check runs from the type-analysis hook of the
dynamic bool classes while mypy analyzes a function signature: when a
parameter is annotated exactly ``torch.SymBool`` (or ``BoolProxy``), the
function body is searched for that parameter, by name, where Python asks for
its truth value.  A function that rebinds the name anywhere is skipped, so a
name is only reported while it certainly still holds the parameter.

``BoolProxy`` has no ``__bool__`` in the stubs, so mypy's own ``truthy-bool``
code reports the same places; the plugin reports them only where that code is
disabled.  ``SymBool`` declares ``__bool__``, so ``truthy-bool`` never fires.
"""

from __future__ import annotations

from mypy import errorcodes
from mypy.nodes import (
    Argument,
    AssignmentExpr,
    AssignmentStmt,
    ClassDef,
    Decorator,
    DelStmt,
    DictionaryComprehension,
    Expression,
    ForStmt,
    FuncDef,
    GeneratorExpr,
    GlobalDecl,
    Import,
    ImportFrom,
    NameExpr,
    Node,
    NonlocalDecl,
    OperatorAssignmentStmt,
    TryStmt,
    WithStmt,
)
from mypy.patterns import AsPattern, MappingPattern, StarredPattern
from mypy.plugin import AnalyzeTypeContext
from mypy.types import CallableType

from ..number_table import table as _table

from .. import _mypy_compat as compat
from .. import errors
from ..constants import DYNAMIC_BOOL_CLASSES, TRUTH_TEST_OPERATION
from ..analysis.truth import also_truth_tested, truth_tested_by
from ..analysis.semanal import semantic_analyzer
from ..analysis.imports import names_bound_by
from ..analysis.walk import walk
from ..hooks import TYPE_ANALYZE, Env, Hook

#: Those that lack ``__bool__`` in their stubs, so ``truthy-bool`` reports them.
_WITHOUT_BOOL_DUNDER = frozenset(kind.fullname for kind in _table.OWN_DYNAMIC_TYPES)


#: The analysis of a dynamic bool class's name (an annotation).
HOOKS = (Hook(TYPE_ANALYZE, names=DYNAMIC_BOOL_CLASSES),)


def check(ctx: AnalyzeTypeContext, env: Env) -> None:
    """Report the bare conditions on the parameter annotated by ``ctx.type``.

    Runs after mypy's own analysis of the type.
    """
    fullname = env.fullname
    semanal = semantic_analyzer(ctx)
    if semanal is None:
        return
    if fullname in _WITHOUT_BOOL_DUNDER and compat.error_code_enabled(
        ctx.api, errorcodes.TRUTHY_BOOL
    ):
        return  # mypy reports these itself
    statement = compat.analyzed_statement(semanal)
    function = statement.func if isinstance(statement, Decorator) else statement
    if not isinstance(function, FuncDef):
        return
    parameter = _parameter_annotated_by(function, ctx)
    if parameter is None or parameter in _names_bound_in(function):
        return
    outcome = _table.outcome(TRUTH_TEST_OPERATION, _table.dynamic_kind(fullname), "bool")
    if errors.code_of(outcome) is None:
        return
    for condition in _tested_expressions(function):
        if isinstance(condition, NameExpr) and condition.name == parameter:
            errors.dynamic_bool_condition(
                ctx.api, condition, parameter, DYNAMIC_BOOL_CLASSES[fullname],
                outcome=outcome,
            )


def _parameter_annotated_by(function: FuncDef, ctx: AnalyzeTypeContext) -> str | None:
    """The parameter whose whole annotation is ``ctx.type`` (not ``Optional[...]`` of it)."""
    signature = function.type
    if not isinstance(signature, CallableType):
        return None
    for name, arg_type in zip(function.arg_names, signature.arg_types):
        if arg_type is ctx.type and name is not None:
            return name
    return None


def _inside_function(node: Node) -> bool:
    return True  # nested functions and lambdas included: they see the parameter too


def _names_bound_in(function: FuncDef) -> set[str]:
    """Every name assigned, imported, declared or defined anywhere inside ``function``."""
    bound: set[str] = set()
    targets: list[Expression] = []
    for node in walk(function.body, _inside_function):
        if isinstance(node, AssignmentStmt):
            targets += node.lvalues
        elif isinstance(node, (OperatorAssignmentStmt, AssignmentExpr)):
            targets.append(node.lvalue if isinstance(node, OperatorAssignmentStmt) else node.target)
        elif isinstance(node, ForStmt):
            targets.append(node.index)
        elif isinstance(node, WithStmt):
            targets += [target for target in node.target if target is not None]
        elif isinstance(node, TryStmt):
            targets += [var for var in node.vars if var is not None]
        elif isinstance(node, DelStmt):
            targets.append(node.expr)
        elif isinstance(node, (GeneratorExpr, DictionaryComprehension)):
            targets += node.indices
        elif isinstance(node, Argument):
            bound.add(node.variable.name)
        elif isinstance(node, (FuncDef, ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (GlobalDecl, NonlocalDecl)):
            bound.update(node.names)
        elif isinstance(node, (Import, ImportFrom)):
            bound.update(names_bound_by(node))
        elif isinstance(node, AsPattern) and node.name is not None:
            bound.add(node.name.name)
        elif isinstance(node, StarredPattern) and node.capture is not None:
            bound.add(node.capture.name)
        elif isinstance(node, MappingPattern) and node.rest is not None:
            bound.add(node.rest.name)
    for target in targets:
        bound.update(n.name for n in walk(target, _inside_function) if isinstance(n, NameExpr))
    return bound


def _tested_expressions(function: FuncDef) -> list[Expression]:
    """Expressions in ``function`` whose truth value Python asks for."""
    return [
        tested
        for node in walk(function.body, _inside_function)
        for condition in truth_tested_by(node)
        for tested in also_truth_tested(condition)
    ]
