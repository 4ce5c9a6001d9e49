"""len() of a tensor in traced code (symbolic_shapes); builtin min()/max() over sizes are
no sinks: export and torch.compile keep them symbolic, make_fx guards only their order
(tests/runtime/test_sink_rules_runtime.py)."""

from __future__ import annotations

import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, x: torch.Tensor) -> None:
        super().__init__()
        self.width = min(x.shape[0], x.shape[1])  # built eagerly: plain ints
        self.rows = len(x)

    def forward(self, x: torch.Tensor, rows: list[int]) -> torch.Tensor:
        x.new_zeros(len(x))  # E: [proxy-specialize] len() of a tensor (its first size, as an int) installs a guard on dynamic number "SymInt"
        x.new_zeros(min(x.shape[0], x.shape[1]))
        x.new_zeros(max(x.shape) + min(x.shape[0], 4))
        range(min(x.shape[0], 4))  # E: [proxy-specialize] range() installs a guard on dynamic number "SymInt"
        x.new_zeros(torch.sym_min(x.shape[0], x.shape[1]))
        x.new_zeros(len(rows) + min(rows) + max(3, 4))
        if not torch.compiler.is_compiling():
            len(x)  # eager only
        return x


def not_traced(x: torch.Tensor) -> int:
    return len(x) + min(x.shape[0], 3)
