from __future__ import annotations

import numbers
import typing
from typing import Optional, TypeVar, Union, cast

import typing_extensions

from proxy_types import BoolProxy, FloatProxy, IntegerProxy, NumberLike, is_static_number, to_static

BoundToProxy = TypeVar("BoundToProxy", bound=IntegerProxy)
ProxyOrInt = TypeVar("ProxyOrInt", int, IntegerProxy)
module_proxy: IntegerProxy = IntegerProxy("module_proxy")
inferred_proxy = IntegerProxy("inferred_proxy")
module_static = 3


class Holder:
    size: IntegerProxy
    count: int

    @property
    def scale(self) -> FloatProxy:
        return FloatProxy("scale")

    def current(self) -> IntegerProxy:
        return self.size

    def casts(self) -> None:
        cast(int, self.size)  # E: [proxy-cast] cast() to static number type "int" hides dynamic number "IntegerProxy"
        cast(float, self.scale)  # E: [proxy-cast] "float" hides dynamic number "FloatProxy"
        cast(int, self.current())  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"
        cast(int, self.count)


def make() -> IntegerProxy:
    return IntegerProxy("made")


def sources(
    p: IntegerProxy,
    o: Optional[FloatProxy],
    u: Union[int, IntegerProxy],
    bound: BoundToProxy,
    constrained: ProxyOrInt,
    flag: BoolProxy,
    holder: Holder,
) -> None:
    cast(int, p)  # E: [proxy-cast] cast() to static number type "int" hides dynamic number "IntegerProxy"
    cast(float, o)  # E: [proxy-cast] "float" hides dynamic number "FloatProxy"
    cast(int, u)  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"
    cast(int, bound)  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"
    cast(int, constrained)  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"
    cast(bool, flag)  # E: [proxy-cast] "bool" hides dynamic number "BoolProxy"
    cast(int, holder.size)  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"
    cast(float, holder.scale)  # E: [proxy-cast] "float" hides dynamic number "FloatProxy"
    cast(int, make())  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"
    cast(int, IntegerProxy("fresh"))  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"
    cast(int, module_proxy)  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"
    cast(int, p + 1)  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"
    cast(int, 2 * p)  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"
    cast(int, -p)  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"
    cast(bool, p > 0)  # E: [proxy-cast] "bool" hides dynamic number "IntegerProxy"


def targets(p: IntegerProxy) -> None:
    cast("int", p)  # E: [proxy-cast] cast() to static number type "int"
    typing.cast(float, p)  # E: [proxy-cast] cast() to static number type "float"
    typing_extensions.cast(complex, p)  # E: [proxy-cast] cast() to static number type "complex"
    cast(numbers.Integral, p)  # E: [proxy-cast] cast() to static number type "Integral"
    cast(numbers.Real, p)  # E: [proxy-cast] cast() to static number type "Real"
    cast(Optional[int], p)  # E: [proxy-cast] cast() to static number type "int"
    cast(int | None, p)  # E: [proxy-cast] cast() to static number type "int"
    cast(Union[int, float], p)  # E: [proxy-cast] cast() to static number type "int | float"
    cast("float | None", p)  # E: [proxy-cast] cast() to static number type "float"
    doubled = [cast(int, p) for _ in range(2)]  # E: [proxy-cast] "int" hides dynamic number
    later = lambda: cast(int, p)  # E: [proxy-cast] "int" hides dynamic number
    print(doubled, later)


def not_reported(p: IntegerProxy, n: int, x: float, o: Optional[int], u: Union[int, str]) -> None:
    cast(int, n)
    cast(float, x)
    cast(int, o)
    cast(int, u)
    cast(int, module_static)
    cast(int, n * 2)
    cast(NumberLike, p)
    cast(IntegerProxy, p)
    cast(Union[int, IntegerProxy], p)
    cast("int | IntegerProxy", p)
    cast(str, p)
    cast(list[int], p)
    cast(int, to_static(p))
    cast(int, p)  # type: ignore[proxy-cast]
    # Known gaps: only declared types are seen (inferred variables, narrowing are not).
    cast(int, inferred_proxy)
    local = p * 2
    cast(int, local)


def narrowing_is_seen(u: Union[int, IntegerProxy], v: Union[int, IntegerProxy]) -> None:
    if is_static_number(u):
        cast(int, u)
    cast(int, u)  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"
    if isinstance(v, IntegerProxy):
        return
    cast(int, v)


def unannotated(p):  # mypy skips the bodies of unannotated functions
    return cast(int, p)
