"""What torch 2.13 does, under each of three tracers, when traced code passes a size to
a function under ``functools.lru_cache``/``functools.cache`` (``checks/hashing.py``,
the ``hash`` sink of ``analysis/sources_sinks.py``):

* ``make_fx(tracing_mode="symbolic")`` and ``torch.export.export(strict=False)`` with
  a ``Dim`` hash the SymInt for the cache key and raise ``TypeError: unhashable type:
  non-nested SymInt``, for a direct call, a method, and a call from a helper that
  received the size from the traced code;
* ``torch.compile(dynamic=True, fullgraph=True)`` traces through the cache wrapper
  (with a warning): one frame over two sizes, the right values;
* a SymFloat argument (``x.shape[0] / 2``) is hashed by guarding on its value:
  make_fx installs ``Eq(IntTrueDiv(s, 2), 2.5)``, which pins the size;
* the controls, the same calls with static arguments and an uncached function with
  the size, trace with the size still symbolic.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any, Callable

import pytest

torch = pytest.importorskip("torch")
from tests.runtime.tracers import (  # noqa: E402
    compile_counted,
    export_with_dims,
    first_size_pinned,
    make_fx_symbolic,
)

_UNHASHABLE = "unhashable type: non-nested SymInt"


@functools.lru_cache(maxsize=128)
def _grid(n: int, m: int) -> Any:
    return torch.arange(n * m)


@functools.cache
def _ramp(n: int) -> Any:
    return torch.arange(n)


@functools.lru_cache
def _bare_ramp(n: int) -> Any:
    return torch.arange(n)


@functools.lru_cache(maxsize=16)
def _scaled(scale: float) -> Any:
    return torch.arange(4) * scale


def _plain_ramp(n: int) -> Any:
    return torch.arange(n)


def _helper(height: int) -> Any:
    return _grid(height, 2)


class _Positions:
    @functools.lru_cache(maxsize=None)
    def table(self, n: int) -> Any:
        return torch.arange(n)


_POSITIONS = _Positions()

#: name -> what the traced function computes from its input's first size
_CACHED: dict[str, Callable[[Any], Any]] = {
    "lru_cache(maxsize)": lambda x: _grid(x.shape[0], 2),
    "cache": lambda x: _ramp(x.shape[0]),
    "bare lru_cache": lambda x: _bare_ramp(x.shape[0]),
    "method": lambda x: _POSITIONS.table(x.shape[0]),
    "through a helper": lambda x: _helper(x.shape[0]),
}
_CONTROLS: dict[str, Callable[[Any], Any]] = {
    "static arguments": lambda x: _grid(4, 2),
    "uncached function": lambda x: _plain_ramp(x.shape[0]),
}


def _traced(body: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda x: x.sum() + body(x).sum()


@pytest.fixture(autouse=True)
def _empty_caches() -> None:
    for cached in (_grid, _ramp, _bare_ramp, _scaled, _Positions.table):
        cached.cache_clear()


def _make_fx(body: Callable[[Any], Any]) -> Any:
    return make_fx_symbolic(_traced(body), torch.ones(5, 3))


@pytest.mark.parametrize("name", sorted(_CACHED))
def test_make_fx_cannot_hash_a_size(name: str) -> None:
    with pytest.raises(TypeError, match=_UNHASHABLE):
        _make_fx(_CACHED[name])


@pytest.mark.parametrize("name", sorted(_CONTROLS))
def test_make_fx_controls_keep_the_size_symbolic(name: str) -> None:
    assert not first_size_pinned(_make_fx(_CONTROLS[name]))


def test_make_fx_guards_on_a_hashed_symfloat() -> None:
    graph: Any = _make_fx(lambda x: _scaled(x.shape[0] / 2))
    guards = [str(guard.expr) for guard in graph.shape_env.guards]
    assert any(guard.startswith("Eq(IntTrueDiv(") and guard.endswith(", 2.5)")
               for guard in guards), guards


def test_make_fx_symfloat_control_without_the_cache() -> None:
    graph: Any = _make_fx(lambda x: torch.arange(4) * (x.shape[0] / 2))
    assert not any("2.5" in str(guard.expr) for guard in graph.shape_env.guards)


def _export(body: Callable[[Any], Any]) -> Any:
    return export_with_dims(_traced(body), torch.ones(5, 3),
                            {0: torch.export.Dim("n", min=2, max=64)})


@pytest.mark.parametrize("name", ["lru_cache(maxsize)", "through a helper"])
def test_export_cannot_hash_a_size(name: str) -> None:
    with pytest.raises(TypeError, match=_UNHASHABLE):
        _export(_CACHED[name])


def test_export_control_with_static_arguments() -> None:
    program = _export(_CONTROLS["static arguments"])
    assert float(program.module()(torch.ones(7, 3))) == 21.0 + sum(range(8))


@pytest.mark.parametrize("name", ["lru_cache(maxsize)", "through a helper"])
def test_compile_traces_through_the_cache(name: str) -> None:
    function = _traced(_CACHED[name])
    compiled, counter = compile_counted(function)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dynamo warns that it ignores the cache wrapper
        compiled(torch.ones(5, 3))
        second = compiled(torch.ones(7, 3))
    assert counter.frame_count == 1
    assert float(second) == float(function(torch.ones(7, 3)))
