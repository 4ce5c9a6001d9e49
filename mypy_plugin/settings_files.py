"""The settings-file reader (``proxy_types/_settings_files.py``) as the plugin and CLI get it.

One implementation serves the runtime, the plugin and the command line; the
plugin loads it without running the runtime package (see runtime_modules.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = [
    "MalformedFile", "SettingsFileError", "TomlUnavailable", "UnreadableFile",
    "config_file_candidates", "find_config_file", "module_matches", "mypy_uses",
    "read_ini", "read_toml", "setting_line", "toml_table", "OWN_CONFIG_NAMES", "SHARED_CONFIG_NAMES",
]

if TYPE_CHECKING:
    from proxy_types._settings_files import (
        OWN_CONFIG_NAMES,
        SHARED_CONFIG_NAMES,
        MalformedFile,
        SettingsFileError,
        TomlUnavailable,
        UnreadableFile,
        config_file_candidates,
        find_config_file,
        module_matches,
        mypy_uses,
        read_ini,
        read_toml,
        setting_line,
        toml_table,
    )
else:
    from .runtime_modules import load_runtime_module

    _reader = load_runtime_module("_settings_files")
    globals().update({name: getattr(_reader, name) for name in __all__})
