"""The one place where the plugin touches mypy beyond its documented plugin interface.

Each function names what it needs from mypy, so a mypy release that moves it
breaks here, in one module, instead of quietly in a check.
"""

from __future__ import annotations

from typing import Union

from mypy.errorcodes import ErrorCode
from mypy.plugin import (
    CheckerPluginInterface,
    SemanticAnalyzerPluginInterface,
    TypeAnalyzerPluginInterface,
)

AnyPluginInterface = Union[
    CheckerPluginInterface, SemanticAnalyzerPluginInterface, TypeAnalyzerPluginInterface
]


def current_path(api: AnyPluginInterface) -> str:
    """The file mypy reports into, as it names it in its messages.

    The checker declares ``path``; the semantic analyzer reports through its
    ``msg.errors``; a type analyzer through the semantic analyzer it serves.
    """
    if isinstance(api, CheckerPluginInterface):
        return api.path
    if isinstance(api, SemanticAnalyzerPluginInterface):
        return api.msg.errors.file
    semantic_analyzer = api.api  # type: ignore[attr-defined]  # TypeAnalyser.api
    return str(semantic_analyzer.msg.errors.file)


def error_code_enabled(api: AnyPluginInterface, code: ErrorCode) -> bool:
    """Whether mypy shows errors with ``code`` in the module being analyzed.

    Asked through the ``Errors`` object mypy reports into (``msg.errors``; a type
    analyzer's through its semantic analyzer); True when that is out of reach,
    so a report is never lost to a moved attribute.
    """
    reporter = getattr(api, "msg", None) or getattr(getattr(api, "api", None), "msg", None)
    enabled = getattr(getattr(reporter, "errors", None), "is_error_code_enabled", None)
    return bool(enabled(code)) if callable(enabled) else True
