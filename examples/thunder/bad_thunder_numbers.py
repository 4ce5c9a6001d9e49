"""Numbers passed to a function compiled by thunder.jit(fn, cache="symbolic values")
are thunder NumberProxy objects while thunder traces it.  int() returns the value seen
while tracing, and isinstance(factor, float) is False for a proxy: the cached trace
gives a wrong result for the next number.  Checked with the thunder preset:
proxy-types init --preset thunder."""

from __future__ import annotations

import torch
from thunder.core.proxies import NumberProxy


def scale_by_whole(x: torch.Tensor, times: float | NumberProxy) -> torch.Tensor:
    return x * int(times)  # expect: proxy-concretize


def scale_unless_float(x: torch.Tensor, factor: float | NumberProxy) -> torch.Tensor:
    if isinstance(factor, float):  # expect: proxy-isinstance
        return x * 2
    return x * factor
