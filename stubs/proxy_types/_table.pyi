from typing import NamedTuple

STATIC_BUILTIN_TYPES: dict[str, str]
STATIC_ABC_TYPES: tuple[str, ...]
STATIC_NUMBER_TYPES: tuple[str, ...]
STATIC_CLASSES_OF: dict[str, tuple[str, ...]]

class DynamicNumberType(NamedTuple):
    module: str
    name: str
    python_type: str
    @property
    def fullname(self) -> str: ...

OWN_DYNAMIC_TYPES: tuple[DynamicNumberType, ...]
FOREIGN_DYNAMIC_TYPES: tuple[DynamicNumberType, ...]
DYNAMIC_NUMBER_TYPES: tuple[DynamicNumberType, ...]

DYNAMIC_KINDS: dict[str, str]
OUTCOMES: dict[str, str]
FINDING_CODES: dict[str, str | None]
SEVERITY: tuple[str, ...]
TORCH_PYTHON_TYPES: tuple[str, ...]

class Conversion(NamedTuple):
    name: str
    dunder: str
    operation: str
    result: str
    accepts: tuple[str, ...]
    own: str | dict[str, str]
    torch: str | dict[str, str]
    silent: str | dict[str, str]
    guarded: str | dict[str, str]

CONVERSIONS: tuple[Conversion, ...]

class ConvertingCall(NamedTuple):
    operation: str
    conversion: str

CONVERTING_FUNCTIONS: dict[str, ConvertingCall]
NON_CONVERTING_FUNCTIONS: frozenset[str]
CONVERTING_MODULES: dict[str, str]
CONVERTING_SYNTAX: dict[str, ConvertingCall]
TORCH_TRACERS: dict[str, str]
TORCH_COMPILE_OUTCOMES: dict[str, str]
TORCH_TRACER_OUTCOMES: dict[str, dict[str, str]]

def tracer_outcomes(operation: str, python_type: str = "number", *, format_spec: bool = False) -> dict[str, str]: ...
def failing_tracers(operation: str, python_type: str = "number", *, format_spec: bool = False) -> tuple[str, ...]: ...

def conversion(operation: str) -> Conversion | None: ...
def operation_spelling(operation: str) -> str: ...
def outcome(
    operation: str, kind: str, python_type: str, *, format_spec: bool = False, tracer: str | None = None
) -> str: ...
def finding_code(outcome_name: str) -> str | None: ...
def dynamic_kind(fullname: str, guarded_classes: frozenset[str] | tuple[str, ...] = ()) -> str: ...

class Concretizer(NamedTuple):
    dunder: str
    operation: str
    result: str

CONCRETIZING_DUNDERS: tuple[Concretizer, ...]
CLASS_CONCRETIZING_DUNDERS: tuple[Concretizer, ...]
CONCRETIZING_FUNCTIONS: dict[str, str]
CONCRETIZING_MODULES: tuple[str, ...]

class Operator(NamedTuple):
    name: str
    dunder: str
    reflected: str | None
    symbol: str
    kind: str

OPERATORS: tuple[Operator, ...]
COMPARISON_DUNDERS: frozenset[str]
