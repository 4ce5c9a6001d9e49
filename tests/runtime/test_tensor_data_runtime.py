"""What torch 2.13 does, under each of three tracers, with tensors made from sizes
(``TENSOR_DATA_SINK_FUNCTIONS`` in ``analysis/sources_sinks.py``, ``checks/size_sinks.py``),
and with a number read from tensor data used as a shape (not reported: nothing fails):

* ``torch.tensor([n, 3])``, ``torch.tensor(n)``, ``torch.tensor(x.shape)``:
  ``make_fx(tracing_mode="symbolic")`` replaces the size by its traced value (the
  graph is wrong for another size); ``torch.export.export(strict=False)`` with a
  ``Dim`` and ``torch.compile(dynamic=True, fullgraph=True)`` keep it symbolic;
* ``torch.as_tensor([n, 3])``, ``torch.as_tensor(x.shape)``: make_fx the same, export
  fails ("specialized it to be a constant"), torch.compile recompiles for a new size;
* the controls ``torch.tensor([1, 2])`` and ``torch.tensor`` of a module-level list
  keep the size symbolic everywhere;
* ``torch.zeros(n)`` / ``x.new_zeros(n)`` with ``n = t.sum().item()`` trace under all
  three without ``torch._check_is_size(n)``: export makes ``n`` an unbacked symbol.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

torch = pytest.importorskip("torch")
from tests.runtime.tracers import (  # noqa: E402
    compile_counted,
    export_with_dims,
    first_size,
    first_size_pinned,
    make_fx_symbolic,
)

_STATIC = [1, 2]

_TENSOR: dict[str, Callable[[Any], Any]] = {
    "tensor list": lambda x: torch.tensor([x.shape[0], 3]),
    "tensor number": lambda x: torch.tensor(x.shape[0]),
    "tensor Size": lambda x: torch.tensor(x.shape),
}
_AS_TENSOR: dict[str, Callable[[Any], Any]] = {
    "as_tensor list": lambda x: torch.as_tensor([x.shape[0], 3]),
    "as_tensor Size": lambda x: torch.as_tensor(x.shape),
}
_CONTROLS: dict[str, Callable[[Any], Any]] = {
    "literal": lambda x: torch.tensor([1, 2]),
    "static list": lambda x: torch.tensor(_STATIC),
}
_ALL = {**_TENSOR, **_AS_TENSOR, **_CONTROLS}


def _traced(body: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda x: x.sum() * body(x).sum()


def _make_fx(function: Callable[[Any], Any]) -> Any:
    return make_fx_symbolic(function, torch.ones(5, 3))


def _export(function: Callable[[Any], Any]) -> Any:
    return export_with_dims(function, torch.ones(5, 3), {0: torch.export.Dim("n", min=2, max=64)})


def _compiled(function: Callable[[Any], Any]) -> tuple[int, Any]:
    """Frames compiled over sizes 5 and 7 (2: recompiled), and the result at 7."""
    compiled, counter = compile_counted(function)
    compiled(torch.ones(5, 3))
    second = compiled(torch.ones(7, 3))
    return int(counter.frame_count), second


def _eager_at_7(function: Callable[[Any], Any]) -> float:
    return float(function(torch.ones(7, 3)))


@pytest.mark.parametrize("name", sorted({**_TENSOR, **_AS_TENSOR}))
def test_make_fx_bakes_the_size_in(name: str) -> None:
    function = _traced(_ALL[name])
    graph = _make_fx(function)
    assert first_size_pinned(graph) and str(first_size(graph)) == "5"
    assert float(graph(torch.ones(7, 3))) != _eager_at_7(function)


@pytest.mark.parametrize("name", sorted(_CONTROLS))
def test_make_fx_controls_keep_the_size_symbolic(name: str) -> None:
    graph = _make_fx(_traced(_CONTROLS[name]))
    assert not first_size_pinned(graph)


@pytest.mark.parametrize("name", ["tensor list", "tensor Size"])
def test_export_keeps_torch_tensor_symbolic(name: str) -> None:
    function = _traced(_TENSOR[name])
    program = _export(function)
    assert float(program.module()(torch.ones(7, 3))) == _eager_at_7(function)


@pytest.mark.parametrize("name", sorted(_AS_TENSOR))
def test_export_rejects_as_tensor_of_a_size(name: str) -> None:
    with pytest.raises(Exception, match="specialized it to be a constant"):
        _export(_traced(_AS_TENSOR[name]))


def test_compile_keeps_torch_tensor_symbolic() -> None:
    function = _traced(_TENSOR["tensor list"])
    frames, second = _compiled(function)
    assert frames == 1
    assert float(second) == _eager_at_7(function)


def test_compile_recompiles_as_tensor_of_a_size() -> None:
    function = _traced(_AS_TENSOR["as_tensor list"])
    frames, second = _compiled(function)
    assert frames == 2
    assert float(second) == _eager_at_7(function)


# -- a number read from tensor data as a shape: traced by all three (not reported) ------


def _zeros_of_count(x: Any) -> Any:
    n = (x > 0).sum().item()
    return torch.zeros(n).sum() + x.new_zeros(n).sum() + x.sum()


def test_item_value_as_a_shape_traces_everywhere() -> None:
    graph = _make_fx(_zeros_of_count)
    assert not first_size_pinned(graph)
    program = _export(_zeros_of_count)
    assert float(program.module()(torch.ones(7, 3))) == 21.0
    frames, second = _compiled(_zeros_of_count)
    assert (frames, float(second)) == (1, 21.0)
