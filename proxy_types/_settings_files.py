"""Settings files as mypy finds and reads them: the one reader of the runtime, plugin and CLI.

All three read the file mypy uses (``mypy.ini``, ``.mypy.ini``, ``pyproject.toml``
with ``[tool.mypy]``, ``setup.cfg`` with ``[mypy]``): the runtime audit and the
plugin for their ``[proxy_types]`` settings, the command line for the mypy
sections it copies.  Finding the file, reading, parsing, the TOML library of
Python 3.10 (``tomli``), the plugin's section (``read_plugin_section``), how a
list setting is split, where an entry's line is, and ``exempt_modules``
patterns are handled here once; every failure is one ``SettingsFileError``
whose text is a single line.  The runtime (``proxy_types._config``) and the
plugin (``mypy_plugin.config``) are thin adapters: each turns these values and
errors into its own messages.

Standard library only, and no relative imports: the plugin loads this file on
its own (mypy_plugin/runtime_modules.py) so that type checking never runs the
runtime package.
"""

from __future__ import annotations

import configparser
import fnmatch
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

# The file names mypy looks for, in its order (mypy.defaults).
OWN_CONFIG_NAMES = ("mypy.ini", ".mypy.ini")
SHARED_CONFIG_NAMES = ("pyproject.toml", "setup.cfg")
# The plugin's own section, in an INI file and in pyproject.toml.
PLUGIN_SECTION_INI = "mypy.plugins.proxy_types"
PLUGIN_SECTION_TOML = ("tool", "proxy_types")
DEFAULT_EXEMPT_MODULES: tuple[str, ...] = ("proxy_types", "proxy_types.*")
# Patterns, not compiled ones: `re` compiles each on first use, so a config
# without plugin settings skips compiling them on every mypy run.
DOTTED_NAME = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$"
MODULE_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\.\*)?$"


class SettingsFileError(Exception):
    """A settings file that cannot be used; ``str()`` is one line without the file name."""

    def __init__(self, reason: str, line: int | None = None,
                 path: str | os.PathLike[str] | None = None) -> None:
        super().__init__(" ".join(reason.split()))
        self.line = line  # where the file is malformed, when the parser says
        self.path = None if path is None else Path(path)


class UnreadableFile(SettingsFileError):
    """The file cannot be opened or decoded."""


class MalformedFile(SettingsFileError):
    """The file is not valid INI or TOML."""


class TomlUnavailable(SettingsFileError):
    """Python 3.10 without tomli: TOML cannot be read at all."""


class NotATable(SettingsFileError):
    """``[tool.proxy_types]`` holds a value, not a table."""


def _toml_loads(path: str | Path) -> Callable[[str], dict[str, Any]]:
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib.loads
    try:  # mypy itself depends on tomli before 3.11
        import tomli  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise TomlUnavailable("reading pyproject.toml on Python 3.10 needs tomli "
                              "(pip install tomli)", path=path) from None
    loads: Callable[[str], dict[str, Any]] = tomli.loads
    return loads


def read_toml(path: str | Path) -> dict[str, Any]:
    """The parsed TOML document at ``path``."""
    loads = _toml_loads(path)
    try:
        with open(path, "rb") as stream:
            text = stream.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UnreadableFile(str(error), path=path) from None
    try:
        return loads(text)
    except ValueError as error:  # TOMLDecodeError
        raise MalformedFile(str(error), path=path) from None


def read_ini(path: str | Path) -> dict[str, dict[str, str]]:
    """Every section of the INI file at ``path``, keys as mypy reads them (lower case)."""
    parser = configparser.RawConfigParser()
    try:
        with open(path, encoding="utf-8") as handle:
            parser.read_file(handle)
    except (OSError, UnicodeDecodeError) as error:
        raise UnreadableFile(str(error), path=path) from None
    except configparser.Error as error:
        # The first line names the problem; the rest repeats the offending text.
        raise MalformedFile(str(error).splitlines()[0], getattr(error, "lineno", None),
                            path) from None
    return {name: dict(parser.items(name)) for name in parser.sections()}


def toml_table(document: dict[str, Any], keys: tuple[str, ...]) -> object:
    """The value at ``keys`` (``("tool", "mypy")``) in a TOML document; None if absent."""
    value: object = document
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def config_file_candidates(start: Path, *, user_files: bool = True) -> Iterator[Path]:
    """The existing files mypy considers when run in ``start``, in the order it tries them.

    From ``start`` up to the repository root (a directory holding ``.git`` or
    ``.hg``), each directory's own and shared names; then the user-wide files.
    """
    directory = start.resolve()
    while True:
        for name in OWN_CONFIG_NAMES + SHARED_CONFIG_NAMES:
            if (directory / name).is_file():
                yield directory / name
        if (directory / ".git").exists() or (directory / ".hg").exists():
            break
        if directory.parent == directory:
            break
        directory = directory.parent
    if not user_files:
        return
    names = ["~/.config/mypy/config", "~/.mypy.ini"]
    if "XDG_CONFIG_HOME" in os.environ:
        names.insert(0, os.path.join(os.environ["XDG_CONFIG_HOME"], "mypy/config"))
    for name in names:
        candidate = Path(os.path.expanduser(name))
        if candidate.is_file():
            yield candidate


