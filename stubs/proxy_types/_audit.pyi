import os
from collections.abc import Callable, Iterable
from types import TracebackType

from ._audit_records import AuditRecord as AuditRecord
from ._audit_records import is_library_file as is_library_file
from ._audit_records import outside_libraries as outside_libraries

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
