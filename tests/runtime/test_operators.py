"""Operator semantics of proxies, checked against Python on the plain values."""

from __future__ import annotations

import cmath
import math
import operator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proxy_types import BoolProxy, ConcretizationError, ComplexProxy, FloatProxy, IntegerProxy, NumberProxy, proxy
from proxy_types._table import OPERATORS

PROXY_OF: dict[type, Any] = {bool: BoolProxy, int: IntegerProxy, float: FloatProxy, complex: ComplexProxy}
BINARY = [op for op in OPERATORS if op.kind != "unary"]
UNARY = [op for op in OPERATORS if op.kind == "unary"]
# Python's result kind depends on the values only for these (2 ** -1, (-8.0) ** 0.5).
VALUE_DEPENDENT = {"pow"}

small_ints = st.integers(min_value=-60, max_value=60)
floats = st.floats(allow_nan=True, allow_infinity=True, width=64)
values = st.one_of(
    st.booleans(),
    small_ints,
    floats,
    st.complex_numbers(max_magnitude=1e6, allow_nan=False, allow_infinity=False),
    st.just(complex(math.nan, 1.0)),
)


def kind_of(value: object) -> type:
    for kind in (bool, int, float, complex):
        if isinstance(value, kind):
            return kind
    raise AssertionError(value)


def same_value(left: object, right: object) -> bool:
    if type(left) is not type(right):
        return False
    if isinstance(left, complex) and isinstance(right, complex):
        return same_value(left.real, right.real) and same_value(left.imag, right.imag)
    if isinstance(left, float) and isinstance(right, float) and math.isnan(left):
        return math.isnan(right)
    return left == right


@st.composite
def operands(draw: st.DrawFn) -> tuple[Any, Any, bool]:
    """(operand, its real value, hint known); the operand is a proxy or the static value."""
    value = draw(values)
    as_proxy = draw(st.booleans())
    known = draw(st.booleans())
    if not as_proxy:
        return value, value, True
    return PROXY_OF[kind_of(value)]("x", value if known else None), value, known


def python(function: Any, *args: object) -> tuple[str, object]:
    try:
        return "value", function(*args)
    except TypeError:
        return "type-error", None
    except (ArithmeticError, ValueError):
        return "error", None


@settings(max_examples=400, deadline=None)
@given(op=st.sampled_from(BINARY), left=operands(), right=operands())
def test_binary_operator_matches_python(op: Any, left: tuple[Any, Any, bool],
                                        right: tuple[Any, Any, bool]) -> None:
    left_operand, left_value, left_known = left
    right_operand, right_value, right_known = right
    if not (isinstance(left_operand, NumberProxy) or isinstance(right_operand, NumberProxy)):
        left_operand = proxy(left_value)  # at least one proxy
    function = getattr(operator, op.name)
    outcome, expected = python(function, left_value, right_value)
    if outcome == "type-error":
        with pytest.raises(TypeError):
            function(left_operand, right_operand)
        return
    result = function(left_operand, right_operand)
    assert isinstance(result, NumberProxy)
    if left_known and right_known:
        if outcome == "value":
            assert type(result) is PROXY_OF[type(expected)]
            assert same_value(result.hint, expected), (result, expected)
        else:  # Python raises on the hints: documented as "hint unknown"
            assert result.hint is None
    else:
        assert result.hint is None
        if outcome == "value" and op.name not in VALUE_DEPENDENT:
            assert type(result) is PROXY_OF[type(expected)]


@settings(max_examples=150, deadline=None)
@given(op=st.sampled_from(UNARY), operand=operands())
def test_unary_operator_matches_python(op: Any, operand: tuple[Any, Any, bool]) -> None:
    _, value, known = operand
    subject = PROXY_OF[kind_of(value)]("x", value if known else None)
    function = getattr(operator, op.name)
    outcome, expected = python(function, value)
    if outcome == "type-error":
        with pytest.raises(TypeError, match="bad operand type for unary"):
            function(subject)
        return
    result = function(subject)
    assert type(result) is PROXY_OF[type(expected)]
    assert same_value(result.hint, expected) if known else result.hint is None


@pytest.mark.parametrize(
    ("expression", "kind", "hint"),
    [
        (lambda n, f, b: n + f, FloatProxy, 7.5),
        (lambda n, f, b: n / n, FloatProxy, 1.0),
        (lambda n, f, b: n // 2, IntegerProxy, 2),
        (lambda n, f, b: n >= 0, BoolProxy, True),
        (lambda n, f, b: b + b, IntegerProxy, 2),
        (lambda n, f, b: b & b, BoolProxy, True),
        (lambda n, f, b: n ** -1, FloatProxy, 0.2),
        (lambda n, f, b: 2 ** n, IntegerProxy, 32),
        (lambda n, f, b: (-f) ** 0.5, ComplexProxy, (-2.5) ** 0.5),
        (lambda n, f, b: 10 - n, IntegerProxy, 5),
        (lambda n, f, b: n * 1j, ComplexProxy, 5j),
    ],
)
def test_promotion_examples(expression: Any, kind: type, hint: object) -> None:
    result = expression(IntegerProxy("n", 5), FloatProxy("f", 2.5), BoolProxy("b", True))
    assert result.hint == hint
    assert type(result) is kind


def test_unknown_hint_kinds_follow_positive_samples() -> None:
    n = IntegerProxy("n")
    assert type(n ** IntegerProxy("m")) is IntegerProxy  # assumed non-negative exponent
    assert type(FloatProxy("f") ** 0.5) is FloatProxy
    assert type(n / 1) is FloatProxy


def test_errors_on_hints_give_unknown_hint() -> None:
    n = IntegerProxy("n", 5)
    assert (n // 0).hint is None and type(n // 0) is IntegerProxy
    assert (n % IntegerProxy("z", 0)).hint is None
    assert (n << -1).hint is None
    assert (FloatProxy("f", 10.0) ** 1000.0).hint is None  # OverflowError
    assert (n ** 10_000_000).hint is None  # too large to compute eagerly
    assert (n ** 3).hint == 125


@pytest.mark.parametrize("other", ["a", None, [1], object(), b"x"])
def test_unsupported_operands_raise_type_error(other: Any) -> None:
    n: Any = IntegerProxy("n", 1)
    with pytest.raises(TypeError, match="unsupported operand"):
        n + other  # noqa: B018
    with pytest.raises(TypeError, match="unsupported operand"):
        other - n  # noqa: B018
    with pytest.raises(TypeError):
        n < other  # noqa: B018
    assert (n == other) is False
    assert pow(n, 2).hint == 1
    with pytest.raises(TypeError):
        pow(n, 2, 3)


@pytest.mark.parametrize("sequence", ["ab", [1], (1,), b"x"])
def test_sequence_repetition_concretizes(sequence: Any) -> None:
    with pytest.raises(ConcretizationError, match="operator.index"):
        sequence * IntegerProxy("n", 2)  # noqa: B018


def test_complex_has_no_ordering_or_floor_division() -> None:
    c: Any = ComplexProxy("c", 1j)
    for function in (operator.lt, operator.floordiv, operator.mod, operator.and_):
        with pytest.raises(TypeError):
            function(c, 1)
    assert cmath.isclose((c * c).hint, -1)
