"""A legacy tracing library: its proxies still subclass builtin numbers."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any


class Proxy:
    """Above the number proxies (thunder's Proxy, NumberProxyInterface)."""


class StringProxy(Proxy):
    pass


class NumberProxy(Proxy):
    def __init__(self, name: str) -> None:
        self.name = name

    def __add__(self, other: Any) -> Any:
        return self

    def __lt__(self, other: Any) -> Any:
        return self


class IntegerProxy(NumberProxy, int):  # E: [proxy-base] Legacy proxy class "IntegerProxy" (migrate_classes: "NumberProxy") still inherits from static number "int"
    def __new__(cls, name: str, value: int) -> IntegerProxy:
        return int.__new__(cls, value)  # E: [type-var] Value of type variable "Self" of "__new__" of "int" cannot be "IntegerProxy"


class FloatProxy(NumberProxy, float):  # E: [proxy-base] Legacy proxy class "FloatProxy" (migrate_classes: "NumberProxy") still inherits from static number "float"
    pass


class ComplexProxy(NumberProxy, complex):  # E: [proxy-base] static number "complex"
    pass


class RealProxy(NumberProxy, numbers.Real):  # E: [proxy-base] Legacy proxy class "RealProxy" (migrate_classes: "NumberProxy") still inherits from static number "numbers.Real"
    pass


class Plain(float):
    pass


class Tagged:
    pass


class TaggedFloat(Tagged, float):
    pass


def check_type(x: Any, types: type | Sequence[type]) -> None:
    if not isinstance(x, tuple(types) if isinstance(types, Sequence) else types):
        raise ValueError(x)


def check_type_reversed(types: type | tuple[type, ...], x: Any) -> None:
    check_type(x, types)
