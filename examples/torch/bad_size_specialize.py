"""torch.compile(dynamic=True) traces tensor sizes as SymInts.  A Python loop over
range(size) installs a guard on the size and unrolls the loop: the compiled program
is specialized on the size seen, and each new size compiles again.  Checked with the
torch-compile preset (proxy-types init --preset torch-compile), which shows
proxy-specialize."""

from __future__ import annotations

import torch


def column_total(x: torch.Tensor) -> torch.Tensor:
    total = torch.zeros(x.shape[0])
    for column in range(x.shape[1]):  # expect: proxy-specialize
        total = total + x[:, column]
    return total
