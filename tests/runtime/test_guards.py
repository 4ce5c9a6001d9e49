"""is_static_number / is_dynamic_number / register_dynamic_type / external_isinstance."""

from __future__ import annotations

import decimal
import fractions
import numbers
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proxy_types import (
    BoolProxy,
    ComplexProxy,
    DynamicNumber,
    FloatProxy,
    IntegerProxy,
    NumberClasses,
    external_isinstance,
    is_dynamic_number,
    is_static_number,
    register_dynamic_type,
)


def untyped(value: object) -> Any:
    """Hide a value's type: these tests do on purpose what the stubs forbid."""
    return value


class MyInt(int):
    pass


class MyFloat(float):
    pass


class LegacyFloatProxy(float):
    """Like lightning-thunder's old ``class FloatProxy(NumberProxy, float)``."""


register_dynamic_type(LegacyFloatProxy, float)


class SubclassOfLegacy(LegacyFloatProxy):
    pass


STATIC = [0, -3, True, False, 2.5, float("nan"), 1j, MyInt(4), MyFloat(1.5), 10**100]
DYNAMIC = [IntegerProxy("n", 1), FloatProxy("f"), ComplexProxy("c"), BoolProxy("b", True),
           LegacyFloatProxy(1.5), SubclassOfLegacy(2.0)]
NEITHER = [None, "3", b"3", [1], object(), decimal.Decimal(1), fractions.Fraction(1, 2), int, float]


@pytest.mark.parametrize("value", STATIC, ids=repr)
def test_static_numbers(value: object) -> None:
    assert is_static_number(value)
    assert not is_dynamic_number(value)
    assert not isinstance(value, DynamicNumber)
    assert isinstance(value, NumberClasses)


@pytest.mark.parametrize("value", DYNAMIC, ids=repr)
def test_dynamic_numbers(value: object) -> None:
    assert is_dynamic_number(value)
    assert not is_static_number(value)
    assert isinstance(value, DynamicNumber)
    assert isinstance(value, NumberClasses)


@pytest.mark.parametrize("value", NEITHER, ids=lambda value: "object()" if type(value) is object else repr(value))
def test_neither(value: object) -> None:
    assert not is_static_number(value) and not is_dynamic_number(value)
    assert not isinstance(value, DynamicNumber)


def test_register_dynamic_type_decorator_and_errors() -> None:
    def register_int(cls: type) -> type:
        return register_dynamic_type(cls, int)

    @register_int
    class Dim:
        pass

    assert is_dynamic_number(Dim()) and external_isinstance(Dim(), int)
    with pytest.raises(TypeError, match="expected a class, got 3"):
        register_dynamic_type(untyped(3), int)
    with pytest.raises(TypeError, match="python_type must be .* got <class 'str'>"):
        register_dynamic_type(Dim, untyped(str))


def test_register_dynamic_type_with_only_python_type_is_a_decorator() -> None:
    @register_dynamic_type(python_type=float)
    class Scale:
        pass

    class Raw:
        pass

    assert register_dynamic_type(python_type=int)(Raw) is Raw  # the class itself
    assert is_dynamic_number(Scale()) and not is_static_number(Scale())
    assert external_isinstance(Scale(), float) and not external_isinstance(Scale(), int)
    with pytest.raises(TypeError, match="python_type must be .* got <class 'str'>"):
        register_dynamic_type(python_type=untyped(str))
    with pytest.raises(TypeError, match=r"python_type is required; as a decorator write "
                                        r"@register_dynamic_type\(python_type=int\)"):
        untyped(register_dynamic_type)(Scale)


def test_registration_invalidates_cached_answers() -> None:
    class LateProxy(int):
        pass

    assert is_static_number(LateProxy(1))
    register_dynamic_type(LateProxy, int)
    assert not is_static_number(LateProxy(1)) and is_dynamic_number(LateProxy(1))


def test_external_isinstance_presents_proxies_as_python_numbers() -> None:
    fp, ip, bp, cp = FloatProxy("f", 1.0), IntegerProxy("i", 1), BoolProxy("b"), ComplexProxy("c")
    # The traced user program's view ...
    assert external_isinstance(fp, float) and external_isinstance(fp, numbers.Real)
    assert not external_isinstance(ip, float) and external_isinstance(ip, numbers.Integral)
    assert external_isinstance(bp, bool) and external_isinstance(bp, int)
    assert not external_isinstance(cp, numbers.Real) and external_isinstance(cp, complex)
    assert external_isinstance(ip, int | float) and external_isinstance(fp, (str, (int, float)))
    assert not external_isinstance(cp, int | float)
    assert external_isinstance(ip, IntegerProxy) and not external_isinstance(ip, FloatProxy)
    assert external_isinstance(LegacyFloatProxy(1.0), float)
    assert not external_isinstance(LegacyFloatProxy(1.0), int)
    # ... while library code sees the truth.
    truth_fp, truth_bp = untyped(fp), untyped(bp)
    assert not isinstance(truth_fp, float) and not isinstance(truth_fp, numbers.Real)
    assert not isinstance(truth_bp, int)
    # Non-proxies behave like isinstance.
    assert external_isinstance(3, int) and not external_isinstance("3", int | float)
    with pytest.raises(TypeError):
        external_isinstance(fp, untyped(3))


