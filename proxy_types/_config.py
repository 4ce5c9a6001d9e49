"""The ``[proxy_types]`` settings the runtime needs, read with the standard library only.

The runtime must not import mypy or ``mypy_plugin``, yet it reads the same
file the plugin reads: the one mypy itself would pick (``mypy.ini``,
``.mypy.ini``, ``pyproject.toml`` with ``[tool.mypy]``, ``setup.cfg`` with
``[mypy]``; from a directory up to the repository root, then the user-wide
files), section ``[mypy.plugins.proxy_types]`` or ``[tool.proxy_types]``.
Errors are ``ConfigurationError`` with the one line the plugin prints.
"""

from __future__ import annotations

import configparser
import fnmatch
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from ._errors import ConfigurationError

SECTION_INI = "mypy.plugins.proxy_types"
SECTION_TOML = ("tool", "proxy_types")
OWN_CONFIG_NAMES = ("mypy.ini", ".mypy.ini")
SHARED_CONFIG_NAMES = ("pyproject.toml", "setup.cfg")
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
    directory = start.resolve()
    while True:
        for name in OWN_CONFIG_NAMES:
            if (directory / name).is_file():
                return directory / name
        for name in SHARED_CONFIG_NAMES:
            candidate = directory / name
            if candidate.is_file() and _has_mypy_section(candidate):
                return candidate
        if (directory / ".git").exists() or (directory / ".hg").exists():
            break
        if directory.parent == directory:
            break
        directory = directory.parent
    user_files = ["~/.config/mypy/config", "~/.mypy.ini"]
    if "XDG_CONFIG_HOME" in os.environ:
        user_files.insert(0, os.path.join(os.environ["XDG_CONFIG_HOME"], "mypy/config"))
    for user_file in user_files:
        candidate = Path(os.path.expanduser(user_file))
        if candidate.is_file():
            return candidate
    return None


def _has_mypy_section(path: Path) -> bool:
    # Unreadable shared files are reported when read, not skipped: mypy fails on them too.
    if path.suffix == ".toml":
        tool = _read_toml(path).get("tool")
        return isinstance(tool, dict) and "mypy" in tool
    return _read_ini(path).has_section("mypy")


def plugin_section(path: Path) -> dict[str, object]:
    """The raw ``[proxy_types]`` settings of ``path`` (ini values are strings)."""
    if path.suffix == ".toml":
        section: Any = _read_toml(path)
        for part in SECTION_TOML:
            section = section.get(part, {}) if isinstance(section, dict) else {}
        if not isinstance(section, dict):
            raise _error(path, "[tool.proxy_types] must be a table")
        return {str(key): value for key, value in section.items()}
    parser = _read_ini(path)
    if not parser.has_section(SECTION_INI):
        return {}
    return dict(parser.items(SECTION_INI))


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
                                   "like pkg.Class")
            if name not in classes:
                classes.append(name)
    exempt = DEFAULT_EXEMPT_MODULES
    if "exempt_modules" in section:
        exempt = tuple(_name_list(path, "exempt_modules", section["exempt_modules"]))
        for pattern in exempt:
            if not _MODULE_PATTERN.match(pattern):
                raise _error(path, f'exempt_modules: "{pattern}" is not a module name or '
                                   "pkg.* pattern")
    return RuntimeSettings(_shown(path), tuple(classes), exempt)


def module_matches(module: str, pattern: str) -> bool:
    """True if ``module`` is matched by an ``exempt_modules`` entry (``pkg`` or ``pkg.*``)."""
    if pattern.endswith(".*"):
        package = pattern[:-2]
        return module == package or module.startswith(package + ".")
    return fnmatch.fnmatchcase(module, pattern)


def _name_list(path: Path, key: str, value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str) and path.suffix != ".toml":
        return [part.strip() for part in re.split(r"[,\n]", value) if part.strip()]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [item.strip() for item in value]
    raise _error(path, f"{key}: expected a list of strings, got {value!r}")


def _read_ini(path: Path) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser()
    try:
        with path.open(encoding="utf-8") as handle:
            parser.read_file(handle)
    except (OSError, UnicodeDecodeError, configparser.Error) as exc:
        raise _error(path, f"cannot read the config file: {str(exc).splitlines()[0]}") from None
    return parser


def _toml_loader(path: Path) -> Callable[[str], dict[str, Any]]:
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib.loads
    try:
        import tomli  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise _error(path, "reading pyproject.toml on Python 3.10 needs tomli "
                           "(pip install tomli)") from None
    loads: Callable[[str], dict[str, Any]] = tomli.loads
    return loads


def _read_toml(path: Path) -> dict[str, Any]:
    loads = _toml_loader(path)
    try:
        data = loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise _error(path, f"cannot read the config file: {str(exc).splitlines()[0]}") from None
    return data


def _shown(path: Path) -> str:
    try:
        return Path(os.path.relpath(path)).as_posix()
    except ValueError:  # another drive on Windows
        return path.as_posix()


def _error(path: Path, problem: str) -> ConfigurationError:
    # The plugin's format (mypy_plugin.errors.config_error_line).
    return ConfigurationError(f"{_shown(path)}: error: [proxy_types] {problem}")
