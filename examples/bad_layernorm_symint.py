# mypy: enable-error-code="proxy-specialize"
"""torch.nn.LayerNorm's shape check, which fails for a symbolic size.

LayerNorm(x.shape[-1]) under symbolic tracing passes a torch.SymInt.  A SymInt
is not a numbers.Integral, so the size is treated as a sequence and
tuple(size) raises TypeError.  int(width) works, but installs a guard that
specializes the program (proxy-specialize, off unless enabled, as at the top).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import torch


def normalized_shape_of(size: int | torch.SymInt | Sequence[int]) -> tuple[object, ...]:
    if isinstance(size, numbers.Integral):  # expect: proxy-isinstance
        return (size,)
    return tuple(size)  # type: ignore[arg-type]  # as in torch: "int is Integral"


def hidden_width(width: torch.SymInt) -> int:
    return int(width)  # expect: proxy-specialize


if __name__ == "__main__":
    from torch.fx.experimental.symbolic_shapes import ShapeEnv

    symbolic_width = ShapeEnv().create_unbacked_symint()
    try:
        print(normalized_shape_of(symbolic_width))
    except TypeError as error:
        print("LayerNorm-style check failed:", error)
