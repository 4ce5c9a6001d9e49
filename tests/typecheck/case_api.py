"""The public API as users call it: guards narrow both branches, conversions
return the matching static type, ``proxy`` picks the matching class.

Runs under mypy, pyright and python (tests/test_stubs.py); ``assert_type``
states the static type and the plain ``assert`` beside it the runtime fact.
"""

from __future__ import annotations

from typing import Union

from typing_extensions import assert_type

import proxy_types
from proxy_types import (
    BoolProxy,
    CheckError,
    ComplexProxy,
    ConcretizationError,
    DynamicNumber,
    FloatProxy,
    IntegerProxy,
    NumberClasses,
    NumberLike,
    NumberProxy,
    ProxyTypesError,
    Recorder,
    Trace,
    check,
    current_recorder,
    external_isinstance,
    is_dynamic_number,
    is_static_number,
    proxy,
    register_dynamic_type,
    to_static,
    trace,
)

i = IntegerProxy("i", 3)
f = FloatProxy("f", 2.5)
b = BoolProxy("b", True)
c = ComplexProxy("c", 1 + 2j)

# -- proxy(): the class follows the static type of the value -------------------
assert type(assert_type(proxy(True), BoolProxy)) is BoolProxy
assert type(assert_type(proxy(7), IntegerProxy)) is IntegerProxy
assert type(assert_type(proxy(7.5, "x"), FloatProxy)) is FloatProxy
assert type(assert_type(proxy(1j, name="z"), ComplexProxy)) is ComplexProxy
assert assert_type(proxy(7, "seven").name, str) == "seven"
assert assert_type(i.hint, Union[int, None]) == 3
assert assert_type(f.hint, Union[float, None]) == 2.5
assert assert_type(IntegerProxy("unknown").hint, Union[int, None]) is None


def hint_of(p: NumberProxy) -> int | float | complex | bool | None:
    return p.hint


assert hint_of(c) == 1 + 2j

# A static number on the left of == or != is typed by int.__eq__(object) -> bool,
# though Python falls back to the proxy's reflected __eq__ and returns a BoolProxy.
# Neither checker can see this; docs/static-contract.md lists it.


def runtime_class(value: object) -> type:
    return type(value)


assert runtime_class(assert_type(2 == i, bool)) is BoolProxy
assert runtime_class(assert_type(1.5 != f, bool)) is BoolProxy

# -- a proxy of unknown kind offers the operators every kind has ------------------


def scale(p: NumberProxy, factor: int) -> NumberProxy:
    return assert_type(-p * factor + 1, NumberProxy)


assert type(scale(f, 2)) is FloatProxy and type(scale(i, 2)) is IntegerProxy
assert type(assert_type(abs(scale(c, 1)) / 2, NumberProxy)) is FloatProxy
assert type(assert_type(scale(b, 1) == 2, BoolProxy)) is BoolProxy


def from_float(x: float) -> FloatProxy:
    return assert_type(proxy(x), FloatProxy)


# The numeric tower lets an int pass as a float (both checkers treat int | float
# as float); the runtime follows the value.  docs/static-contract.md lists this.
assert type(from_float(2.0)) is FloatProxy
assert runtime_class(from_float(2)) is IntegerProxy

# -- guards: TypeIs narrows the positive and the negative branch ---------------


def describe(x: int | float | IntegerProxy) -> str:
    if is_static_number(x):
        assert_type(x, Union[int, float])
        return "static"
    assert_type(x, IntegerProxy)
    return "dynamic"


assert describe(1) == "static" and describe(1.5) == "static" and describe(i) == "dynamic"


def split(x: int | str | DynamicNumber) -> str:
    if is_dynamic_number(x):
        assert_type(x, DynamicNumber)
        return "dynamic"
    assert_type(x, Union[int, str])
    return "other"


assert split(i) == "dynamic" and split(2) == "other" and split("s") == "other"


def from_object(x: object) -> str:
    if is_dynamic_number(x):
        assert_type(x, DynamicNumber)
        return "dynamic"
    if is_static_number(x):
        assert_type(x, Union[int, float, complex])
        return "static"
    return "other"


assert [from_object(v) for v in (b, True, None)] == ["dynamic", "static", "other"]


def classify(x: object) -> str:
    if isinstance(x, NumberClasses):
        assert_type(x, Union[int, float, complex, DynamicNumber])
        return "number"
    return "other"


assert [classify(v) for v in (3, f, "3")] == ["number", "number", "other"]


def total(values: list[NumberLike]) -> int:
    return len(values)


assert total([1, 2.5, 1j, i, f]) == 5

# -- explicit conversions -------------------------------------------------------
assert assert_type(to_static(i), int) == 3
assert assert_type(to_static(f), float) == 2.5
assert assert_type(to_static(b), bool) is True
assert assert_type(to_static(c), complex) == 1 + 2j
assert assert_type(to_static(4), int) == 4
assert assert_type(to_static(False), bool) is False
assert assert_type(to_static(0.5), float) == 0.5


def static_of(x: IntegerProxy | FloatProxy) -> float:
    return assert_type(to_static(x), Union[int, float])


assert static_of(i) == 3

try:
    to_static(IntegerProxy("n"))  # no hint: nothing to specialize on
    raise AssertionError("to_static of an unknown value must raise")
except ConcretizationError as error:
    assert isinstance(error, ProxyTypesError) and isinstance(error, TypeError)

check(b)
check(i > 0, "i must be positive")
check(True, lambda: "never shown")
try:
    check(False, "static False fails at once")
    raise AssertionError("check(False) must raise")
except CheckError as error:
    assert str(error) == "static False fails at once"

# -- external_isinstance: the traced program's view -----------------------------
assert assert_type(external_isinstance(f, float), bool)
assert external_isinstance(i, (str, int))
assert not external_isinstance(f, int)
assert external_isinstance("s", str | bytes)


# -- register_dynamic_type returns the class unchanged ---------------------------
class MyDynamicInt:
    pass


Registered = assert_type(register_dynamic_type(MyDynamicInt, int), type[MyDynamicInt])
assert Registered is MyDynamicInt and is_dynamic_number(MyDynamicInt())


@register_dynamic_type(python_type=float)
class MyDynamicFloat:
    pass


assert is_dynamic_number(assert_type(MyDynamicFloat(), MyDynamicFloat))

# -- tracing ----------------------------------------------------------------------
assert assert_type(current_recorder(), Union[Recorder, None]) is None
with trace() as recorded:
    assert_type(recorded, Trace)
    total_i = i + 1
    check(total_i > 3, "big enough")
    to_static(f)
    assert current_recorder() is recorded
assert len(recorded.operations) == 2 and len(recorded.checks) == 1 and len(recorded.guards) == 1
assert assert_type(recorded.lines(), list[str]) == str(recorded).splitlines()


class CountingRecorder:
    """A user recorder: satisfies the Recorder protocol structurally."""

    def __init__(self) -> None:
        self.events = 0

    def record_operation(self, result: object, operator: str, operands: tuple[object, ...]) -> None:
        self.events += 1

    def record_guard(self, value: object, static_value: object) -> None:
        self.events += 1

    def record_check(self, condition: object, message: str) -> None:
        self.events += 1


counter = CountingRecorder()
with trace(counter):
    i * 2
with proxy_types.use_recorder(counter) as same:
    assert_type(same, CountingRecorder)
    i - 1
assert counter.events == 2
