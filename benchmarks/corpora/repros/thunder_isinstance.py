"""lightning-thunder 0.2.6 operator code that asks isinstance(x, float / Number /
(bool, int, float, complex)) of a number that is a NumberProxy inside thunder.jit.

NumberProxy does not subclass the Python number types, so these checks treat
every traced number as "not a number" (or "not a float").
"""

from __future__ import annotations

import sys

import torch

from _repro import Case, main, thunder_calls, thunder_crash


def arange_dtype(end: float) -> torch.Tensor:
    # arange(0, 3.5) is float32 in PyTorch; thunder infers int64 for a FloatProxy end
    # (its result happens to be right, the trace's dtype is not) and branches on it
    values = torch.arange(0, end)
    return values * (2 if values.is_floating_point() else 3)


def tensor_from_number(value: float) -> torch.Tensor:
    return torch.tensor(value)


def tensor_from_list(value: float) -> torch.Tensor:
    return torch.tensor([value, value])


CASES = [
    Case("arange_float", "thunder/torch/__init__.py:588",
         lambda: thunder_calls(arange_dtype, [(3.5,), (4.5,)])),
    Case("tensor_number", "thunder/torch/__init__.py:690",
         lambda: thunder_crash(tensor_from_number, (2.5,), "thunder/torch/__init__.py:691")),
    Case("tensor_from_sequence", "thunder/core/prims.py:3146",
         lambda: thunder_crash(tensor_from_list, (2.5,), "thunder/core/prims.py:3145")),
]

if __name__ == "__main__":
    sys.exit(main(CASES))
