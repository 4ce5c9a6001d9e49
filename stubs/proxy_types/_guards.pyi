import types
from abc import ABCMeta
from collections.abc import Callable
from typing import Final, TypeVar, overload

from typing_extensions import TypeAlias, TypeIs

_ClassT = TypeVar("_ClassT", bound=type)
_PythonType: TypeAlias = type[int] | type[float] | type[complex] | type[bool]
_ClassInfo: TypeAlias = type | types.UnionType | tuple[_ClassInfo, ...]

class _DynamicNumberMeta(ABCMeta): ...

class DynamicNumber(metaclass=_DynamicNumberMeta): ...

NumberLike: TypeAlias = int | float | complex | DynamicNumber
# A precise tuple, so that isinstance(x, NumberClasses) narrows x.
NumberClasses: Final[tuple[type[int], type[float], type[complex], type[DynamicNumber]]]

def is_static_number(x: object) -> TypeIs[int | float | complex]: ...
def is_dynamic_number(x: object) -> TypeIs[DynamicNumber]: ...
def python_type_of(x: object) -> type | None: ...
@overload
def register_dynamic_type(cls: _ClassT, python_type: _PythonType) -> _ClassT: ...
@overload
def register_dynamic_type(*, python_type: _PythonType) -> Callable[[_ClassT], _ClassT]: ...
def external_isinstance(obj: object, cls: _ClassInfo) -> bool: ...
