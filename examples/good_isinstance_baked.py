"""The toy tracer from bad_isinstance_baked.py, asking the right question.

is_static_number() is True only for plain int/float/complex values, and
NumberClasses includes the dynamic numbers, so no proxy is mistaken for a
constant and no constant for a proxy.
"""

from __future__ import annotations

from proxy_types import FloatProxy, NumberClasses, is_static_number, proxy


def emit_argument(value: float | FloatProxy) -> str:
    """Return the source text the tracer emits for one argument."""
    if is_static_number(value):
        return repr(value)
    return f"<runtime input {value.name}>"


def is_number_like(value: object) -> bool:
    return isinstance(value, NumberClasses)


if __name__ == "__main__":
    print(emit_argument(2.5), emit_argument(proxy(2.5, "scale")), is_number_like(proxy(1)))
