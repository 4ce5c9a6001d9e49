"""``proxy-types init``: write a preset's settings into the project's mypy config file.

The file is the one mypy reads (``mypy.ini``, ``.mypy.ini``, ``pyproject.toml``
with ``[tool.mypy]``, ``setup.cfg`` with ``[mypy]``, from the working directory
up to the repository root).  Settings are added, never replaced: a list gains
the entries it lacks, a setting the file already has with another value is kept
(and said so).  The file is edited as text, so its comments and layout stay;
it is written atomically, and a second run changes nothing.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..presets import LIST_SETTINGS, PRESETS, Preset, ini_line, ini_value, toml_line
from ..settings_files import (
    PLUGIN_SECTION_INI,
    SettingsFileError,
    TomlUnavailable,
    config_file_candidates,
    mypy_uses,
    read_ini,
    read_toml,
    split_list,
)
from .common import EXIT_CLEAN, PLUGIN_MODULE, CommandLineError, one_line

#: ``init`` without ``--preset``: the plugin alone.
PLUGIN_ONLY = Preset("plugin", "the plugin with its default settings")

Value = bool | tuple[str, ...]


def preset_named(name: str | None) -> Preset:
    """The preset called ``name`` (None: the plugin alone)."""
    if name is None:
        return PLUGIN_ONLY
    try:
        return PRESETS[name]
    except KeyError:
        raise CommandLineError(
            f"unknown preset {name!r} (known: {', '.join(PRESETS)})") from None


def target_file(start: Path) -> Path:
    """The config file mypy reads from ``start``; else ``pyproject.toml`` there if it
    exists (it gets a ``[tool.mypy]`` table), else a new ``mypy.ini``."""
    try:
        for candidate in config_file_candidates(start, user_files=False):
            if mypy_uses(candidate):
                return candidate
    except SettingsFileError as error:
        raise CommandLineError(f"cannot read config {error.path}: {error}") from None
    pyproject = start / "pyproject.toml"
    return pyproject if pyproject.is_file() else start / "mypy.ini"


@dataclass
class Merge:
    """What merging a preset into settings changed, and what it kept."""

    changed: dict[tuple[str, str], Value] = field(default_factory=dict)  # (table, key) -> value
    kept: list[str] = field(default_factory=list)


def merge(current: Callable[[str, str], Value | None], preset: Preset) -> Merge:
    """The settings to write: each preset setting the file lacks, each list with the
    entries it lacks; a setting with another value is kept.

    ``current(table, key)`` is the file's value (table ``mypy`` or ``plugin``), or None.
    """
    result = Merge()
    for table, settings in (("mypy", preset.mypy_settings), ("plugin", preset.plugin)):
        for key, wanted in settings.items():
            have = current(table, key)
            if have is None:
                result.changed[(table, key)] = wanted
            elif isinstance(wanted, tuple) and isinstance(have, tuple):
                missing = tuple(entry for entry in wanted if entry not in have)
                if missing:
                    result.changed[(table, key)] = have + missing
            elif have != wanted:
                result.kept.append(f"kept your {key} = {ini_value(have)} (the preset has "
                                   f"{ini_value(wanted)})")
    return result


def parsed_ini_value(key: str, raw: str) -> Value:
    """An ini value as the preset spells it: a bool for booleans, else a tuple."""
    if raw.strip().lower() in ("true", "false", "yes", "no", "on", "off", "1", "0") \
            and key not in LIST_SETTINGS:
        return raw.strip().lower() in ("true", "yes", "on", "1")
    return tuple(split_list(raw))


def parsed_toml_value(value: object) -> Value | None:
    """A TOML value as the preset spells it; None for anything else."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    if isinstance(value, list):
        return tuple(str(item) for item in value)
    return None


# -- editing text ------------------------------------------------------------


def _section_bounds(lines: list[str], header: str) -> tuple[int, int] | None:
    """(header index, end index) of the table whose header matches ``header``."""
    start = next((i for i, line in enumerate(lines) if re.match(header, line)), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("[")), len(lines))
    return start, end


def _key_span(lines: list[str], start: int, end: int, key: str, toml: bool) -> tuple[int, int] | None:
    """(first, past-last) line of ``key``'s value inside a table."""
    for index in range(start + 1, end):
        if re.match(rf"^{re.escape(key)}\s*{'=' if toml else '[=:]'}", lines[index]):
            last = index + 1
            if toml:
                depth = _bracket_depth(lines[index].partition("=")[2])
                while depth > 0 and last < end:
                    depth += _bracket_depth(lines[last])
                    last += 1
            else:
                while last < end and lines[last][:1] in (" ", "\t") and lines[last].strip():
                    last += 1
            return index, last
    return None


def _bracket_depth(text: str) -> int:
    """Opened minus closed brackets outside strings and comments."""
    depth, quote = 0, ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#":
            break
        elif char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
    return depth


