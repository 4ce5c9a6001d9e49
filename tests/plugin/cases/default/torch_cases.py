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
    # Conversions of torch's Sym types install guards: proxy-specialize, off by default
    # (the specialize group turns it on); math.ceil() of a SymFloat stays symbolic.
    int(n)
    float(f)
    bool(b)
    math.ceil(f)
    range(n)
    xs[n]
    xs[1:n]
    bool(n > 0)
    isinstance(f, float)  # E: [proxy-isinstance] dynamic number "SymFloat"


def conditions(n: torch.SymInt, m: Optional[torch.SymInt], f: torch.SymFloat) -> bool:
    # Conditions on torch's Sym types install guards: proxy-specialize, off by default.
    if n >= 0:
        pass
    while f < 1.0:
        break
    assert n == 3
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
    if 3 < n:
        pass
    if 0 <= n < 10:
        pass
    ok = 3 < n
    print(ok)
