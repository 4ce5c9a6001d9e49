"""The plugin's settings from the config file mypy used.

Reading the file and its ``[proxy_types]`` section, and splitting list settings,
is the shared reader (``settings_files``, also the runtime's); this adapter
checks each value and words each problem as the plugin's one-line message.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from types import ModuleType
from typing import Any, NoReturn

from .constants import PLUGIN_CODE_NAMES, TORCH_TRACER_NAMES
from .settings_files import (
    DEFAULT_EXEMPT_MODULES,
    DOTTED_NAME,
    MODULE_PATTERN,
    NotATable,
    SettingsFileError,
    TomlUnavailable,
    is_toml,
    module_matches,
    read_plugin_section,
    string_list,
    setting_line,
)

# Patterns, not compiled ones: `re` compiles each on first use, so a config
# without plugin settings skips the 0.5 ms of compiling them on every run.
_ISINSTANCE_FUNCTION = (
    r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+)(:(?P<value>\d+):(?P<classes>\d+))?$"
)
# A name that may use fnmatch wildcards (*, ?, [...]).
_NAME_PATTERN = r"^[A-Za-z0-9_*?\[\]!-]+$"
# A dotted name whose parts may use fnmatch wildcards (*, ?, [...]), optionally after
# "@" (a decorator) or "!" (functions left out).
_TRACED_FUNCTION = r"^[@!]?[A-Za-z0-9_*?\[\]-][A-Za-z0-9_*?\[\]!-]*(\.[A-Za-z0-9_*?\[\]!-]+)+$"
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _errors() -> ModuleType:
    """The messages (imported on a failure only: they pull in the findings' records)."""
    from . import errors

    return errors


class ProxyTypesConfig:
    """The ``[mypy.plugins.proxy_types]`` / ``[tool.proxy_types]`` settings.

    Reading raises ``ConfigurationError`` (its message is one ``file: error:
    ...`` line); unless ``raise_errors`` is set, the constructor (the plugin's
    entry point) prints that line and exits with code 2, which is how mypy
    itself reports a bad configuration.
    """

    KEYS = (
        "dynamic_number_classes",
        "strict_isinstance",
        "exempt_modules",
        "migrate_classes",
        "isinstance_functions",
        "traced_functions",
        "symbolic_shapes",
        "static_only_aliases",
        "static_parameters",
        "audit_classes",
        "guarded_number_classes",
        "concretizing_functions",
        "traced_entry_points",
        "tracers",
        "enable_error_code",
        "disable_error_code",
    )

    def __init__(self, config_file: str | None, *, raise_errors: bool = False) -> None:
        self.config_file = config_file or ""
        self.dynamic_number_classes: tuple[str, ...] = ()
        self.strict_isinstance = False
        self.exempt_modules: tuple[str, ...] = DEFAULT_EXEMPT_MODULES
        self.migrate_classes: tuple[str, ...] = ()
        #: Read by the runtime audit only (proxy_types._config); checked here for spelling.
        self.audit_classes: tuple[str, ...] = ()
        #: isinstance wrapper -> (index of the value argument, index of the classes argument)
        self.isinstance_functions: dict[str, tuple[int, int]] = {}
        #: fnmatch patterns over function names, and "@" + decorator names (patterns too)
        self.traced_functions: tuple[str, ...] = ()
        #: Tensor sizes (t.shape[i], t.size(i), ...) may be SymInts.
        self.symbolic_shapes = False
        #: Aliases of static number classes that mean "not the dynamic ones" on purpose.
        self.static_only_aliases: tuple[str, ...] = ()
        #: fnmatch patterns over parameter names that hold static numbers in traced functions.
        self.static_parameters: tuple[str, ...] = ()
        #: Configured dynamic classes whose conversions install a guard, like torch's.
        self.guarded_number_classes: tuple[str, ...] = ()
        #: Helpers (thunder's ``pyval``) whose call reads a dynamic argument's value.
        self.concretizing_functions: tuple[str, ...] = ()
        #: forward() of torch.nn.Module subclasses counts as traced (cross-call reports).
        self.traced_entry_points = True
        #: The torch tracers the project runs (TORCH_TRACERS keys, in the table's order):
        #: a report harmless under each of them is hidden.
        self.tracers: tuple[str, ...] = TORCH_TRACER_NAMES
        #: Plugin codes turned on and off when the plugin loads: mypy checks the codes
        #: of ``[mypy]`` before plugins register them under dmypy (a KeyError there).
        self.enable_error_code: tuple[str, ...] = ()
        self.disable_error_code: tuple[str, ...] = ()
        if not config_file:
            return
        try:
            self._read(config_file)
            self._check_across_settings()
        except Exception as error:
            # Imported on failure only: the runtime package would cost every mypy run
            # its import time (see number_table.py).
            from proxy_types import ConfigurationError

            if raise_errors or not isinstance(error, ConfigurationError):
                raise
            print(error, file=sys.stderr)
            sys.exit(2)

    # -- reading ------------------------------------------------------------

    def _read(self, path: str) -> None:
        try:
            section = read_plugin_section(path)
        except TomlUnavailable:
            self._fail(_errors().config_needs_tomli())
        except NotATable:
            self._fail(_errors().config_not_a_table(), "")
        except SettingsFileError as error:
            self._fail(_errors().config_unreadable(str(error)), line=error.line)
        from_ini = not is_toml(path)
        for key, value in section.items():
            self._set(key, value, from_ini=from_ini)

    def _set(self, key: str, value: object, *, from_ini: bool) -> None:
        if key not in self.KEYS:
            self._fail(_errors().config_unknown_setting(key, value, self.KEYS, from_ini), key)
        if key == "strict_isinstance":
            self.strict_isinstance = self._boolean(key, value, from_ini=from_ini)
            return
        if key == "traced_entry_points":
            self.traced_entry_points = self._boolean(key, value, from_ini=from_ini)
            return
        if key == "symbolic_shapes":
            self.symbolic_shapes = self._boolean(key, value, from_ini=from_ini)
            return
        if key == "tracers":
            entries = self._entries(key, value, from_ini=from_ini)
            if not entries:
                self._fail(_errors().config_no_tracer(TORCH_TRACER_NAMES), key)
            for entry in entries:
                if entry not in TORCH_TRACER_NAMES:
                    self._fail(_errors().config_unknown_tracer(entry, TORCH_TRACER_NAMES),
                               key, entry)
            self.tracers = tuple(name for name in TORCH_TRACER_NAMES if name in entries)
            return
        if key in ("enable_error_code", "disable_error_code"):
            codes = self._entries(key, value, from_ini=from_ini)
            for code in codes:
                if code not in PLUGIN_CODE_NAMES:
                    self._fail(_errors().config_not_a_plugin_code(key, code, PLUGIN_CODE_NAMES),
                               key, code)
            setattr(self, key, tuple(codes))
            return
        if key in ("traced_functions", "static_only_aliases", "static_parameters"):
            entries = self._entries(key, value, from_ini=from_ini)
            for entry in entries:
                if key == "traced_functions" and not re.match(_TRACED_FUNCTION, entry):
                    self._fail(_errors().config_bad_traced_function(entry), key, entry)
                if key == "static_only_aliases" and not re.match(DOTTED_NAME, entry):
                    self._fail(_errors().config_not_a_class_name(key, entry), key, entry)
                if key == "static_parameters" and not re.match(_NAME_PATTERN, entry):
                    self._fail(_errors().config_bad_parameter_pattern(entry), key, entry)
            setattr(self, key, tuple(entries))
            return
        names = self._name_list(key, value, from_ini=from_ini)
        if key in ("dynamic_number_classes", "migrate_classes", "guarded_number_classes",
                   "audit_classes"):
            for name in names:
                if not re.match(DOTTED_NAME, name):
                    self._fail(_errors().config_not_a_class_name(key, name), key, name)
            setattr(self, key, tuple(names))
        elif key == "concretizing_functions":
            for name in names:
                if not re.match(DOTTED_NAME, name):
                    self._fail(_errors().config_not_a_function_name(key, name), key, name)
            self.concretizing_functions = tuple(names)
        elif key == "isinstance_functions":
            self.isinstance_functions = dict(self._isinstance_function(name) for name in names)
        else:
            for name in names:
                if not re.match(MODULE_PATTERN, name):
                    self._fail(_errors().config_not_a_module_pattern(key, name), key, name)
            self.exempt_modules = tuple(names)

    def _check_across_settings(self) -> None:
        # After every key is read: the settings may come in any order.
        for code in self.enable_error_code:
            if code in self.disable_error_code:
                self._fail(_errors().config_code_on_and_off(code), "disable_error_code", code)
        dynamic = set(self.dynamic_number_classes) | set(self.migrate_classes)
        for name in self.guarded_number_classes:
            if name not in dynamic:
                self._fail(_errors().config_guarded_not_dynamic(name),
                           "guarded_number_classes", name)

    def _isinstance_function(self, entry: str) -> tuple[str, tuple[int, int]]:
        match = re.match(_ISINSTANCE_FUNCTION, entry)
        if match is None:
            self._fail(_errors().config_bad_isinstance_function(entry), "isinstance_functions",
                       entry)
        if match["value"] is None:
            return match["name"], (0, 1)
        value, classes = int(match["value"]), int(match["classes"])
        if value == classes:
            self._fail(_errors().config_same_argument(entry, value), "isinstance_functions", entry)
        return match["name"], (value, classes)

    def _boolean(self, key: str, value: object, *, from_ini: bool) -> bool:
        if isinstance(value, bool):
            return value
        if from_ini and isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        self._fail(_errors().config_expected_boolean(key, value), key)

    def _entries(self, key: str, value: object, *, from_ini: bool) -> list[str]:
        """A list setting whose entries must each be present and listed once."""
        if from_ini and isinstance(value, str):
            parts = []
            for line in value.splitlines():
                line_parts = [part.strip() for part in line.split(",")]
                if line_parts[-1] == "":
                    line_parts.pop()  # a blank line, or a comma ending the line
                parts += line_parts
        elif isinstance(value, list) and all(isinstance(item, str) for item in value):
            parts = [item.strip() for item in value]
        else:
            self._fail(_errors().config_expected_list(key, value), key)
        seen: set[str] = set()
        for part in parts:
            if not part:
                self._fail(_errors().config_empty_entry(key, value), key)
            if part in seen:
                self._fail(_errors().config_duplicate_entry(key, part), key, part)
            seen.add(part)
        return parts

    def _name_list(self, key: str, value: object, *, from_ini: bool) -> list[str]:
        names = string_list(value, from_ini=from_ini)
        if names is None:
            self._fail(_errors().config_expected_list(key, value), key)
        return names

    def _fail(self, problem: str, key: str | None = None, entry: str | None = None, *,
              line: int | None = None) -> NoReturn:
        """Raise the one line for ``problem``, at ``line`` or the line of ``key`` (of its
        ``entry`` when found; "" for the table's header) when the format allows."""
        from proxy_types import ConfigurationError

        if key is not None:
            line = setting_line(self.config_file, key or None, entry)
        raise ConfigurationError(_errors().config_error_line(self.config_file, problem, line))

    # -- using --------------------------------------------------------------

    def is_exempt(self, module: str) -> bool:
        """True if ``module`` may handle raw numbers without reports (asked once per
        module, by the gate)."""
        return any(module_matches(module, pattern) for pattern in self.exempt_modules)

    def to_data(self) -> dict[str, Any]:
        """JSON data for mypy's cache (``report_config_data``)."""
        data: dict[str, Any] = {
            "dynamic_number_classes": sorted(self.dynamic_number_classes),
            "strict_isinstance": self.strict_isinstance,
            "exempt_modules": sorted(self.exempt_modules),
            "migrate_classes": sorted(self.migrate_classes),
            "isinstance_functions": sorted(
                f"{name}:{value}:{classes}"
                for name, (value, classes) in self.isinstance_functions.items()
            ),
            "traced_functions": sorted(self.traced_functions),
            "symbolic_shapes": self.symbolic_shapes,
            "traced_entry_points": self.traced_entry_points,
            "static_only_aliases": sorted(self.static_only_aliases),
            "static_parameters": sorted(self.static_parameters),
            "guarded_number_classes": sorted(self.guarded_number_classes),
            "concretizing_functions": sorted(self.concretizing_functions),
        }
        # Only when set: the data of every config without them stays as it was.
        if self.enable_error_code:
            data["enable_error_code"] = sorted(self.enable_error_code)
        if self.disable_error_code:
            data["disable_error_code"] = sorted(self.disable_error_code)
        if self.tracers != TORCH_TRACER_NAMES:
            data["tracers"] = list(self.tracers)
        return data

    def fingerprint(self) -> str:
        """Short hash of the settings, folded into the plugin's ``__version__``."""
        encoded = json.dumps(self.to_data(), sort_keys=True).encode()
        return hashlib.sha256(encoded).hexdigest()[:12]


def is_installed_library(path: str) -> bool:
    """True for a module file of an installed package or of typeshed.

    mypy never shows errors in those, so the plugin neither reports nor stores
    settings there.
    """
    # A substring test on path components: asked for each module of every run.
    wrapped = "/" + path.replace("\\", "/") + "/"
    return "/site-packages/" in wrapped or "/dist-packages/" in wrapped or "/typeshed/" in wrapped

