"""What an operation does to a maybe-dynamic value, read from ``proxy_types/_table.py``.

The table says, per operation, dynamic class kind and Python type, whether the
operation raises, returns the traced value silently, installs a guard, stays
symbolic or only names the value; ``errors.code_of`` turns that into the code.
"""

from __future__ import annotations

from functools import lru_cache

from mypy.nodes import Expression
from mypy.plugin import CheckerPluginInterface
from mypy.types import Instance, ProperType, Type

from ..analysis.dynamic import Dynamic, DynamicClasses, expression_type, first_in_members
from ..constants import DYNAMIC_PYTHON_TYPES, STATIC_BUILTIN_TYPES
from ..errors import code_of, code_shown
from ..number_table import table as _table
from .isinstance_calls import python_type_of


def python_type_of_value(typ: Type, dynamic: DynamicClasses) -> str:
    """The Python type ("int", "bool"...) a value of ``typ`` stands for; "number" if unknown.

    A dynamic member of a union decides (``int | SymFloat`` stands for a float
    when it is dynamic); else a static one, which is what a flow source
    (an ``int`` parameter of a traced function) is declared as.
    """
    def of_dynamic(proper: ProperType) -> str | None:
        if isinstance(proper, Instance) and any(
            base.fullname in dynamic.fullnames for base in proper.type.mro
        ):
            return python_type_of(proper.type)
        return None

    def of_static(proper: ProperType) -> str | None:
        if isinstance(proper, Instance):
            for base in proper.type.mro:
                found = STATIC_BUILTIN_TYPES.get(base.fullname) or DYNAMIC_PYTHON_TYPES.get(
                    base.fullname)
                if found is not None:
                    return found
        return None

    return first_in_members(typ, of_dynamic) or first_in_members(typ, of_static) or "number"


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


def reported_outcome(
    api: CheckerPluginInterface,
    expr: Expression,
    found: Dynamic,
    operation: str,
    dynamic: DynamicClasses,
    *,
    format_spec: bool = False,
    checked: bool = False,
) -> str | None:
    """The outcome of ``operation`` on ``expr`` (which may be ``found``) if it is a finding;
    ``checked`` as for :func:`~..analysis.dynamic.expression_type`."""
    return reported_outcome_for_type(expression_type(api, expr, checked=checked), found,
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
