# torch's Sym types are matched by shape, so these stubs never import torch;
# each protocol names a member only its torch class has.
from collections.abc import Callable
from typing import Any, Protocol, overload, type_check_only

from ._proxies import BoolProxy, ComplexProxy, FloatProxy, IntegerProxy

@type_check_only
class _SymIntLike(Protocol):
    node: Any
    def __index__(self) -> int: ...

@type_check_only
class _SymFloatLike(Protocol):
    node: Any
    def is_integer(self) -> Any: ...

@type_check_only
class _SymBoolLike(Protocol):
    node: Any
    def __sym_not__(self) -> Any: ...

@overload
def to_static(x: BoolProxy | bool) -> bool: ...
@overload
def to_static(x: IntegerProxy | int) -> int: ...
@overload
def to_static(x: FloatProxy | float) -> float: ...
@overload
def to_static(x: ComplexProxy | complex) -> complex: ...
@overload
def to_static(x: _SymBoolLike) -> bool: ...
@overload
def to_static(x: _SymIntLike) -> int: ...
@overload
def to_static(x: _SymFloatLike) -> float: ...
def check(cond: bool | BoolProxy | _SymBoolLike, message: str | Callable[[], str] = "check failed") -> None: ...
