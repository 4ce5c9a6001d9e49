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
