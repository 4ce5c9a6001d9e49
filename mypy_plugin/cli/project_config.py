"""Which mypy configuration ``check`` and ``fix`` hand to mypy, with the plugin added."""

from __future__ import annotations

import configparser
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ..settings_files import (
    OWN_CONFIG_NAMES,
    PLUGIN_SECTION_INI,
    MalformedFile,
    SettingsFileError,
    find_config_file,
    read_ini,
    read_toml,
)
from .common import DEFAULT_CONFIG, PLUGIN_MODULE, CommandLineError, one_line, without_severity

if TYPE_CHECKING:
    from ..presets import Preset


class ProjectConfig(NamedTuple):
    """A mypy configuration file reduced to its mypy sections, ini-style."""

    path: Path
    sections: dict[str, dict[str, str]]
    #: ``python_version = 3.10`` in TOML is the number 3.1; mypy's hint is lost in the ini copy.
    numeric_python_version: bool = False

    @property
    def plugins(self) -> list[str]:
        """The entries of ``plugins`` in the ``[mypy]`` section."""
        return split_commas(self.sections.get("mypy", {}).get("plugins", ""))

    @property
    def enables_plugin(self) -> bool:
        """True if ``plugins`` already loads this plugin."""
        return any(entry.split(":")[0] == PLUGIN_MODULE for entry in self.plugins)

    @property
    def names_targets(self) -> bool:
        """True if the config names what to check (``files``, ``modules``, ``packages``)."""
        mypy_section = self.sections.get("mypy", {})
        return any(mypy_section.get(key) for key in ("files", "modules", "packages"))


class ChosenConfig(NamedTuple):
    """The file handed to mypy and how it was chosen, for the summary line."""

    mypy_file: str  # as mypy gets it: the name in mypy's own messages
    source: str | None  # the user's file, relative when possible
    description: str
    names_targets: bool
    numeric_python_version: bool = False  # see ProjectConfig

    def explained(self, problem: str) -> str:
        """mypy's message about the config, with the hint mypy gives when it reads TOML itself."""
        if (self.numeric_python_version and "python_version" in problem
                and QUOTE_HINT not in problem):
            return f"{problem}. {QUOTE_HINT}"
        return problem


#: mypy's own words when it reads a TOML number as python_version.
QUOTE_HINT = "You may need to put quotes around your Python version"


def split_commas(value: str) -> list[str]:
    """The non-empty, stripped items of a comma-separated setting."""
    return [part.strip() for part in value.split(",") if part.strip()]


def read_settings_file(path: Path) -> dict[str, Any]:
    """The parsed file (TOML document or INI sections); a one-line ``CommandLineError`` if bad."""
    try:
        return read_toml(path) if path.suffix == ".toml" else read_ini(path)
    except SettingsFileError as error:
        raise settings_file_problem(path, error) from None


def settings_file_problem(path: Path, error: SettingsFileError) -> CommandLineError:
    """The one line for a settings file that cannot be read or parsed."""
    if isinstance(error, MalformedFile):
        where = f" (line {error.line})" if error.line else ""
        return CommandLineError(f"broken config {path}{where}: {error}")
    return CommandLineError(f"cannot read config {path}: {error}")


