"""What torch 2.13 does with a size passed on by super().__init__, *args, **kwargs or
functools.partial (cases in tests/plugin/cases/calls/calls_forwarding.py): the callee
of the callee gets the SymInt, and LayerNorm's isinstance check sends it down the
wrong branch."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

torch = pytest.importorskip("torch")
from tests.runtime.tracers import export_with_dim, export_with_dims, make_fx_symbolic  # noqa: E402

_Module: Any = torch.nn.Module
_LayerNorm: Any = torch.nn.LayerNorm


class WideNorm(_LayerNorm):  # type: ignore[misc]
    def __init__(self, width: int, eps: float = 1e-6) -> None:
        super().__init__(width, eps=eps)


def build_norm(*args: Any, **kwargs: Any) -> Any:
    return torch.nn.LayerNorm(*args, **kwargs)


def through_super_init(x: Any) -> Any:
    return WideNorm(x.shape[-1])(x)


def through_star_args(x: Any) -> Any:
    return build_norm(x.shape[-1])(x)


def through_star_kwargs(x: Any) -> Any:
    return build_norm(normalized_shape=x.shape[-1])(x)


def through_partial(x: Any) -> Any:
    return functools.partial(torch.nn.LayerNorm, eps=1e-6)(x.shape[-1])(x)


def through_partial_of_the_size(x: Any) -> Any:
    return functools.partial(torch.nn.LayerNorm, x.shape[-1])(eps=1e-6)(x)


def with_a_literal(x: Any) -> Any:  # the control
    return build_norm(4)(x) + WideNorm(4)(x) + functools.partial(torch.nn.LayerNorm, 4)()(x)


class BuiltEagerly(_Module):  # type: ignore[misc]
    """The sizes are read in __init__, which no compiler traces: plain ints there."""

    def __init__(self, x: Any) -> None:
        super().__init__()
        self.first = WideNorm(x.shape[-1])
        self.second = build_norm(x.shape[-1])

    def forward(self, x: Any) -> Any:
        return self.second(self.first(x))


PASSED_ON = [through_super_init, through_star_args, through_star_kwargs, through_partial,
             through_partial_of_the_size]


@pytest.mark.parametrize("function", PASSED_ON)
def test_a_size_passed_on_fails_under_make_fx_symbolic(function: Callable[[Any], Any]) -> None:
    with pytest.raises(TypeError, match="'SymInt' object is not iterable"):
        make_fx_symbolic(function, torch.randn(3, 4))


@pytest.mark.parametrize("function", PASSED_ON)
def test_a_size_passed_on_fails_under_export_with_a_dim(function: Callable[[Any], Any]) -> None:
    with pytest.raises(TypeError, match="'SymInt' object is not iterable"):
        export_with_dim(function, torch.randn(3, 4), 1)


def test_literals_passed_on_trace() -> None:
    graph = make_fx_symbolic(with_a_literal, torch.randn(3, 4))
    assert any(node.op == "call_function" for node in graph.graph.nodes)


def test_sizes_passed_on_in_a_constructor_are_plain_ints() -> None:
    module = BuiltEagerly(torch.randn(3, 4))
    assert type(module.first.normalized_shape[0]) is int
    assert type(module.second.normalized_shape[0]) is int
    exported = export_with_dims(module, torch.randn(3, 4), {0: torch.export.Dim("rows", min=2)})
    assert exported.module()(torch.randn(5, 4)).shape == (5, 4)
