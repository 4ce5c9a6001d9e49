"""lightning-thunder 0.2.6 operator code on a number parameter, found by the
plugin's traced_functions settings (docs/real-world.md) and confirmed the way
thunder_condition.py confirms its cases: thunder.jit(cache="symbolic values")
called twice with different numbers, compared with eager PyTorch.  thunder's own
operators (thunder.clang.real, thunder.torch.uniform_philox) have no eager twin:
their cases compare cache="symbolic values" with cache="constant values".
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import torch
import torch.nn.functional as F

from _repro import Case, Outcome, main, thunder_calls, thunder_crash, thunder_symbolic_crash

X = torch.randn(6, 6)
EMPTY = torch.randn(0, 3)
TARGET = torch.tensor([0, 1, 2, 3, 4, 5])


def chunk(x: torch.Tensor, chunks: int) -> torch.Tensor:
    return torch.chunk(x, chunks)[0]


def cross_entropy(x: torch.Tensor, smoothing: float) -> torch.Tensor:
    return F.cross_entropy(x, TARGET, label_smoothing=smoothing)


def integer_baddbmm(x: torch.Tensor, beta: int) -> torch.Tensor:
    batch = x.unsqueeze(0).int()
    return torch.baddbmm(batch, batch, batch, beta=beta)


def chunks_of_empty(x: torch.Tensor, chunks: int) -> tuple[torch.Tensor, ...]:
    return torch.chunk(x, chunks)


def select(x: torch.Tensor, index: int) -> torch.Tensor:
    return torch.select(x, 0, index)


def reshape(x: torch.Tensor, rows: int, columns: int) -> torch.Tensor:
    return x.reshape(rows, columns)


def topk_largest(x: torch.Tensor, largest: bool) -> torch.Tensor:
    return torch.topk(x, 2, largest=largest)[0]


def topk_sorted(x: torch.Tensor, sort: bool) -> torch.Tensor:
    return torch.topk(x, 3, sorted=sort)[0]


def both(*runs: Callable[[], Outcome]) -> Outcome:
    """Every run reproduces (two parameters on one line); the first run's outcome."""
    outcomes = [run() for run in runs]
    return Outcome(outcomes[0].kind, " / ".join(outcome.detail for outcome in outcomes))


def convolution(x: torch.Tensor, transposed: bool) -> torch.Tensor:
    return torch.convolution(x.view(1, 1, 6, 6), torch.ones(1, 1, 2, 2), None, [1, 1], [0, 0],
                             [1, 1], transposed, [0, 0], 1)


def randint_low(x: torch.Tensor, low: int) -> torch.Tensor:
    return torch.randint(low, 9, (3,)) + x.sum()


def randint_high(x: torch.Tensor, high: int) -> torch.Tensor:
    return torch.randint(0, high, (3,)) + x.sum()


def integer_baddbmm_alpha(x: torch.Tensor, alpha: int) -> torch.Tensor:
    batch = x.unsqueeze(0).int()
    return torch.baddbmm(batch, batch, batch, beta=1, alpha=alpha)


def conv_same(x: torch.Tensor, stride: int) -> torch.Tensor:
    return F.conv1d(x.unsqueeze(0), torch.ones(2, 6, 3), padding="same", stride=stride)


def uniform_philox_low(x: torch.Tensor, low: float) -> torch.Tensor:
    import thunder.torch as ltorch

    return ltorch.uniform_philox((3,), low, 1.0, device="cpu", dtype=torch.float32,
                                 seed=0, offset=0) + x.sum()


def uniform_philox_high(x: torch.Tensor, high: float) -> torch.Tensor:
    import thunder.torch as ltorch

    return ltorch.uniform_philox((3,), 0.0, high, device="cpu", dtype=torch.float32,
                                 seed=0, offset=0) + x.sum()


def real_of_number(x: torch.Tensor, z: complex) -> torch.Tensor:
    from thunder import clang

    return x * clang.real(z)


def imag_of_number(x: torch.Tensor, z: complex) -> torch.Tensor:
    from thunder import clang

    return x * clang.imag(z)


def take_rows(x: torch.Tensor, row: int) -> torch.Tensor:
    return x[[row, 0]]


def _thunder_only(fn: Callable[..., torch.Tensor], args: tuple[object, ...],
                  site: str) -> Callable[[], Outcome]:
    """thunder's own operators (imported inside ``fn``, once thunder is): no eager twin."""
    return lambda: thunder_symbolic_crash(fn, args, site)


CASES = [
    Case("chunk_chunks_one", "thunder/torch/__init__.py:1048",
         lambda: thunder_calls(chunk, [(X, 1), (X, 2)])),
    Case("cross_entropy_label_smoothing_check", "thunder/torch/__init__.py:5195",
         lambda: thunder_calls(cross_entropy, [(X, 0.1), (X, 1.5)])),
    Case("baddbmm_integer_beta", "thunder/torch/__init__.py:4582",
         lambda: thunder_crash(integer_baddbmm, (X, 1), "thunder/torch/__init__.py:4582")),
    Case("chunk_empty_chunks", "thunder/torch/__init__.py:1044",
         lambda: thunder_calls(chunks_of_empty, [(EMPTY, 2), (EMPTY, 3)])),
    Case("select_negative_index", "thunder/torch/__init__.py:1270",
         lambda: thunder_calls(select, [(X, 1), (X, -1)], grad=True)),
    Case("reshape_minus_one", "thunder/clang/__init__.py:808",
         lambda: thunder_calls(reshape, [(X, 4, -1), (X, -1, 4)], grad=True)),
    Case("topk_largest_sorted", "thunder/clang/__init__.py:1895",
         lambda: both(lambda: thunder_calls(topk_largest, [(X, True), (X, False)]),
                      lambda: thunder_calls(topk_sorted, [(X, True), (X, False)]))),
    Case("convolution_transposed", "thunder/clang/__init__.py:234",
         lambda: thunder_calls(convolution, [(X, False), (X, True)])),
    Case("randint_low", "thunder/core/prims.py:3066",
         lambda: thunder_crash(randint_low, (X, 2), "thunder/core/prims.py:3066")),
    Case("randint_high", "thunder/core/prims.py:3067",
         lambda: thunder_crash(randint_high, (X, 5), "thunder/core/prims.py:3067")),
    Case("baddbmm_integer_alpha", "thunder/torch/__init__.py:4583",
         lambda: thunder_crash(integer_baddbmm_alpha, (X, 2), "thunder/torch/__init__.py:4583")),
    Case("conv_same_stride", "thunder/torch/__init__.py:4728",
         lambda: thunder_calls(conv_same, [(X, 1), (X, 2)], grad=True)),
    Case("uniform_philox_minval", "thunder/core/prims.py:3012",
         _thunder_only(uniform_philox_low, (X, 0.5), "thunder/core/prims.py:3012")),
    Case("uniform_philox_maxval", "thunder/core/prims.py:3013",
         _thunder_only(uniform_philox_high, (X, 0.5), "thunder/core/prims.py:3013")),
    Case("real_of_number", "thunder/core/prims.py:2399",
         _thunder_only(real_of_number, (X, 1 + 2j), "thunder/core/prims.py:2399")),
    Case("imag_of_number", "thunder/core/prims.py:2423",
         _thunder_only(imag_of_number, (X, 1 + 2j), "thunder/core/prims.py:2423")),
    Case("index_list_number", "thunder/clang/__init__.py:558",
         lambda: thunder_calls(take_rows, [(X, 1), (X, 2)])),
]

if __name__ == "__main__":
    sys.exit(main(CASES))  # type: ignore[arg-type]
