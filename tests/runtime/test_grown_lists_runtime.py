"""Items appended to a list in traced code keep what they are (``reaching.Augmented``
with ``item``, followed by ``analysis/flow.py``): vit-pytorch 1.26.14 na_vit.py:303
appends ``(h // p, w // p)`` of each image to a list, iterates it, and passes the items
to a function under ``functools.lru_cache``.  torch 2.13: the items are SymInts under
make_fx(tracing_mode="symbolic") and torch.export(strict=False), where the cache's hash
raises ``TypeError: unhashable type: non-nested SymInt``; torch.compile(dynamic=True,
fullgraph=True) recompiles for each height here.  The control appends static numbers
and traces.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

import pytest

torch = pytest.importorskip("torch")
import torch._dynamo.testing  # noqa: E402
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402

_Module: Any = torch.nn.Module
SEEN: list[type] = []


@functools.lru_cache(maxsize=16)
def _grid(h: int, w: int) -> Any:
    return torch.zeros(h * w)


def _patches(x: Any, grown: Callable[[Any], tuple[Any, Any]]) -> Any:
    dims = []
    for image in x.unbind(0):
        dims.append(grown(image))
    out = x.sum()
    for ph, pw in dims:
        SEEN.append(type(ph))
        out = out + _grid(ph, pw).sum()
    return out


def _sizes(x: Any) -> Any:
    return _patches(x, lambda image: (image.shape[-2] // 2, image.shape[-1] // 2))


def _static(x: Any) -> Any:
    return _patches(x, lambda image: (2, 2))


def _export(function: Callable[[Any], Any]) -> None:
    _grid.cache_clear()  # a tensor cached by another trace is that trace's

    class Model(_Module):  # type: ignore[misc]
        def forward(self, x: Any) -> Any:
            return function(x)

    dims = ({1: torch.export.Dim("h", min=2, max=64) * 2},)
    torch.export.export(Model(), (torch.randn(2, 8, 4),), dynamic_shapes=dims, strict=False)


def test_appended_sizes_stay_symbolic_and_the_cache_rejects_them() -> None:
    SEEN.clear()
    _grid.cache_clear()
    with pytest.raises(TypeError, match="unhashable type: non-nested SymInt"):
        make_fx(_sizes, tracing_mode="symbolic")(torch.randn(2, 8, 4))
    assert SEEN == [torch.SymInt]
    with pytest.raises(TypeError, match="unhashable type: non-nested SymInt"):
        _export(_sizes)


def test_torch_compile_recompiles_for_each_size() -> None:
    torch._dynamo.reset()
    _grid.cache_clear()
    counter = torch._dynamo.testing.CompileCounter()
    compiled = torch.compile(_sizes, backend=counter, dynamic=True, fullgraph=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for height in (8, 10, 12):
            x = torch.ones(2, height, 4)
            assert float(compiled(x)) == float(x.sum()) + 0.0
    assert counter.frame_count == 3  # a recompile for each height


def test_the_control_appends_static_numbers() -> None:
    SEEN.clear()
    _grid.cache_clear()
    graph: Any = make_fx(_static, tracing_mode="symbolic")(torch.randn(2, 8, 4))
    _export(_static)
    assert SEEN[0] is int
    # the only guard is the batch that unbind() pins
    unbound: Any = make_fx(lambda x: torch.stack(x.unbind(0)), tracing_mode="symbolic")(
        torch.randn(2, 8, 4))
    assert [str(guard.expr) for guard in graph.shape_env.guards] == [
        str(guard.expr) for guard in unbound.shape_env.guards] != []
