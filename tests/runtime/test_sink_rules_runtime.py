"""What torch 2.13 does, under each of three tracers, at the sinks and non-sinks the
plugin decides on in traced model code:

* equality of a size with a static value that is no literal (a parameter's or a
  buffer's shape, a config attribute, a helper's parameter, ``len()`` of a static
  container) pins the size, like equality with a literal (``checks/comparisons.py``);
* a tensor used as a condition, and an order comparison of an ``.item()`` value, are
  data-dependent: make_fx and export fail, compile(fullgraph) refuses to branch;
* ``math.ceil``/``math.floor`` of a SymFloat stay symbolic (``proxy_types/_table.py``);
* builtin ``min``/``max`` over sizes: export and compile keep them symbolic, make_fx
  guards an order only (``analysis/sources_sinks.SIZE_SINK_FUNCTIONS``).

The tracers: ``make_fx(tracing_mode="symbolic")``, ``torch.export.export(strict=False)``
with a ``Dim`` per dynamic dimension, and ``torch.compile(backend=counter,
dynamic=True, fullgraph=True)`` over two sizes (a second frame is a recompile).
"""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

torch = pytest.importorskip("torch")
from tests.runtime import tracers  # noqa: E402
from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode  # noqa: E402

_Module: Any = torch.nn.Module


def make_fx_guards(model: Any, x: Any) -> list[str]:
    graph: Any = tracers.make_fx_symbolic(lambda value: model(value), x)
    return [str(guard.expr) for guard in graph.shape_env.guards]


def export_with_dims(model: Any, x: Any, dims: tuple[int, ...]) -> Any:
    return tracers.export_with_dims(
        model, x, {dim: torch.export.Dim(f"d{dim}", min=2, max=64) for dim in dims})


def compiled_frames(model: Any, first: Any, second: Any) -> int:
    """Frames compiled over two calls: 2 means the second size recompiled."""
    compiled, counter = tracers.compile_counted(model)
    compiled(first)
    compiled(second)
    return int(counter.frame_count)


# -- equality with a static value ----------------------------------------------------------


class _Config:
    size = 4


class _Static(_Module):  # type: ignore[misc]
    def __init__(self) -> None:
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(4, 4))
        self.register_buffer("buf", torch.zeros(4))
        self.config = _Config()
        self.size = 4
        self.layers = torch.nn.ModuleList([torch.nn.Identity() for _ in range(4)])


def _scaled_if_equal(x: Any, n: int) -> Any:
    return x * 5 if x.shape[1] == n else x


class ParameterShape(_Static):
    def forward(self, x: Any) -> Any:
        return x * 2 if x.shape[1] == self.weight.shape[0] else x


class BufferShape(_Static):
    def forward(self, x: Any) -> Any:
        return x * 2 if x.shape[1] == self.buf.shape[0] else x


class ConfigValue(_Static):
    def forward(self, x: Any) -> Any:
        width = x.shape[1]
        return x * 3 if width == self.config.size else x


class HelperParameter(_Static):
    def forward(self, x: Any) -> Any:
        return _scaled_if_equal(x, self.size)


class LengthOfModules(_Static):
    def forward(self, x: Any) -> Any:
        return x * 2 if x.shape[1] == len(self.layers) else x


class Relation(_Static):  # the control: two sizes, no static value
    def forward(self, x: Any) -> Any:
        return x * 3 if x.shape[0] == x.shape[1] else x


class AssertedEqual(_Static):
    def forward(self, x: Any) -> Any:
        assert x.shape[1] == self.weight.shape[0]
        return x * 2


_STATIC_SIDES = [ParameterShape, BufferShape, ConfigValue, HelperParameter, LengthOfModules]


@pytest.mark.parametrize("model", _STATIC_SIDES)
def test_equality_with_a_static_value_pins_the_size_under_make_fx(model: type) -> None:
    assert make_fx_guards(model(), torch.randn(3, 4)) == [_eq_guard_text()], model


def _eq_guard_text() -> str:
    shown = make_fx_guards(_LiteralEquality(), torch.randn(3, 4))
    assert len(shown) == 1 and re.fullmatch(r"Eq\(s\d+, 4\)", shown[0]), shown
    return shown[0]


class _LiteralEquality(_Module):  # type: ignore[misc]
    def forward(self, x: Any) -> Any:
        return x * 2 if x.shape[1] == 4 else x


