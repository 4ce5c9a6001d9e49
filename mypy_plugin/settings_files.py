"""The settings-file reader (``proxy_types/_settings_files.py``) as the plugin and CLI get it.

One implementation serves the runtime, the plugin and the command line; the
plugin loads it without running the runtime package (see runtime_modules.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = [
    "DEFAULT_EXEMPT_MODULES", "DOTTED_NAME", "MODULE_PATTERN", "MalformedFile", "NotATable",
    "OWN_CONFIG_NAMES", "PLUGIN_SECTION_INI", "PLUGIN_SECTION_TOML", "SHARED_CONFIG_NAMES",
    "SettingsFileError", "TomlUnavailable", "UnreadableFile", "config_file_candidates",
    "entry_line", "find_config_file", "has_plugin_section", "is_toml", "module_matches",
    "mypy_uses", "read_ini", "read_plugin_section", "read_toml", "setting_line", "split_list", "string_list",
    "toml_table",
]

if TYPE_CHECKING:
    from proxy_types._settings_files import (
        DEFAULT_EXEMPT_MODULES,
        DOTTED_NAME,
        MODULE_PATTERN,
        OWN_CONFIG_NAMES,
        PLUGIN_SECTION_INI,
        PLUGIN_SECTION_TOML,
        SHARED_CONFIG_NAMES,
        MalformedFile,
        NotATable,
        SettingsFileError,
        TomlUnavailable,
        UnreadableFile,
        config_file_candidates,
        entry_line,
        find_config_file,
        has_plugin_section,
        is_toml,
        module_matches,
        mypy_uses,
        read_ini,
        read_plugin_section,
        read_toml,
        setting_line,
        split_list,
        string_list,
        toml_table,
    )
else:
    from .runtime_modules import load_runtime_module

    _reader = load_runtime_module("_settings_files")
    globals().update({name: getattr(_reader, name) for name in __all__})
