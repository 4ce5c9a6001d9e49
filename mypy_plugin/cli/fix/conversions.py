"""``proxy-concretize`` rewrites: ``float(p)``, ``math.sqrt(p)``, ``xs[p]`` get ``to_static(p)``.

A rewrite is made only where it is right at run time, as the table
(``proxy_types._table``) says what the operation does to the dynamic class:

* proxy_types' proxies refuse the conversion; ``to_static`` reads the hint and
  records the guard, or raises ``ConcretizationError``;
* torch guards (``float(s)`` installs the guard ``to_static`` installs too);
  where torch keeps the result symbolic (``round(s)``, ``math.floor(s)``),
  ``to_static`` would force a constant: no rewrite;
* ``to_static`` reads no other class: an unregistered legacy proxy subclasses
  ``float`` and would pass through unchanged, still silently concretized; a
  registered class makes it raise (and its stubs refuse one): no rewrite.

Conditions (``if n >= 0:``) are never rewritten: they need a human decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import libcst as cst

from proxy_types import _table

from ... import findings
from ..check import Finding
from .model import KIND_CONVERSION, KIND_INDEX, OWN, TORCH, Build, DynamicClass, Plan

Parents = Mapping[cst.CSTNode, cst.CSTNode]
INDEXING = "indexing"  # the table's key for xs[p], whatever the container

# The table's kind of each class to_static() reads (the others are refused).
TABLE_KIND = {OWN: "own", TORCH: "torch"}


def table_operation(spelling: str) -> str | None:
    """The table's key for the operation a report spells (``"round()"`` -> ``builtins.round``)."""
    if spelling.startswith(INDEXING):  # "indexing list", "indexing tuple"...
        return INDEXING
    for fullname, converting in _table.CONVERTING_FUNCTIONS.items():
        if converting.operation == spelling:
            return fullname
    name = spelling.removesuffix("()")  # math.sqrt() and the other module functions
    return name if _table.conversion(name) is not None else None


def refusal(operation: str, dynamic: DynamicClass) -> str | None:
    """Why ``to_static`` would be wrong at run time for this site, or None."""
    spelled = _table.operation_spelling(operation)
    if dynamic.kind not in TABLE_KIND:
        # Unregistered, to_static() returns such a value unchanged (a legacy proxy is a
        # float): still silently concretized.  Registered, it raises: it cannot read
        # the value of a class it does not own (and the stubs do not accept one).
        return (f'to_static() reads only proxy_types proxies and torch Sym types; for '
                f'"{dynamic.name}" it would return the value unchanged (unregistered: still '
                "silently concretized) or raise (registered); read the value with the "
                "tracer's own API, or make the class a proxy_types proxy")
    outcome = _table.outcome(operation, TABLE_KIND[dynamic.kind], dynamic.python_type)
    if outcome == "symbolic":
        return (f'{spelled} keeps "{dynamic.name}" symbolic: nothing is concretized, and '
                "to_static() would force a constant; leave it")
    if outcome == "names":
        return f'{spelled} gives the name of "{dynamic.name}", not its value; nothing to fix'
    if outcome == "unsupported":
        return (f'{spelled} does not take a static {dynamic.python_type} either: a type error, '
                "not a concretization")
    return None


def plan_conversion(finding: Finding, candidates: Sequence[cst.CSTNode], parents: Parents,
                    dynamic: DynamicClass) -> Plan | str:
    """The rewrite of a reported conversion or index, or why there is none."""
    report = finding.report
    assert report is not None
    if report.kind != findings.CONVERSION:
        return ("a condition needs a decision: check(cond) to record it, "
                "or to_static(cond) to specialize on it")
    operation = table_operation(report.operation)
    if operation is None:
        return f'{report.operation} is no conversion of the proxy_types table; fix it by hand'
    reason = refusal(operation, dynamic)
    if reason is not None:
        return reason
    if operation == INDEXING:
        subscript = next((n for n in candidates if isinstance(n, cst.Subscript)), None)
        build = index_rewrite(subscript) if subscript is not None else None
        if subscript is None or build is None:
            return "the reported index could not be matched in the source"
        return subscript, build
    argument = next((n for n in candidates if isinstance(n, cst.BaseExpression)
                     and is_plain_argument(parents.get(n))), None)
    if argument is None:
        return "the reported argument could not be matched in the source"
    return argument, Build(KIND_CONVERSION, ("to_static",), wrap_to_static)


def is_plain_argument(parent: cst.CSTNode | None) -> bool:
    return isinstance(parent, cst.Arg) and not parent.star


def wrap_to_static(updated: cst.CSTNode) -> cst.CSTNode:
    assert isinstance(updated, cst.BaseExpression)
    inner = updated.with_changes(lpar=[], rpar=[]) if updated.lpar else updated
    return cst.Call(cst.Name("to_static"), [cst.Arg(inner)], lpar=updated.lpar, rpar=updated.rpar)


def is_integer_literal(expression: cst.BaseExpression) -> bool:
    """``1``, ``-1``: static however the index is read."""
    if isinstance(expression, cst.UnaryOperation):
        expression = expression.expression
    return isinstance(expression, cst.Integer)


def index_rewrite(node: cst.Subscript) -> Build | None:
    """Wrap the non-literal index or slice bounds of ``node`` in to_static()."""
    if len(node.slice) != 1:
        return None

    def wrap(expression: cst.BaseExpression | None) -> cst.BaseExpression | None:
        if expression is None or is_integer_literal(expression):
            return expression
        wrapped = wrap_to_static(expression)
        assert isinstance(wrapped, cst.BaseExpression)
        return wrapped

    def build(updated: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(updated, cst.Subscript)
        element = updated.slice[0]
        index = element.slice
        if isinstance(index, cst.Index):
            new_index: cst.BaseSlice = index.with_changes(value=wrap(index.value))
        else:
            assert isinstance(index, cst.Slice)
            new_index = index.with_changes(
                lower=wrap(index.lower), upper=wrap(index.upper), step=wrap(index.step))
        return updated.with_changes(slice=[element.with_changes(slice=new_index)])

    return Build(KIND_INDEX, ("to_static",), build)
