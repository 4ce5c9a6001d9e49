"""A tracer's own proxy classes, with a float base as lightning-thunder once had.

TracedNumber is dynamic (it derives from proxy_types.DynamicNumber).  Making
FloatProxy a float as well means every isinstance(x, float) in user code says
True for it, and the value it was traced with flows into the program as a
constant.
"""

from __future__ import annotations

from proxy_types import DynamicNumber


class TracedNumber(DynamicNumber):
    def __init__(self, name: str) -> None:
        self.name = name


class FloatProxy(TracedNumber, float):  # expect: proxy-base
    pass