@pytest.mark.parametrize("model", _STATIC_SIDES)
def test_equality_with_a_static_value_fails_export_with_a_dim(model: type) -> None:
    with pytest.raises(torch._dynamo.exc.UserError, match="specialized it to be a constant"):
        export_with_dims(model(), torch.randn(3, 4), (1,))


@pytest.mark.parametrize("model", _STATIC_SIDES)
def test_equality_with_a_static_value_recompiles(model: type) -> None:
    assert compiled_frames(model(), torch.randn(3, 4), torch.randn(3, 5)) == 2


def test_equality_of_two_sizes_is_a_relation() -> None:  # the control
    # make_fx unifies the sizes (one symbol for both), pins no value; compile reuses the
    # frame for another square input.
    assert make_fx_guards(Relation(), torch.randn(5, 5)) == []
    assert compiled_frames(Relation(), torch.randn(5, 5), torch.randn(6, 6)) == 1


def test_an_asserted_equality_pins_only_the_value_the_assertion_allows() -> None:
    # make_fx: the same Eq guard.  But any other width fails the assertion in eager code
    # too, so the specialization loses no valid input: a requirement, not reported.
    assert make_fx_guards(AssertedEqual(), torch.randn(3, 4)) == [_eq_guard_text()]
    with pytest.raises(AssertionError):
        AssertedEqual()(torch.randn(3, 5))
    assert compiled_frames(AssertedEqual(), torch.randn(3, 4), torch.randn(2, 4)) == 1


# -- tensor data as a condition ------------------------------------------------------------


class SumPositive(_Module):  # type: ignore[misc]
    def forward(self, x: Any) -> Any:
        if x.sum() > 0:
            return x + 1
        return x - 1


class AnyPositive(_Module):  # type: ignore[misc]
    def forward(self, x: Any) -> Any:
        if (x > 0).any():
            return x + 1
        return x - 1


class HalveUntilSmall(_Module):  # type: ignore[misc]
    def forward(self, x: Any) -> Any:
        err = x.abs().max()
        while err > 1e-3:
            err = err / 2
        return x * err


class ItemPositive(_Module):  # type: ignore[misc]
    def forward(self, x: Any) -> Any:
        value = x.sum().item()
        if value > 0:
            return x + 1
        return x - 1


class SizeAboveTwo(_Module):  # type: ignore[misc]  # the control: a size has a hint
    def forward(self, x: Any) -> Any:
        if x.shape[0] > 2:
            return x + 1
        return x - 1


_DATA_CONDITIONS = [SumPositive, AnyPositive, HalveUntilSmall, ItemPositive]


@pytest.mark.parametrize("model", _DATA_CONDITIONS)
def test_a_condition_on_tensor_data_fails_make_fx(model: type) -> None:
    with pytest.raises(GuardOnDataDependentSymNode, match="data-dependent expression"):
        make_fx_guards(model(), torch.randn(6, 3))


@pytest.mark.parametrize("model", _DATA_CONDITIONS)
def test_a_condition_on_tensor_data_fails_export(model: type) -> None:
    with pytest.raises(GuardOnDataDependentSymNode, match="data-dependent expression"):
        export_with_dims(model(), torch.randn(6, 3), (0,))


@pytest.mark.parametrize("model", _DATA_CONDITIONS)
def test_a_condition_on_tensor_data_fails_compile_fullgraph(model: type) -> None:
    error = (torch._dynamo.exc.Unsupported, torch._dynamo.exc.UserError)
    with pytest.raises(error, match="[Dd]ata-dependent"):
        compiled_frames(model(), torch.randn(6, 3), torch.randn(7, 3))


# Compiled here, not in this file: pytest rewrites a test module's asserts into
# branches, which is not what torch.compile sees in user code.
_ASSERTS = """
class AssertedData(Module):
    def forward(self, x):
        assert (x > -100).all()
        return x + 1


class AssertedDataRange(Module):
    def forward(self, x):
        assert (x.min() >= -100) and (x.max() < 100)
        return x + 1
"""
_asserts: dict[str, Any] = {"Module": torch.nn.Module}
exec(compile(_ASSERTS, "user_asserts.py", "exec"), _asserts)
AssertedData, AssertedDataRange = _asserts["AssertedData"], _asserts["AssertedDataRange"]


@pytest.mark.parametrize("model", [AssertedData, AssertedDataRange])
def test_an_assert_on_tensor_data_fails_make_fx_and_export(model: type) -> None:
    with pytest.raises(GuardOnDataDependentSymNode, match="data-dependent expression"):
        make_fx_guards(model(), torch.randn(6, 3))
    with pytest.raises(GuardOnDataDependentSymNode, match="data-dependent expression"):
        export_with_dims(model(), torch.randn(6, 3), (0,))