def mypy_uses(candidate: Path) -> bool:
    """True if mypy takes ``candidate``: a shared file only with its mypy section.

    An unreadable shared file raises rather than being skipped, so the user hears
    of it.
    """
    if candidate.name not in SHARED_CONFIG_NAMES:
        return True
    if candidate.suffix == ".toml":
        return toml_table(read_toml(candidate), ("tool", "mypy")) is not None
    return "mypy" in read_ini(candidate)


def find_config_file(start: Path) -> Path | None:
    """The config file mypy would read when run in ``start``; None if there is none."""
    return next((path for path in config_file_candidates(start) if mypy_uses(path)), None)


def module_matches(module: str, pattern: str) -> bool:
    """True if ``module`` is matched by an ``exempt_modules`` entry (``pkg``, ``pkg.*``, fnmatch)."""
    if pattern.endswith(".*"):
        package = pattern[:-2]
        return module == package or module.startswith(package + ".")
    return fnmatch.fnmatchcase(module, pattern)



# -- the plugin's section --------------------------------------------------------------------

def is_toml(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is read as TOML (``pyproject.toml``) rather than INI."""
    return os.fspath(path).endswith(".toml")


def read_plugin_section(path: str | Path) -> dict[str, object]:
    """The raw ``[mypy.plugins.proxy_types]`` / ``[tool.proxy_types]`` settings of ``path``.

    INI values are strings (``string_list`` splits them), TOML values as parsed;
    empty when the file has no such section.
    """
    if not is_toml(path):
        return dict(read_ini(path).get(PLUGIN_SECTION_INI, {}))
    section = toml_table(read_toml(path), PLUGIN_SECTION_TOML)
    if section is None:
        return {}
    if not isinstance(section, dict):
        raise NotATable("[tool.proxy_types] must be a table", path=path)
    return {str(key): value for key, value in section.items()}


def has_plugin_section(path: str | Path) -> bool:
    """Whether ``path`` has the plugin's section (of any value, in TOML)."""
    if is_toml(path):
        return toml_table(read_toml(path), PLUGIN_SECTION_TOML) is not None
    return PLUGIN_SECTION_INI in read_ini(path)


def split_list(value: str) -> list[str]:
    """The entries of an INI list setting: separated by commas or lines, stripped, none empty."""
    return [part.strip() for part in re.split(r"[,\n]", value) if part.strip()]


def string_list(value: object, *, from_ini: bool) -> list[str] | None:
    """A list setting's entries (an INI string, or a TOML list of strings); None if it is
    neither, for the caller to report in its own words."""
    if from_ini and isinstance(value, str):
        return split_list(value)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [item.strip() for item in value]
    return None


def entry_line(path: str | Path, setting: str, name: str) -> int:
    """The line of ``name`` under ``setting`` in the plugin's section of ``path``:
    the entry's own line if it has one, else the setting's, else 1."""
    return setting_line(path, setting, name) or 1


def setting_line(path: str | Path, setting: str | None, entry: str | None = None) -> int | None:
    """The line of ``setting`` in the plugin's table of ``path`` (``[tool.proxy_types]``
    or ``[mypy.plugins.proxy_types]``): the line of ``entry`` within its value when
    found there.  With no setting, the table's header line.  None when not found
    (a dotted TOML key, an inline table, an unreadable file).
    """
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    toml = is_toml(path)
    header = (r"^\s*\[\s*tool\s*\.\s*proxy_types\s*\]" if toml
              else r"^\s*\[\s*mypy\.plugins\.proxy_types\s*\]")
    # ini keys are read in lower case (mypy's parser); TOML keys may be quoted.
    key = (None if setting is None else
           rf"^\s*([\"']?){re.escape(setting)}\1\s*[=:]" if toml
           else rf"^{re.escape(setting)}\s*[=:]")
    flags = 0 if toml else re.IGNORECASE
    in_table = False
    key_line = None
    for number, line in enumerate(lines, 1):
        if re.match(r"^\s*\[", line) and (toml or not line[:1].isspace()):
            if key_line is not None:
                break
            in_table = re.match(header, line) is not None
            if in_table and key is None:
                return number
            continue
        if not in_table or key is None:
            continue
        if key_line is None:
            if not re.match(key, line, flags):
                continue
            key_line = number
            if entry is None:
                return number
        elif re.match(r"^[\"']?[A-Za-z_][A-Za-z0-9_-]*[\"']?\s*[=:]", line.strip()) and (
                toml or not line[:1].isspace()):
            break  # the next setting
        bounded = rf"(^|[\s\"',=:\[]){re.escape(entry or '')}($|[\s\"',:\]])"
        if entry is not None and re.search(bounded, line):
            return number
    return key_line
