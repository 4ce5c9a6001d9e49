"""proxy_types with real torch SymInt / SymFloat / SymBool."""

from __future__ import annotations

import numbers
from typing import Any

import pytest

torch = pytest.importorskip("torch")
from torch._dynamo.source import ConstantSource  # noqa: E402
from torch.fx.experimental.symbolic_shapes import ShapeEnv  # noqa: E402

from proxy_types import (  # noqa: E402
    CheckError,
    ConcretizationError,
    DynamicNumber,
    NumberClasses,
    check,
    external_isinstance,
    is_dynamic_number,
    is_static_number,
    to_static,
    trace,
)


def backed_symint(shape_env: Any, name: str, hint: int) -> Any:
    symbol = shape_env.create_symbol(hint, ConstantSource(name))
    return shape_env.create_symintnode(symbol, hint=hint)


def test_sym_types_are_dynamic_not_static() -> None:
    shape_env = ShapeEnv()
    n = backed_symint(shape_env, "n", 5)
    values = [n, n * 1.5, n > 2, shape_env.create_unbacked_symint()]
    assert [type(v).__name__ for v in values] == ["SymInt", "SymFloat", "SymBool", "SymInt"]
    for value in values:
        assert is_dynamic_number(value)
        assert not is_static_number(value)
        assert isinstance(value, DynamicNumber)
        assert isinstance(value, NumberClasses)
    # torch's own view (the LayerNorm failure): a SymInt is no numbers.Integral.
    assert not isinstance(n, numbers.Integral)
    assert external_isinstance(n, numbers.Integral) and external_isinstance(n > 2, bool)
    assert external_isinstance(n * 1.5, float) and not external_isinstance(n * 1.5, int)


def test_to_static_guards_in_torchs_shape_env() -> None:
    shape_env = ShapeEnv()
    n = backed_symint(shape_env, "n", 5)
    before = len(shape_env.guards)
    with trace() as t:
        assert to_static(n) == 5
        assert to_static(n * 0.5) == 2.5
        assert to_static(n > 3) is True
    assert len(shape_env.guards) > before
    assert len(t.guards) == 3 and str(t).splitlines()[0].startswith("guard ")


def test_to_static_on_unbacked_symint_is_a_concretization_error() -> None:
    unbacked = ShapeEnv().create_unbacked_symint()
    with pytest.raises(ConcretizationError, match=r"torch.SymInt u\d+ is data-dependent"):
        to_static(unbacked)


def test_check_defers_to_torch_check() -> None:
    shape_env = ShapeEnv()
    unbacked = shape_env.create_unbacked_symint()
    with trace() as t:
        check(unbacked >= 0, "must be non-negative")
    assert sum(len(v) for v in shape_env.deferred_runtime_asserts.values()) == 1
    assert [c.message for c in t.checks] == ["must be non-negative"]
    # A backed condition is evaluated by torch: False fails as a static False does.
    n = backed_symint(shape_env, "n", 5)
    with pytest.raises(CheckError, match="^n too small$") as raised:
        check(n > 10, "n too small")
    assert type(raised.value.__cause__) is RuntimeError
    check(n > 2, "never raised")  # backed True: nothing
    with pytest.raises(CheckError, match="^always false$"):
        check(unbacked * 0 > 1, lambda: "always false")  # False by simplification


def test_make_fx_symbolic_sizes_are_dynamic() -> None:
    from torch.fx.experimental.proxy_tensor import make_fx

    seen: list[bool] = []

    def f(x: Any) -> Any:
        size = x.shape[0]
        seen.append(is_dynamic_number(size) and not is_static_number(size))
        return x * 2

    make_fx(f, tracing_mode="symbolic")(torch.ones(4))
    make_fx(f, tracing_mode="real")(torch.ones(4))
    assert seen == [True, False]
