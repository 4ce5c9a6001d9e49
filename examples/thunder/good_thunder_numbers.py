"""The same functions, with the traced numbers kept symbolic."""

from __future__ import annotations

import torch
from thunder.core.proxies import NumberProxy


def scale_by_whole(x: torch.Tensor, times: float | NumberProxy) -> torch.Tensor:
    return x * (times - times % 1)  # stays symbolic (thunder 0.2.6 cannot run //, math.floor)


def scale_unless_float(x: torch.Tensor, factor: float | NumberProxy) -> torch.Tensor:
    if isinstance(factor, (float, NumberProxy)):
        return x * 2
    return x * factor
