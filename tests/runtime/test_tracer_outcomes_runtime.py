"""Each row of ``TORCH_TRACER_OUTCOMES`` (proxy_types/_table.py), traced the three ways.

The plugin's ``tracers`` setting hides a report whose operation the table says is
harmless under each tracer the project runs, and names those it fails under; this
test is what makes those rows facts about torch 2.13.  Each operation runs on the
first size of a ``(5, 3)`` input, inside a function whose result tells the branch
taken and the value used; the function is traced at size 5 and run at size 7, and
what happened is named in the table's words:

* ``raises``: tracing failed; ``guards``: the size was pinned (make_fx's graph has a
  plain size, export refuses the specialization, torch.compile compiled a second frame),
  or a guard on tensor data failed (GuardOnDataDependentSymNode);
* ``misclassifies``: the traced program took another branch than eager code;
* otherwise the row's word for "as eager code" (``static`` for a check the tracer
  answers as for an int, ``symbolic`` for a value it keeps symbolic).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import pytest

from proxy_types import _table

torch = pytest.importorskip("torch")
from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode  # noqa: E402
from tests.runtime.tracers import (  # noqa: E402
    compile_counted,
    export_with_dim,
    first_size_pinned,
    make_fx_symbolic,
)


class Probe(NamedTuple):
    """The operation in a traced function, and what the table calls a correct trace."""

    function: Callable[[Any], Any]
    correct: str


def _checked_as_int(x: Any) -> Any:
    # isinstance of a size against a static number class: an int in eager code
    return x * 2 if isinstance(x.shape[0], int) else x * 3


# pytest rewrites the asserts of a test module (Dynamo cannot trace the rewritten
# form), so the user's plain assert is compiled from its text.
_USER_CODE: dict[str, Any] = {}
exec(compile("def asserted(x):\n    assert (x.sum() > 0).all(), 'no data'\n    return x * 2\n",
             "<user code>", "exec"), _USER_CODE)
_asserted: Callable[[Any], Any] = _USER_CODE["asserted"]


PROBES: dict[str, Probe] = {
    "isinstance": Probe(_checked_as_int, "static"),
    "torch.tensor": Probe(lambda x: x.sum() * torch.tensor([x.shape[0], 3]).sum(), "symbolic"),
    "torch.as_tensor": Probe(lambda x: x.sum() * torch.as_tensor([x.shape[0], 3]).sum(),
                             "symbolic"),
    "tensor assert": Probe(_asserted, "symbolic"),
}
SMALL, LARGE = torch.ones(5, 3), torch.ones(7, 3)


def _failed(error: Exception) -> str:
    """A guard that could not be installed (on data) or that export refuses, else raises."""
    data_dependent = isinstance(error, GuardOnDataDependentSymNode)
    return "guards" if data_dependent or "specialized" in str(error) else "raises"


def _as_eager(probe: Probe, result: Any) -> str:
    return probe.correct if torch.equal(result, probe.function(LARGE)) else "misclassifies"


def under_make_fx(probe: Probe) -> str:
    try:
        graph = make_fx_symbolic(probe.function, SMALL)
    except Exception as error:  # noqa: BLE001 - any other failure is the outcome "raises"
        return _failed(error)
    if first_size_pinned(graph):
        return "guards"
    return _as_eager(probe, graph(LARGE))


def under_export(probe: Probe) -> str:
    try:
        program = export_with_dim(probe.function, SMALL, max_size=64)
    except Exception as error:  # noqa: BLE001
        return _failed(error)
    return _as_eager(probe, program.module()(LARGE))


def under_compile(probe: Probe) -> str:
    compiled, counter = compile_counted(probe.function)
    try:
        compiled(SMALL)
        result = compiled(LARGE)
    except torch._dynamo.exc.Unsupported:
        return "breaks"
    except Exception:  # noqa: BLE001
        return "raises"
    return "guards" if counter.frame_count > 1 else _as_eager(probe, result)


TRACERS = {"make_fx": under_make_fx, "export": under_export, "compile": under_compile}


@pytest.mark.parametrize(("operation", "tracer"), [
    pytest.param(operation, tracer, id=f"{operation}-{tracer}")
    for operation in _table.TORCH_TRACER_OUTCOMES for tracer in _table.TORCH_TRACERS])
def test_each_tracer_does_what_the_table_says(operation: str, tracer: str) -> None:
    expected = _table.TORCH_TRACER_OUTCOMES[operation][tracer]
    assert TRACERS[tracer](PROBES[operation]) == expected


def test_every_row_and_tracer_is_traced_here() -> None:
    assert set(PROBES) == set(_table.TORCH_TRACER_OUTCOMES)
    assert set(TRACERS) == set(_table.TORCH_TRACERS)


def test_a_static_check_is_the_control() -> None:
    """``isinstance(x.dim(), int)`` is an int under every tracer: no tracer misclassifies."""
    control = Probe(lambda x: x * 2 if isinstance(x.dim(), int) else x * 3, "static")
    assert {tracer: run(control) for tracer, run in TRACERS.items()} == dict.fromkeys(
        TRACERS, "static")
