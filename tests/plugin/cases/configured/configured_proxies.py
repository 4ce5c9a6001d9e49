"""A thunder-like proxy hierarchy: NumberProxy (configured) and its relatives under Proxy."""

from __future__ import annotations

from typing import Protocol


class Proxy:
    name: str = ""


class Interface(Protocol):
    name: str


class TensorProxy(Proxy):
    pass


class NumberProxy(Proxy):
    pass


class IntegerProxy(NumberProxy):
    pass


class FloatProxy(NumberProxy):
    pass
