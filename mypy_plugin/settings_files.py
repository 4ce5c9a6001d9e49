"""Read INI and TOML settings files: the one reader of the plugin and the command line.

Both read the file mypy uses (``mypy.ini``, ``setup.cfg``, ``pyproject.toml``...):
the plugin for its ``[proxy_types]`` settings, the command line for the mypy
sections it copies.  Reading, parsing and the TOML library of Python 3.10
(``tomli``) are handled here once, and every failure is one
``SettingsFileError`` whose text is a single line.  Nothing here imports mypy.
"""

from __future__ import annotations

import configparser
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


class SettingsFileError(Exception):
    """A settings file that cannot be used; ``str()`` is one line without the file name."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(" ".join(reason.split()))
        self.line = line  # where the file is malformed, when the parser says


class UnreadableFile(SettingsFileError):
    """The file cannot be opened or decoded."""


class MalformedFile(SettingsFileError):
    """The file is not valid INI or TOML."""


class TomlUnavailable(SettingsFileError):
    """Python 3.10 without tomli: TOML cannot be read at all."""


def _toml_loads() -> Callable[[str], dict[str, Any]]:
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib.loads
    try:  # mypy itself depends on tomli before 3.11
        import tomli  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise TomlUnavailable("reading pyproject.toml on Python 3.10 needs tomli "
                              "(pip install tomli)") from None
    loads: Callable[[str], dict[str, Any]] = tomli.loads
    return loads


def read_toml(path: str | Path) -> dict[str, Any]:
    """The parsed TOML document at ``path``."""
    loads = _toml_loads()
    try:
        with open(path, "rb") as stream:
            text = stream.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UnreadableFile(str(error)) from None
    try:
        return loads(text)
    except ValueError as error:  # TOMLDecodeError
        raise MalformedFile(str(error)) from None


def read_ini(path: str | Path) -> dict[str, dict[str, str]]:
    """Every section of the INI file at ``path``, keys as mypy reads them (lower case)."""
    parser = configparser.RawConfigParser()
    try:
        with open(path, encoding="utf-8") as handle:
            parser.read_file(handle)
    except (OSError, UnicodeDecodeError) as error:
        raise UnreadableFile(str(error)) from None
    except configparser.Error as error:
        # The first line names the problem; the rest repeats the offending text.
        raise MalformedFile(str(error).splitlines()[0], getattr(error, "lineno", None)) from None
    return {name: dict(parser.items(name)) for name in parser.sections()}


def toml_table(document: dict[str, Any], keys: tuple[str, ...]) -> object:
    """The value at ``keys`` (``("tool", "mypy")``) in a TOML document; None if absent."""
    value: object = document
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value
