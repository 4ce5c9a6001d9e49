"""Proxy classes: not static numbers, constructors, repr, refusal to concretize."""

from __future__ import annotations

import cmath
import math
import numbers
import operator
from typing import Any

import pytest

import proxy_types
from proxy_types import (
    BoolProxy,
    ComplexProxy,
    ConcretizationError,
    DynamicNumber,
    FloatProxy,
    IntegerProxy,
    NumberProxy,
    ProxyTypesError,
    proxy,
)
from proxy_types._table import CONCRETIZING_DUNDERS, STATIC_ABC_TYPES

PROXIES = [IntegerProxy("n", 5), FloatProxy("f", 2.5), ComplexProxy("c", 1 + 2j), BoolProxy("b", True)]
def untyped(value: object) -> Any:
    """Hide a value's type: these tests do on purpose what the stubs forbid."""
    return value


ABCS = [getattr(numbers, name.split(".")[1]) for name in STATIC_ABC_TYPES]


@pytest.mark.parametrize("p", PROXIES, ids=repr)
def test_proxy_is_no_static_number(p: NumberProxy) -> None:
    for static_class in (int, float, complex, bool, *ABCS):
        assert not isinstance(p, static_class), static_class
        assert not issubclass(type(p), static_class), static_class
    assert isinstance(p, DynamicNumber)
    assert isinstance(p, NumberProxy)
    assert isinstance(p, proxy_types.NumberClasses)


@pytest.mark.parametrize(
    ("cls", "hint", "python_type"),
    [(IntegerProxy, 3, int), (FloatProxy, 0.5, float), (ComplexProxy, 1j, complex), (BoolProxy, False, bool)],
)
def test_constructor_and_repr(cls: Any, hint: object, python_type: type) -> None:
    p = cls("size", hint)
    assert (p.name, p.hint, p.python_type) == ("size", hint, python_type)
    assert repr(p) == f"{cls.__name__}(name='size', hint={hint!r})"
    assert str(p) == "size" and f"{p}" == "size"
    assert cls("u").hint is None
    with pytest.raises(AttributeError):
        p.name = "other"


@pytest.mark.parametrize(
    ("cls", "bad_hint"),
    [(IntegerProxy, 1.5), (IntegerProxy, True), (IntegerProxy, "3"), (FloatProxy, 1j),
     (FloatProxy, False), (ComplexProxy, "1j"), (BoolProxy, 1), (BoolProxy, IntegerProxy("n", 1)),
     (FloatProxy, FloatProxy("f", 1.0))],
)
def test_bad_hint_is_a_clear_type_error(cls: Any, bad_hint: object) -> None:
    with pytest.raises(TypeError, match=f"{cls.__name__}: hint must be a static"):
        cls("x", bad_hint)


def test_widening_hints_are_converted() -> None:
    assert FloatProxy("f", 2).hint == 2.0 and type(FloatProxy("f", 2).hint) is float
    assert ComplexProxy("c", 2.5).hint == 2.5 + 0j and type(ComplexProxy("c", 2).hint) is complex


def test_bad_name_and_abstract_base() -> None:
    with pytest.raises(TypeError, match="name must be a non-empty str"):
        IntegerProxy(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="name must be a non-empty str"):
        IntegerProxy("")
    with pytest.raises(TypeError, match="abstract"):
        NumberProxy("x")


@pytest.mark.parametrize(
    ("value", "cls"), [(True, BoolProxy), (3, IntegerProxy), (3.0, FloatProxy), (3j, ComplexProxy)]
)
def test_proxy_factory_picks_the_kind(value: bool | int | float | complex, cls: type) -> None:
    p = proxy(value, "v")
    assert type(p) is cls and p.hint == value and p.name == "v"
    fresh = proxy(value)
    assert fresh.name and fresh.name != proxy(value).name


@pytest.mark.parametrize("value", ["3", None, IntegerProxy("n", 1), [1]])
def test_proxy_factory_rejects_non_numbers(value: Any) -> None:
    with pytest.raises(TypeError, match="proxy: expected a static"):
        proxy(value)


