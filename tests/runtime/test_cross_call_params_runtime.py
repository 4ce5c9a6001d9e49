"""What torch 2.13 does with a size passed to the parameters of
tests/plugin/cases/calls/calls_params.py: a positional-only parameter gets the SymInt
like any other, so LayerNorm's isinstance check sends it down the wrong branch."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

torch = pytest.importorskip("torch")
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402

_Module: Any = torch.nn.Module


def norm_positional(width: int, /) -> Any:
    return torch.nn.LayerNorm(width)


def through_positional_only(x: Any) -> Any:
    return norm_positional(x.shape[-1])(x)


def positional_only_with_a_literal(x: Any) -> Any:  # the control
    return norm_positional(4)(x)


class Wrapping(_Module):  # type: ignore[misc]
    def __init__(self, function: Callable[[Any], Any]) -> None:
        super().__init__()
        self.function = function

    def forward(self, x: Any) -> Any:
        return self.function(x)


def export(function: Callable[[Any], Any], dimension: int) -> Any:
    return torch.export.export(Wrapping(function), (torch.randn(3, 4),), strict=False,
                               dynamic_shapes={"x": {dimension: torch.export.Dim("size", min=2)}})


def test_a_size_passed_positionally_only_fails_under_make_fx_symbolic() -> None:
    with pytest.raises(TypeError, match="'SymInt' object is not iterable"):
        make_fx(through_positional_only, tracing_mode="symbolic")(torch.randn(3, 4))


def test_a_size_passed_positionally_only_fails_under_export_with_a_dim() -> None:
    with pytest.raises(TypeError, match="'SymInt' object is not iterable"):
        export(through_positional_only, 1)


def test_a_literal_passed_positionally_only_traces() -> None:
    graph = make_fx(positional_only_with_a_literal, tracing_mode="symbolic")(torch.randn(3, 4))
    assert any(node.op == "call_function" for node in graph.graph.nodes)
    assert export(positional_only_with_a_literal, 0).module()(torch.randn(5, 4)).shape == (5, 4)
