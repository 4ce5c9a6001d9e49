"""Functions traced through a decorator, and functions that are not traced at all."""

from __future__ import annotations

import torch

from traced_lib import plain, register, symbol


def cast_first(n: int) -> int:
    # A cast is judged while mypy still analyzes this module: the decorators below
    # are not resolved yet, which must not hide that their functions are traced.
    from typing import cast

    return cast(int, n)


def factory() -> None:
    @register("mul")
    def inner(a: int) -> None:
        isinstance(a, int)  # E: [proxy-isinstance] (reason: parameter "a" of traced function "inner"

    inner(1)


@register("add")
def registered(a: int, b: float) -> None:
    isinstance(a, int)  # E: [proxy-isinstance] (reason: parameter "a" of traced function "registered"
    isinstance(b, float)  # E: [proxy-isinstance] (reason: parameter "b"


@symbol(torch.add)
def with_factory(a: int) -> None:
    isinstance(a, int)  # E: [proxy-isinstance] (reason: parameter "a" of traced function "with_factory"


class Ops:
    @symbol("mul")
    def method(self, a: int) -> None:
        isinstance(a, int)  # E: [proxy-isinstance] (reason: parameter "a" of traced function "Ops.method"
        isinstance(self, int)


@plain
def other_decorator(a: int) -> None:
    isinstance(a, int)


def not_traced(a: int, b, shape: list[int]):  # type: ignore[no-untyped-def]
    isinstance(a, int)
    isinstance(b, int)
    int(a)
    range(shape[0])
    if a > 0:
        pass
