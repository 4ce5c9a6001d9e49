from collections.abc import Callable
from typing import TypeVar, overload

from typing_extensions import TypeAlias

_ClassT = TypeVar("_ClassT", bound=type)
_PythonType: TypeAlias = type[int] | type[float] | type[complex] | type[bool]

@overload
def register_dynamic_type(cls: _ClassT, python_type: _PythonType) -> _ClassT: ...
@overload
def register_dynamic_type(*, python_type: _PythonType) -> Callable[[_ClassT], _ClassT]: ...
