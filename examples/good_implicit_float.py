"""The conversions from bad_implicit_float.py, made explicit and recorded."""

from __future__ import annotations

import math

from proxy_types import FloatProxy, IntegerProxy, proxy, to_static, trace


def rms_scale(variance: FloatProxy) -> float:
    return 1.0 / math.sqrt(to_static(variance))


def as_python_float(p: FloatProxy) -> float:
    return to_static(p)


def repeat(items: list[str], count: IntegerProxy) -> list[str]:
    return [items[0] for _ in range(to_static(count))]


if __name__ == "__main__":
    with trace() as recorded:
        print(rms_scale(proxy(4.0, "variance")), repeat(["a"], proxy(2, "count")))
    print(recorded)  # the guards say which values the result depends on
