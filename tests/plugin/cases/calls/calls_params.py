"""Sizes passed to parameters that the call-site check used to miss (issue #27):
positional-only ones, ``int | Tensor`` ones, and sizes spread by ``*x.shape`` (into
positional parameters and ``*args``; torch's own ``zeros``/``view`` take them).
Confirmed at run time in tests/runtime/test_cross_call_params_runtime.py."""

from __future__ import annotations

import torch
from torch import nn

from calls_params_helpers import (
    checked_as_either,
    counts,
    declared_dynamic_positional,
    norm_after,
    norm_default,
    norm_last,
    norm_of_first,
    norm_positional,
    norm_second_positional,
    scaled,
    scaled_union,
    symint_aware,
    symint_declared,
    tensor_first,
    tensor_then_int,
)


class PositionalOnly(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        norm_positional(x.shape[-1])  # E: [proxy-isinstance] norm_positional(): argument "x.shape[-1]" reaches isinstance(normalized_shape, numbers.Integral) in torch.nn.modules.normalization.LayerNorm.__init__ (torch/nn/modules/normalization.py:199) via width -> normalized_shape
        norm_positional(4)
        norm_second_positional(1e-5, x.shape[-1])  # E: [proxy-isinstance] norm_second_positional(): argument "x.shape[-1]" reaches isinstance(normalized_shape, numbers.Integral)
        norm_second_positional(x.shape[-1] * 1e-6, 4)  # eps: no sink there
        norm_second_positional(1e-5, 4, x.shape[0] > 1)  # E: [proxy-specialize] argument "bias=..." reaches bias in torch.nn.modules.normalization.LayerNorm.__init__
        norm_second_positional(1e-5, 4, True)
        declared_dynamic_positional(x.shape[0])  # type: ignore[arg-type]  # reported in the callee
        return x


class IntOrTensor(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scaled(x.shape[0])  # E: [proxy-isinstance] scaled(): argument "x.shape[0]" reaches isinstance(size, int) in calls_params_helpers.scaled (calls_params_helpers.py:26) via size, which is False for dynamic number "SymInt"
        scaled_union(x.shape[0])  # E: [proxy-isinstance] scaled_union(): argument "x.shape[0]" reaches isinstance(size, int)
        checked_as_either(x.shape[0])  # E: [proxy-isinstance] checked_as_either(): argument "x.shape[0]" reaches isinstance(size, (int, Tensor))
        tensor_then_int(x.shape[0])  # E: [proxy-isinstance] tensor_then_int(): argument "x.shape[0]" reaches isinstance(size, int)
        scaled(x)
        scaled(4)
        tensor_first(x.shape[0])
        symint_aware(x.shape[0])
        symint_declared(x.shape[0])  # reported in the callee
        return x


class Spread(nn.Module):
    def forward(self, x: torch.Tensor, sizes: list[int]) -> torch.Tensor:
        norm_last(*x.shape)  # E: [proxy-isinstance] norm_last(): argument "*x.shape" reaches isinstance(normalized_shape, numbers.Integral) in torch.nn.modules.normalization.LayerNorm.__init__ (torch/nn/modules/normalization.py:199) via width -> normalized_shape
        norm_last(*x.size())  # E: [proxy-isinstance] norm_last(): argument "*x.size()" reaches
        norm_last(4, *x.shape[1:])  # E: [proxy-isinstance] norm_last(): argument "*x.shape[1:]" reaches
        norm_of_first(*x.shape[-1:])  # E: [proxy-isinstance] norm_of_first(): argument "*x.shape[-1:]" reaches isinstance(normalized_shape, numbers.Integral) in torch.nn.modules.normalization.LayerNorm.__init__ (torch/nn/modules/normalization.py:199) via *sizes -> normalized_shape
        norm_after(1e-5, *x.shape[-1:])  # E: [proxy-isinstance] norm_after(): argument "*x.shape[-1:]" reaches isinstance(normalized_shape, numbers.Integral) in torch.nn.modules.normalization.LayerNorm.__init__ (torch/nn/modules/normalization.py:199) via *sizes -> *sizes -> normalized_shape
        norm_last(*sizes)
        norm_default(*x.shape[:1])  # one item: it fills height only
        norm_default(*x.shape)  # E: [proxy-isinstance] norm_default(): argument "*x.shape" reaches
        # two items: bias=True keeps its default.  The pin in reset_parameters (through
        # the weight's shape) is missed, as for nn.Linear(x.shape[-1], 4)
        nn.Linear(*x.shape[-2:])
        norm_last(*(4, 4))
        counts(*x.shape)
        torch.zeros(*x.shape[1:])
        x.view(*x.shape)
        return x


def built_eagerly(x: torch.Tensor) -> nn.LayerNorm:
    norm_last(*x.shape)  # not traced: no report
    return norm_positional(x.shape[-1])  # not traced: no report
