"""Number proxies: symbolic numbers that are not ``numbers.Number``, int or float.

Operators are generated from ``_table.OPERATORS``.  The result kind is what
Python returns on the operands' hints when all are known, else on fixed
positive sample values of the operand kinds (so ``int ** int`` with an unknown
exponent is an IntegerProxy).  When Python raises on the known hints
(ZeroDivisionError, OverflowError, ValueError), the result's hint is None: the
hint is only an example, the real value may be fine.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, ClassVar, Union

from ._errors import ConcretizationError
from ._guards import _STATIC_KINDS, DynamicNumber, is_static_number
from ._table import CONCRETIZING_DUNDERS, CONVERSIONS, OPERATORS, Concretizer, Operator
from ._trace import current_recorder, fresh_name

Hint = Union[int, float, complex, bool, None]

# Positive, non-zero examples of each kind, to find result kinds when hints are unknown.
_SAMPLES: dict[type, object] = {bool: True, int: 3, float: 2.5, complex: 2.5 + 1j}
# Do not compute hints whose size would explode (e.g. 10 ** 10**9).
_MAX_HINT_BITS = 1 << 20
_FORMAT_WITH_SPEC = next(c.operation for c in CONVERSIONS if c.name == "__format__:spec")


class NumberProxy(DynamicNumber):
    """A dynamic number: a name plus, when known, an example value (``hint``)."""

    __slots__ = ("_name", "_hint")
    python_type: ClassVar[type]

    _name: str
    _hint: Hint

    def __init__(self, name: str, hint: Hint = None) -> None:
        if type(self) is NumberProxy:
            raise TypeError("NumberProxy is abstract: use IntegerProxy, FloatProxy, "
                            "ComplexProxy, BoolProxy or proxy()")
        checked_name: object = name  # callers without a type checker pass anything
        if not isinstance(checked_name, str) or not checked_name:
            raise TypeError(f"{type(self).__name__}: name must be a non-empty str, got {name!r}")
        # A subclass with a bad python_type fails here even without a hint.
        validate_hint = self._hint_validator()
        self._name = name
        self._hint = None if hint is None else validate_hint(type(self), hint)

    @classmethod
    def _hint_validator(cls) -> Callable[[type[NumberProxy], object], Hint]:
        """The hint check of ``cls.python_type``; TypeError if that is no number type."""
        python_type = getattr(cls, "python_type", None)
        validator = _HINT_VALIDATORS.get(python_type) if isinstance(python_type, type) else None
        if validator is None:
            raise TypeError(f"{cls.__name__}: python_type must be bool, int, float or complex, "
                            f"got {python_type!r}")
        return validator

    @classmethod
    def _bad_hint(cls, hint: object) -> TypeError:
        return TypeError(f"{cls.__name__}: hint must be a static {cls.python_type.__name__} "
                         f"or None, got {hint!r} of type {type(hint).__name__}")

    @property
    def name(self) -> str:
        """The proxy's name, as printed in traces."""
        return self._name

    @property
    def hint(self) -> Hint:
        """A known example value, or None when the value is data-dependent."""
        return self._hint

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self._name!r}, hint={self._hint!r})"

    def __str__(self) -> str:
        return self._name

    def __format__(self, format_spec: str, /) -> str:
        # The name, as str() gives it; a spec such as ".2f" would need the value.
        if format_spec:
            raise ConcretizationError(
                concretization_message(self, f"{_FORMAT_WITH_SPEC} {format_spec!r}"))
        return str(self)


class IntegerProxy(NumberProxy):
    """A dynamic int."""

    __slots__ = ()
    python_type = int

    def __init__(self, name: str, hint: int | None = None) -> None:
        super().__init__(name, hint)


class FloatProxy(NumberProxy):
    """A dynamic float."""

    __slots__ = ()
    python_type = float

    def __init__(self, name: str, hint: float | None = None) -> None:
        super().__init__(name, hint)


class ComplexProxy(NumberProxy):
    """A dynamic complex."""

    __slots__ = ()
    python_type = complex

    def __init__(self, name: str, hint: complex | None = None) -> None:
        super().__init__(name, hint)


class BoolProxy(NumberProxy):
    """A dynamic bool; ``check(b)`` records it as a runtime assertion."""

    __slots__ = ()
    python_type = bool

    def __init__(self, name: str, hint: bool | None = None) -> None:
        super().__init__(name, hint)


def _int_hint(cls: type[NumberProxy], hint: object) -> Hint:
    if isinstance(hint, bool) or not (isinstance(hint, int) and is_static_number(hint)):
        raise cls._bad_hint(hint)
    return operator.index(hint)


def _float_hint(cls: type[NumberProxy], hint: object) -> Hint:
    if isinstance(hint, bool) or not (isinstance(hint, (int, float)) and is_static_number(hint)):
        raise cls._bad_hint(hint)
    return float(hint)


def _complex_hint(cls: type[NumberProxy], hint: object) -> Hint:
    if isinstance(hint, bool) or not (
        isinstance(hint, (int, float, complex)) and is_static_number(hint)
    ):
        raise cls._bad_hint(hint)
    return complex(hint)


def _bool_hint(cls: type[NumberProxy], hint: object) -> Hint:
    if not isinstance(hint, bool):
        raise cls._bad_hint(hint)
    return bool(hint)


# Keyed by the class's python_type: a user subclass of NumberProxy only sets python_type.
_HINT_VALIDATORS: dict[type, Callable[[type[NumberProxy], object], Hint]] = {
    int: _int_hint, float: _float_hint, complex: _complex_hint, bool: _bool_hint,
}


