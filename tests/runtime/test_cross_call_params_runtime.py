"""What torch 2.13 does with a size passed to the parameters of
tests/plugin/cases/calls/calls_params.py.

* A positional-only parameter gets the SymInt like any other, so LayerNorm's
  isinstance check sends it down the wrong branch.
* A parameter declared ``int | Tensor``: a SymInt is neither, so ``isinstance(n,
  int)`` sends it to the Tensor branch under make_fx and export (strict=False),
  also after a check against Tensor; torch.compile answers the check itself (True).
  A Tensor check with no int check after it is the control: the SymInt gets the
  int branch and works.
* Sizes spread by ``*x.shape``, ``*x.size()``, ``*x.shape[1:]`` fill the callee's
  positional parameters and ``*args`` with SymInts: LayerNorm fails as above.  torch's
  own ``torch.zeros(*x.shape[1:])`` and ``x.view(*x.shape)`` take them (the control).
  torch.compile(fullgraph=True) stops at LayerNorm's ``nn.Parameter()`` before its
  check, so only make_fx and export are asked.
* ``len(x)`` of a tensor is no SymInt under any tracer: make_fx and export give a
  plain int and pin the first size at the call (the plugin reports that call);
  torch.compile keeps it symbolic (no recompile) but answers ``isinstance(n, int)``
  True and ``isinstance(n, SymInt)`` False.  So it is not a source of SymInts for
  callees: what it breaks is the ``len()`` call itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Union

import pytest

torch = pytest.importorskip("torch")
from tests.runtime.tracers import compile_counted, export_with_dim, make_fx_symbolic  # noqa: E402

def norm_positional(width: int, /) -> Any:
    return torch.nn.LayerNorm(width)


def through_positional_only(x: Any) -> Any:
    return norm_positional(x.shape[-1])(x)


def positional_only_with_a_literal(x: Any) -> Any:  # the control
    return norm_positional(4)(x)


def scaled(size: Union[int, Any]) -> Any:
    if isinstance(size, int):
        return size * 2
    return size.dim()


def tensor_then_int(size: Union[int, Any]) -> Any:
    if isinstance(size, torch.Tensor):
        return size.dim()
    elif isinstance(size, int):
        return size * 2
    raise TypeError(f"not a size: {type(size).__name__}")


def checked_as_either(size: Union[int, Any]) -> Any:
    if not isinstance(size, (int, torch.Tensor)):
        raise TypeError(f"not a size: {type(size).__name__}")
    return size


def tensor_first(size: Union[int, Any]) -> Any:
    if isinstance(size, torch.Tensor):
        return size.dim()
    return size * 2


def symint_aware(size: Union[int, Any]) -> Any:
    if isinstance(size, (int, torch.SymInt)):
        return size * 2
    return size.dim()


INT_FIRST = [(scaled, AttributeError, "'SymInt' object has no attribute 'dim'"),
             (tensor_then_int, TypeError, "not a size: SymInt"),
             (checked_as_either, TypeError, "not a size: SymInt")]
HANDLED = [tensor_first, symint_aware]


def norm_last(height: int, width: int) -> Any:
    return torch.nn.LayerNorm(width)


def norm_of_first(*sizes: Any) -> Any:
    return torch.nn.LayerNorm(*sizes)


def norm_after(eps: float, *sizes: Any) -> Any:
    return norm_of_first(*sizes)


def norm_default(height: int, width: int = 4) -> Any:
    return torch.nn.LayerNorm(width)


SPREAD = [lambda x: norm_last(*x.shape)(x), lambda x: norm_default(*x.shape)(x), lambda x: norm_last(*x.size())(x),
          lambda x: norm_last(4, *x.shape[1:])(x), lambda x: norm_of_first(*x.shape[-1:])(x),
          lambda x: norm_after(1e-5, *x.shape[-1:])(x)]


def spread_into_torch(x: Any) -> Any:  # the control
    return torch.zeros(*x.shape[1:]) + x.view(*x.shape) + norm_last(*(4, 4))(x) \
        + norm_default(*x.shape[:1])(x)  # one item: width keeps its default


def sized_by(helper: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def traced(x: Any) -> Any:
        return x.new_zeros(helper(x.shape[0]))
    return traced


def export(function: Callable[[Any], Any], dimension: int) -> Any:
    return export_with_dim(function, torch.randn(3, 4), dimension)


def test_a_size_passed_positionally_only_fails_under_make_fx_symbolic() -> None:
    with pytest.raises(TypeError, match="'SymInt' object is not iterable"):
        make_fx_symbolic(through_positional_only, torch.randn(3, 4))


def test_a_size_passed_positionally_only_fails_under_export_with_a_dim() -> None:
    with pytest.raises(TypeError, match="'SymInt' object is not iterable"):
        export(through_positional_only, 1)


def test_a_literal_passed_positionally_only_traces() -> None:
    graph = make_fx_symbolic(positional_only_with_a_literal, torch.randn(3, 4))
    assert any(node.op == "call_function" for node in graph.graph.nodes)
    assert export(positional_only_with_a_literal, 0).module()(torch.randn(5, 4)).shape == (5, 4)


@pytest.mark.parametrize(("helper", "error", "message"), INT_FIRST)
def test_a_size_sent_to_the_tensor_branch_fails_under_make_fx_symbolic(
        helper: Callable[[Any], Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        make_fx_symbolic(sized_by(helper), torch.randn(3, 4))


@pytest.mark.parametrize(("helper", "error", "message"), INT_FIRST)
def test_a_size_sent_to_the_tensor_branch_fails_under_export_with_a_dim(
        helper: Callable[[Any], Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        export(sized_by(helper), 0)


@pytest.mark.parametrize("helper", [scaled, tensor_then_int])
def test_torch_compile_answers_the_int_check_itself(helper: Callable[[Any], Any]) -> None:
    torch._dynamo.reset()
    compiled = torch.compile(sized_by(helper), backend="eager", dynamic=True, fullgraph=True)
    assert compiled(torch.randn(3, 4)).shape == (6,)
    assert compiled(torch.randn(5, 4)).shape == (10,)


@pytest.mark.parametrize("helper", HANDLED)
def test_a_size_that_reaches_the_int_branch_traces(helper: Callable[[Any], Any]) -> None:
    graph = make_fx_symbolic(sized_by(helper), torch.randn(3, 4))
    assert any(node.op == "call_function" for node in graph.graph.nodes)
    assert export(sized_by(helper), 0).module()(torch.randn(5, 4)).shape == (10,)


@pytest.mark.parametrize("function", SPREAD)
def test_spread_sizes_fail_under_make_fx_symbolic(function: Callable[[Any], Any]) -> None:
    with pytest.raises(TypeError, match="'SymInt' object is not iterable"):
        make_fx_symbolic(function, torch.randn(3, 4))


@pytest.mark.parametrize("function", SPREAD)
def test_spread_sizes_fail_under_export_with_a_dim(function: Callable[[Any], Any]) -> None:
    with pytest.raises(TypeError, match="'SymInt' object is not iterable"):
        export(function, 1)


def test_spread_sizes_into_torch_trace() -> None:
    graph = make_fx_symbolic(spread_into_torch, torch.randn(3, 4))
    assert any(node.op == "call_function" for node in graph.graph.nodes)
    assert export(spread_into_torch, 0).module()(torch.randn(5, 4)).shape == (5, 4)
    torch._dynamo.reset()
    compiled = torch.compile(lambda x: torch.zeros(*x.shape[1:]) + x.view(*x.shape),
                             backend="eager", dynamic=True, fullgraph=True)
    assert compiled(torch.randn(3, 4)).shape == (3, 4)
    assert compiled(torch.randn(5, 6)).shape == (5, 6)


def test_len_of_a_tensor_is_a_pinned_int_under_make_fx_and_export() -> None:
    seen: list[type] = []

    def rows(x: Any) -> Any:
        n = len(x)
        seen.append(type(n))
        return x.new_zeros(n)

    graph = make_fx_symbolic(rows, torch.randn(3, 4))
    assert seen == [int]
    placeholder = next(node for node in graph.graph.nodes if node.op == "placeholder")
    assert str(placeholder.meta["val"].shape[0]) == "3"  # pinned
    with pytest.raises(Exception, match="Constraints violated"):
        export(rows, 0)
    assert seen == [int, int]
    control = make_fx_symbolic(lambda x: x.new_zeros(x.shape[0]), torch.randn(3, 4))
    first = next(node for node in control.graph.nodes if node.op == "placeholder")
    assert str(first.meta["val"].shape[0]) != "3"  # x.shape[0] stays symbolic


def test_len_of_a_tensor_stays_symbolic_under_torch_compile_as_an_int() -> None:
    def rows(x: Any) -> Any:
        n = len(x)
        if isinstance(n, torch.SymInt) or not isinstance(n, int):
            raise TypeError("len() gave no int")
        return x.new_zeros(n)

    compiled, counter = compile_counted(rows)
    assert compiled(torch.randn(3, 4)).shape == (3,)
    assert compiled(torch.randn(5, 4)).shape == (5,)
    assert counter.frame_count == 1  # no recompile: the size was not pinned
