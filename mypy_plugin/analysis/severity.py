"""What an operation does to a maybe-dynamic value, read from ``proxy_types/_table.py``.

The table says, per operation, dynamic class kind and Python type, whether the
operation raises, returns the traced value silently, installs a guard, stays
symbolic or only names the value; ``errors.code_of`` turns that into the code.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from mypy.nodes import ComparisonExpr, Expression
from mypy.plugin import CheckerPluginInterface
from mypy.types import Type

from ..errors import code_of, code_shown
from ..findings import Reason
from ..number_table import table as _table
from .classes import python_type_of_value
from .dynamic import DynamicClasses, expression_type
from .kinds import GUARDING_KINDS, Dynamic
from .literals import real_value


def flows_may_be_reported(api: CheckerPluginInterface, operation: str, dynamic: DynamicClasses,
                          *, format_spec: bool = False) -> bool:
    """False if ``operation`` on a value found by flow (a traced parameter, a tensor
    size) could only have outcomes whose reports mypy would drop here: then a check
    need not follow flows, the costliest source (torch's conversions and conditions
    only specialize, and proxy-specialize is off by default).

    Speed trick. Measured: torch-traced, 27.3 M -> 21.3 M bytecodes of plugin code.
    """
    flow = dynamic.flow
    if flow is None or not flow.kinds:
        return False
    if _table.conversion(operation) is None:
        return True  # not in the table: the check itself decides
    return any(code_shown(api, code)
               for code in _flow_codes(operation, flow.kinds, format_spec))


def may_be_reported(api: CheckerPluginInterface, operation: str) -> bool:
    """False if every outcome ``operation`` has on any kind of dynamic class is one mypy
    would drop here: then a check need not look for dynamic values at all (the text of a
    torch SymInt only specializes, and proxy-specialize is off by default)."""
    return any(code_shown(api, code)
               for code in _flow_codes(operation, frozenset(_table.DYNAMIC_KINDS), False))


@lru_cache(maxsize=None)
def _flow_codes(operation: str, kinds: frozenset[str], format_spec: bool) -> frozenset[str]:
    """The codes of every outcome ``operation`` may have on a flow of one of ``kinds``."""
    codes: set[str] = set()
    for kind in kinds:
        for python_type in (*_table.TORCH_PYTHON_TYPES, "complex", "number"):
            try:
                outcome = _table.outcome(operation, kind, python_type, format_spec=format_spec)
            except ValueError:  # no class of this kind stands for the type
                continue
            code = code_of(outcome)
            if code is not None:
                codes.add(code)
    return frozenset(codes)


def outcome_of(
    operation: str, found: Dynamic, python_type: str, *, format_spec: bool = False
) -> str:
    """The table's outcome of ``operation`` (a table operation name) on ``found``."""
    try:
        return _table.outcome(operation, found.kind, python_type, format_spec=format_spec)
    except ValueError:  # a type the kind has no class for (a flow source typed complex)
        return _table.outcome(operation, found.kind, "number", format_spec=format_spec)


def most_serious_outcome(operation: str, found: Dynamic, python_types: tuple[str, ...], *,
                         format_spec: bool = False) -> str:
    """The most serious outcome of ``operation`` on ``found`` over ``python_types``, those
    its kind has classes for (torch has no symbolic complex)."""
    outcomes: set[str] = set()
    for python_type in python_types:
        try:
            outcomes.add(_table.outcome(operation, found.kind, python_type,
                                        format_spec=format_spec))
        except ValueError:
            continue
    if not outcomes:
        return outcome_of(operation, found, "number", format_spec=format_spec)
    return next(each for each in _table.SEVERITY if each in outcomes)


def reported_outcome(
    api: CheckerPluginInterface,
    expr: Expression,
    found: Dynamic,
    operation: str,
    dynamic: DynamicClasses,
    *,
    format_spec: bool = False,
) -> str | None:
    """The outcome of ``operation`` on ``expr`` (which may be ``found``) if it is a finding."""
    return reported_outcome_for_type(expression_type(api, expr), found,
                                     operation, dynamic, format_spec=format_spec)


def reported_outcome_for_type(
    typ: Type,
    found: Dynamic,
    operation: str,
    dynamic: DynamicClasses,
    *,
    format_spec: bool = False,
) -> str | None:
    """Like :func:`reported_outcome` for a value of type ``typ``."""
    python_type = python_type_of_value(typ, dynamic)
    outcome = outcome_of(operation, found, python_type, format_spec=format_spec)
    return outcome if code_of(outcome) is not None else None


def value_read_outcome(found: Dynamic) -> str:
    """What reading a dynamic number's value outright (``pyval(p)``) does to its kind.

    Each kind answers that as it answers a truth test, which every number type supports.
    """
    return outcome_of("truth test", found, "number")


#: Sources that make a value only maybe dynamic (its type says static).
_MAYBE_DYNAMIC = frozenset({"flow", "shape"})
#: Sizes torch specializes anyway (a symbolic size is assumed to be at least 2).
_SPECIALIZED_SIZES = frozenset({0, 1})


def guards_only_a_range(expr: Expression | None, found: Dynamic,
                        static: Callable[[Expression], bool] | None = None) -> bool:
    """True if testing ``expr`` for truth leaves the maybe-dynamic torch number ``found``
    symbolic: ``expr`` is a comparison of it that pins no value (see pins_a_value).

    Never for a number read from tensor data (``t.item()``): it has no traced value to
    order by, so make_fx and export raise GuardOnDataDependentSymNode and
    torch.compile(fullgraph=True) a UserError (tests/runtime/test_sink_rules_runtime.py).
    """
    if found.kind not in GUARDING_KINDS or found.reason.source not in _MAYBE_DYNAMIC \
            or found.reason.data:
        return False
    return not (isinstance(expr, ComparisonExpr) and pins_a_value(expr, found.reason, static))


def pins_a_value(comparison: ComparisonExpr, reason: Reason,
                 static: Callable[[Expression], bool] | None = None) -> bool:
    """True if ``comparison`` tests equality with a number literal, or (with ``static``,
    which says whether an operand is a static number) with a static value that is no
    literal: ``x.shape[1] == self.weight.shape[0]``, ``h == self.config.size``.  torch
    2.13 pins the size there as for a literal; equality of two maybe-dynamic values is a
    relation, which pins none (tests/runtime/test_sink_rules_runtime.py).

    For a maybe-dynamic torch number only such a condition is worth a report: an
    order comparison installs a range guard and leaves the value symbolic, while
    ``n == 3`` (or ``!=``) taken at trace time pins the traced graph to one value.
    Tensor sizes compared with 0 or 1 are left out: torch specializes those anyway;
    so are the items of a sequence-of-int parameter (``output_size``, ``shape``).
    Sizes compared with a negative literal (the ``-1`` of "not given") are left out
    too: a size is at least 0 by its value range, so torch decides that with no guard.
    So is infinity: torch makes no infinite float symbolic, so the guard is a ``Ne``.
    """
    for operator, left, right in zip(comparison.operators, comparison.operands,
                                     comparison.operands[1:]):
        if operator not in ("==", "!="):
            continue
        for operand, other in ((left, right), (right, left)):
            value = real_value(operand)
            if value is None:
                if static is not None and real_value(other) is None and static(operand) \
                        and not static(other):
                    return True
                continue
            sizes = reason.source == "shape" or reason.sizes
            if sizes and (value in _SPECIALIZED_SIZES or value < 0) or math.isinf(value):
                continue
            return True
    return False
