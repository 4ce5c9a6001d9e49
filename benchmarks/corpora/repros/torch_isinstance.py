"""torch code that asks isinstance(x, int / float / numbers.*) of a size or scalar
that is a SymInt / SymFloat under symbolic tracing, and crashes for it.

Each case traces a small function with make_fx(tracing_mode="symbolic"): sizes
read from the input are SymInts there.  The same function on real tensors (plain
ints) runs first as the control.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import torch
import torch.nn.functional as F

from _repro import Case, expect_crash, main

X = torch.randn(10, 6)


def layer_norm(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.LayerNorm(x.shape[-1])(x)


def rms_norm(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.RMSNorm(x.shape[-1])(x)


def unflatten(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.Unflatten(1, (x.shape[1] // 2, 2))(x)


def gaussian_nll_loss(x: torch.Tensor) -> torch.Tensor:
    # a scalar variance computed from a size is a SymFloat
    return F.gaussian_nll_loss(x, x * 0.5, 1.0 / x.shape[0])


def assert_int_or_pair(x: torch.Tensor) -> torch.Tensor:
    F.assert_int_or_pair(x.shape[-1], "kernel_size", "{} must be an int or a pair")
    return x


def rnn_dropout(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.RNN(6, 4, num_layers=2, dropout=1.0 / x.shape[0])(x)[0]


def rnn_input_size(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.RNN(x.shape[-1], 4)(x)[0]


def rnn_hidden_size(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.RNN(6, x.shape[-1])(x)[0]


def huber_loss_module(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.HuberLoss(delta=x.shape[0] * 0.1)(x, x * 0.5)


def _case(name: str, fn: Callable[[torch.Tensor], object], site: str, crash_at: str) -> Case:
    """``site`` is the isinstance line; ``crash_at`` the line that then raises."""
    return Case(name, site, lambda: expect_crash(fn, (X,), crash_at))


CASES = [
    _case("layer_norm", layer_norm, "torch/nn/modules/normalization.py:199",
          "torch/nn/modules/normalization.py:202"),
    _case("rms_norm", rms_norm, "torch/nn/modules/normalization.py:402",
          "torch/nn/modules/normalization.py:405"),
    _case("unflatten", unflatten, "torch/nn/modules/flatten.py:116",
          "torch/nn/modules/flatten.py:117"),
    _case("gaussian_nll_loss", gaussian_nll_loss, "torch/nn/functional.py:3340",
          "torch/nn/functional.py:3344"),
    _case("assert_int_or_pair", assert_int_or_pair, "torch/nn/functional.py:6108",
          "torch/nn/functional.py:6108"),
    _case("rnn_dropout", rnn_dropout, "torch/nn/modules/rnn.py:113",
          "torch/nn/modules/rnn.py:117"),
    _case("rnn_input_size", rnn_input_size, "torch/nn/modules/rnn.py:137",
          "torch/nn/modules/rnn.py:138"),
    _case("rnn_hidden_size", rnn_hidden_size, "torch/nn/modules/rnn.py:143",
          "torch/nn/modules/rnn.py:144"),
    _case("huber_loss_module", huber_loss_module, "torch/nn/modules/loss.py:1143",
          "torch/nn/modules/loss.py:1144"),
]

if __name__ == "__main__":
    sys.exit(main(CASES))
