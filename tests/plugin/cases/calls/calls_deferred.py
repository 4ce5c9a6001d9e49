"""Reports in a function mypy defers (its type of `h` is undetermined at first): mypy
checks it again in a later pass, every expression inside one of its trials, and the
calls still carry the types of the first pass (`Any`).  The reports of the final pass
stay; a report of an overload alternative mypy discards still goes."""

from __future__ import annotations

from random import random
from typing import Callable, overload

import torch
from torch import nn


@overload
def apply(check: Callable[[torch.SymInt], str]) -> str: ...
@overload
def apply(check: Callable[[int], bool]) -> int: ...
def apply(check: object) -> object:
    return check


class Model(nn.Module):
    def forward(self, images: torch.Tensor, other):  # type: ignore[no-untyped-def]
        b, c, h = *other.shape, 1  # E: [misc] Invalid type 'Any' for *expr (iterable expected)  # E: [misc] Need more than 1 value to unpack (3 expected)
        assert h == 1  # E: [has-type] Cannot determine type of "h"
        if random() < 0.5:  # E: [proxy-specialize] random() in traced code is drawn once at trace time: make_fx and torch.export bake the value into the traced program, torch.compile(fullgraph=True) cannot trace it; use torch.rand / torch.randint (traced as graph ops) instead
            images = images * 2
        assert random() < 1  # E: [proxy-specialize] random() in traced code
        if len(images) > 2:  # E: [proxy-specialize] len() of a tensor
            images = images + 1
        if torch.tensor([images.shape[0], 3]).sum() > 0:  # E: [proxy-specialize] Condition on a tensor comparison  # E: [proxy-specialize] torch.tensor() of a size
            images = images + 1
        n = int(images.shape[0] * 0.5)  # E: [proxy-specialize] int() installs a guard
        chosen = apply(lambda v: int(v) > 0)  # the SymInt alternative loses: not reported
        images = images.flatten(int(chosen))  # a later hook: settles the trials where mypy has no end-of-module hook
        return images * n
