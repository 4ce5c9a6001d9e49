"""Guards telling static numbers from dynamic ones, without ever raising."""

from __future__ import annotations

import abc
import builtins
import sys
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar, Union, overload

from typing_extensions import TypeAlias, TypeIs

from ._table import FOREIGN_DYNAMIC_TYPES, STATIC_BUILTIN_TYPES

_speedups: types.ModuleType | None
try:
    from . import _speedups
except ImportError:  # not compiled (a source checkout, or no C compiler at install)
    _speedups = None

#: The static number types, narrowest first, as the table names them.
_STATIC_KINDS: tuple[type, ...] = tuple(getattr(builtins, name) for name in STATIC_BUILTIN_TYPES.values())
_PYTHON_TYPES: dict[str, type] = {kind.__name__: kind for kind in _STATIC_KINDS}
_STATIC_EXACT: frozenset[type] = frozenset(_STATIC_KINDS)
_STATIC_BASES: tuple[type, ...] = tuple(kind for kind in _STATIC_KINDS if kind is not bool)

# type.__mro__ read through the descriptor, so a metaclass cannot shadow it.
_real_mro: Any = type.__dict__["__mro__"].__get__

# Registered dynamic classes, by identity (a metaclass may break hashing).
_registered: dict[int, tuple[type, type]] = {}
# Each guard's answer per class, so that a call is one dict lookup on its type.
# Cleared (never rebound) on registration; the exact builtins are always present.
_static_answers: dict[type, bool] = {}
_dynamic_answers: dict[type, bool] = {}
_CACHE_LIMIT = 4096
# Called with each newly registered class (an active runtime audit watches it).
_registration_listeners: list[Callable[[type], None]] = []


def _forget_answers() -> None:
    _static_answers.clear()
    _dynamic_answers.clear()
    for kind in _STATIC_KINDS:
        _static_answers[kind] = True
        _dynamic_answers[kind] = False


_forget_answers()


class _DynamicNumberMeta(abc.ABCMeta):
    # isinstance() looks at the real type only (an object whose __class__
    # property claims to be a proxy is not one) and, like the guards, never raises.
    def __instancecheck__(cls, instance: object) -> bool:
        if cls is DynamicNumber:
            return is_dynamic_number(instance)
        return cls.__subclasscheck__(type(instance))

    def __subclasscheck__(cls, subclass: type) -> bool:
        try:
            return super().__subclasscheck__(subclass)
        except Exception:
            return False


class DynamicNumber(metaclass=_DynamicNumberMeta):
    """A number known only when the traced program runs.

    ``isinstance(x, DynamicNumber)`` is ``is_dynamic_number(x)``: our proxies
    subclass it; torch's Sym types and registered classes are virtual subclasses.
    """

    __slots__ = ()

    @classmethod
    def __subclasshook__(cls, subclass: type) -> Any:
        if cls is not DynamicNumber:
            return NotImplemented
        try:
            if _foreign_python_type(_real_mro(subclass)) is not None:
                return True
        except Exception:
            pass
        return NotImplemented


def _foreign_python_type(mro: tuple[type, ...]) -> type | None:
    """The python type of a foreign dynamic class in ``mro`` whose module is loaded."""
    for entry in FOREIGN_DYNAMIC_TYPES:
        module = sys.modules.get(entry.module)
        if module is None:
            continue
        foreign = getattr(module, entry.name, None)
        if foreign is not None and any(base is foreign for base in mro):
            return _PYTHON_TYPES.get(entry.python_type, object)
    return None


def _registered_python_type(mro: tuple[type, ...]) -> type | None:
    for base in mro:
        found = _registered.get(id(base))
        if found is not None and found[0] is base:
            return found[1]
    return None


def _classify(cls: type) -> tuple[bool, bool]:
    """(is static, is dynamic) for instances of ``cls``, remembered for the guards."""
    try:
        if cls in _STATIC_EXACT:
            return (True, False)
        mro = _real_mro(cls)
        dynamic = (
            DynamicNumber in mro
            or _registered_python_type(mro) is not None
            or _foreign_python_type(mro) is not None
        )
        static = not dynamic and any(base in mro for base in _STATIC_BASES)
    except Exception:
        return (False, False)
    try:
        if len(_static_answers) >= _CACHE_LIMIT:
            _forget_answers()
        _static_answers[cls] = static
        _dynamic_answers[cls] = dynamic
    except Exception:  # unhashable metaclass: answer without caching
        pass
    return (static, dynamic)


