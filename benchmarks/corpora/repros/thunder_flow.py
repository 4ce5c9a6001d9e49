"""lightning-thunder 0.2.6 operator code on a number parameter, found by the
plugin's traced_functions settings (docs/real-world.md) and confirmed the way
thunder_condition.py confirms its cases: thunder.jit(cache="symbolic values")
called twice with different numbers, compared with eager PyTorch.
"""

from __future__ import annotations

import sys

import torch
import torch.nn.functional as F

from _repro import Case, main, thunder_calls, thunder_crash

X = torch.randn(6, 6)
TARGET = torch.tensor([0, 1, 2, 3, 4, 5])


def chunk(x: torch.Tensor, chunks: int) -> torch.Tensor:
    return torch.chunk(x, chunks)[0]


def cross_entropy(x: torch.Tensor, smoothing: float) -> torch.Tensor:
    return F.cross_entropy(x, TARGET, label_smoothing=smoothing)


def integer_baddbmm(x: torch.Tensor, beta: int) -> torch.Tensor:
    batch = x.unsqueeze(0).int()
    return torch.baddbmm(batch, batch, batch, beta=beta)


CASES = [
    Case("chunk_chunks_one", "thunder/torch/__init__.py:1048",
         lambda: thunder_calls(chunk, [(X, 1), (X, 2)])),
    Case("cross_entropy_label_smoothing_check", "thunder/torch/__init__.py:5195",
         lambda: thunder_calls(cross_entropy, [(X, 0.1), (X, 1.5)])),
    Case("baddbmm_integer_beta", "thunder/torch/__init__.py:4582",
         lambda: thunder_crash(integer_baddbmm, (X, 1), "thunder/torch/__init__.py:4582")),
]

if __name__ == "__main__":
    sys.exit(main(CASES))  # type: ignore[arg-type]
