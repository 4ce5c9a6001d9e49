"""Python's random in traced code (symbolic_shapes): make_fx and export draw it once at
trace time and bake the value in, torch.compile(fullgraph=True) cannot trace it
(tests/runtime/test_random_calls_runtime.py).  torch.rand is a graph op."""

from __future__ import annotations

import random as random_module
from random import Random, random, uniform

import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, self_condition: bool) -> None:
        super().__init__()
        self.self_condition = self_condition and random() < 0.5  # built eagerly
        self.scale = random_module.uniform(0.5, 1.5)
        self.generator = Random(0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.self_condition and random() < 0.5:  # E: [proxy-specialize] random() in traced code is drawn once at trace time: make_fx and torch.export bake the value into the traced program, torch.compile(fullgraph=True) cannot trace it; use torch.rand / torch.randint (traced as graph ops) instead
            x = x + 1
        x = x * random_module.uniform(0.5, 1.5)  # E: [proxy-specialize] uniform() in traced code is drawn once at trace time: make_fx and torch.export bake the value into the traced program, torch.compile(fullgraph=True) cannot trace it; use torch.rand / torch.randint (traced as graph ops) instead
        x = x * uniform(0.5, 1.5)  # E: [proxy-specialize] uniform() in traced code is drawn once at trace time: make_fx and torch.export bake the value into the traced program, torch.compile(fullgraph=True) cannot trace it; use torch.rand / torch.randint (traced as graph ops) instead
        x = x[random_module.randint(0, 1):]  # E: [proxy-specialize] randint() in traced code is drawn once at trace time: make_fx and torch.export bake the value into the traced program, torch.compile(fullgraph=True) cannot trace it; use torch.rand / torch.randint (traced as graph ops) instead
        x = x * self.generator.random()  # E: [proxy-specialize] Random.random() in traced code is drawn once at trace time: make_fx and torch.export bake the value into the traced program, torch.compile(fullgraph=True) cannot trace it; use torch.rand / torch.randint (traced as graph ops) instead
        coin = torch.rand(()) < 0.5  # the replacement: drawn per call (an `if` on it is not)
        x = torch.where(coin, x, x + 1)
        x = x + torch.randint(0, 2, ())
        if not torch.compiler.is_compiling():
            x = x * random()  # eager only
        return self.losses(x)

    def losses(self, x: torch.Tensor) -> torch.Tensor:  # called by forward: traced too
        return x * random_module.gauss(0.0, 1.0)  # E: [proxy-specialize] gauss() in traced code is drawn once at trace time: make_fx and torch.export bake the value into the traced program, torch.compile(fullgraph=True) cannot trace it; use torch.rand / torch.randint (traced as graph ops) instead


def untraced_helper(x: torch.Tensor) -> torch.Tensor:
    order = list(range(3))
    random_module.shuffle(order)
    return x * random() + random_module.choice(order)
