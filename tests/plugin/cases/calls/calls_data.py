"""Numbers read from tensor data (symbolic_shapes): data-dependent when traced."""

from __future__ import annotations

import numbers

import torch


def conditions(x: torch.Tensor) -> torch.Tensor:
    if x.sum().item() > 0:  # fails when traced, not reported yet (docs/plugin.md, known gaps)
        return x + 1
    scale = int(x.max().item())  # E: [proxy-specialize] int() installs a guard on dynamic number "SymInt | SymFloat"
    count = x.sum().item()
    isinstance(count, numbers.Number)  # E: [proxy-isinstance] misclassifies dynamic number "SymInt | SymFloat"
    first: int = x.tolist()[0]
    range(first)  # E: [proxy-specialize] (reason: "x.tolist()" is read from tensor data
    if x.dim() == 2:  # dim() is the rank: static
        pass
    return x * scale


class Box:
    def item(self) -> int:
        return 3

    def tolist(self) -> list[int]:
        return [3]


def not_a_tensor(box: Box) -> None:
    int(box.item())
    range(box.tolist()[0])
