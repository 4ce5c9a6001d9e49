"""torch's three tracers as the runtime tests run them, in one place.

* ``make_fx_symbolic(f, x)``: ``make_fx(f, tracing_mode="symbolic")``, every size symbolic;
* ``export_with_dim(f, x, dimension)``: ``torch.export.export(strict=False)`` of ``f``
  wrapped in an ``nn.Module`` (export takes modules), with one ``Dim`` on ``dimension``;
* ``compile_counted(f)``: ``torch.compile(dynamic=True, fullgraph=True)`` with a
  ``CompileCounter`` backend, whose ``frame_count`` says whether a new size recompiled.

Importing this module needs torch: test modules ``pytest.importorskip("torch")`` first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
import torch._dynamo.testing
from torch.fx.experimental.proxy_tensor import make_fx

Function = Callable[..., Any]
_Module: Any = torch.nn.Module


class Wrapping(_Module):  # type: ignore[misc]
    """An ``nn.Module`` whose ``forward`` runs ``function``: what export takes."""

    def __init__(self, function: Function) -> None:
        super().__init__()
        self.function = function

    def forward(self, x: Any) -> Any:
        return self.function(x)


def make_fx_symbolic(function: Function, *inputs: Any) -> Any:
    """The graph of ``function`` traced by make_fx with symbolic sizes."""
    return make_fx(function, tracing_mode="symbolic")(*inputs)


def first_size(graph: Any) -> object:
    """The first size of a make_fx graph's first input (a SymInt)."""
    placeholder = next(node for node in graph.graph.nodes if node.op == "placeholder")
    return placeholder.meta["val"].shape[0]


def first_size_pinned(graph: Any) -> bool:
    """Whether make_fx pinned that size: a guard ``Eq(s, 5)`` makes the symbol print as 5
    (comparing it with 5 would install that guard itself, so its text is read)."""
    return str(first_size(graph)).isdigit()


def export_with_dims(function: Function, x: Any, dims: dict[int, Any]) -> Any:
    """``function`` (a module, or a function wrapped in one) exported with ``x``'s
    dimensions ``dims`` dynamic (``{0: torch.export.Dim("rows", min=2)}``)."""
    module = function if isinstance(function, _Module) else Wrapping(function)
    return torch.export.export(module, (x,), dynamic_shapes=(dims,), strict=False)


def export_with_dim(function: Function, x: Any, dimension: int = 0, *, min_size: int = 2,
                    max_size: int | None = None) -> Any:
    """:func:`export_with_dims` with one ``Dim``, named ``size``."""
    dim = torch.export.Dim("size", min=min_size, max=max_size) if max_size is not None \
        else torch.export.Dim("size", min=min_size)
    return export_with_dims(function, x, {dimension: dim})


def compile_counted(function: Function, *, fullgraph: bool = True) -> tuple[Function, Any]:
    """``function`` under torch.compile, fresh, and the counter of its compiled frames."""
    torch._dynamo.reset()
    counter = torch._dynamo.testing.CompileCounter()
    compiled = torch.compile(function, backend=counter, dynamic=True, fullgraph=fullgraph)
    return compiled, counter
