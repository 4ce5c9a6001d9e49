from __future__ import annotations

import numbers
from typing import Any

from proxy_types import NumberClasses


def strict(x: object, a: Any, n: int, s: str) -> None:
    isinstance(x, int)  # E: [proxy-isinstance] dynamic number "object"
    isinstance(a, numbers.Real)  # E: [proxy-isinstance] dynamic number "Any"
    isinstance(x, NumberClasses)
    isinstance(n, int)
    isinstance(s, int)
    isinstance(x, str)
