"""torch code that branches on a number parameter of a traced function, found by
the plugin's traced_functions settings (docs/real-world.md) and confirmed the way
torch_specializes.py confirms its cases: make_fx(tracing_mode="symbolic") records
a guard at the site that equates the symbolic value with a constant.

The scalar is made dynamic by computing it from a size (``x.shape[0] - 10``, with
``x.shape[0] == 10``), chosen so that the compared constant is hit.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import torch
import torch._decomp.decompositions as decompositions
import torch._refs as refs
import torch._refs.linalg
import torch._refs.nn.functional

from _repro import Case, expect_specialization, main

X = torch.randn(10, 6)


def pdist(x: torch.Tensor) -> torch.Tensor:
    return torch._refs.nn.functional.pdist(x, p=x.shape[0] - 8)  # p == 2


def vector_norm(x: torch.Tensor) -> torch.Tensor:
    return torch._refs.linalg.vector_norm(x, ord=x.shape[0] - 10)  # ord == 0


def dropout(x: torch.Tensor) -> torch.Tensor:
    return decompositions.dropout(x, x.shape[0] - 10, True)  # p == 0


def upsample(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.Upsample(scale_factor=x.shape[0] * 0.2)(x.reshape(1, 1, 10, 6))


def group_norm(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.GroupNorm(2, x.shape[1])(x)  # 6 channels: divisible by 2 groups


def conv_groups(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.Conv1d(x.shape[1], 4, 1, groups=2)(x.T.unsqueeze(0))


def round_decimals(x: torch.Tensor) -> torch.Tensor:
    return refs.round(x, decimals=x.shape[0] - 10)  # decimals == 0


def rot90(x: torch.Tensor) -> torch.Tensor:
    return refs.rot90(x, k=x.shape[0] - 9)  # k == 1


def smooth_l1_loss(x: torch.Tensor) -> torch.Tensor:
    return torch._refs.nn.functional.smooth_l1_loss(x, x * 2, beta=x.shape[0] - 10.0)


def _case(name: str, site: str, fn: Callable[..., torch.Tensor]) -> Case:
    return Case(name, site, lambda: expect_specialization(fn, (X,), site))


CASES = [
    _case("pdist_p", "torch/_refs/nn/functional/__init__.py:1267", pdist),
    _case("vector_norm_ord", "torch/_refs/linalg/__init__.py:157", vector_norm),
    _case("dropout_p", "torch/_decomp/decompositions.py:1272", dropout),
    _case("upsample_scale_factor", "torch/nn/modules/upsampling.py:165", upsample),
    _case("group_norm_channels", "torch/nn/modules/normalization.py:306", group_norm),
    _case("conv_groups", "torch/nn/modules/conv.py:107", conv_groups),
    _case("round_decimals", "torch/_refs/__init__.py:1002", round_decimals),
    _case("rot90_k", "torch/_refs/__init__.py:4168", rot90),
    _case("smooth_l1_loss_beta", "torch/_refs/nn/functional/__init__.py:639", smooth_l1_loss),
]

if __name__ == "__main__":
    sys.exit(main(CASES))
