"""Implicit conversions that turn a dynamic number into a traced constant."""

from __future__ import annotations

import math

from proxy_types import ConcretizationError, FloatProxy, IntegerProxy, proxy


def rms_scale(variance: FloatProxy) -> float:
    return 1.0 / math.sqrt(variance)  # expect: proxy-concretize, arg-type


def as_python_float(p: FloatProxy) -> float:
    return float(p)  # expect: proxy-concretize, arg-type


def repeat(items: list[str], count: IntegerProxy) -> list[str]:
    return [items[0] for _ in range(count)]  # expect: proxy-concretize, call-overload


if __name__ == "__main__":
    try:
        as_python_float(proxy(2.5, "v"))
    except ConcretizationError as error:
        print("refused:", str(error).split(";")[0])
