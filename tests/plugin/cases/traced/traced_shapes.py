"""Tensor sizes under symbolic_shapes (in functions that are not traced)."""

from __future__ import annotations

import numbers

import torch


def sizes(x: torch.Tensor, size: torch.Size, xs: list[int]) -> None:
    isinstance(x.shape[-1], numbers.Integral)  # E: [proxy-isinstance] isinstance() against static number classes (numbers.Integral) misclassifies dynamic number "SymInt"; use proxy_types.is_static_number() / is_dynamic_number() or include proxy_types.NumberClasses (fails under make_fx, export) (reason: "x.shape" is a tensor size, symbolic under dynamic shapes (symbolic_shapes))
    int(x.size(0))  # E: [proxy-specialize] int() installs a guard on dynamic number "SymInt": sound, but the program is specialized on its traced value; use proxy_types.to_static() to make the conversion explicit (reason: "x.size(0)" is a tensor size
    range(x.size()[1])  # E: [proxy-specialize] (reason: "x.size()" is a tensor size
    range(x.numel())  # E: [proxy-specialize] (reason: "x.numel()"
    range(x.stride()[0])  # E: [proxy-specialize] (reason: "x.stride()"
    range(x.stride(1))  # E: [proxy-specialize] (reason: "x.stride(1)"
    float(x.storage_offset())  # E: [proxy-specialize] float() installs a guard on dynamic number "SymInt"
    range(size[0])  # E: [proxy-specialize] (reason: "size" is a tensor size
    batch, channels = x.shape[:2]
    range(channels)  # E: [proxy-specialize] (reason: "x.shape"
    if x.shape[0] == 3:  # E: [proxy-specialize] Condition on a comparison of dynamic number "SymInt"
        pass
    if x.shape[0] > 3 or x.shape[0] == 1 or x.numel() == 0:  # torch guards these anyway
        pass
    xs[x.shape[0]]  # E: [proxy-specialize] indexing list
    for dim in x.shape:
        range(dim)  # E: [proxy-specialize] range()
    range(x.dim())
    range(x.ndim)
    range(len(x.shape))
    range(len(xs))


def layer_norm_user(x: torch.Tensor) -> torch.nn.LayerNorm:
    width = x.shape[-1]
    isinstance(width, int)  # E: [proxy-isinstance] (reason: "x.shape" is a tensor size
    return torch.nn.LayerNorm(width)
