"""User helpers the cross-call cases call: their summaries come from this file."""

from __future__ import annotations

import numbers

import torch
from torch import nn


def make_norm(width: int) -> nn.LayerNorm:
    return nn.LayerNorm(width)


def make_norm_twice_removed(width: int) -> nn.LayerNorm:
    scaled = width * 2
    return make_norm(scaled)


def is_integral(value: int) -> bool:
    return isinstance(value, numbers.Integral)


def handles_symints(value: int) -> bool:
    if isinstance(value, torch.SymInt):
        return False
    return isinstance(value, int)


def as_index(value: int) -> int:
    return int(value)


def only_formats(value: int) -> str:
    return f"{value:d}" if value is None else "width"
