"""Cross-call reports with default settings: only declared dynamic numbers are sources."""

from __future__ import annotations

import functools

import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor, n: torch.SymInt, width: int) -> torch.Tensor:
        nn.LayerNorm(n)  # E: [proxy-isinstance] LayerNorm(): argument "n" reaches isinstance(normalized_shape, numbers.Integral) in torch.nn.modules.normalization.LayerNorm.__init__
        nn.LayerNorm(width)
        nn.LayerNorm(x.shape[-1])  # sizes are static without symbolic_shapes
        nn.LayerNorm([n, n])  # a list takes the sequence branch
        return x


def anywhere(n: torch.SymInt) -> nn.LayerNorm:
    return nn.LayerNorm(normalized_shape=n)  # E: [proxy-isinstance] via normalized_shape, which is False for dynamic number "SymInt"


def partial_of_a_symint(n: torch.SymInt) -> None:
    functools.partial(nn.LayerNorm, n)  # E: [proxy-isinstance] LayerNorm(): argument "n" reaches isinstance(normalized_shape, numbers.Integral)
    norm = functools.partial(nn.LayerNorm, eps=1e-6)
    norm(n)  # E: [proxy-isinstance] LayerNorm(): argument "n" reaches isinstance(normalized_shape, numbers.Integral)
    norm(8)
    # mypy's own partial plugin still checks the call (the plugin's hook answers as it does)
    norm(8, eps="wide")  # E: [arg-type] Argument "eps" to "LayerNorm" has incompatible type "str"
