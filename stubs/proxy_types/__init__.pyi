from ._audit import Audit as Audit, AuditRecord as AuditRecord, audit as audit
from ._convert import check as check, to_static as to_static
from ._errors import (
    CheckError as CheckError,
    ConcretizationError as ConcretizationError,
    ConfigurationError as ConfigurationError,
    ProxyTypesError as ProxyTypesError,
)
from ._guards import (
    DynamicNumber as DynamicNumber,
    NumberClasses as NumberClasses,
    NumberLike as NumberLike,
    external_isinstance as external_isinstance,
    is_dynamic_number as is_dynamic_number,
    is_static_number as is_static_number,
    register_dynamic_type as register_dynamic_type,
)
from ._proxies import (
    BoolProxy as BoolProxy,
    ComplexProxy as ComplexProxy,
    FloatProxy as FloatProxy,
    IntegerProxy as IntegerProxy,
    NumberProxy as NumberProxy,
    proxy as proxy,
)
from ._trace import (
    Recorder as Recorder,
    Trace as Trace,
    current_recorder as current_recorder,
    trace as trace,
    use_recorder as use_recorder,
)

__all__ = [
    "Audit",
    "AuditRecord",
    "BoolProxy",
    "CheckError",
    "ComplexProxy",
    "ConcretizationError",
    "ConfigurationError",
    "DynamicNumber",
    "FloatProxy",
    "IntegerProxy",
    "NumberClasses",
    "NumberLike",
    "NumberProxy",
    "ProxyTypesError",
    "Recorder",
    "Trace",
    "audit",
    "check",
    "current_recorder",
    "external_isinstance",
    "is_dynamic_number",
    "is_static_number",
    "proxy",
    "register_dynamic_type",
    "to_static",
    "trace",
    "use_recorder",
]
