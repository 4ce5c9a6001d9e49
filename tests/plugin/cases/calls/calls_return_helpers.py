"""Helpers whose return values the return cases use: their summaries come from this file."""

from __future__ import annotations

import torch
from torch import nn


def rows(x: torch.Tensor) -> int:
    return x.shape[0]


def last_two(x: torch.Tensor) -> list[int]:
    height, width = x.shape[-2:]
    return [height, width]


def scaled(n: int) -> int:
    doubled = n * 2
    return doubled + 1


def first(sizes: list[int]) -> int:
    return sizes[0]


def rows_via_helper(x: torch.Tensor) -> int:
    return scaled(rows(x))


def total(x: torch.Tensor) -> float:
    return x.sum().item()


def untyped_rows(x: torch.Tensor):  # type: ignore[no-untyped-def]
    return x.size(0)


def count(items: list[torch.Tensor]) -> int:
    return len(items)  # a static number: how many tensors


def pinned(x: torch.Tensor) -> int:
    # the guard is here, reported here; the value returned is a plain int
    return int(x.shape[0])  # E: [proxy-specialize] int() installs a guard


def as_tensor(x: torch.Tensor) -> torch.Tensor:
    return x.new_zeros(x.shape[0])


class Shapes:
    def height(self, x: torch.Tensor) -> int:
        return x.shape[-2]


def eight(n: int) -> int:
    return 8


def norm_of_scaled(width: int) -> nn.LayerNorm:
    return nn.LayerNorm(scaled(width))


def norm_of_eight(width: int) -> nn.LayerNorm:
    return nn.LayerNorm(eight(width))