# Each guard is one dict lookup: even `type(x) is int` in a Python function
# costs 1.4x an empty call (benchmarks/bench_guards.py), so every step counts.
def is_static_number(x: object) -> TypeIs[int | float | complex]:
    """True for genuine static numbers: bool, int, float, complex and subclasses.

    False for proxies, torch Sym types and registered dynamic types, even those
    that inherit from a builtin number class.  Never raises.
    """
    try:
        return _static_answers[type(x)]
    except Exception:
        return _classify(type(x))[0]


def is_dynamic_number(x: object) -> TypeIs[DynamicNumber]:
    """True for proxies, torch SymInt/SymFloat/SymBool (when torch is already
    imported) and registered dynamic types.  Never raises."""
    try:
        return _dynamic_answers[type(x)]
    except Exception:
        return _classify(type(x))[1]


# The compiled guards, where built, do the same lookup without a Python frame,
# the only way to stay within issue #16's 1.3x of an empty call.
if _speedups is not None:
    _speedups.install(_static_answers, _dynamic_answers, _classify)
    is_static_number = _speedups.is_static_number
    is_dynamic_number = _speedups.is_dynamic_number


def python_type_of(x: object) -> type | None:
    """The Python number type a dynamic number stands for (None if not dynamic)."""
    if not is_dynamic_number(x):
        return None
    try:
        mro = _real_mro(type(x))
        found = _registered_python_type(mro) or _foreign_python_type(mro)
        if found is not None:
            return found
        for base in mro:
            declared = base.__dict__.get("python_type")
            if declared in _STATIC_EXACT:
                return typing.cast(type, declared)
    except Exception:
        pass
    return None


_ClassT = TypeVar("_ClassT", bound=type)
_PythonType: TypeAlias = Union[type[int], type[float], type[complex], type[bool]]


@overload
def register_dynamic_type(cls: _ClassT, python_type: _PythonType) -> _ClassT: ...
@overload
def register_dynamic_type(*, python_type: _PythonType) -> Callable[[_ClassT], _ClassT]: ...
def register_dynamic_type(
    cls: _ClassT | None = None, python_type: _PythonType | None = None
) -> _ClassT | Callable[[_ClassT], _ClassT]:
    """Declare ``cls`` a dynamic number standing for ``python_type``; returns ``cls``.

    ``@register_dynamic_type(python_type=int)`` does the same for the decorated class.
    """
    if python_type is None:
        raise TypeError("register_dynamic_type: python_type is required; as a decorator "
                        "write @register_dynamic_type(python_type=int)")
    if python_type not in _STATIC_EXACT:
        raise TypeError("register_dynamic_type: python_type must be bool, int, float or "
                        f"complex, got {python_type!r}")
    if cls is not None:
        return _register(cls, python_type)
    number_type = python_type

    def register(decorated: _ClassT) -> _ClassT:
        return _register(decorated, number_type)

    return register


def _register(cls: _ClassT, python_type: type) -> _ClassT:
    checked: object = cls  # callers without a type checker pass anything
    if not isinstance(checked, type):
        raise TypeError(f"register_dynamic_type: expected a class, got {cls!r}")
    _registered[id(cls)] = (cls, python_type)
    DynamicNumber.register(cls)
    _forget_answers()
    for listener in tuple(_registration_listeners):
        listener(cls)
    return cls


NumberLike: TypeAlias = Union[int, float, complex, DynamicNumber]
NumberClasses: tuple[type, ...] = (int, float, complex, DynamicNumber)


def _flatten_classinfo(classinfo: object) -> list[object]:
    if isinstance(classinfo, tuple):
        return [c for item in classinfo for c in _flatten_classinfo(item)]
    if isinstance(classinfo, types.UnionType) or typing.get_origin(classinfo) is Union:
        return _flatten_classinfo(typing.get_args(classinfo))
    return [classinfo]


def external_isinstance(obj: object, cls: Any) -> bool:
    """``isinstance`` as the *traced user program* should see it.

    A dynamic number presents as the Python type it stands for (a FloatProxy
    is a float, a BoolProxy a bool and an int); everything else is unchanged.
    """
    presented = python_type_of(obj)
    if presented is None:
        return isinstance(obj, cls)
    for candidate in _flatten_classinfo(cls):
        if not isinstance(candidate, type):
            raise TypeError(f"external_isinstance: {candidate!r} is not a class")
        if issubclass(presented, candidate) or isinstance(obj, candidate):
            return True
    return False
