"""The ``[proxy_types]`` settings the runtime needs, read with the standard library only.

The runtime must not import mypy or ``mypy_plugin``, yet it reads the same
file the plugin reads: the one mypy itself would pick (``mypy.ini``,
``.mypy.ini``, ``pyproject.toml`` with ``[tool.mypy]``, ``setup.cfg`` with
``[mypy]``; from a directory up to the repository root, then the user-wide
files), section ``[mypy.plugins.proxy_types]`` or ``[tool.proxy_types]``.
Finding and reading the file, the section and its lists are ``_settings_files``,
shared with the plugin; this adapter picks the audit's settings and words errors
as ``ConfigurationError`` with the one line the plugin prints.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

from . import _settings_files
from ._errors import ConfigurationError
from ._settings_files import (
    DEFAULT_EXEMPT_MODULES,
    DOTTED_NAME,
    MODULE_PATTERN,
    NotATable,
    SettingsFileError,
    TomlUnavailable,
    is_toml,
    read_plugin_section,
    string_list,
)

#: Settings naming classes whose instances the audit treats as dynamic numbers.
CLASS_SETTINGS = ("dynamic_number_classes", "migrate_classes", "audit_classes")


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
        return read_plugin_section(path)
    except SettingsFileError as error:
        raise _unusable(path, error) from None


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
            if not re.match(DOTTED_NAME, name):
                raise _error(path, f'{key}: "{name}" is not a fully qualified class name '
                                   "like pkg.Class", key, name)
            if name not in classes:
                classes.append(name)
    exempt = DEFAULT_EXEMPT_MODULES
    if "exempt_modules" in section:
        exempt = tuple(_name_list(path, "exempt_modules", section["exempt_modules"]))
        for pattern in exempt:
            if not re.match(MODULE_PATTERN, pattern):
                raise _error(path, f'exempt_modules: "{pattern}" is not a module name or '
                                   "pkg.* pattern", "exempt_modules", pattern)
    return RuntimeSettings(_shown(path), tuple(classes), exempt)


def _name_list(path: Path, key: str, value: object) -> list[str]:
    if value is None:
        return []
    names = string_list(value, from_ini=not is_toml(path))
    if names is None:
        raise _error(path, f"{key}: expected a list of strings, got {value!r}", key)
    return names


def _unusable(path: Path, error: SettingsFileError) -> ConfigurationError:
    # The plugin's wording (mypy_plugin.errors.config_unreadable / config_needs_tomli /
    # config_not_a_table).
    if isinstance(error, (TomlUnavailable, NotATable)):
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
