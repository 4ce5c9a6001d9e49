import os
from pathlib import Path
from typing import NamedTuple

CLASS_SETTINGS: tuple[str, ...]

class RuntimeSettings(NamedTuple):
    config_file: str | None
    classes: tuple[str, ...]
    exempt_modules: tuple[str, ...]

NO_SETTINGS: RuntimeSettings

def find_config_file(start: Path) -> Path | None: ...
def plugin_section(path: Path) -> dict[str, object]: ...
def read_runtime_settings(
    config: str | os.PathLike[str] | None = None, start: Path | None = None
) -> RuntimeSettings: ...
