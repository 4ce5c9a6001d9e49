from __future__ import annotations

import numbers
from typing import Any, Optional, TypeVar, Union

from proxy_types import (
    FloatProxy,
    IntegerProxy,
    NumberClasses,
    NumberProxy,
    is_dynamic_number,
    is_static_number,
)

StaticNumbers = (int, float)
IntOrFloat = Union[int, float]
T = TypeVar("T", bound=Union[int, IntegerProxy])
S = TypeVar("S", bound=int)


def positives(p: IntegerProxy, u: Union[int, FloatProxy], o: Optional[FloatProxy], t: T) -> None:
    isinstance(p, int)  # E: [proxy-isinstance] isinstance() against static number classes (int) misclassifies dynamic number "IntegerProxy"
    isinstance(u, numbers.Number)  # E: [proxy-isinstance] (numbers.Number) misclassifies dynamic number "FloatProxy"
    isinstance(o, (int, float))  # E: [proxy-isinstance] (int, float) misclassifies dynamic number "FloatProxy"
    isinstance(t, numbers.Integral)  # E: [proxy-isinstance] dynamic number "IntegerProxy"
    isinstance(p, StaticNumbers)  # E: [proxy-isinstance] (int, float)
    isinstance(u, int | float)  # E: [proxy-isinstance] (int, float)
    isinstance(u, IntOrFloat)  # E: [proxy-isinstance] (int, float) # E: [arg-type] special form
    isinstance(u, (bool, complex, numbers.Real))  # E: [proxy-isinstance] (bool, complex, numbers.Real)
    issubclass(type(p), int)  # E: [proxy-isinstance] issubclass() against static number classes (int)
    isinstance(p, int)  # type: ignore[proxy-isinstance]


def negatives(p: IntegerProxy, n: int, x: object, a: Any, s: S) -> None:
    isinstance(p, (int, NumberProxy))
    isinstance(p, NumberClasses)
    isinstance(p, IntegerProxy)
    isinstance(p, str)
    isinstance(n, int)
    isinstance(x, int)
    isinstance(a, (int, float))
    isinstance(s, int)
    is_static_number(p)
    is_dynamic_number(p)


class Holder:
    def method(self, value: FloatProxy | float) -> bool:
        def inner() -> bool:
            return isinstance(value, float)  # E: [proxy-isinstance] dynamic number "FloatProxy"

        check = lambda: isinstance(value, numbers.Real)  # E: [proxy-isinstance] (numbers.Real)
        flags = [isinstance(v, int) for v in (value, 1)]  # E: [proxy-isinstance] (int)
        return inner() and check() and all(flags)
