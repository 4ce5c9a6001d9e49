"""Decorators that mark traced functions, and torch-like static-only aliases."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])


def register(*ops: object) -> Callable[[F], F]:
    return lambda fn: fn


def plain(fn: F) -> F:
    return fn


class symbol:
    """A class used as a decorator factory, like thunder's torchsymbol."""

    def __init__(self, op: object) -> None:
        self.op = op

    def __call__(self, fn: F) -> F:
        return fn


def check_type(x: object, types: type | tuple[type, ...]) -> None: ...


IntWithoutSymInt = int
FloatWithoutSymFloat = float
