"""What every part of the command line shares: names, exit statuses, its one error."""

from __future__ import annotations

from pathlib import Path

PROGRAM = "proxy-types"
PLUGIN_MODULE = "mypy_plugin"
DEFAULT_CONFIG = Path(__file__).resolve().parent.parent / "default.ini"

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
#: The check ran, but a check of the plugin failed (proxy-internal): findings may be missing.
EXIT_INTERNAL = 3
INTERNAL_CODE = "proxy-internal"
#: The plugin's internal code for a finding the settings hide (counted, never shown).
HIDDEN_CODE = "proxy-hidden"


class CommandLineError(Exception):
    """A problem the user can fix; shown as one line, exit status 2.

    Not a ``proxy_types.ProxyTypesError``: the command never raises it to a program, and
    deriving from it would import the whole runtime package into every run.
    """


def one_line(text: str) -> str:
    """``text`` with every run of whitespace, newlines included, made one space."""
    return " ".join(text.split())


def without_severity(line: str) -> str:
    """``file: error: problem`` as ``file: problem``, for lines the command line wraps
    in its own ``proxy-types: error:`` (one "error:" per line)."""
    where, separator, problem = line.partition(": error: ")
    return f"{where}: {problem}" if separator else line
