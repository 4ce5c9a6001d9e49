"""numpy's random numbers in traced code (symbolic_shapes): make_fx and export call numpy
once at trace time and bake the value in, torch.compile(fullgraph=True) fails
(tests/runtime/test_numpy_random_runtime.py).  torch.rand is a graph op."""

from __future__ import annotations

import numpy as np
from numpy.random import default_rng, rand

import torch
from torch import nn


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.scale = float(np.random.uniform(0.5, 1.5))  # built eagerly
        self.rng = np.random.default_rng(0)
        self.state = np.random.RandomState(0)
        self.order = np.random.permutation(4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x * float(np.random.rand())  # E: [proxy-specialize] np.random.rand() in traced code is drawn once at trace time
        x = x * rand()  # E: [proxy-specialize] np.random.rand() in traced code
        x = x[: int(np.random.randint(1, 3))]  # E: [proxy-specialize] np.random.randint() in traced code
        x = x * float(np.random.default_rng().random())  # E: [proxy-specialize] Generator.random() in traced code
        x = x * float(self.rng.integers(0, 4))  # E: [proxy-specialize] Generator.integers() in traced code
        x = x * float(default_rng(1).normal())  # E: [proxy-specialize] Generator.normal() in traced code
        x = x * float(self.state.uniform())  # E: [proxy-specialize] RandomState.uniform() in traced code
        x = x * torch.rand(()) + float(np.random.default_rng(0).bit_generator.state["state"]["state"])
        if not torch.compiler.is_compiling():
            x = x * float(np.random.rand())  # eager only
        return x * float(np.pi)


def untraced_helper(x: torch.Tensor) -> torch.Tensor:
    return x * float(np.random.rand()) * float(np.random.default_rng().random())
