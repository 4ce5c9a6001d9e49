"""Branching on a dynamic number picks one path at trace time, silently."""

from __future__ import annotations

from proxy_types import BoolProxy, ConcretizationError, IntegerProxy, proxy


def clamp_low(n: IntegerProxy) -> IntegerProxy | int:
    if n >= 0:  # expect: proxy-concretize
        return n
    return 0


def maybe_scale(enabled: BoolProxy, x: IntegerProxy) -> IntegerProxy:
    if enabled:  # expect: truthy-bool
        return x * 2
    return x


if __name__ == "__main__":
    try:
        clamp_low(proxy(3, "n"))
    except ConcretizationError as error:
        print("refused:", str(error).split(";")[0])
