"""Explicit, recorded conversions: ``to_static`` and ``check``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, overload

from ._errors import CheckError, ConcretizationError
from ._guards import is_dynamic_number, is_static_number, python_type_of
from ._proxies import BoolProxy, ComplexProxy, FloatProxy, IntegerProxy, NumberProxy
from ._trace import current_recorder

_TORCH_GUARDS: dict[str, str] = {"SymInt": "guard_int", "SymFloat": "guard_float", "SymBool": "guard_bool"}


def _torch_kind(x: object) -> str | None:
    """"SymInt" / "SymFloat" / "SymBool" when x is one (torch is never imported here)."""
    torch = sys.modules.get("torch")
    if torch is None:
        return None
    for kind in _TORCH_GUARDS:
        torch_class = getattr(torch, kind, None)
        if isinstance(torch_class, type) and isinstance(x, torch_class):
            return kind
    return None


def _record_guard(value: object, static_value: object) -> None:
    recorder = current_recorder()
    if recorder is not None:
        recorder.record_guard(value, static_value)


def _torch_to_static(x: object, kind: str) -> Any:
    symbolic_shapes = sys.modules.get("torch.fx.experimental.symbolic_shapes")
    if symbolic_shapes is None:
        # Loaded by torch itself; only missing if torch is half-imported.
        import importlib

        symbolic_shapes = importlib.import_module("torch.fx.experimental.symbolic_shapes")
    data_dependent = getattr(symbolic_shapes, "GuardOnDataDependentSymNode", RuntimeError)
    try:
        value = getattr(symbolic_shapes, _TORCH_GUARDS[kind])(x)
    except data_dependent as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        raise ConcretizationError(
            f"to_static: torch.{kind} {x} is data-dependent (no hint), so it cannot be "
            f"specialized; use proxy_types.check(...) or keep it dynamic ({first_line})"
        ) from None
    _record_guard(x, value)
    return value


@overload
def to_static(x: BoolProxy | bool) -> bool: ...
@overload
def to_static(x: IntegerProxy | int) -> int: ...
@overload
def to_static(x: FloatProxy | float) -> float: ...
@overload
def to_static(x: ComplexProxy | complex) -> complex: ...
@overload
def to_static(x: object) -> Any: ...


def to_static(x: object) -> Any:
    """The plain value of ``x``, specializing the program on it (a recorded guard).

    Static numbers are returned as is.  Raises ConcretizationError when the value
    is unknown (no hint; an unbacked torch symbol) and TypeError for non-numbers.
    For torch Sym types the guard goes into torch's ShapeEnv (guard_int & co.).
    """
    if is_static_number(x):
        return x
    if isinstance(x, NumberProxy):
        if x.hint is None:
            raise ConcretizationError(
                f"to_static: {x!r} has no hint (its value is data-dependent), so it cannot be "
                f"specialized; use proxy_types.check(...) or keep it dynamic"
            )
        _record_guard(x, x.hint)
        return x.hint
    torch_kind = _torch_kind(x)
    if torch_kind is not None:
        return _torch_to_static(x, torch_kind)
    if is_dynamic_number(x):
        raise ConcretizationError(
            f"to_static: no way to read the value of {type(x).__name__} {x!r} "
            f"(a registered dynamic {getattr(python_type_of(x), '__name__', 'number')})"
        )
    raise TypeError(f"to_static: expected a number, got {x!r} of type {type(x).__name__}")


def _message_text(message: str | Callable[[], str]) -> str:
    return message() if callable(message) else message


def check(cond: object, message: str | Callable[[], str] = "check failed") -> None:
    """Assert ``cond`` without forcing it.

    A static False raises CheckError at once, a static True does nothing; a
    dynamic condition (BoolProxy, torch SymBool) becomes a deferred run-time
    check: recorded in the active trace, and for torch given to ``torch._check``.
    A SymBool that torch evaluates to False (backed, or False by simplification)
    raises CheckError too.
    """
    if isinstance(cond, bool):
        if not cond:
            raise CheckError(_message_text(message))
        return
    if isinstance(cond, BoolProxy):
        recorder = current_recorder()
        if recorder is not None:
            recorder.record_check(cond, _message_text(message))
        return
    if _torch_kind(cond) == "SymBool":
        torch = sys.modules["torch"]
        text = _message_text(message)
        try:
            torch._check(cond, lambda: text)
        except RuntimeError as err:
            # torch raises a plain RuntimeError(text) when it evaluates the condition to
            # False; its subclasses (data-dependent guards...) are other problems.
            if type(err) is RuntimeError and str(err) == text:
                raise CheckError(text) from err
            raise
        recorder = current_recorder()
        if recorder is not None:
            recorder.record_check(cond, text)
        return
    raise TypeError(
        f"check: condition must be a bool, BoolProxy or torch.SymBool, got {cond!r} "
        f"of type {type(cond).__name__}"
    )
