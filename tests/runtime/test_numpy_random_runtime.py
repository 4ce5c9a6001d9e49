"""What torch 2.13 does with numpy's random numbers in traced code
(``NUMPY_RANDOM_FUNCTIONS``/``NUMPY_RANDOM_METHODS`` in ``analysis/sources_sinks.py``,
reported by ``checks/random_calls.py``): make_fx(tracing_mode="symbolic") and
torch.export(strict=False) call numpy once at trace time and bake the value in (every
call of the traced program gives the same result), torch.compile(fullgraph=True) fails
(numpy's functions become data-dependent tensor ops, a ``Generator``'s methods cannot be
traced).  The control, ``torch.rand``, is drawn per call by every tracer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mypy_plugin.analysis.sources_sinks import RANDOM_FUNCTIONS, RANDOM_METHODS

np: Any = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")
import torch._dynamo.testing  # noqa: E402
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402

_Module: Any = torch.nn.Module
Draw = Callable[[Any], Any]

#: name as mypy resolves it -> a traced function using it
DRAWS: dict[str, Draw] = {
    "numpy.random.mtrand.rand": lambda x: x * np.random.rand(),
    "numpy.random.mtrand.randint": lambda x: x * np.random.randint(1, 100),
    "numpy.random.mtrand.uniform": lambda x: x * 2 if np.random.uniform() < 0.5 else x,
    "numpy.random._generator.Generator.random":
        lambda x: x * np.random.default_rng().random(),
    "numpy.random.mtrand.RandomState.normal":
        lambda x: x * np.random.RandomState().normal(),
}


def _distinct(program: Callable[[Any], Any], calls: int = 6) -> int:
    x = torch.ones(5, 3)
    return len({float(program(x).sum()) for _ in range(calls)})


def _exported(draw: Draw) -> Any:
    class Model(_Module):  # type: ignore[misc]
        def forward(self, x: Any) -> Any:
            return draw(x)

    dims = ({0: torch.export.Dim("n", min=2, max=64)},)
    return torch.export.export(Model(), (torch.ones(5, 3),), dynamic_shapes=dims,
                               strict=False).module()


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_make_fx_and_export_bake_the_draw(name: str) -> None:
    assert name in RANDOM_FUNCTIONS | RANDOM_METHODS
    assert _distinct(make_fx(DRAWS[name], tracing_mode="symbolic")(torch.ones(5, 3))) == 1
    assert _distinct(_exported(DRAWS[name])) == 1


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_torch_compile_fullgraph_fails(name: str) -> None:
    torch._dynamo.reset()
    compiled = torch.compile(DRAWS[name], backend="eager", dynamic=True, fullgraph=True)
    with pytest.raises((torch._dynamo.exc.Unsupported, torch._dynamo.exc.UserError)):
        compiled(torch.ones(5, 3))


def test_the_control_is_drawn_per_call_by_every_tracer() -> None:
    def draw(x: Any) -> Any:
        return x * torch.rand(())

    assert _distinct(make_fx(draw, tracing_mode="symbolic")(torch.ones(5, 3))) > 1
    assert _distinct(_exported(draw)) > 1
    torch._dynamo.reset()
    counter = torch._dynamo.testing.CompileCounter()
    assert _distinct(torch.compile(draw, backend=counter, dynamic=True, fullgraph=True)) > 1
    assert counter.frame_count == 1
