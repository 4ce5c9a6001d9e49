import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import TracebackType
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

class Audit:
    all_threads: bool
    config_file: str | None
    def __init__(
        self,
        *,
        keep: Callable[[str], bool] | None = None,
        classes: Iterable[type | str] = (),
        config: str | os.PathLike[str] | bool = True,
        all_threads: bool = False,
    ) -> None: ...
    @property
    def active(self) -> bool: ...
    def __enter__(self) -> Audit: ...
    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
        /,
    ) -> None: ...
    @property
    def records(self) -> list[AuditRecord]: ...
    @property
    def problems(self) -> list[str]: ...
    def report(self, format: str = "text") -> str: ...
    def write_report(self, path: str | os.PathLike[str], format: str | None = None) -> None: ...

def audit(
    *,
    keep: Callable[[str], bool] | None = None,
    classes: Iterable[type | str] = (),
    config: str | os.PathLike[str] | bool = True,
    all_threads: bool = False,
) -> Audit: ...
def patched_names() -> list[str]: ...
