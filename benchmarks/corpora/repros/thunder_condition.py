"""lightning-thunder 0.2.6 operator code that branches on a traced number
(``if alpha != 1``, ``if p == 0``, ...).

Under thunder.jit(cache="symbolic values") the branch is taken once, at trace
time, on the first call's value; the cached trace is reused for later calls
with other values, which then get the first call's branch: a wrong result.
Cases marked grad need a gradient, because only then does thunder run its own
decomposition of the operator instead of handing the whole call to PyTorch.
"""

from __future__ import annotations

import sys

import torch
import torch.nn.functional as F

from _repro import Case, main, thunder_calls

X = torch.randn(6, 6)
TARGET = torch.tensor([0, 1, 2, 3, 4, 5])


def add(x: torch.Tensor, alpha: float) -> torch.Tensor:
    return torch.add(x, x * 2, alpha=alpha)


def sub(x: torch.Tensor, alpha: float) -> torch.Tensor:
    return torch.sub(x, x * 2, alpha=alpha)


def normalize(x: torch.Tensor, p: float) -> torch.Tensor:
    return F.normalize(x, p)


def cross_entropy(x: torch.Tensor, smoothing: float) -> torch.Tensor:
    return F.cross_entropy(x, TARGET, label_smoothing=smoothing)


def cross_entropy_probabilities(x: torch.Tensor, smoothing: float) -> torch.Tensor:
    return F.cross_entropy(x, x.softmax(1), label_smoothing=smoothing)


def dropout(x: torch.Tensor, p: float) -> torch.Tensor:
    return F.dropout(x, p) + x  # "+ x": the p == 1 result still has a gradient


def dropout_of_zeros(x: torch.Tensor, p: float) -> torch.Tensor:
    # x * 0: the result does not depend on the random mask, so eager and thunder
    # agree for a valid p; x * 0 still needs a gradient, so thunder decomposes dropout
    return F.dropout(x * 0, p) + x


def _calls(fn: object, first: float, second: float, grad: bool = False) -> object:
    return lambda: thunder_calls(fn, [(X, first), (X, second)], grad=grad)  # type: ignore[arg-type]


CASES = [
    Case("add_alpha", "thunder/torch/__init__.py:2285", _calls(add, 1.0, 3.0, grad=True)),
    Case("sub_alpha", "thunder/torch/__init__.py:2601", _calls(sub, 1.0, 3.0)),
    Case("normalize_p_zero", "thunder/torch/__init__.py:4255", _calls(normalize, 2.0, 0.0)),
    Case("normalize_p_inf", "thunder/torch/__init__.py:4257", _calls(normalize, 2.0, float("inf"))),
    Case("normalize_p_minus_inf", "thunder/torch/__init__.py:4259",
         _calls(normalize, 2.0, -float("inf"))),
    Case("normalize_p_even", "thunder/torch/__init__.py:4265", _calls(normalize, 2.0, 1.0)),
    Case("cross_entropy_label_smoothing", "thunder/torch/__init__.py:5167",
         _calls(cross_entropy, 0.0, 0.2)),
    Case("cross_entropy_probabilities_label_smoothing", "thunder/torch/__init__.py:5257",
         _calls(cross_entropy_probabilities, 0.0, 0.2)),
    Case("dropout_p_range", "thunder/torch/__init__.py:5343", _calls(dropout_of_zeros, 0.5, 1.5, grad=True)),
    Case("dropout_p_one", "thunder/torch/__init__.py:5347", _calls(dropout, 1.0, 0.0, grad=True)),
    Case("dropout_p_zero", "thunder/torch/__init__.py:5350", _calls(dropout, 0.0, 1.0, grad=True)),
]

if __name__ == "__main__":
    sys.exit(main(CASES))  # type: ignore[arg-type]