def mypy_sections(sections: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """The sections of an INI file that mypy reads."""
    return {name: values for name, values in sections.items()
            if name == "mypy" or name.startswith(("mypy-", "mypy."))}


def toml_value_as_ini(key: str, value: object) -> str:
    """A TOML setting value as mypy expects it in an ini file."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, list):
        if key == "exclude":  # a list of regexes in TOML, one regex in ini
            return "|".join(f"(?:{pattern})" for pattern in value)
        return ", ".join(str(item) for item in value)
    return str(value)


def toml_as_ini_sections(path: Path, tool: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Translate ``[tool.mypy]`` (with overrides) and ``[tool.proxy_types]``."""
    mypy_table = tool.get("mypy")
    if not isinstance(mypy_table, dict):
        raise CommandLineError(f"broken config {path}: [tool.mypy] is not a table")
    sections: dict[str, dict[str, str]] = {"mypy": {}}
    for key, value in mypy_table.items():
        if key == "overrides":
            continue
        if isinstance(value, dict):
            raise CommandLineError(f"broken config {path}: [tool.mypy] {key} is a table")
        sections["mypy"][key] = toml_value_as_ini(key, value)
    overrides = mypy_table.get("overrides", [])
    if not isinstance(overrides, list):
        raise CommandLineError(f"broken config {path}: tool.mypy.overrides is not an array")
    for override in overrides:
        modules = override.get("module") if isinstance(override, dict) else None
        if isinstance(modules, str):
            modules = [modules]
        if not (isinstance(modules, list) and modules and all(isinstance(m, str) for m in modules)):
            raise CommandLineError(
                f"broken config {path}: every [[tool.mypy.overrides]] needs a 'module'"
            )
        assert isinstance(override, dict)
        section = sections.setdefault(f"mypy-{','.join(modules)}", {})
        for key, value in override.items():
            if key != "module":
                section[key] = toml_value_as_ini(key, value)
    plugin_table = tool.get("proxy_types")
    if isinstance(plugin_table, dict):
        sections[PLUGIN_SECTION_INI] = {
            key: toml_value_as_ini(key, value) for key, value in plugin_table.items()
        }
    return sections


def read_project_config(path: Path, *, required: bool) -> ProjectConfig | None:
    """Read a config file; None if it is a shared file without mypy settings."""
    if not path.is_file():
        if required:
            raise CommandLineError(f"config file not found: {path}")
        return None
    if path.suffix == ".toml":
        tool = read_settings_file(path).get("tool", {})
        if not isinstance(tool, dict) or "mypy" not in tool:
            if required:
                raise CommandLineError(f"broken config {path}: it has no [tool.mypy] table")
            return None
        check_plugin_settings(path)  # before TOML values are flattened to ini text
        version = tool["mypy"].get("python_version") if isinstance(tool["mypy"], dict) else None
        return ProjectConfig(path, toml_as_ini_sections(path, tool),
                             numeric_python_version=isinstance(version, float))
    sections = mypy_sections(read_settings_file(path))
    if "mypy" not in sections:
        if required or path.name in OWN_CONFIG_NAMES:
            raise CommandLineError(f"broken config {path}: it has no [mypy] section")
        return None
    check_plugin_settings(path)
    return ProjectConfig(path, sections)


def check_plugin_settings(path: Path) -> None:
    """Read the plugin's settings as the plugin will, failing with the plugin's message."""
    from ..config import ProxyTypesConfig  # imports mypy: only when checking

    try:
        ProxyTypesConfig(display_path(path), raise_errors=True)
    except Exception as exc:
        # Imported on failure only, as the plugin does: the runtime package costs every run.
        from proxy_types import ConfigurationError

        if not isinstance(exc, ConfigurationError):
            raise
        # The line mypy would print, as for mypy's own errors.
        raise CommandLineError(f"broken config {without_severity(one_line(str(exc)))}") from None


def find_project_config(start: Path) -> ProjectConfig | None:
    """Find the configuration mypy would use, searching like mypy does."""
    try:
        path = find_config_file(start)
    except SettingsFileError as error:
        raise settings_file_problem(error.path or start, error) from None
    return None if path is None else read_project_config(path, required=False)


def with_plugin_added(config: ProjectConfig, directory: Path) -> Path:
    """Write a copy of ``config`` that also loads the plugin; return its path.

    Paths that mypy resolves against the config file's own directory (``.py``
    plugin paths and ``$MYPY_CONFIG_FILE_DIR``) are made absolute first.
    """
    config_dir = str(config.path.resolve().parent)
    plugins = []
    for entry in config.plugins:
        module = entry.split(":")[0]
        if module.endswith(".py") and not os.path.isabs(module):
            entry = os.path.join(config_dir, entry)
        plugins.append(entry)
    if not config.enables_plugin:
        plugins.append(PLUGIN_MODULE)
    parser = configparser.RawConfigParser()
    for name, values in config.sections.items():
        parser.add_section(name)
        for key, value in values.items():
            value = value.replace("${MYPY_CONFIG_FILE_DIR}", config_dir)
            parser.set(name, key, value.replace("$MYPY_CONFIG_FILE_DIR", config_dir))
    parser.set("mypy", "plugins", ", ".join(plugins))
    copy = directory / "mypy.ini"
    with copy.open("w", encoding="utf-8") as handle:
        parser.write(handle)
    return copy


def choose_config(forced: str | None, directory: Path, preset: Preset | None = None
                  ) -> ChosenConfig:
    """Pick the configuration; copies go to ``directory``.  With ``preset``, a copy
    with the preset merged in as ``proxy-types init`` would merge it."""
    default = str(DEFAULT_CONFIG)
    if forced is not None and Path(forced).resolve() == DEFAULT_CONFIG:
        if preset is None:
            return ChosenConfig(default, None, "embedded default", False)
        config = None
    elif forced is not None:
        config = read_project_config(Path(forced), required=True)
    else:
        config = find_project_config(Path.cwd())
    if config is None and preset is None:
        return ChosenConfig(default, None, "embedded default (no mypy config found)", False)
    if preset is not None:
        from .init import with_preset

        base = config or ProjectConfig(DEFAULT_CONFIG, mypy_sections(read_ini(DEFAULT_CONFIG)))
        merged = ProjectConfig(base.path, with_preset(base.sections, preset))
        source = None if config is None else display_path(config.path)
        return ChosenConfig(str(with_plugin_added(merged, directory)), source,
                            f"{source or 'embedded default'} + preset {preset.name}",
                            base.names_targets)
    assert config is not None
    shown = display_path(config.path)
    if config.enables_plugin:
        return ChosenConfig(shown, shown, shown, config.names_targets)
    copy = str(with_plugin_added(config, directory))
    return ChosenConfig(copy, shown, f"{shown} + {PLUGIN_MODULE}", config.names_targets,
                        config.numeric_python_version)


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when possible, with forward slashes."""
    try:
        return Path(os.path.relpath(path)).as_posix()
    except ValueError:  # another drive on Windows
        return path.as_posix()
