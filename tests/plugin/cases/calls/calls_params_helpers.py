"""Helpers the parameter-shape cases (calls_params.py) call: positional-only
parameters, parameters declared ``int | Tensor``, and ``*sizes``."""

from __future__ import annotations

from typing import Any, Union

import torch
from torch import Tensor, nn


def norm_positional(width: int, /) -> nn.LayerNorm:
    return nn.LayerNorm(width)


def norm_second_positional(eps: float, width: int, /, bias: bool = True) -> nn.LayerNorm:
    return nn.LayerNorm(width, eps=eps, bias=bias)


def declared_dynamic_positional(value: torch.SymInt, /) -> int:
    # declared dynamic in checked code: reported here, where the fix goes, not at each call
    return int(value)  # E: [proxy-specialize] int() installs a guard on dynamic number "SymInt"


def scaled(size: int | Tensor) -> int:
    if isinstance(size, int):
        return size * 2
    return size.dim()


def scaled_union(size: Union[int, torch.Tensor]) -> int:
    if isinstance(size, int):
        return size * 2
    elif isinstance(size, torch.Tensor):
        return size.dim()
    raise TypeError(f"not a size: {type(size)}")


def checked_as_either(size: Tensor | int) -> Tensor | int:
    if not isinstance(size, (int, Tensor)):
        raise TypeError(f"not a size: {type(size)}")
    return size


def tensor_then_int(size: Tensor | int) -> int:
    if isinstance(size, Tensor):
        return size.dim()
    elif isinstance(size, int):
        return size * 2
    raise TypeError(f"not a size: {type(size)}")


def tensor_first(size: Tensor | int) -> int:
    if isinstance(size, Tensor):
        return size.dim()
    return size * 2  # a SymInt gets here, and works


def symint_aware(size: int | torch.SymInt | Tensor) -> int | torch.SymInt:
    if isinstance(size, (int, torch.SymInt)):
        return size * 2
    return size.dim()


def symint_declared(size: int | torch.SymInt) -> int:
    # declared dynamic in checked code: reported here, where the fix goes, not at each call
    if isinstance(size, int):  # E: [proxy-isinstance] isinstance() against static number classes (int) misclassifies dynamic number "SymInt"
        return size * 2
    return 0


def norm_last(height: int, width: int) -> nn.LayerNorm:
    return nn.LayerNorm(width)


def norm_of_first(*sizes: Any) -> nn.LayerNorm:
    return nn.LayerNorm(*sizes)


def norm_after(eps: float, *sizes: int) -> nn.LayerNorm:
    return norm_of_first(*sizes)


def counts(*sizes: int) -> int:
    return len(sizes)


def norm_default(height: int, width: int = 4) -> nn.LayerNorm:
    return nn.LayerNorm(width)
