"""Helpers the parameter-shape cases (calls_params.py) call: positional-only
parameters, parameters declared ``int | Tensor``, and ``*sizes``."""

from __future__ import annotations

from typing import Union

import torch
from torch import Tensor, nn


def norm_positional(width: int, /) -> nn.LayerNorm:
    return nn.LayerNorm(width)


def norm_second_positional(eps: float, width: int, /, bias: bool = True) -> nn.LayerNorm:
    return nn.LayerNorm(width, eps=eps, bias=bias)


def declared_dynamic_positional(value: torch.SymInt, /) -> int:
    # declared dynamic in checked code: reported here, where the fix goes, not at each call
    return int(value)  # E: [proxy-specialize] int() installs a guard on dynamic number "SymInt"
