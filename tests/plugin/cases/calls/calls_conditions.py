"""Conditions in traced code (symbolic_shapes), as torch 2.13 runs them
(tests/runtime/test_sink_rules_runtime.py): equality of a size with a static value
that is no literal pins the size; tensor data as a condition is data-dependent."""

from __future__ import annotations

import math
from typing import Any

import torch
from torch import nn


class Config:
    size: int = 4


def scaled_if_equal(x: torch.Tensor, n: int) -> torch.Tensor:
    if x.shape[1] == n:  # E: [proxy-specialize] Condition on a comparison of dynamic number "SymInt" installs a guard
        return x * 5
    return x


class Static(nn.Module):
    def __init__(self, config: Config, loose: Any) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4, 4))
        self.linear = nn.Linear(4, 4)
        self.config = config
        self.loose = loose
        self.size = config.size
        self.layers = nn.ModuleList([nn.Identity() for _ in range(4)])
        if self.weight.shape[0] == config.size:  # built eagerly: no report
            pass

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        width = x.shape[1]
        if x.shape[1] == self.weight.shape[0]:  # E: [proxy-specialize] Condition on a comparison of dynamic number "SymInt" installs a guard
            x = x * 2
        if width == self.config.size:  # E: [proxy-specialize] Condition on a comparison of dynamic number "SymInt"
            x = x * 3
        if self.linear.weight.shape[1] != width:  # E: [proxy-specialize] Condition on a comparison of dynamic number "SymInt"
            x = x * 3
        if width == len(self.layers):  # E: [proxy-specialize] Condition on a comparison of dynamic number "SymInt"
            x = x * 3
        x = scaled_if_equal(x, self.size)
        if width == x.shape[0]:  # two sizes: a relation, which pins no value
            x = x + 1
        if width > self.size:  # an order: a range guard
            x = x + 1
        if width == self.loose:  # Any: mypy runs no comparison hook for it
            x = x + 1
        for _ in range(self.weight.shape[0]):  # a parameter's size is static
            x = x + 1
        assert x.shape[1] == self.weight.shape[0]  # where it passes, the width is 4 anyway
        if width != self.size:
            raise ValueError("width")
        return x


class DataConditions(nn.Module):
    def __init__(self, x: torch.Tensor) -> None:
        super().__init__()
        if (x > 0).any():  # built eagerly
            pass

    def forward(self, x: torch.Tensor, tol: float) -> torch.Tensor:
        if x.sum() > 0:  # E: [proxy-specialize] Condition on a tensor comparison is data-dependent control flow
            x = x + 1
        if (x > 0).any():  # E: [proxy-specialize] Condition on Tensor.any() is data-dependent control flow
            x = x + 1
        err = x.abs().max()
        while err > tol:  # E: [proxy-specialize] Condition on a tensor comparison is data-dependent
            err = err / 2
        mask = x > 0
        if not mask.all():  # E: [proxy-specialize] Condition on Tensor.all() is data-dependent
            x = x + 1
        assert (x > -100).all()  # E: [proxy-specialize] /^Condition on Tensor.all\(\) is data-dependent .* \(fails under make_fx, export\)$/
        assert x.min() >= -100 and x.max() < 100  # E: [proxy-specialize] /^Condition on a tensor comparison .*traced code$/
        to_drop = torch.zeros(3).uniform_(0, 1) < tol
        if all(to_drop):  # E: [proxy-specialize] Condition on all() of a tensor is data-dependent control flow
            x = x + 1
        if not any(x.sum(1) > 0):  # E: [proxy-specialize] Condition on any() of a tensor is data-dependent
            x = x + 1
        for layer, drop in zip([x, x, x], to_drop):
            if drop:  # E: [proxy-specialize] Condition on an item of a tensor is data-dependent control flow
                continue
            x = x + layer
        for row in x:
            if tol > 0 and not row:  # E: [proxy-specialize] Condition on an item of a tensor
                x = x + 1
        for row in x:
            x = x + row * 2  # items as data: no condition
        for flag, weight in zip([True, False], to_drop):
            if flag:  # a Python bool
                x = x * weight
        kept = torch.all(to_drop)  # a tensor, no condition
        flags = [tol > 0, True]
        if all(flags) and any([tol < 1]):  # Python bools
            x = x * kept
        y = torch.where(x > 0, x, -x)  # no condition: what torch asks for
        if not torch.compiler.is_compiling():
            if (y > 0).all():  # eager only
                pass
        if x.shape[0] > 2:  # a size: no tensor data
            pass
        return y * math.ceil(x.shape[0] / self.size())

    def size(self) -> Any:
        return 4


def not_traced(x: torch.Tensor) -> bool:
    return bool((x > 0).any()) and bool(x.sum() > 0) and all(x > 0)


def ceil_of_sizes(x: torch.Tensor, k: Any) -> int:
    n = x.shape[1]
    return math.ceil(n / k) + math.floor(n / 4) + math.ceil(-n / 4)  # stay symbolic
