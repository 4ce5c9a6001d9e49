"""An unannotated parameter of ``forward`` is the module's input, a tensor whose sizes
are symbolic under each tracer (``FlowAnalysis``'s ``_untyped_forward_input``): the
reduced vit-pytorch 1.26.14 levjepa.py:273-291 (``def forward(self, video, ...)``,
``batch, _, frames, height, width = video.shape``).  torch 2.13: ``range(frames)`` pins
the frame count under make_fx(tracing_mode="symbolic"), torch.export(strict=False)
rejects the ``Dim`` for it, torch.compile(dynamic=True, fullgraph=True) recompiles for
each count.  The control reads only the number of dimensions.
"""

from __future__ import annotations

from typing import Any

import pytest

torch = pytest.importorskip("torch")
import torch._dynamo.testing  # noqa: E402
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402

_Module: Any = torch.nn.Module


class Frames(_Module):  # type: ignore[misc]
    def forward(self, video, drop_ratio=None):  # type: ignore[no-untyped-def]
        batch, _, frames, height, width = video.shape
        out = video.sum((1, 3, 4))
        for index in range(frames):
            out = out + index
        return out


class Dims(_Module):  # type: ignore[misc]
    def forward(self, video, drop_ratio=None):  # type: ignore[no-untyped-def]
        return video * video.dim()


def _video(frames: int) -> Any:
    return torch.randn(2, 3, frames, 4, 6)


def _make_fx_guards(module: Any) -> list[str]:
    graph: Any = make_fx(module, tracing_mode="symbolic")(_video(5))
    return [str(guard.expr) for guard in graph.shape_env.guards]


def _export_error(module: Any) -> str:
    dims = ({2: torch.export.Dim("frames", min=2, max=32)},)
    try:
        torch.export.export(module, (_video(5),), dynamic_shapes=dims, strict=False)
    except Exception as error:  # noqa: BLE001 - the outcome is the message
        return str(error)
    return ""


def _compiled_frames(module: Any) -> int:
    torch._dynamo.reset()
    counter = torch._dynamo.testing.CompileCounter()
    compiled = torch.compile(module, backend=counter, dynamic=True, fullgraph=True)
    for frames in (5, 7, 9):
        compiled(_video(frames))
    return int(counter.frame_count)


def test_sizes_of_an_untyped_input_are_specialized_by_each_tracer() -> None:
    assert any(guard.endswith(", 5)") for guard in _make_fx_guards(Frames()))
    assert "specialized" in _export_error(Frames())
    assert _compiled_frames(Frames()) == 3


def test_the_control_keeps_them_symbolic() -> None:
    assert _make_fx_guards(Dims()) == []
    assert _export_error(Dims()) == ""
    assert _compiled_frames(Dims()) == 1
