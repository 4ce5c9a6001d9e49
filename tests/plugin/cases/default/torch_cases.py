from __future__ import annotations

import math
import numbers
from typing import Optional, Sequence, Union

import torch
from proxy_types import NumberClasses, is_static_number


def layer_norm_bug(normalized_shape: Union[int, torch.SymInt, Sequence[int]]) -> None:
    if isinstance(normalized_shape, numbers.Integral):  # E: [proxy-isinstance] (numbers.Integral) misclassifies dynamic number "SymInt"
        pass
    if isinstance(normalized_shape, (int, torch.SymInt)):
        pass
    if isinstance(normalized_shape, NumberClasses):
        pass
    if is_static_number(normalized_shape):
        pass


def conversions(n: torch.SymInt, f: torch.SymFloat, b: torch.SymBool, xs: list[int]) -> None:
    int(n)  # E: [proxy-concretize] int() turns dynamic number "SymInt"
    float(f)  # E: [proxy-concretize] float() turns dynamic number "SymFloat"
    bool(b)  # E: [proxy-concretize] bool() turns dynamic number "SymBool"
    math.ceil(f)  # E: [proxy-concretize] math.ceil()
    range(n)  # E: [proxy-concretize] range() turns dynamic number "SymInt"
    xs[n]  # E: [proxy-concretize] indexing list turns dynamic number "SymInt"
    xs[1:n]  # E: [proxy-concretize] indexing list turns dynamic number "SymInt"
    bool(n > 0)  # E: [proxy-concretize] bool() turns dynamic number "SymInt"
    isinstance(f, float)  # E: [proxy-isinstance] dynamic number "SymFloat"


def conditions(n: torch.SymInt, m: Optional[torch.SymInt], f: torch.SymFloat) -> bool:
    if n >= 0:  # E: [proxy-concretize] Condition on a comparison of dynamic number "SymInt"
        pass
    while f < 1.0:  # E: [proxy-concretize] dynamic number "SymFloat"
        break
    assert n == 3  # E: [proxy-concretize] dynamic number "SymInt"
    ok = n >= 0
    if m is not None:
        pass
    return ok


def static_only(x: int, t: torch.Tensor) -> None:
    isinstance(x, int)
    int(x)
    if x > 0:
        pass
    t.size(0)


def reflected(n: Union[int, torch.SymInt]) -> None:
    if 3 < n:  # E: [proxy-concretize] Condition on a comparison of dynamic number "SymInt"
        pass
    if 0 <= n < 10:  # E: [proxy-concretize] Condition on a comparison of dynamic number "SymInt"
        pass
    ok = 3 < n
    print(ok)
