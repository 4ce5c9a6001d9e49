"""The one place where the plugin touches mypy beyond its documented plugin interface.

Each function names what it needs from mypy, so a mypy release that moves it
breaks here, in one module, instead of quietly in a check.
"""

from __future__ import annotations

from typing import Union

from mypy.nodes import Expression, FuncDef
from mypy.errorcodes import ErrorCode
from mypy.plugin import (
    CheckerPluginInterface,
    SemanticAnalyzerPluginInterface,
    TypeAnalyzerPluginInterface,
)
from mypy.types import Type

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


def enclosing_functions(api: object) -> list[FuncDef]:
    """The functions around the code mypy is checking or analyzing, outermost first.

    Lambdas are left out (their bodies belong to the function around them).  The
    checker keeps its scope as ``scope.stack`` (classes and functions); the semantic
    analyzer keeps ``function_stack``.
    """
    from mypy.semanal import SemanticAnalyzer

    if isinstance(api, SemanticAnalyzer):
        stack: object = api.function_stack
    else:
        stack = getattr(getattr(api, "scope", None), "stack", None)
    if not isinstance(stack, list):
        return []
    return [item for item in stack if isinstance(item, FuncDef)]


def known_type(api: object, expr: Expression) -> Type | None:
    """The type mypy's checker already inferred for ``expr``, without inferring it again."""
    lookup = getattr(api, "lookup_type_or_none", None)  # TypeChecker
    if lookup is None:
        return None
    found = lookup(expr)
    return found if isinstance(found, Type) else None
def error_code_enabled(api: AnyPluginInterface, code: ErrorCode) -> bool:
    """Whether mypy shows errors with ``code`` in the module being analyzed.

    Asked through the ``Errors`` object mypy reports into (``msg.errors``; a type
    analyzer's through its semantic analyzer); True when that is out of reach,
    so a report is never lost to a moved attribute.
    """
    reporter = getattr(api, "msg", None) or getattr(getattr(api, "api", None), "msg", None)
    enabled = getattr(getattr(reporter, "errors", None), "is_error_code_enabled", None)
    return bool(enabled(code)) if callable(enabled) else True
