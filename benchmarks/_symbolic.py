"""Real torch symbolic numbers for the runtime benchmarks (None when torch is absent)."""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple


class SymbolicSubjects(NamedTuple):
    backed_int: Any  # SymInt with a known hint, as dynamo creates for a size
    unbacked_int: Any  # SymInt without a hint, as .item() produces
    backed_float: Any  # SymFloat derived from the backed SymInt
    is_concrete_int: Any  # torch's own "is this int static?" check


def symbolic_subjects() -> SymbolicSubjects | None:
    """Fresh SymInt/SymFloat values from one ``ShapeEnv``; None if torch is not installed."""
    warnings.filterwarnings("ignore", message="Failed to initialize NumPy")
    try:
        from torch._dynamo.source import ConstantSource
        from torch.fx.experimental.symbolic_shapes import ShapeEnv, is_concrete_int
    except ImportError:
        return None
    shape_env = ShapeEnv()
    symbol = shape_env.create_symbol(5, ConstantSource("s0"))
    backed = shape_env.create_symintnode(symbol, hint=5)
    return SymbolicSubjects(
        backed_int=backed,
        unbacked_int=shape_env.create_unbacked_symint(),
        backed_float=backed * 1.5,
        is_concrete_int=is_concrete_int,
    )
