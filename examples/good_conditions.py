"""The branches from bad_conditions.py, decided on purpose.

check() records the assumption in the trace (so a later input that breaks it
is caught); to_static() says plainly that the program specializes here.
"""

from __future__ import annotations

from proxy_types import BoolProxy, IntegerProxy, check, proxy, to_static, trace


def clamp_low(n: IntegerProxy) -> IntegerProxy:
    check(n >= 0, "clamp_low expects a non-negative size")
    return n


def maybe_scale(enabled: BoolProxy, x: IntegerProxy) -> IntegerProxy:
    if to_static(enabled):
        return x * 2
    return x


if __name__ == "__main__":
    with trace() as recorded:
        clamp_low(proxy(3, "n"))
        maybe_scale(proxy(True, "enabled"), proxy(5, "x"))
    print(recorded)
