"""Entry points besides forward(): compiled, exported and listed functions."""

from __future__ import annotations

import torch
from torch import nn
from torch.fx.experimental.proxy_tensor import make_fx

from calls_helpers import make_norm


@torch.compile
def compiled(x: torch.Tensor) -> torch.Tensor:
    make_norm(x.shape[-1])  # E: [proxy-isinstance] make_norm(): argument "x.shape[-1]"
    return x


@torch.compile(dynamic=True)
def compiled_with_options(x: torch.Tensor) -> torch.Tensor:
    make_norm(x.shape[-1])  # E: [proxy-isinstance] make_norm(): argument "x.shape[-1]"
    return x


def passed_to_make_fx(x: torch.Tensor) -> torch.Tensor:
    helper_of_passed(x)
    return x


def helper_of_passed(x: torch.Tensor) -> None:
    nn.LayerNorm(x.shape[-1])  # E: [proxy-isinstance] LayerNorm(): argument "x.shape[-1]"


def listed_in_traced_functions(x: torch.Tensor) -> None:
    nn.LayerNorm(x.shape[-1])  # E: [proxy-isinstance] LayerNorm(): argument "x.shape[-1]"


def never_traced(x: torch.Tensor) -> None:
    nn.LayerNorm(x.shape[-1])


traced = make_fx(passed_to_make_fx, tracing_mode="symbolic")
