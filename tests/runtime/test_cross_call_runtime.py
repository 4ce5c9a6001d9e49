"""What torch 2.13 does at the sinks the cross-call analysis reports
(mypy_plugin/analysis/sources_sinks.py; cases in tests/plugin/cases/calls/)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

torch = pytest.importorskip("torch")
from tests.runtime.tracers import export_with_dims, make_fx_symbolic  # noqa: E402

_Module: Any = torch.nn.Module


def layer_norm_of_last_size(x: Any) -> Any:
    return torch.nn.LayerNorm(x.shape[-1])(x)


def layer_norm_of_literal(x: Any) -> Any:
    return torch.nn.LayerNorm(64)(x)


def layer_norm_through_helper(x: Any) -> Any:
    def make_norm(width: int) -> Any:
        return torch.nn.LayerNorm(width)

    return make_norm(x.shape[-1])(x)


class LastSizeNorm(_Module):  # type: ignore[misc]
    def forward(self, x: Any) -> Any:
        return layer_norm_of_last_size(x)


class ConstructorNorm(_Module):  # type: ignore[misc]
    """The size read in __init__, which no compiler traces: a plain int there."""

    def __init__(self, x: Any) -> None:
        super().__init__()
        self.norm = torch.nn.LayerNorm(x.shape[-1])

    def forward(self, x: Any) -> Any:
        return self.norm(x)


@pytest.mark.parametrize("function", [layer_norm_of_last_size, layer_norm_through_helper])
def test_layer_norm_of_a_symint_fails_under_make_fx_symbolic(
        function: Callable[[Any], Any]) -> None:
    # isinstance(normalized_shape, numbers.Integral) is False for the SymInt, so
    # LayerNorm iterates it: the crash the plugin reports at the caller's line.
    with pytest.raises(TypeError, match="'SymInt' object is not iterable"):
        make_fx_symbolic(function, torch.randn(3, 64))


def test_layer_norm_of_a_literal_traces() -> None:  # the control
    graph = make_fx_symbolic(layer_norm_of_literal, torch.randn(3, 64))
    assert any(node.op == "call_function" for node in graph.graph.nodes)


def test_layer_norm_of_a_symint_fails_under_export_with_a_dim() -> None:
    width = torch.export.Dim("width", min=2)
    with pytest.raises(TypeError, match="'SymInt' object is not iterable"):
        export_with_dims(LastSizeNorm(), torch.randn(3, 64), {1: width})


def test_a_size_read_in_the_constructor_is_a_plain_int() -> None:
    # Not traced: the module is built eagerly, so export with the same Dim works.
    module = ConstructorNorm(torch.randn(3, 64))
    assert type(module.norm.normalized_shape[0]) is int
    width = torch.export.Dim("width", min=2)
    # The weights pin the width (a specialization export reports), not a crash in LayerNorm.
    with pytest.raises(torch._dynamo.exc.UserError, match="specialized it to be a constant"):
        export_with_dims(module, torch.randn(3, 64), {1: width})


def condition_on_item(x: Any) -> Any:
    return x + 1 if x.sum().item() > 0 else x


def int_of_item(x: Any) -> Any:
    return x * int(x.max().item())


def condition_on_a_size(x: Any) -> Any:  # the control: a size has a hint to guard on
    return x + 1 if x.shape[0] > 2 else x


@pytest.mark.parametrize(("function", "message"), [
    (condition_on_item, "Could not guard on data-dependent expression"),
    (int_of_item, "Could not extract specialized integer from data-dependent expression"),
])
def test_a_number_read_from_tensor_data_is_data_dependent(
        function: Callable[[Any], Any], message: str) -> None:
    # sources_sinks.DATA_DEPENDENT_METHODS: .item() is no size with a hint to guard on.
    from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode

    with pytest.raises(GuardOnDataDependentSymNode, match=message):
        make_fx_symbolic(function, torch.randn(3, 4))


def test_a_condition_on_a_size_traces_with_a_guard() -> None:
    graph: Any = make_fx_symbolic(condition_on_a_size, torch.randn(3, 4))
    shown = [str(guard.expr) for guard in graph.shape_env.guards]
    assert len(shown) == 1 and re.fullmatch(r"s\d+ > 2", shown[0]), shown


def zeros_of_len(x: Any) -> Any:
    return x.new_zeros(len(x))


def zeros_of_min(x: Any) -> Any:
    return x.new_zeros(min(x.shape[0], x.shape[1]))


def zeros_of_sym_min(x: Any) -> Any:  # the control
    return x.new_zeros(torch.sym_min(x.shape[0], x.shape[1]))


@pytest.mark.parametrize(("function", "guard"), [
    (zeros_of_len, r"Eq\(s\d+, 3\)"),  # len() must return an int: the size is pinned
    (zeros_of_min, r"s\d+ >= s\d+"),  # min() compares the sizes
])
def test_size_builtins_guard(function: Callable[[Any], Any], guard: str) -> None:
    # sources_sinks.SIZE_SINK_FUNCTIONS
    graph: Any = make_fx_symbolic(function, torch.randn(3, 4))
    shown = [str(item.expr) for item in graph.shape_env.guards]
    assert len(shown) == 1 and re.fullmatch(guard, shown[0]), shown


def test_sym_min_keeps_the_sizes_symbolic() -> None:
    graph: Any = make_fx_symbolic(zeros_of_sym_min, torch.randn(3, 4))
    assert [str(item.expr) for item in graph.shape_env.guards] == []