def edit(text: str, changed: dict[tuple[str, str], Value], toml: bool) -> str:
    """``text`` with each changed setting written in place, or added to its table."""
    lines = text.splitlines()
    render = toml_line if toml else ini_line
    headers = ({"mypy": r"^\[\s*tool\.mypy\s*\]\s*(#.*)?$",
                "plugin": r"^\[\s*tool\.proxy_types\s*\]\s*(#.*)?$"} if toml else
               {"mypy": r"^\[mypy\]\s*$", "plugin": rf"^\[{re.escape(PLUGIN_SECTION_INI)}\]\s*$"})
    names = ({"mypy": "[tool.mypy]", "plugin": "[tool.proxy_types]"} if toml else
             {"mypy": "[mypy]", "plugin": f"[{PLUGIN_SECTION_INI}]"})
    for table in ("mypy", "plugin"):
        settings = {key: value for (where, key), value in changed.items() if where == table}
        if not settings:
            continue
        bounds = _section_bounds(lines, headers[table])
        if bounds is None:
            while lines and not lines[-1].strip():
                lines.pop()
            lines += ([""] if lines else []) + [names[table]]
            bounds = (len(lines) - 1, len(lines))
        start, end = bounds
        added: list[str] = []
        for key, value in settings.items():
            span = _key_span(lines, start, end, key, toml)
            new = render(key, value).splitlines()
            if span is None:
                added += new
                continue
            lines[span[0]:span[1]] = new
            end += len(new) - (span[1] - span[0])
        last = end
        while last - 1 > start and not lines[last - 1].strip():
            last -= 1
        lines[last:last] = added
    return "\n".join(lines) + "\n"


# -- reading the current values ----------------------------------------------


def current_values(path: Path, text: str) -> Callable[[str, str], Value | None]:
    """``current(table, key)`` over the settings of ``path``, whose text is ``text``
    (read through the one settings reader)."""
    if path.suffix == ".toml":
        document = _loads_toml(path, text)
        tool = document.get("tool", {}) if isinstance(document.get("tool"), dict) else {}
        tables = {"mypy": tool.get("mypy", {}), "plugin": tool.get("proxy_types", {})}

        def from_toml(table: str, key: str) -> Value | None:
            values = tables[table]
            return parsed_toml_value(values.get(key)) if isinstance(values, dict) else None

        return from_toml
    try:
        sections = read_ini(path) if text.strip() else {}
    except SettingsFileError as error:
        raise CommandLineError(f"broken config {path}: {one_line(str(error))}") from None
    names = {"mypy": "mypy", "plugin": PLUGIN_SECTION_INI}

    def from_ini(table: str, key: str) -> Value | None:
        raw = sections.get(names[table], {}).get(key)
        return None if raw is None else parsed_ini_value(key, raw)

    return from_ini


def _loads_toml(path: Path, text: str) -> dict[str, Any]:
    """The TOML document of ``path`` (whose text is ``text``), read as the plugin reads it."""
    if not text.strip():
        return {}
    try:
        return read_toml(path)
    except TomlUnavailable:
        raise CommandLineError(f"reading {path} needs tomli on Python 3.10: "
                               "pip install tomli") from None
    except SettingsFileError as error:
        raise CommandLineError(f"broken config {path}: {one_line(str(error))}") from None


# -- the command -------------------------------------------------------------


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path``: a temporary file beside it, synced, then renamed."""
    mode = path.stat().st_mode & 0o7777 if path.exists() else None
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent,
                                         prefix=f".{path.name}.", suffix=".tmp", delete=False,
                                         newline="")
    try:
        with handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(handle.name, mode)
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


def init_text(path: Path, text: str, preset: Preset) -> tuple[str, list[str]]:
    """``text`` (of ``path``, possibly empty) with ``preset`` merged in, and what was kept."""
    merged = merge(current_values(path, text), preset)
    if not merged.changed:
        return text, merged.kept
    return edit(text, merged.changed, path.suffix == ".toml"), merged.kept


def command_init(preset_name: str | None, start: Path | None = None) -> int:
    """Run ``proxy-types init``; print the diff; return the exit status."""
    preset = preset_named(preset_name)
    path = target_file(start or Path.cwd())
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError) as error:
        raise CommandLineError(f"cannot read config {path}: {one_line(str(error))}") from None
    new, kept = init_text(path, text, preset)
    shown = os.path.relpath(path)
    for line in kept:
        print(f"{shown}: {line}")
    if new == text:
        print(f"{shown} is already set up for {describe(preset)}: nothing changed")
        return EXIT_CLEAN
    sys.stdout.writelines(difflib.unified_diff(
        text.splitlines(keepends=True), new.splitlines(keepends=True),
        fromfile=f"a/{shown}", tofile=f"b/{shown}"))
    try:
        write_atomically(path, new)
    except OSError as error:
        raise CommandLineError(f"cannot write {shown}: {one_line(str(error))}") from None
    print(f"wrote {shown} ({describe(preset)}); plain mypy now loads {PLUGIN_MODULE} too")
    return EXIT_CLEAN


def describe(preset: Preset) -> str:
    return "the plugin" if preset is PLUGIN_ONLY else f"preset {preset.name}"


# -- check --preset: the same merge, in memory ---------------------------------


def with_preset(sections: dict[str, dict[str, str]], preset: Preset) -> dict[str, dict[str, str]]:
    """Ini-style mypy sections with ``preset`` merged in, as ``init`` would merge it."""
    names = {"mypy": "mypy", "plugin": PLUGIN_SECTION_INI}

    def current(table: str, key: str) -> Value | None:
        raw = sections.get(names[table], {}).get(key)
        return None if raw is None else parsed_ini_value(key, raw)

    merged = {name: dict(values) for name, values in sections.items()}
    for (table, key), value in merge(current, preset).changed.items():
        merged.setdefault(names[table], {})[key] = ini_value(value)
    return merged
