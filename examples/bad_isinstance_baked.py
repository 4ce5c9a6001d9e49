"""A toy tracer that folds "numbers" into constants, and a proxy it misreads.

The tracer asks isinstance(value, Number) to decide whether an argument is a
compile-time constant.  A dynamic number is not a Number, so it takes the other
branch; had the proxy class inherited from float, the traced example value
would have been baked into the program instead.
"""

from __future__ import annotations

from numbers import Number

from proxy_types import FloatProxy, proxy


def emit_argument(value: float | FloatProxy) -> str:
    """Return the source text the tracer emits for one argument."""
    if isinstance(value, Number):  # expect: proxy-isinstance
        return repr(value)
    return "<runtime input>"


def emit_scale(value: float | FloatProxy) -> str:
    if isinstance(value, (int, float)):  # expect: proxy-isinstance
        return f"x * {value!r}"
    return "x * <runtime input>"


if __name__ == "__main__":
    print(emit_argument(2.5), emit_scale(proxy(2.5, "scale")))