# -- objects designed to break naive guards -------------------------------------------


def make_raising_meta_classes() -> tuple[type, type, type]:
    """Built inside a function: pytest's collection would hash module-level classes."""

    class RaisingMeta(type):
        def __instancecheck__(cls, instance: object) -> bool:
            raise RuntimeError("instancecheck")

        def __subclasscheck__(cls, subclass: type) -> bool:
            raise RuntimeError("subclasscheck")

        def __hash__(cls) -> int:
            raise RuntimeError("hash")

        def __eq__(cls, other: object) -> bool:
            raise RuntimeError("eq")

    class WithRaisingMeta(metaclass=RaisingMeta):
        pass

    class IntWithRaisingMeta(int, metaclass=RaisingMeta):
        pass

    return RaisingMeta, WithRaisingMeta, IntWithRaisingMeta


class Nasty:
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    def __hash__(self) -> int:
        raise RuntimeError("hash")

    def __bool__(self) -> bool:
        raise RuntimeError("bool")

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(name)


class ClaimsToBeProxy:
    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return IntegerProxy


class ClaimsToBeFloat:
    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return float


class ClassRaises:
    @property  # type: ignore[misc]
    def __class__(self) -> type:
        raise RuntimeError("class")


class OtherFrameworkProxy:
    """Duck-types a number, as proxies of other frameworks do."""

    def __float__(self) -> float:
        raise RuntimeError("would concretize")

    __int__ = __index__ = __float__


# Recipes rather than objects: hypothesis itself would trip over the nasty ones.
NASTY_FACTORIES: list[Any] = [
    lambda i: Nasty(), lambda i: ClaimsToBeProxy(), lambda i: ClaimsToBeFloat(),
    lambda i: ClassRaises(), lambda i: OtherFrameworkProxy(),
    lambda i: make_raising_meta_classes()[1](), lambda i: make_raising_meta_classes()[2](i),
    lambda i: make_raising_meta_classes()[1], lambda i: make_raising_meta_classes()[0],
    lambda i: type("Dyn", (IntegerProxy,), {"__eq__": Nasty.__eq__})("d", i),
    lambda i: type("Sub", (int,), {"__hash__": Nasty.__hash__})(i),
]
nasty_recipes = st.tuples(st.sampled_from(NASTY_FACTORIES), st.integers())


@settings(max_examples=150, deadline=None)
@given(recipe=nasty_recipes, ordinary=st.from_type(type).flatmap(st.from_type))
def test_guards_never_raise(recipe: tuple[Any, int], ordinary: object) -> None:
    factory, seed = recipe
    for value in (factory(seed), ordinary):
        check_guards_agree(value)


def check_guards_agree(value: object) -> None:
    static = is_static_number(value)
    dynamic = is_dynamic_number(value)
    assert static in (True, False) and dynamic in (True, False)
    assert not (static and dynamic)
    assert isinstance(value, DynamicNumber) is dynamic


def test_lying_objects_are_judged_by_their_real_type() -> None:
    assert not is_dynamic_number(ClaimsToBeProxy()) and not isinstance(ClaimsToBeProxy(), DynamicNumber)
    assert isinstance(ClaimsToBeProxy(), IntegerProxy) is False
    assert not is_static_number(ClaimsToBeFloat()) and isinstance(ClaimsToBeFloat(), float)
    assert not is_static_number(ClassRaises()) and not is_dynamic_number(ClassRaises())
    int_with_raising_meta = make_raising_meta_classes()[2]
    assert not is_static_number(int_with_raising_meta(3))  # unclassifiable: reported as neither
    assert not is_dynamic_number(OtherFrameworkProxy())


def test_importing_proxy_types_imports_neither_torch_nor_mypy() -> None:
    code = "import proxy_types, sys; assert 'torch' not in sys.modules and 'mypy' not in sys.modules, 'leak'"
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
    # The same probe does notice a module that is imported.
    leaking = code.replace("import proxy_types", "import proxy_types, json").replace("'mypy'", "'json'")
    assert subprocess.run([sys.executable, "-c", leaking], capture_output=True, check=False).returncode != 0
