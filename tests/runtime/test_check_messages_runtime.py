"""The message function of ``torch._check`` and its kin, under each of torch's tracers.

``analysis.sources_sinks.CHECK_MESSAGE_POSITIONS``: the plugin does not report text
built in ``torch._check(cond, lambda: f"...{n}")``, as it does not in an assert's
message.  torch 2.13: make_fx and export never call the function of a check that
holds (no guard, nothing baked); torch.compile(fullgraph=True) refuses the function
itself when it closes over a traced value, whatever text it builds, so the text is
never what specializes.  The control builds the same text outside a check.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mypy_plugin.analysis.sources_sinks import CHECK_MESSAGE_POSITIONS

torch = pytest.importorskip("torch")
import torch._dynamo.testing  # noqa: E402
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402

_Module: Any = torch.nn.Module
CALLED: list[str] = []


def _message(n: Any) -> Callable[[], str]:
    def build() -> str:
        CALLED.append(f"{n}")
        return f"got {n} rows"

    return build


def _check(x: Any) -> Any:
    n = x.shape[0]
    torch._check(n > 1, _message(n))
    return x * 2


def _check_value(x: Any) -> Any:
    torch._check_value(x.shape[0] > 1, message=_message(x.shape[0]))
    return x * 2


def _check_with(x: Any) -> Any:
    n = x.shape[0]
    torch._check_with(ValueError, n > 1, _message(n))
    return x * 2


def _check_is_size(x: Any) -> Any:
    n = x.shape[0]
    torch._check_is_size(n, _message(n))
    return x * 2


def _control(x: Any) -> Any:
    return x * 2 if _message(x.shape[0])() == "never this text" else x * 3


CHECKS = {"torch._check": _check, "torch._check_value": _check_value,
          "torch._check_with": _check_with, "torch._check_is_size": _check_is_size}


def _export(function: Callable[[Any], Any]) -> None:
    class Model(_Module):  # type: ignore[misc]
        def forward(self, x: Any) -> Any:
            return function(x)

    dims = ({0: torch.export.Dim("n", min=2, max=64)},)
    torch.export.export(Model(), (torch.randn(5, 3),), dynamic_shapes=dims, strict=False)


def _compiled_frames(function: Callable[[Any], Any]) -> int:
    torch._dynamo.reset()
    counter = torch._dynamo.testing.CompileCounter()
    compiled = torch.compile(function, backend=counter, dynamic=True, fullgraph=True)
    for size in (5, 7, 9):
        compiled(torch.randn(size, 3))
    return int(counter.frame_count)


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_make_fx_and_export_never_build_the_message(name: str) -> None:
    assert name in CHECK_MESSAGE_POSITIONS
    CALLED.clear()
    graph: Any = make_fx(CHECKS[name], tracing_mode="symbolic")(torch.randn(5, 3))
    _export(CHECKS[name])
    assert CALLED == []
    assert [str(guard.expr) for guard in graph.shape_env.guards] == []


def test_the_control_builds_the_text_and_torch_compile_recompiles() -> None:
    CALLED.clear()
    make_fx(_control, tracing_mode="symbolic")(torch.randn(5, 3))
    assert CALLED != []
    assert _compiled_frames(_control) == 3


@pytest.mark.parametrize("name", ["torch._check", "torch._check_with"])
def test_torch_compile_refuses_a_message_closing_over_a_traced_value(name: str) -> None:
    with pytest.raises(torch._dynamo.exc.Unsupported, match=r"torch._check\*\(\) message"):
        _compiled_frames(CHECKS[name])


def test_torch_compile_keeps_a_constant_message() -> None:
    def constant(x: Any) -> Any:
        torch._check(x.shape[0] > 1, lambda: "too few rows")
        return x * 2

    assert _compiled_frames(constant) == 1
