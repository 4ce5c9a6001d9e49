"""Helpers that pass a size on: super().__init__, *args and **kwargs."""

from __future__ import annotations

from typing import Any

import torch
from torch import nn


class WideNorm(nn.LayerNorm):
    def __init__(self, width: int, eps: float = 1e-6) -> None:
        super().__init__(width, eps=eps)


def build_norm(*args: Any, **kwargs: Any) -> nn.LayerNorm:
    return nn.LayerNorm(*args, **kwargs)


def build_named(**kwargs: Any) -> nn.LayerNorm:
    return nn.LayerNorm(**kwargs)


def norm_of(width: int, *, eps: float) -> nn.LayerNorm:
    return nn.LayerNorm(width, eps=eps)


def build_after(scale: float, *args: Any) -> nn.LayerNorm:
    return norm_of(*args, eps=scale)


class Base(nn.Module):
    def project(self, x: torch.Tensor, width: int) -> torch.Tensor:
        return nn.LayerNorm(width)(x)


def untyped_norm(width):  # type: ignore[no-untyped-def]
    return nn.LayerNorm(width)
