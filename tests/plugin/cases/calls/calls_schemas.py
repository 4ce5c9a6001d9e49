"""Parameters that an aten operator's schema types int/float/bool are static in the
functions registered for it; SymInt and Scalar ones may be dynamic."""

from __future__ import annotations

import torch
from torch._decomp import register_decomposition

aten = torch.ops.aten


@register_decomposition(aten.native_dropout)
def native_dropout(input: torch.Tensor, p: float, train: bool | None) -> torch.Tensor:
    # native_dropout(Tensor input, float p, bool? train): p and train are plain numbers
    if p == 0:
        return input
    return input * float(p)


@register_decomposition([aten.narrow.default])
def narrow(self: torch.Tensor, dim: int, start: int, length: int) -> torch.Tensor:
    # narrow(Tensor(a) self, int dim, SymInt start, SymInt length): dim is static
    range(dim)
    range(start)  # E: [proxy-specialize] range() installs a guard on dynamic number "SymInt"
    return self


@register_decomposition(aten.rot90)
def rot90(a: torch.Tensor, k: int = 1, dims: list[int] = [0, 1]) -> torch.Tensor:
    # rot90(Tensor self, int k=1, int[] dims=[0,1]): every overload types k as int
    for _ in range(k % 4):
        pass
    return a


def not_registered(a: torch.Tensor, k: int) -> torch.Tensor:
    return a
