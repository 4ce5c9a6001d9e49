"""What torch's ShapeEnv does that the plugin's condition rules rely on
(mypy_plugin/analysis/decided.py, checks/comparisons.py; docs/real-world.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

torch = pytest.importorskip("torch")
from torch._dynamo.source import ConstantSource  # noqa: E402
from torch.fx.experimental.symbolic_shapes import DimDynamic, ShapeEnv  # noqa: E402

if TYPE_CHECKING:
    from torch import Tensor
else:  # TorchScript reads the annotation of _scripting_flag at run time
    Tensor = torch.Tensor


def dynamic_int(shape_env: Any, name: str, value: int) -> Any:
    """A SymInt with no size assumptions (as torch.compile makes of an int argument)."""
    symbol = shape_env.create_symbol(value, ConstantSource(name), dynamic_dim=DimDynamic.DYNAMIC,
                                     positive=None)
    return shape_env.create_symintnode(symbol, hint=value)


def dynamic_float(shape_env: Any, name: str, value: float) -> Any:
    symbol = shape_env.create_unspecified_symbol(value, ConstantSource(name),
                                                 dynamic_dim=DimDynamic.DYNAMIC)
    return shape_env.create_symfloatnode(symbol, hint=value)


def guards(shape_env: Any) -> list[str]:
    return [str(guard.expr) for guard in shape_env.guards]


@pytest.mark.parametrize("value", [3, 4, 5])
def test_a_repeated_comparison_adds_no_guard(value: int) -> None:
    shape_env = ShapeEnv()
    p = dynamic_int(shape_env, "p", value)
    symbol = p.node.expr
    torch._check(p == 3 or p == 4 or p == 5)
    first = guards(shape_env)
    assert f"Eq({symbol}, {value})" in first  # the first test pins p
    assert bool(p == 3) == (value == 3) and bool(p != 3) == (value != 3)
    assert guards(shape_env) == first


def test_a_membership_test_compares_its_first_item_first() -> None:
    shape_env = ShapeEnv()
    ord = dynamic_int(shape_env, "ord", 2)
    symbol = ord.node.expr
    assert ord in (2, 1, 7)
    first = guards(shape_env)
    assert first == [f"Eq({symbol}, 2)"]
    assert bool(ord == 2)
    assert guards(shape_env) == first


def test_a_repeated_conversion_adds_no_guard() -> None:
    shape_env = ShapeEnv()
    scale = dynamic_float(shape_env, "scale", 3.0)
    assert int(scale) == scale
    first = guards(shape_env)
    assert first
    assert int(scale) == 3
    assert guards(shape_env) == first


def test_a_new_comparison_is_a_new_guard() -> None:
    shape_env = ShapeEnv()
    p = dynamic_int(shape_env, "p", 2)
    assert not bool(p == 1)
    first = guards(shape_env)
    assert bool(p == 2)
    assert len(guards(shape_env)) > len(first) or guards(shape_env) != first


def test_a_check_that_allows_one_value_pins_only_that_value() -> None:
    """``if two != 2: raise``: the guard pins the value the code accepts, and any
    other value raises, traced or not: the guard specializes nothing away."""
    def last_dimension_two(two: Any) -> Any:
        if two != 2:
            raise ValueError("must be 2")
        return two * 3

    shape_env = ShapeEnv()
    two = dynamic_int(shape_env, "two", 2)
    symbol = two.node.expr
    assert last_dimension_two(two) == 6
    assert guards(shape_env) == [f"Eq({symbol}, 2)"]
    other = dynamic_int(ShapeEnv(), "other", 5)
    with pytest.raises(ValueError):
        last_dimension_two(other)
    with pytest.raises(ValueError):
        last_dimension_two(5)


def test_a_size_is_never_negative_so_a_sentinel_test_adds_no_guard() -> None:
    shape_env = ShapeEnv()
    symbol = shape_env.create_symbol(5, ConstantSource("size"))  # a tensor size
    size = shape_env.create_symintnode(symbol, hint=5)
    assert not bool(size == -1) and bool(size != -1) and not bool(size - 2 == -1)
    assert guards(shape_env) == []
    scalar = dynamic_int(shape_env, "scalar", 5)  # no size: the test is a guard
    assert bool(scalar != -1)
    assert guards(shape_env) == [f"Ne({scalar.node.expr}, -1)"]


def test_a_check_that_rejects_one_value_leaves_the_others_symbolic() -> None:
    """``torch._check(split_size != 0)``: where it passes, the guard is a ``Ne``."""
    shape_env = ShapeEnv()
    split_size = dynamic_int(shape_env, "split_size", 3)
    symbol = split_size.node.expr
    torch._check(split_size != 0)
    assert guards(shape_env) == [f"Ne({symbol}, 0)"]
    assert (split_size * 2).node.expr.free_symbols == {symbol}  # still symbolic


@pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated:DeprecationWarning")
def test_is_scripting_is_false_while_tracing() -> None:
    from torch.fx.experimental.proxy_tensor import make_fx

    seen: list[bool] = []

    def traced(x: Any) -> Any:
        seen.append(torch.jit.is_scripting())
        return x * 2

    make_fx(traced, tracing_mode="symbolic")(torch.ones(3, 2))
    assert seen == [False]
    assert torch.jit.script(_scripting_flag)(torch.ones(1)) is True


def _scripting_flag(x: Tensor) -> bool:
    flag: bool = torch.jit.is_scripting()
    return flag
