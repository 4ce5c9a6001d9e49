"""torch code that turns a symbolic size or scalar into a Python number (int(),
float(), math.*) or branches on it, so symbolic tracing pins it to the traced value.

Each case traces with make_fx(tracing_mode="symbolic") and looks for a guard
that the ShapeEnv recorded at the site and that equates a size expression with a
constant: the graph is then only valid for that one value (a "specialization").
Scalars are made dynamic by computing them from a size, e.g. ``x.shape[0] - 9``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import torch
import torch._decomp.decompositions as decompositions
import torch._refs as refs
import torch._refs.fft
import torch._refs.nn.functional
import torch.nn.functional as F

from _repro import Case, expect_specialization, main

X = torch.randn(10, 6)
IMAGE = torch.randn(2, 3, 16, 12)
VOLUME = torch.randn(1, 2, 10, 8, 6)


def fractional_max_pool2d(x: torch.Tensor) -> torch.Tensor:
    return F.fractional_max_pool2d(x, 2, output_ratio=(0.5, 0.5))


def fractional_max_pool3d(x: torch.Tensor) -> torch.Tensor:
    return F.fractional_max_pool3d(x, 1, output_ratio=(0.5, 0.5, 0.5))


def native_dropout(x: torch.Tensor) -> torch.Tensor:
    return decompositions.native_dropout(x, x.shape[0] * 0.05, True)[0]


def bucketize(x: torch.Tensor, boundaries: torch.Tensor) -> torch.Tensor:
    return refs.bucketize(x, boundaries)


def fft_ortho(x: torch.Tensor) -> torch.Tensor:
    return torch._refs.fft.fft(x, norm="ortho")


def alpha_dropout(x: torch.Tensor) -> torch.Tensor:
    return torch._refs.nn.functional.alpha_dropout(x, x.shape[0] * 0.05, True)


def geometric(x: torch.Tensor) -> torch.Tensor:
    return refs.geometric(x, x.shape[0] * 0.05)


def sub_alpha(x: torch.Tensor) -> torch.Tensor:
    return refs.sub(x, x * 2, alpha=x.shape[0] - 9)  # alpha is 1 for this input


def addmv_beta(x: torch.Tensor) -> torch.Tensor:
    return decompositions.addmv(x[:, 0], x, x[0], beta=x.shape[0] - 10)  # beta is 0 here


def _case(name: str, site: str, fn: Callable[..., torch.Tensor], *args: torch.Tensor) -> Case:
    return Case(name, site, lambda: expect_specialization(fn, args, site))


CASES = [
    _case("fractional_max_pool2d_h", "torch/nn/functional.py:505", fractional_max_pool2d, IMAGE),
    _case("fractional_max_pool2d_w", "torch/nn/functional.py:506", fractional_max_pool2d, IMAGE),
    _case("fractional_max_pool3d_t", "torch/nn/functional.py:621", fractional_max_pool3d, VOLUME),
    _case("fractional_max_pool3d_h", "torch/nn/functional.py:622", fractional_max_pool3d, VOLUME),
    _case("fractional_max_pool3d_w", "torch/nn/functional.py:623", fractional_max_pool3d, VOLUME),
    _case("native_dropout", "torch/_decomp/decompositions.py:1289", native_dropout, X),
    _case("bucketize", "torch/_refs/__init__.py:6378", bucketize, X, torch.arange(8.0)),
    _case("fft_ortho", "torch/_refs/fft.py:50", fft_ortho, X),
    _case("alpha_dropout", "torch/_refs/nn/functional/__init__.py:134", alpha_dropout, X),
    _case("geometric", "torch/_refs/__init__.py:6473", geometric, X),
    _case("sub_alpha", "torch/_refs/__init__.py:1872", sub_alpha, X),
    _case("addmv_beta", "torch/_decomp/decompositions.py:1691", addmv_beta, X),
]

if __name__ == "__main__":
    sys.exit(main(CASES))
