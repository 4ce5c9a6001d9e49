"""trace(), custom recorders, to_static and check (without torch)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from proxy_types import (
    BoolProxy,
    CheckError,
    ConcretizationError,
    FloatProxy,
    IntegerProxy,
    ProxyTypesError,
    Trace,
    check,
    current_recorder,
    register_dynamic_type,
    to_static,
    trace,
    use_recorder,
)


def untyped(value: object) -> Any:
    """Hide a value's type: these tests do on purpose what the stubs forbid."""
    return value


def test_trace_prints_python_like_lines() -> None:
    n = IntegerProxy("n", 5)
    with trace() as t:
        t0 = n + 1
        t1 = -t0
        t2 = abs(FloatProxy("f")) * 2
        positive = t0 >= 0
        check(positive, "n must be non-negative")
        assert to_static(n) == 5
    assert str(t) == "\n".join([
        "t0 = n + 1",
        "t1 = -t0",
        "t2 = abs(f)",
        "t3 = t2 * 2",
        "t4 = t0 >= 0",
        "check t4, 'n must be non-negative'",
        "guard n == 5",
    ])
    results = [op.result for op in t.operations]
    assert results[0] is t0 and results[1] is t1 and results[3] is t2 and results[4] is positive
    assert t.guards[0].value is n and t.guards[0].static_value == 5
    assert t.checks[0].condition is positive


def test_no_recording_outside_a_trace() -> None:
    assert current_recorder() is None
    result = IntegerProxy("n", 2) * 3
    assert result.hint == 6
    with trace() as t:
        pass
    assert t.operations == [] and str(t) == ""


def test_reflected_operations_record_operand_order() -> None:
    with trace() as t:
        10 - IntegerProxy("n", 1)
    assert str(t) == "t0 = 10 - n"


class ListRecorder:
    """A compiler's own recorder (satisfies the Recorder protocol)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []

    def record_operation(self, result: object, operator: str, operands: tuple[object, ...]) -> None:
        self.events.append(("op", (operator, operands)))

    def record_guard(self, value: object, static_value: object) -> None:
        self.events.append(("guard", static_value))

    def record_check(self, condition: object, message: str) -> None:
        self.events.append(("check", message))


def test_custom_recorder() -> None:
    n = IntegerProxy("n", 4)
    mine = ListRecorder()
    with use_recorder(mine) as active:
        assert active is mine and current_recorder() is mine
        n << 1
        check(n > 1, lambda: "lazy message")
        to_static(n)
    assert mine.events == [("op", ("lshift", (n, 1))), ("op", ("gt", (n, 1))),
                           ("check", "lazy message"), ("guard", 4)]
    forwarded = ListRecorder()
    with trace(recorder=forwarded) as t:
        n + n
    assert len(t.operations) == 1 and forwarded.events == [("op", ("add", (n, n)))]
    assert current_recorder() is None


def test_traces_are_isolated_between_threads() -> None:
    barrier = threading.Barrier(2)
    results: dict[str, str] = {}

    def work(label: str) -> None:
        with trace() as t:
            n = IntegerProxy(label, 1)
            barrier.wait()
            for _ in range(50):
                n = n + 1
            barrier.wait()
        results[label] = str(t)

    threads = [threading.Thread(target=work, args=(label,)) for label in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for label, other in (("a", "b"), ("b", "a")):
        lines = results[label].splitlines()
        assert len(lines) == 50 and lines[0] == f"t0 = {label} + 1"
        assert all(f"{other} +" not in line for line in lines)


def test_traces_are_isolated_between_asyncio_tasks() -> None:
    async def work(label: str) -> str:
        with trace() as t:
            n = IntegerProxy(label, 1)
            for _ in range(20):
                n = n * 2
                await asyncio.sleep(0)
        return str(t)

    async def main() -> list[str]:
        return list(await asyncio.gather(work("a"), work("b")))

    first, second = asyncio.run(main())
    assert first.count("\n") == 19 and second.count("\n") == 19
    assert "a * 2" in first and "b" not in first
    assert "b * 2" in second and "a" not in second


def test_to_static() -> None:
    assert to_static(3) == 3 and to_static(2.5) == 2.5 and to_static(True) is True
    assert to_static(IntegerProxy("n", 7)) == 7 and to_static(BoolProxy("b", False)) is False
    with pytest.raises(ConcretizationError, match="has no hint"):
        to_static(IntegerProxy("u"))
    with pytest.raises(TypeError, match="to_static: expected a number, got 'x'"):
        to_static(untyped("x"))

    class Registered:
        pass

    register_dynamic_type(Registered, int)
    with pytest.raises(ConcretizationError, match="registered dynamic int"):
        to_static(untyped(Registered()))


def test_check() -> None:
    check(True, "never raised")
    check(3 > 2)
    with pytest.raises(CheckError, match="^size must be positive$") as caught:
        check(False, "size must be positive")
    assert isinstance(caught.value, AssertionError)
    assert isinstance(caught.value, ProxyTypesError)
    with pytest.raises(CheckError, match="lazy"):
        check(False, lambda: "lazy")
    check(BoolProxy("b", False), "deferred, not forced")  # outside a trace: nothing to do
    with trace() as t:
        check(BoolProxy("b"), "deferred")
    assert [c.message for c in t.checks] == ["deferred"]
    for bad in (1, None, IntegerProxy("n", 1), "yes"):
        with pytest.raises(TypeError, match="check: condition must be a bool"):
            check(untyped(bad))


def test_trace_is_a_recorder_with_repr() -> None:
    with trace() as t:
        IntegerProxy("n") + 1
    assert isinstance(t, Trace)
    assert repr(t) == "<Trace: 1 operations, 0 guards, 0 checks>"
