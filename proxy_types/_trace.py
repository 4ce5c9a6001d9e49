"""Recording of proxy operations, guards and deferred checks (contextvars-based)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import NamedTuple, Protocol, TypeVar

from ._guards import is_dynamic_number
from ._table import OPERATORS

_SYMBOLS: dict[str, tuple[str, str]] = {op.name: (op.symbol, op.kind) for op in OPERATORS}


class Recorder(Protocol):
    """Receives what happens to dynamic numbers while it is the active recorder."""

    def record_operation(self, result: object, operator: str, operands: tuple[object, ...]) -> None:
        """``result`` was computed as ``operator`` (an ``operator`` module name) of ``operands``."""

    def record_guard(self, value: object, static_value: object) -> None:
        """The program was specialized on ``value == static_value``."""

    def record_check(self, condition: object, message: str) -> None:
        """``condition`` must hold at run time (a deferred check)."""


class Operation(NamedTuple):
    result: object
    operator: str
    operands: tuple[object, ...]


class Guard(NamedTuple):
    value: object
    static_value: object


class Check(NamedTuple):
    condition: object
    message: str


def _show(value: object) -> str:
    # Dynamic numbers print as their name (their str); static values as repr.
    return str(value) if is_dynamic_number(value) else repr(value)


def format_operation(operation: Operation) -> str:
    """One readable line, e.g. ``t0 = n + 1``."""
    symbol, kind = _SYMBOLS.get(operation.operator, (operation.operator, "call"))
    args = [_show(arg) for arg in operation.operands]
    if kind == "unary":
        expression = f"{symbol}({args[0]})" if symbol.isidentifier() else f"{symbol}{args[0]}"
    elif len(args) == 2 and kind != "call":
        expression = f"{args[0]} {symbol} {args[1]}"
    else:
        expression = f"{symbol}({', '.join(args)})"
    return f"{_show(operation.result)} = {expression}"


class Trace:
    """A recorder that keeps everything in order; ``str(trace)`` prints it."""

    def __init__(self, forward_to: Recorder | None = None) -> None:
        self.operations: list[Operation] = []
        self.guards: list[Guard] = []
        self.checks: list[Check] = []
        self._events: list[Operation | Guard | Check] = []
        self._forward_to = forward_to

    def record_operation(self, result: object, operator: str, operands: tuple[object, ...]) -> None:
        event = Operation(result, operator, operands)
        self.operations.append(event)
        self._events.append(event)
        if self._forward_to is not None:
            self._forward_to.record_operation(result, operator, operands)

    def record_guard(self, value: object, static_value: object) -> None:
        event = Guard(value, static_value)
        self.guards.append(event)
        self._events.append(event)
        if self._forward_to is not None:
            self._forward_to.record_guard(value, static_value)

    def record_check(self, condition: object, message: str) -> None:
        event = Check(condition, message)
        self.checks.append(event)
        self._events.append(event)
        if self._forward_to is not None:
            self._forward_to.record_check(condition, message)

    def lines(self) -> list[str]:
        """The events as Python-like lines, in the order they happened."""
        result = []
        for event in self._events:
            if isinstance(event, Operation):
                result.append(format_operation(event))
            elif isinstance(event, Guard):
                result.append(f"guard {_show(event.value)} == {event.static_value!r}")
            else:
                result.append(f"check {_show(event.condition)}, {event.message!r}")
        return result

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def __repr__(self) -> str:
        return (f"<Trace: {len(self.operations)} operations, {len(self.guards)} guards, "
                f"{len(self.checks)} checks>")


_recorder: ContextVar[Recorder | None] = ContextVar("proxy_types_recorder", default=None)
_name_counter: ContextVar[Iterator[int] | None] = ContextVar("proxy_types_names", default=None)
_global_counter = itertools.count()

R = TypeVar("R", bound=Recorder)


def current_recorder() -> Recorder | None:
    """The recorder active in this thread / task, or None outside any trace."""
    return _recorder.get()


def fresh_name(prefix: str) -> str:
    """A new proxy name; numbering restarts in each trace."""
    counter = _name_counter.get()
    return f"{prefix}{next(counter if counter is not None else _global_counter)}"


@contextmanager
def use_recorder(recorder: R) -> Iterator[R]:
    """Make ``recorder`` the active recorder inside the ``with`` block."""
    recorder_token = _recorder.set(recorder)
    names_token = _name_counter.set(itertools.count())
    try:
        yield recorder
    finally:
        _name_counter.reset(names_token)
        _recorder.reset(recorder_token)


@contextmanager
def trace(recorder: Recorder | None = None) -> Iterator[Trace]:
    """Record proxy operations, guards and checks in a new ``Trace``.

    Inner traces replace outer ones.  With ``recorder``, every event is also
    passed on to it, so a compiler can plug in its own recorder.
    """
    with use_recorder(Trace(forward_to=recorder)) as active:
        yield active
