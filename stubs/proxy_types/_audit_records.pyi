from dataclasses import dataclass
from typing import Literal

@dataclass(frozen=True)
class AuditRecord:
    file: str
    line: int
    column: int | None
    end_line: int | None
    end_column: int | None
    kind: Literal["isinstance", "conversion", "guard"]
    operation: str
    dynamic_class: str | None
    classes: tuple[str, ...]
    outcome: str
    count: int
    @property
    def code(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def hint(self) -> str | None: ...

def is_library_file(filename: str) -> bool: ...
def outside_libraries(filename: str) -> bool: ...
