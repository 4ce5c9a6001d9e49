"""typing imported under another name."""

from __future__ import annotations

import typing as tp

from proxy_types import IntegerProxy


def aliased(n: IntegerProxy, k: float) -> None:
    tp.cast(int, n)  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"
    tp.cast(float, k)
