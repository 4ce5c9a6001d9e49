"""proxy_types: dynamic numbers that never pass for static Python numbers."""

import sys as _sys
import types as _types
from typing import TYPE_CHECKING

from ._convert import check as check
from ._convert import to_static as to_static
from ._errors import CheckError as CheckError
from ._errors import ConcretizationError as ConcretizationError
from ._errors import ConfigurationError as ConfigurationError
from ._errors import ProxyTypesError as ProxyTypesError
from ._guards import DynamicNumber as DynamicNumber
from ._guards import NumberClasses as NumberClasses
from ._guards import NumberLike as NumberLike
from ._guards import external_isinstance as external_isinstance
from ._guards import is_dynamic_number as is_dynamic_number
from ._guards import is_static_number as is_static_number
from ._guards import register_dynamic_type as register_dynamic_type
from ._proxies import BoolProxy as BoolProxy
from ._proxies import ComplexProxy as ComplexProxy
from ._proxies import FloatProxy as FloatProxy
from ._proxies import IntegerProxy as IntegerProxy
from ._proxies import NumberProxy as NumberProxy
from ._proxies import proxy as proxy
from ._trace import Recorder as Recorder
from ._trace import Trace as Trace
from ._trace import current_recorder as current_recorder
from ._trace import trace as trace
from ._trace import use_recorder as use_recorder

__all__ = [
    "Audit", "AuditRecord", "BoolProxy", "CheckError", "ComplexProxy", "ConcretizationError",
    "ConfigurationError", "DynamicNumber", "FloatProxy", "IntegerProxy", "NumberClasses", "NumberLike",
    "NumberProxy", "ProxyTypesError", "Recorder", "Trace", "audit", "check", "current_recorder",
    "external_isinstance", "is_dynamic_number", "is_static_number", "proxy",
    "register_dynamic_type", "to_static", "trace", "use_recorder",
]


class _Package(_types.ModuleType):
    """This package's module type: ``proxy_types.audit`` stays the function.

    Importing the submodule ``proxy_types.audit`` (what ``python -m
    proxy_types.audit`` does) would otherwise rebind the name to the module.
    """

    def __setattr__(self, name: str, value: object) -> None:
        if name == "audit" and isinstance(value, _types.ModuleType):
            return
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package

if TYPE_CHECKING:
    from ._audit import Audit as Audit
    from ._audit import AuditRecord as AuditRecord
    from ._audit import audit as audit


def __getattr__(name: str) -> object:
    # The audit loads on first use: importing proxy_types stays as cheap as before.
    if name in ("Audit", "AuditRecord", "audit"):
        from . import _audit

        value: object = getattr(_audit, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
