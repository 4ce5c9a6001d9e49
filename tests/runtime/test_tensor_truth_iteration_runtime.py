"""What torch 2.13 does with a tensor truth-tested through builtin ``all()``/``any()`` or
item by item while iterating it (vit-pytorch cait.py ``if all(to_drop):`` and ``for layer,
drop in zip(layers, to_drop): if drop: continue``): each item is a 0-d tensor whose truth
reads its data, so make_fx(tracing_mode="symbolic") and export raise
``GuardOnDataDependentSymNode`` and torch.compile(fullgraph=True) refuses the branch.
The controls (``torch.where`` on ``torch.all(t)``, ``all()`` of a list of Python bools,
the items used as data) trace under all three."""

from __future__ import annotations

from typing import Any

import pytest

torch = pytest.importorskip("torch")
import torch._dynamo.testing  # noqa: E402
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402
from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode  # noqa: E402

_Module: Any = torch.nn.Module


class AllOfTensor(_Module):  # type: ignore[misc]
    def forward(self, x: Any) -> Any:
        to_drop = x.sum(1) > 0
        if all(to_drop):
            return x * 2
        return x


class AnyOfTensor(_Module):  # type: ignore[misc]
    def forward(self, x: Any) -> Any:
        if any(x.sum(1) > 0):
            return x * 2
        return x


class IteratedItems(_Module):  # type: ignore[misc]
    def __init__(self) -> None:
        super().__init__()
        self.layers = torch.nn.ModuleList(torch.nn.Linear(4, 4) for _ in range(3))

    def forward(self, x: Any) -> Any:
        to_drop = x.sum() > torch.arange(3)
        for layer, drop in zip(self.layers, to_drop):
            if drop:
                continue
            x = layer(x)
        return x


class TorchAll(_Module):  # type: ignore[misc]
    """The control: ``torch.all(t)`` used as data, not branched on."""

    def forward(self, x: Any) -> Any:
        return torch.where(torch.all(x.sum(1) > 0), x * 2, x)


class ListOfBools(_Module):  # type: ignore[misc]
    """The control: ``all()`` of Python bools (sizes known at trace time)."""

    def forward(self, x: Any) -> Any:
        if all([x.dim() == 2, True]):
            return x * 2
        return x


class ItemsAsData(_Module):  # type: ignore[misc]
    """The control: the items of the same loop used as data, not as conditions."""

    def forward(self, x: Any) -> Any:
        for drop in x.sum() > torch.arange(3):
            x = x + drop
        return x


CONDITIONS = [AllOfTensor, AnyOfTensor, IteratedItems]
CONTROLS = [TorchAll, ListOfBools, ItemsAsData]


def _x() -> Any:
    return torch.randn(3, 4)


@pytest.mark.parametrize("model", CONDITIONS)
def test_truth_of_items_fails_make_fx(model: type) -> None:
    with pytest.raises(GuardOnDataDependentSymNode, match="data-dependent expression"):
        make_fx(lambda value: model()(value), tracing_mode="symbolic")(_x())


@pytest.mark.parametrize("model", CONDITIONS)
def test_truth_of_items_fails_export(model: type) -> None:
    with pytest.raises(GuardOnDataDependentSymNode, match="data-dependent expression"):
        torch.export.export(model(), (_x(),), strict=False)


@pytest.mark.parametrize("model", CONDITIONS)
def test_truth_of_items_is_refused_by_compile(model: type) -> None:
    torch._dynamo.reset()
    compiled = torch.compile(model(), backend="eager", fullgraph=True)
    with pytest.raises(torch._dynamo.exc.Unsupported, match="Data-dependent branching"):
        compiled(_x())


@pytest.mark.parametrize("model", CONTROLS)
def test_controls_trace_everywhere(model: type) -> None:
    x = _x()
    expected = model()(x)
    graph: Any = make_fx(lambda value: model()(value), tracing_mode="symbolic")(x)
    assert torch.equal(graph(x), expected)
    assert torch.equal(torch.export.export(model(), (x,), strict=False).module()(x), expected)
    torch._dynamo.reset()
    assert torch.equal(torch.compile(model(), backend="eager", fullgraph=True)(x), expected)
