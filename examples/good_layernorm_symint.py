"""The LayerNorm shape check from bad_layernorm_symint.py, fixed.

Checking against the dynamic class as well (or with is_dynamic_number) keeps
the symbolic size symbolic instead of mistaking it for a sequence.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch


def normalized_shape_of(size: int | torch.SymInt | Sequence[int]) -> tuple[object, ...]:
    if isinstance(size, (int, torch.SymInt)):
        return (size,)
    return tuple(size)


def hidden_width(width: torch.SymInt) -> torch.SymInt:
    return width  # keep it symbolic; the caller decides when to specialize


if __name__ == "__main__":
    from torch.fx.experimental.symbolic_shapes import ShapeEnv

    print(normalized_shape_of(ShapeEnv().create_unbacked_symint()))
