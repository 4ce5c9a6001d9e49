"""The proxy classes from bad_mixed_inheritance.py without the float base.

FloatProxy stays a dynamic number only: isinstance(x, float) is False for it,
and code that accepts both kinds checks for the proxy class first.
"""

from __future__ import annotations

from proxy_types import DynamicNumber


class TracedNumber(DynamicNumber):
    def __init__(self, name: str) -> None:
        self.name = name


class FloatProxy(TracedNumber):
    python_type = float


def describe(value: float | FloatProxy) -> str:
    if isinstance(value, FloatProxy):
        return f"input {value.name}"
    return repr(value)


if __name__ == "__main__":
    print(describe(FloatProxy("x")), describe(1.5))
