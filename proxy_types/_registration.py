"""``register_dynamic_type``: called with a class, or used as a class decorator."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, overload

from . import _guards

_ClassT = TypeVar("_ClassT", bound=type)
_PythonType = type[int] | type[float] | type[complex] | type[bool]
_NUMBER_TYPES = (bool, int, float, complex)


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
    if python_type not in _NUMBER_TYPES:
        raise TypeError("register_dynamic_type: python_type must be bool, int, float or "
                        f"complex, got {python_type!r}")
    if cls is not None:
        _guards.register_dynamic_type(cls, python_type)
        return cls
    number_type = python_type

    def register(decorated: _ClassT) -> _ClassT:
        _guards.register_dynamic_type(decorated, number_type)
        return decorated

    return register
