"""The ``[proxy_types]`` settings the runtime needs, read with the standard library only.

The runtime must not import mypy or ``mypy_plugin``, yet it reads the same
file the plugin reads: the one mypy itself would pick (``mypy.ini``,
``.mypy.ini``, ``pyproject.toml`` with ``[tool.mypy]``, ``setup.cfg`` with
``[mypy]``; from a directory up to the repository root, then the user-wide
files), section ``[mypy.plugins.proxy_types]`` or ``[tool.proxy_types]``.
Finding and reading the file is ``_settings_files``, shared with the plugin;
errors are ``ConfigurationError`` with the one line the plugin prints.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

from . import _settings_files
from ._errors import ConfigurationError
from ._settings_files import SettingsFileError, TomlUnavailable, read_ini, read_toml, toml_table

SECTION_INI = "mypy.plugins.proxy_types"
SECTION_TOML = ("tool", "proxy_types")
#: Settings naming classes whose instances the audit treats as dynamic numbers.
CLASS_SETTINGS = ("dynamic_number_classes", "migrate_classes", "audit_classes")
DEFAULT_EXEMPT_MODULES: tuple[str, ...] = ("proxy_types", "proxy_types.*")

_DOTTED_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")
_MODULE_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\.\*)?$")


class RuntimeSettings(NamedTuple):
    """What the runtime audit takes from the configuration."""

    config_file: str | None  # as shown to the user; None when no file was found
    classes: tuple[str, ...]  # fully qualified names, in file order, without repeats
    exempt_modules: tuple[str, ...]


NO_SETTINGS = RuntimeSettings(None, (), DEFAULT_EXEMPT_MODULES)


def find_config_file(start: Path) -> Path | None:
    """The config file mypy would read when run in ``start`` (None if there is none)."""
    try:
        return _settings_files.find_config_file(start)
    except SettingsFileError as error:
        raise _unusable(error.path or start, error) from None


def plugin_section(path: Path) -> dict[str, object]:
    """The raw ``[proxy_types]`` settings of ``path`` (ini values are strings)."""
    try:
        if path.suffix != ".toml":
            return dict(read_ini(path).get(SECTION_INI, {}))
        section = toml_table(read_toml(path), SECTION_TOML)
    except SettingsFileError as error:
        raise _unusable(path, error) from None
    if section is None:
        return {}
    if not isinstance(section, dict):
        raise _error(path, "[tool.proxy_types] must be a table")
    return {str(key): value for key, value in section.items()}


def read_runtime_settings(config: str | os.PathLike[str] | None = None,
                          start: Path | None = None) -> RuntimeSettings:
    """The audit's settings from ``config``, or from the file mypy would pick in ``start``."""
    path = Path(config) if config is not None else find_config_file(start or Path.cwd())
    if path is None:
        return NO_SETTINGS
    if not path.is_file():
        raise ConfigurationError(f"{_shown(path)}: error: config file not found")
    section = plugin_section(path)
    classes: list[str] = []
    for key in CLASS_SETTINGS:
        for name in _name_list(path, key, section.get(key)):
            if not _DOTTED_NAME.match(name):
                raise _error(path, f'{key}: "{name}" is not a fully qualified class name '
                                   "like pkg.Class", key, name)
            if name not in classes:
                classes.append(name)
    exempt = DEFAULT_EXEMPT_MODULES
    if "exempt_modules" in section:
        exempt = tuple(_name_list(path, "exempt_modules", section["exempt_modules"]))
        for pattern in exempt:
            if not _MODULE_PATTERN.match(pattern):
                raise _error(path, f'exempt_modules: "{pattern}" is not a module name or '
                                   "pkg.* pattern", "exempt_modules", pattern)
    return RuntimeSettings(_shown(path), tuple(classes), exempt)


def _name_list(path: Path, key: str, value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str) and path.suffix != ".toml":
        return [part.strip() for part in re.split(r"[,\n]", value) if part.strip()]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [item.strip() for item in value]
    raise _error(path, f"{key}: expected a list of strings, got {value!r}", key)


def _unusable(path: Path, error: SettingsFileError) -> ConfigurationError:
    # The plugin's wording (mypy_plugin.errors.config_unreadable / config_needs_tomli).
    if isinstance(error, TomlUnavailable):
        return _error(path, str(error))
    return _error(path, f"cannot read the config file: {error}", line=error.line)


def _shown(path: Path) -> str:
    try:
        return Path(os.path.relpath(path)).as_posix()
    except ValueError:  # another drive on Windows
        return path.as_posix()


def _error(path: Path, problem: str, key: str | None = None, entry: str | None = None, *,
           line: int | None = None) -> ConfigurationError:
    # The plugin's format (mypy_plugin.errors.config_error_line), at the setting's line.
    if key is not None:
        line = _settings_files.setting_line(path, key, entry)
    where = _shown(path) if line is None else f"{_shown(path)}:{line}"
    return ConfigurationError(f"{where}: error: [proxy_types] {problem}")
