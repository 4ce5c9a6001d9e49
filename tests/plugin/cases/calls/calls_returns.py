"""Values a callee returns: a tensor size it reads, or what the caller passed in."""

from __future__ import annotations

import numbers

import torch
from torch import nn

from calls_return_helpers import (
    Shapes,
    as_tensor,
    count,
    first,
    last_two,
    norm_of_eight,
    norm_of_scaled,
    pinned,
    rows,
    rows_via_helper,
    scaled,
    total,
    untyped_rows,
)


class Model(nn.Module):
    def __init__(self, x: torch.Tensor) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(rows(x))  # built eagerly: a plain int here
        self.shapes = Shapes()

    def forward(self, x: torch.Tensor, items: list[torch.Tensor]) -> torch.Tensor:
        n = rows(x)
        int(n)  # E: [proxy-specialize] int() installs a guard on dynamic number "SymInt": sound, but the program is specialized on its traced value; use proxy_types.to_static() to make the conversion explicit (reason: "rows(x)" returns a tensor size: "x.shape" in calls_return_helpers.rows (calls_return_helpers.py:10)
        isinstance(n, int)  # E: [proxy-isinstance] isinstance() against static number classes (int) misclassifies dynamic number "SymInt"
        nn.LayerNorm(n)  # E: [proxy-isinstance] LayerNorm(): argument "n" reaches isinstance(normalized_shape, numbers.Integral)
        height, width = last_two(x)
        int(width)  # E: [proxy-specialize] (reason: "last_two(x)" returns a tensor size
        int(first(last_two(x)))  # E: [proxy-specialize] (reason: "last_two(x)" returns a tensor size
        int(scaled(x.shape[0]))  # E: [proxy-specialize] (reason: "x.shape" is a tensor size
        int(rows_via_helper(x))  # E: [proxy-specialize] (reason: "rows_via_helper(x)" returns a tensor size: "x.shape" in calls_return_helpers.rows
        isinstance(total(x), numbers.Real)  # E: [proxy-isinstance] (reason: "total(x)" returns a number read from tensor data
        int(untyped_rows(x))  # E: [proxy-specialize] "untyped_rows(x)" returns a tensor size: "x.size(0)"
        int(self.shapes.height(x))  # E: [proxy-specialize] "self.shapes.height(x)" returns a tensor size: "x.shape" in calls_return_helpers.Shapes.height
        int(scaled(3))
        int(count(items))
        int(pinned(x))
        int(first([3, 4]))
        as_tensor(x)
        norm_of_scaled(x.shape[-1])  # E: [proxy-isinstance] norm_of_scaled(): argument "x.shape[-1]" reaches isinstance(normalized_shape, numbers.Integral) in torch.nn.modules.normalization.LayerNorm.__init__ (torch/nn/modules/normalization.py:199) via width -> normalized_shape
        norm_of_eight(x.shape[-1])  # the helper returns no argument
        return x


def not_a_size(x: torch.Tensor) -> int:
    return int(count([x]))