def test_compile_turns_an_assert_on_one_tensor_into_torch_assert() -> None:
    assert compiled_frames(AssertedData(), torch.randn(6, 3), torch.randn(7, 3)) == 1
    # ... but `a and b` branches on `a` first
    with pytest.raises(torch._dynamo.exc.Unsupported, match="Data-dependent branching"):
        compiled_frames(AssertedDataRange(), torch.randn(6, 3), torch.randn(7, 3))


def test_an_order_condition_on_a_size_traces() -> None:  # the control
    assert len(make_fx_guards(SizeAboveTwo(), torch.randn(6, 3))) == 1
    assert compiled_frames(SizeAboveTwo(), torch.randn(6, 3), torch.randn(7, 3)) == 1


# -- math.ceil / math.floor of a SymFloat ----------------------------------------------------


class CeilScale(_Module):  # type: ignore[misc]
    def forward(self, x: Any) -> Any:
        return x * math.ceil(x.shape[0] / 4)


class FloorScale(_Module):  # type: ignore[misc]
    def forward(self, x: Any) -> Any:
        return x * math.floor(x.shape[0] / 4)


class IntScale(_Module):  # type: ignore[misc]  # the control: int() of the SymFloat guards
    def forward(self, x: Any) -> Any:
        return x * int(x.shape[0] / 4)


@pytest.mark.parametrize("model", [CeilScale, FloorScale])
def test_ceil_and_floor_of_a_symfloat_stay_symbolic(model: type) -> None:
    assert make_fx_guards(model(), torch.randn(6, 3)) == []
    program = export_with_dims(model(), torch.randn(6, 3), (0,))
    assert [str(value) for value in program.range_constraints.values()] == ["VR[2, 64]"]
    assert compiled_frames(model(), torch.randn(6, 3), torch.randn(10, 3)) == 1


def test_int_of_a_symfloat_guards() -> None:  # the control
    assert make_fx_guards(IntScale(), torch.randn(6, 3)) != []


def test_ceil_of_a_symbool_raises() -> None:  # the table's "bool" column
    from torch.fx.experimental.symbolic_shapes import ShapeEnv

    env = ShapeEnv()
    size = env.create_symintnode(env.create_symbol(5, torch._dynamo.source.ConstantSource("n")),
                                 hint=5)
    with pytest.raises(TypeError):
        math.ceil(size > 2)


# -- builtin min / max over sizes ------------------------------------------------------------


class MinOfSizes(_Module):  # type: ignore[misc]
    def forward(self, x: Any) -> Any:
        return x.new_zeros(min(x.shape[0], x.shape[1]))


class MinOfSizeAndInt(_Module):  # type: ignore[misc]
    def forward(self, x: Any) -> Any:
        return x.new_zeros(min(x.shape[0], 4) + 1)


class MaxOfShape(_Module):  # type: ignore[misc]
    def forward(self, x: Any) -> Any:
        return x.new_zeros(max(x.shape) + 1)


_MIN_MAX: list[tuple[type, tuple[int, ...], str]] = [
    (MinOfSizes, (0, 1), r"s\d+ < s\d+"),
    (MinOfSizeAndInt, (0,), r"s\d+ > 4"),
    (MaxOfShape, (0, 1), r"s\d+ <= s\d+"),
]


@pytest.mark.parametrize(("model", "dims", "guard"), _MIN_MAX)
def test_builtin_min_max_guard_an_order_under_make_fx_only(
        model: type, dims: tuple[int, ...], guard: str) -> None:
    shown = make_fx_guards(model(), torch.randn(6, 3))
    assert len(shown) == 1 and re.fullmatch(guard, shown[0]), shown  # an order, no value
    program = export_with_dims(model(), torch.randn(6, 3), dims)  # no guard to violate
    assert all(str(value) == "VR[2, 64]" for value in program.range_constraints.values())
    # 6x3 then 3x6: the other operand is the smaller one, and the frame is reused
    assert compiled_frames(model(), torch.randn(6, 3), torch.randn(3, 6)) == 1


def _order_guard_control(x: Any) -> Any:  # a condition on the order does guard
    return x + 1 if x.shape[0] < x.shape[1] else x


def test_a_condition_on_the_order_recompiles() -> None:  # the control
    counter_frames = compiled_frames(_order_guard_control, torch.randn(6, 3), torch.randn(3, 6))
    assert counter_frames == 2

