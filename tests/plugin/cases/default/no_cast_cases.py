"""A module that imports no cast(): its number annotations get no plugin work."""

from __future__ import annotations

from proxy_types import IntegerProxy


def annotated(n: IntegerProxy, k: int, f: float) -> int:
    if n > 0:  # E: [proxy-concretize]
        return k
    return int(f)
