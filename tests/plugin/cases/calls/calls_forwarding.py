"""Sizes passed on by super().__init__, *args and **kwargs, reported at the caller's line."""

from __future__ import annotations

import functools

import torch
from torch import nn

from calls_forwarding_helpers import (
    Base,
    WideNorm,
    build_after,
    build_named,
    build_norm,
    untyped_norm,
)


class Model(Base):
    def __init__(self, x: torch.Tensor) -> None:
        super().__init__()
        self.norm = WideNorm(x.shape[-1])  # built eagerly: a plain int here
        self.other = build_norm(x.shape[-1])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        WideNorm(x.shape[-1])  # E: [proxy-isinstance] WideNorm(): argument "x.shape[-1]" reaches isinstance(normalized_shape, numbers.Integral) in torch.nn.modules.normalization.LayerNorm.__init__ (torch/nn/modules/normalization.py:199) via width -> normalized_shape
        WideNorm(64)
        build_norm(x.shape[-1])  # E: [proxy-isinstance] build_norm(): argument "x.shape[-1]" reaches isinstance(normalized_shape, numbers.Integral) in torch.nn.modules.normalization.LayerNorm.__init__ (torch/nn/modules/normalization.py:199) via *args -> normalized_shape
        build_norm(64, x.shape[-1])  # eps: no sink there
        build_named(normalized_shape=x.shape[-1])  # E: [proxy-isinstance] via **kwargs -> normalized_shape
        build_named(normalized_shape=8, eps=1e-5)
        build_after(1e-5, x.shape[-1])  # E: [proxy-isinstance] via *args -> width -> normalized_shape
        functools.partial(nn.LayerNorm, x.shape[-1])  # E: [proxy-isinstance] LayerNorm(): argument "x.shape[-1]" reaches isinstance(normalized_shape, numbers.Integral)
        functools.partial(nn.LayerNorm, 8, eps=1e-5)
        norm = functools.partial(nn.LayerNorm, eps=1e-6)
        norm(x.shape[-1])  # E: [proxy-isinstance] LayerNorm(): argument "x.shape[-1]" reaches isinstance(normalized_shape, numbers.Integral)
        norm(8)
        functools.partial(build_norm, x.shape[-1])  # E: [proxy-isinstance] build_norm(): argument "x.shape[-1]" reaches
        untyped_norm(x.shape[-1])  # E: [proxy-isinstance] untyped_norm(): argument "x.shape[-1]" reaches isinstance(normalized_shape, numbers.Integral) in torch.nn.modules.normalization.LayerNorm.__init__ (torch/nn/modules/normalization.py:199) via width -> normalized_shape
        untyped_norm(8)
        # not reported: mypy calls no plugin hook for a call through super() (Known gaps)
        super().project(x, x.shape[-1])
        return x
