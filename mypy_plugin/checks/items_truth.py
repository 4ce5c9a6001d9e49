"""``all(s > 0 for s in shape)``: ``any()``/``all()`` test each item for truth.

The comparison-method hooks see ``s > 0`` but not that ``all()`` will ask for
its truth (a generator's items are not conditions of the statement), so the
``builtins.any``/``builtins.all`` function hooks look at the items instead:
the element of a generator or comprehension, the items of a display, or
else the item type of the iterable (``all(sizes)`` with ``sizes: list[SymInt]``).
"""

from __future__ import annotations

from mypy.maptype import map_instance_to_supertype
from mypy.nodes import (
    ComparisonExpr,
    Expression,
    GeneratorExpr,
    ListComprehension,
    ListExpr,
    SetComprehension,
    SetExpr,
    StarExpr,
    TupleExpr,
)
from mypy.plugin import FunctionContext
from mypy.types import AnyType, Instance, Type, TypeOfAny, get_proper_type

from .. import errors
from ..analysis.dynamic import ANY_OBJECT, DynamicClasses, dynamic_in_expression
from ..config import ProxyTypesConfig
from ..constants import ITEMS_TRUTH_FUNCTIONS, TRUTH_TEST_OPERATION
from ..analysis.severity import guards_only_a_range, reported_outcome, reported_outcome_for_type
from ..hooks import FUNCTION, Env, Hook


def check_items_truth(
    ctx: FunctionContext, function: str, config: ProxyTypesConfig, dynamic: DynamicClasses
) -> None:
    """Report the dynamic items ``any()``/``all()`` will test for truth."""
    if len(ctx.args) < 1 or len(ctx.args[0]) != 1:
        return
    iterable = ctx.args[0][0]
    items = _written_items(iterable)
    if items is None:
        _check_item_type(ctx, function, iterable, dynamic)
        return
    for item in items:
        found = dynamic_in_expression(ctx.api, item, dynamic, ANY_OBJECT)
        if found is None or (isinstance(item, ComparisonExpr)
                             and guards_only_a_range(item, found)):
            continue  # `all(s > 0 for s in shape)`: a range guard, as in a condition
        outcome = reported_outcome(ctx.api, item, found, TRUTH_TEST_OPERATION, dynamic)
        if outcome is not None:
            errors.items_tested_for_truth(ctx.api, item, function, found.name, outcome=outcome,
                                          reason=found.reason)


def _written_items(iterable: Expression) -> list[Expression] | None:
    """The item expressions spelled out in ``iterable``; None if it is any other value."""
    if isinstance(iterable, GeneratorExpr):
        return [iterable.left_expr]
    if isinstance(iterable, (ListComprehension, SetComprehension)):
        return [iterable.generator.left_expr]
    if isinstance(iterable, (ListExpr, TupleExpr, SetExpr)):
        return [item for item in iterable.items if not isinstance(item, StarExpr)]
    return None


def _check_item_type(
    ctx: FunctionContext, function: str, iterable: Expression, dynamic: DynamicClasses
) -> None:
    item_type = _item_type(ctx, ctx.arg_types[0][0])
    found = dynamic.describe(item_type) if item_type is not None else None
    if found is None or item_type is None:
        return
    outcome = reported_outcome_for_type(item_type, found, TRUTH_TEST_OPERATION, dynamic)
    if outcome is not None:
        errors.items_tested_for_truth(ctx.api, iterable, function, found.name, outcome=outcome,
                                      reason=found.reason)


def _item_type(ctx: FunctionContext, iterable_type: Type) -> Type | None:
    """What iterating a value of ``iterable_type`` gives, if it is an Iterable instance."""
    proper = get_proper_type(iterable_type)
    if not isinstance(proper, Instance):
        return None
    iterable_info = ctx.api.named_generic_type(
        "typing.Iterable", [AnyType(TypeOfAny.special_form)]).type
    if not proper.type.has_base(iterable_info.fullname):
        return None
    mapped = map_instance_to_supertype(proper, iterable_info)
    return mapped.args[0] if mapped.args else None


HOOKS = (Hook(FUNCTION, names=ITEMS_TRUTH_FUNCTIONS),)


def check(ctx: FunctionContext, env: Env) -> None:
    check_items_truth(ctx, ITEMS_TRUTH_FUNCTIONS[env.fullname], env.config, env.dynamic)
