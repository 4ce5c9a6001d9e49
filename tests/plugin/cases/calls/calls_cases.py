"""Arguments reaching sinks inside the callee, reported at the caller's line."""

from __future__ import annotations

import torch
from torch import nn

from calls_helpers import (
    as_index,
    checks_only_eagerly,
    checks_outside_scripting,
    checks_when_compiling,
    declared_dynamic,
    forwards_to_declared,
    handles_symints,
    is_integral,
    make_norm,
    make_norm_twice_removed,
    only_formats,
)


class Model(nn.Module):
    def __init__(self, x: torch.Tensor, width: int) -> None:
        super().__init__()
        # constructors are not traced: a size here is a plain int at run time
        self.norm = nn.LayerNorm(x.shape[-1])
        self.static = nn.LayerNorm(width)

    def forward(self, x: torch.Tensor, n: torch.SymInt) -> torch.Tensor:
        torch.nn.LayerNorm(n)  # E: [proxy-isinstance] LayerNorm(): argument "n" reaches isinstance(normalized_shape, numbers.Integral) in torch.nn.modules.normalization.LayerNorm.__init__ (torch/nn/modules/normalization.py:
        nn.LayerNorm(x.shape[-1])  # E: [proxy-isinstance] LayerNorm(): argument "x.shape[-1]" reaches isinstance(normalized_shape, numbers.Integral) in torch.nn.modules.normalization.LayerNorm.__init__
        nn.LayerNorm(normalized_shape=n)  # E: [proxy-isinstance] via normalized_shape, which is False for dynamic number "SymInt"
        nn.LayerNorm(64)
        nn.LayerNorm((x.shape[-2], x.shape[-1]))  # a tuple takes the other branch
        make_norm(n)  # E: [proxy-isinstance] make_norm(): argument "n" reaches isinstance(normalized_shape, numbers.Integral) in torch.nn.modules.normalization.LayerNorm.__init__ (torch/nn/modules/normalization.py:199) via width -> normalized_shape  # E: [arg-type]
        make_norm(x.shape[-1])  # E: [proxy-isinstance] via width -> normalized_shape
        make_norm_twice_removed(x.shape[-1])  # E: [proxy-isinstance] via width -> width -> normalized_shape
        make_norm(8)
        declared_dynamic(n)  # reported inside the helper, which declares it dynamic
        forwards_to_declared(x.shape[0])  # reported where the sink's function declares it
        as_index(n)  # E: [proxy-specialize] as_index(): argument "n" reaches int(value) in calls_helpers.as_index  # E: [arg-type]
        is_integral(x.shape[0])  # E: [proxy-isinstance] is_integral(): argument "x.shape[0]" reaches isinstance(value, numbers.Integral) in calls_helpers.is_integral
        handles_symints(x.shape[0])
        as_index(x.shape[0])  # E: [proxy-specialize] as_index(): argument "x.shape[0]" reaches int(value) in calls_helpers.as_index (
        only_formats(x.shape[0])
        checks_only_eagerly(x.shape[0])
        checks_when_compiling(x.shape[0])  # E: [proxy-specialize] checks_when_compiling(): argument "x.shape[0]" reaches int(value)
        checks_outside_scripting(x.shape[0])
        if not torch.compiler.is_compiling():
            nn.LayerNorm(x.shape[-1])  # eager only
        else:
            nn.LayerNorm(x.shape[-1])  # E: [proxy-isinstance] LayerNorm(): argument "x.shape[-1]"
        if torch.jit.is_scripting():
            make_norm(x.shape[-1])  # TorchScript only
        self.helper(x)
        return x

    def helper(self, x: torch.Tensor) -> None:
        # reached from forward: traced too
        make_norm(x.shape[1])  # E: [proxy-isinstance] via width -> normalized_shape


def not_traced(x: torch.Tensor) -> nn.LayerNorm:
    # no entry point reaches it: its sizes are plain ints at run time
    return make_norm(x.shape[-1])


def declared(n: torch.SymInt) -> nn.LayerNorm:
    # a declared SymInt is dynamic wherever it is
    return nn.LayerNorm(n)  # E: [proxy-isinstance] LayerNorm(): argument "n"
