"""Numbers read from tensor data (symbolic_shapes): data-dependent when traced."""

from __future__ import annotations

import numbers

import torch


def conditions(x: torch.Tensor) -> torch.Tensor:
    if x.sum().item() > 0:  # E: [proxy-specialize] Condition on a comparison of dynamic number "SymInt | SymFloat" installs a guard
        return x + 1
    total = x.sum().item()
    torch._check(total > 0)  # what torch asks for: no branch
    positive = total >= 0
    if x.shape[0] > 2:  # a size has a traced value to order by: a range guard
        pass
    scale = int(x.max().item())  # E: [proxy-specialize] int() installs a guard on dynamic number "SymInt | SymFloat"
    count = x.sum().item()
    while count < 10:  # E: [proxy-specialize] (reason: "x.sum().item()" is read from tensor data
        count = count + 1
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