n: Any = IntegerProxy("n", 5)  # Any: the stubs rightly reject every use below
CONCRETIZING_USES: list[tuple[str, Any]] = [
    ("bool", lambda: bool(n)),
    ("truth test", lambda: 1 if n else 0),
    ("not", lambda: not n),
    ("if compare", lambda: 1 if n >= 0 else 0),
    ("int", lambda: int(n)),
    ("float", lambda: float(n)),
    ("complex", lambda: complex(n)),
    ("index", lambda: operator.index(n)),
    ("list index", lambda: [1, 2][n]),
    ("slice", lambda: [1, 2, 3][:n]),
    ("range", lambda: range(n)),
    ("round", lambda: round(n)),
    ("round digits", lambda: round(untyped(FloatProxy("f", 1.5)), 1)),
    ("trunc", lambda: math.trunc(n)),
    ("floor", lambda: math.floor(n)),
    ("ceil", lambda: math.ceil(n)),
    ("sqrt", lambda: math.sqrt(n)),
    ("cmath", lambda: cmath.exp(untyped(ComplexProxy("c", 1j)))),
    ("hash", lambda: hash(n)),
    ("set", lambda: {n}),
    ("dict key", lambda: {n: 1}),
    ("in list", lambda: n in [1, 5]),
    ("hex", lambda: hex(n)),
    ("format spec", lambda: format(n, "d")),
    ("f-string spec", lambda: f"{n:>4}"),
]


@pytest.mark.parametrize("use", [u for _, u in CONCRETIZING_USES], ids=[i for i, _ in CONCRETIZING_USES])
def test_every_concretization_raises(use: Any) -> None:
    with pytest.raises(ConcretizationError) as caught:
        use()
    message = str(caught.value)
    assert "to_static" in message and "check" in message and "is_dynamic_number" in message
    assert "dynamic number" in message and "Proxy(name=" in message
    assert isinstance(caught.value, TypeError)
    assert isinstance(caught.value, ProxyTypesError)


@pytest.mark.parametrize("concretizer", CONCRETIZING_DUNDERS, ids=lambda c: c.dunder)
def test_each_table_dunder_raises_naming_the_operation(concretizer: Any) -> None:
    for p in PROXIES:
        with pytest.raises(ConcretizationError, match=f"^{concretizer.operation.split()[0]}"):
            getattr(p, concretizer.dunder)()


def test_static_numbers_still_work() -> None:
    assert [1, 2][1] == 2 and math.sqrt(4) == 2.0 and bool(5) and hash(5) == 5


class UserFloatProxy(NumberProxy):
    """A user's own proxy class, as `proxy-types explain proxy-base` suggests."""

    python_type = float


def test_subclass_setting_python_type_works() -> None:
    p = UserFloatProxy("x", 1)
    assert p.hint == 1.0 and type(p.hint) is float
    assert UserFloatProxy("u").hint is None
    seen: object = p
    assert proxy_types.is_dynamic_number(seen) and not isinstance(seen, (float, numbers.Number))
    doubled = p * 2
    assert isinstance(doubled, FloatProxy) and doubled.hint == 2.0
    with pytest.raises(TypeError, match="UserFloatProxy: hint must be a static float"):
        UserFloatProxy("y", "1.0")  # type: ignore[arg-type]


@pytest.mark.parametrize("python_type", [str, None, numbers.Real])
def test_subclass_with_bad_python_type_names_the_class(python_type: object) -> None:
    namespace: dict[str, object] = {} if python_type is None else {"python_type": python_type}
    broken = type("BrokenProxy", (NumberProxy,), namespace)
    with pytest.raises(TypeError, match="BrokenProxy: python_type must be bool, int, float or complex"):
        broken("x")
    with pytest.raises(TypeError, match="BrokenProxy: python_type must be"):
        broken("x", 1.0)
