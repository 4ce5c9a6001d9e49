"""What torch 2.13 does with a size passed to an aten operator's parameter, under each
of three tracers (``checks/schema_arguments.py``, kind ``static-schema-argument``):

* a parameter the schema types ``int`` (``istft(..., int? length)``, ``unfold(Tensor
  self, int dimension, int size, int step)``): ``make_fx(tracing_mode="symbolic")``
  replaces the size's symbol by its traced value, ``torch.export.export(strict=False)``
  with a ``Dim`` fails ("Constraints violated"), ``torch.compile(dynamic=True,
  fullgraph=True)`` compiles again for a new size;
* the controls, parameters typed ``SymInt`` or ``SymInt[]`` (``multinomial``'s
  ``num_samples``, ``zeros``' and ``new_zeros``' ``size``, ``narrow``'s ``length``), and
  istft without ``length``, keep the size symbolic under all three.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import pytest

torch = pytest.importorskip("torch")
from mypy_plugin.analysis.schemas import Schemas  # noqa: E402
from tests.runtime.tracers import (  # noqa: E402
    compile_counted,
    export_with_dims,
    make_fx_symbolic,
)

N_FFT, HOP = 64, 16
FIRST, SECOND = 400, 520


def _istft(audio: Any, **length: Any) -> Any:
    window = torch.ones(N_FFT)
    spec = torch.stft(audio, N_FFT, HOP, N_FFT, window=window, return_complex=True)
    return torch.istft(spec, N_FFT, HOP, N_FFT, window=window, **length)


# Each takes a batch of 3 mono signals; both sizes are dynamic (istft without length
# exports only with a dynamic batch too, as in benchmarks/corpora/bs_roformer_sites.py).
_STATIC_PARAMETERS: dict[str, Callable[[Any], Any]] = {
    "istft length": lambda a: _istft(a, length=a.shape[-1]),
    "unfold size": lambda a: a.unfold(1, a.shape[-1], 1),
}
_SYMINT_PARAMETERS: dict[str, Callable[[Any], Any]] = {
    "istft without length": lambda a: _istft(a),
    "multinomial num_samples": lambda a: torch.multinomial(
        torch.ones_like(a), num_samples=a.shape[-1]).float() * 0,
    "zeros size": lambda a: torch.zeros(a.shape[-1]),
    "new_zeros size": lambda a: a.new_zeros(a.shape[-1]),
    "narrow length": lambda a: torch.narrow(a, 1, 0, a.shape[-1]),
}
_ALL = {**_STATIC_PARAMETERS, **_SYMINT_PARAMETERS}


def _traced(body: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda a: a.sum() + body(a).sum()


def _audio(samples: int) -> Any:
    return torch.linspace(-1.0, 1.0, 3 * samples).reshape(3, samples)


def _samples_pinned(graph: Any) -> bool:
    """Whether make_fx replaced the number of samples of the input by its traced value
    (a guard ``Eq(s, 400)`` makes the symbol print as 400)."""
    placeholder = next(node for node in graph.graph.nodes if node.op == "placeholder")
    return str(placeholder.meta["val"].shape[-1]).isdigit()


#: Each case's operator and parameter, as the plugin asks the schemas about them.
_PARAMETERS = {
    "istft length": ("istft", "length"), "unfold size": ("unfold", "size"),
    "multinomial num_samples": ("multinomial", "num_samples"),
    "zeros size": ("zeros", "size"), "new_zeros size": ("new_zeros", "size"),
    "narrow length": ("narrow", "length"),
}


@pytest.mark.parametrize("name", sorted(_PARAMETERS))
def test_the_plugin_reads_the_schema_types_of_the_installed_torch(name: str) -> None:
    operator, parameter = _PARAMETERS[name]
    declared = Schemas().static_argument_type(operator, parameter)
    assert (declared is not None) == (name in _STATIC_PARAMETERS)
    # The schema's text, as the dispatcher has it (its argument objects show SymInt as int)
    schema = str(getattr(torch.ops.aten, operator).default._schema)
    typed = re.search(rf"(\S+) {parameter}\b", schema)
    assert typed is not None, schema
    assert ("SymInt" not in typed[1]) == (name in _STATIC_PARAMETERS), schema
    assert declared in (None, typed[1])


@pytest.mark.parametrize("name", sorted(_ALL))
def test_make_fx(name: str) -> None:
    graph = make_fx_symbolic(_traced(_ALL[name]), _audio(FIRST))
    assert _samples_pinned(graph) == (name in _STATIC_PARAMETERS)


@pytest.mark.parametrize("name", sorted(_ALL))
def test_export(name: str) -> None:
    def export() -> Any:
        return export_with_dims(_traced(_ALL[name]), _audio(FIRST),
                                {0: torch.export.Dim("b", min=2, max=64),
                                 1: torch.export.Dim("t", min=256, max=8192)})
    if name in _STATIC_PARAMETERS:
        with pytest.raises(Exception, match=r"Constraints violated \(t\)"):
            export()
    else:
        export()


@pytest.mark.parametrize("name", sorted(_ALL))
def test_compile(name: str) -> None:
    compiled, counter = compile_counted(_traced(_ALL[name]))
    compiled(_audio(FIRST))
    compiled(_audio(SECOND))
    assert counter.frame_count == (2 if name in _STATIC_PARAMETERS else 1)