_PROXY_OF_KIND: dict[type, type[NumberProxy]] = {
    bool: BoolProxy, int: IntegerProxy, float: FloatProxy, complex: ComplexProxy,
}


def proxy(value: bool | int | float | complex, name: str | None = None) -> NumberProxy:
    """A proxy of the matching kind with ``value`` as its hint (fresh name if None)."""
    if not is_static_number(value):
        raise TypeError(f"proxy: expected a static bool, int, float or complex, got {value!r}")
    kind = _static_kind(value)
    return _PROXY_OF_KIND[kind](fresh_name("p") if name is None else name, value)


def _static_kind(value: object) -> type:
    for kind in _STATIC_KINDS:
        if isinstance(value, kind):
            return kind
    raise AssertionError(value)  # callers pass static numbers only


def _operand(value: object) -> tuple[type, Hint, bool] | None:
    """(kind, hint, known) of an operand, or None when proxies do not support it."""
    if isinstance(value, NumberProxy):
        return value.python_type, value._hint, value._hint is not None
    if is_static_number(value):
        kind = _static_kind(value)
        return kind, kind(value), True
    return None


_result_kind_cache: dict[tuple[str, tuple[type, ...]], type | None] = {}


def _sample_result_kind(op: Operator, function: Callable[..., object], kinds: tuple[type, ...]) -> type | None:
    key = (op.name, kinds)
    try:
        return _result_kind_cache[key]
    except KeyError:
        pass
    try:
        kind: type | None = type(function(*(_SAMPLES[k] for k in kinds)))
    except TypeError:
        kind = None
    _result_kind_cache[key] = kind
    return kind


def _too_big(op: Operator, hints: list[Hint]) -> bool:
    if op.name not in ("pow", "lshift") or len(hints) != 2:
        return False
    base, exponent = hints
    if not (isinstance(base, int) and isinstance(exponent, int)) or exponent <= 0:
        return False
    bits = base.bit_length() * exponent if op.name == "pow" else base.bit_length() + exponent
    return bits > _MAX_HINT_BITS


def _apply(op: Operator, function: Callable[..., object], operands: tuple[object, ...]) -> Any:
    described = [_operand(value) for value in operands]
    kinds: list[type] = []
    hints: list[Hint] = []
    known = True
    for item in described:
        if item is None:
            return NotImplemented
        kinds.append(item[0])
        hints.append(item[1])
        known = known and item[2]
    kind = _sample_result_kind(op, function, tuple(kinds))
    if kind is None:
        return NotImplemented
    hint: Hint = None
    if known and not _too_big(op, hints):
        try:
            hint = function(*hints)  # type: ignore[assignment]
            kind = type(hint)
        except (ArithmeticError, ValueError):
            hint = None
    result = object.__new__(_PROXY_OF_KIND[kind])
    result._name = fresh_name("t")
    result._hint = hint
    recorder = current_recorder()
    if recorder is not None:
        recorder.record_operation(result, op.name, operands)
    return result


def _make_operator_methods(op: Operator) -> dict[str, Callable[..., Any]]:
    function: Callable[..., object] = getattr(operator, op.name)
    if op.kind == "unary":
        def unary(self: NumberProxy) -> Any:
            result = _apply(op, function, (self,))
            if result is NotImplemented:
                raise TypeError(f"bad operand type for unary {op.symbol}: {type(self).__name__!r}")
            return result
        return {op.dunder: unary}

    if op.kind == "pow":
        def forward_pow(self: NumberProxy, other: object, modulo: object = None) -> Any:
            return NotImplemented if modulo is not None else _apply(op, function, (self, other))

        def reflected_pow(self: NumberProxy, other: object, modulo: object = None) -> Any:
            return NotImplemented if modulo is not None else _apply(op, function, (other, self))
        return {op.dunder: forward_pow, op.reflected or "": reflected_pow}

    def forward(self: NumberProxy, other: object) -> Any:
        return _apply(op, function, (self, other))

    methods: dict[str, Callable[..., Any]] = {op.dunder: forward}
    if op.reflected is not None:
        def reflected(self: NumberProxy, other: object) -> Any:
            return _apply(op, function, (other, self))
        methods[op.reflected] = reflected
    return methods


def concretization_message(value: object, operation: str) -> str:
    """Why ``operation`` on the dynamic ``value`` was refused and what to do instead."""
    return (
        f"{operation} on dynamic number {value!r} would bake its run-time value into the "
        f"program as a constant; use proxy_types.to_static(x) to specialize on its hint "
        f"(records a guard), proxy_types.check(cond) for a run-time assertion, or branch "
        f"on proxy_types.is_dynamic_number(x)"
    )


def _make_concretizer(concretizer: Concretizer) -> Callable[..., Any]:
    def refuse(self: NumberProxy, *args: object) -> Any:
        raise ConcretizationError(concretization_message(self, concretizer.operation))
    refuse.__doc__ = f"Refuse {concretizer.operation}: raises ConcretizationError."
    return refuse


def _install_methods() -> None:
    for op in OPERATORS:
        for dunder, method in _make_operator_methods(op).items():
            method.__name__ = method.__qualname__ = dunder
            setattr(NumberProxy, dunder, method)
    for concretizer in CONCRETIZING_DUNDERS:
        method = _make_concretizer(concretizer)
        method.__name__ = method.__qualname__ = concretizer.dunder
        setattr(NumberProxy, concretizer.dunder, method)


_install_methods()
