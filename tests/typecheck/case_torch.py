"""torch's SymInt/SymFloat/SymBool with proxy_types, on real symbolic values.

The stubs never import torch: ``to_static`` and ``check`` recognize the Sym
types by shape.  Runs under mypy, pyright and python (tests/test_stubs.py,
skipped without torch).
"""

from __future__ import annotations

import torch
from torch._dynamo.source import ConstantSource
from torch.fx.experimental.symbolic_shapes import ShapeEnv
from typing_extensions import assert_type

from proxy_types import ConcretizationError, IntegerProxy, check, is_dynamic_number, is_static_number, to_static

shape_env = ShapeEnv()
size = shape_env.create_symintnode(shape_env.create_symbol(5, ConstantSource("s0")), hint=5)
unbacked = shape_env.create_unbacked_symint()


def as_symint(x: object) -> torch.SymInt:
    assert isinstance(x, torch.SymInt)
    return x


def as_symfloat(x: object) -> torch.SymFloat:
    assert isinstance(x, torch.SymFloat)
    return x


def as_symbool(x: object) -> torch.SymBool:
    assert isinstance(x, torch.SymBool)
    return x


n = as_symint(size)
half = as_symfloat(
    shape_env.create_symfloatnode(shape_env.create_unspecified_symbol(2.5, ConstantSource("f0")), hint=2.5)
)
is_five = as_symbool(n == 5)

assert assert_type(to_static(n), int) == 5
assert assert_type(to_static(half), float) == 2.5
assert assert_type(to_static(is_five), bool) is True
check(is_five, "size must be 5")

try:
    to_static(as_symint(unbacked))
    raise AssertionError("an unbacked SymInt has no value to specialize on")
except ConcretizationError:
    pass


def kind(x: int | torch.SymInt | IntegerProxy) -> str:
    if is_static_number(x):
        assert_type(x, int)
        return "static"
    # The stubs do not know torch, so only is_static_number removes int.
    assert_type(x, "torch.SymInt | IntegerProxy")
    return "dynamic" if is_dynamic_number(x) else "unknown"


assert [kind(5), kind(n), kind(IntegerProxy("i"))] == ["static", "dynamic", "dynamic"]
