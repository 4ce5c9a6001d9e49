"""What torch 2.13 does with a size a helper returns (mypy_plugin/analysis/returns.py;
cases in tests/plugin/cases/calls/calls_returns.py): the caller's value is the
callee's SymInt, so the caller's sinks behave as on ``x.shape[0]`` itself."""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable
from typing import Any

import pytest

torch = pytest.importorskip("torch")
from tests.runtime.tracers import export_with_dims, make_fx_symbolic  # noqa: E402

def rows(x: Any) -> Any:
    return x.shape[0]


def last_two(x: Any) -> Any:
    height, width = x.shape[-2:]
    return [height, width]


def total(x: Any) -> Any:
    return x.sum().item()


def scaled(n: Any) -> Any:
    return n * 2 + 1


def pinned(x: Any) -> Any:
    return int(x.shape[0])


def branch_on_returned_rows(x: Any) -> Any:
    return x + 1 if isinstance(rows(x), int) else x - 1


def branch_on_returned_total(x: Any) -> Any:
    return x + 1 if isinstance(total(x), numbers.Real) else x - 1


def zeros_of_returned_width(x: Any) -> Any:
    return x.new_zeros(int(last_two(x)[1]))


def zeros_of_passed_back_size(x: Any) -> Any:
    return x.new_zeros(int(scaled(x.shape[1])))


def norm_of_returned_rows(x: Any) -> Any:
    return torch.nn.LayerNorm(rows(x))(x.T).T


def norm_of_passed_back_size(x: Any) -> Any:
    torch.nn.LayerNorm(scaled(x.shape[1]))  # the helper's result, built in traced code
    return x


def norm_of_pinned_rows(x: Any) -> Any:  # the control: the helper made a plain int
    return torch.nn.LayerNorm(pinned(x))(x.T).T


def _export(function: Callable[[Any], Any]) -> Any:
    dims = {0: torch.export.Dim("rows", min=2), 1: torch.export.Dim("columns", min=2)}
    return export_with_dims(function, torch.randn(3, 4), dims)


@pytest.mark.parametrize("function", [branch_on_returned_rows, branch_on_returned_total])
def test_isinstance_of_a_returned_size_takes_the_wrong_branch_under_make_fx(
        function: Callable[[Any], Any]) -> None:
    x = torch.randn(3, 4)
    graph = make_fx_symbolic(function, x)
    assert torch.equal(graph(x), x - 1)  # eager code takes x + 1
    assert torch.equal(function(x), x + 1)


def test_isinstance_of_a_returned_size_takes_the_wrong_branch_under_export() -> None:
    x = torch.randn(3, 4)
    assert torch.equal(_export(branch_on_returned_rows).module()(x), x - 1)


@pytest.mark.parametrize("function", [branch_on_returned_rows, branch_on_returned_total])
def test_dynamo_answers_isinstance_of_a_returned_size_itself(
        function: Callable[[Any], Any]) -> None:
    x = torch.randn(3, 4)
    compiled = torch.compile(function, backend="eager", dynamic=True, fullgraph=True)
    assert torch.equal(compiled(x), x + 1)


@pytest.mark.parametrize(("function", "guard"), [
    (zeros_of_returned_width, r"Eq\(s\d+, 4\)"),
    (zeros_of_passed_back_size, r"Eq\(2\*s\d+ \+ 1, 9\)"),  # 2 * 4 + 1: the width pinned
])
def test_int_of_a_returned_size_pins_it_under_make_fx(function: Callable[[Any], Any],
                                                      guard: str) -> None:
    graph: Any = make_fx_symbolic(function, torch.randn(3, 4))
    shown = [str(item.expr) for item in graph.shape_env.guards]
    assert len(shown) == 1 and re.fullmatch(guard, shown[0]), shown


def test_int_of_a_returned_size_is_a_specialization_export_rejects() -> None:
    with pytest.raises(torch._dynamo.exc.UserError, match="specialized it to be a constant"):
        _export(zeros_of_returned_width)


@pytest.mark.parametrize("function", [norm_of_returned_rows, norm_of_passed_back_size])
def test_layer_norm_of_a_returned_size_fails_under_make_fx_and_export(
        function: Callable[[Any], Any]) -> None:
    with pytest.raises(TypeError, match="'SymInt' object is not iterable"):
        make_fx_symbolic(function, torch.randn(3, 4))
    with pytest.raises(TypeError, match="'SymInt' object is not iterable"):
        _export(function)


def test_a_helper_that_converts_returns_a_plain_int() -> None:
    # The control: int() inside the helper is the guard (reported there); LayerNorm works.
    graph: Any = make_fx_symbolic(norm_of_pinned_rows, torch.randn(3, 4))
    shown = [str(guard.expr) for guard in graph.shape_env.guards]
    assert len(shown) == 1 and re.fullmatch(r"Eq\(s\d+, 3\)", shown[0]), shown
