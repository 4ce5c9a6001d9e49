"""Every error code of the plugin and every message it emits."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from mypy.errorcodes import ErrorCode
from mypy.nodes import Context
from mypy.plugin import (
    CheckerPluginInterface,
    SemanticAnalyzerPluginInterface,
    TypeAnalyzerPluginInterface,
)

CATEGORY = "proxy-types"

PROXY_ISINSTANCE = ErrorCode(
    "proxy-isinstance",
    "isinstance/issubclass against static number classes may misclassify a dynamic number",
    CATEGORY,
)
PROXY_CONCRETIZE = ErrorCode(
    "proxy-concretize",
    "a dynamic number is implicitly turned into a static value (conversion, index, condition)",
    CATEGORY,
)
PROXY_BASE = ErrorCode(
    "proxy-base",
    "a dynamic number class is made a static number by inheritance or ABC registration",
    CATEGORY,
)
PROXY_CONFIG = ErrorCode(
    "proxy-config",
    "the [proxy_types] plugin configuration names something that is not a class",
    CATEGORY,
)

PROXY_CAST = ErrorCode(
    "proxy-cast",
    "typing.cast() of a possibly dynamic number to a static number type",
    CATEGORY,
)

ALL_CODES: tuple[ErrorCode, ...] = (
    PROXY_ISINSTANCE, PROXY_CONCRETIZE, PROXY_BASE, PROXY_CONFIG, PROXY_CAST
)


def misclassifying_isinstance(
    api: CheckerPluginInterface, context: Context, function: str, classes: str, dynamic: str
) -> None:
    """proxy-isinstance: the check sorts a dynamic number into the wrong branch."""
    api.fail(
        f'{function}() against static number classes ({classes}) misclassifies dynamic '
        f'number "{dynamic}"; use proxy_types.is_static_number() / is_dynamic_number() '
        "or include proxy_types.NumberClasses",
        context,
        code=PROXY_ISINSTANCE,
    )


def true_through_legacy_base(
    api: CheckerPluginInterface,
    context: Context,
    function: str,
    classes: str,
    legacy: str,
    base: str,
) -> None:
    """proxy-isinstance: a check that only a legacy proxy's hidden base makes True."""
    api.fail(
        f'{function}() against static number classes ({classes}) is True at runtime for '
        f'legacy proxy "{legacy}" only through its legacy base "{base}"; use '
        "proxy_types.is_static_number() / is_dynamic_number() before removing the base",
        context,
        code=PROXY_ISINSTANCE,
    )


def may_be_legacy_proxy(
    api: CheckerPluginInterface, context: Context, function: str, classes: str, shown: str
) -> None:
    """proxy-isinstance (strict, migration mode): a static-typed value may be a legacy proxy."""
    api.fail(
        f'{function}() against static number classes ({classes}) may see a legacy proxy '
        f'typed "{shown}" (migrate_classes: legacy proxies still subclass builtin numbers '
        "at runtime); use proxy_types.is_static_number() / is_dynamic_number()",
        context,
        code=PROXY_ISINSTANCE,
    )


def implicit_conversion(
    api: CheckerPluginInterface, context: Context, operation: str, dynamic: str
) -> None:
    """proxy-concretize: a conversion call or index turns a dynamic number static."""
    api.fail(
        f'{operation} turns dynamic number "{dynamic}" into a static value fixed at trace '
        "time; use proxy_types.to_static() to make the conversion explicit",
        context,
        code=PROXY_CONCRETIZE,
    )


def dynamic_condition(api: CheckerPluginInterface, context: Context, dynamic: str) -> None:
    """proxy-concretize: a comparison of a dynamic number used as a condition."""
    message = (
        f'Condition on a comparison of dynamic number "{dynamic}" specializes on the traced '
        "value; use proxy_types.check(...) to record it, or to_static() explicitly"
    )
    with _past_speculative_checks(api):
        api.fail(message, context, code=PROXY_CONCRETIZE)


@contextmanager
def _past_speculative_checks(api: CheckerPluginInterface) -> Iterator[None]:
    """Let an error through mypy's trial checks of an operator.

    mypy first checks ``a < b`` with errors filtered and, if any error appears,
    re-checks it operand by operand (adding "Left operand is of type" notes, or
    losing the error for ``3 < n`` with ``n: int | SymInt``).  The comparison is
    a concretization however mypy resolves it, so the report skips the filters.
    """
    mypy_errors = getattr(api.msg, "errors", None)
    watchers = getattr(mypy_errors, "_watchers", None)
    if not isinstance(watchers, list):
        yield
        return
    saved = list(watchers)
    watchers.clear()
    try:
        yield
    finally:
        watchers[:] = saved


def static_and_dynamic_bases(
    api: SemanticAnalyzerPluginInterface,
    context: Context,
    class_name: str,
    dynamic: str,
    static: str,
) -> None:
    """proxy-base: a class with both a dynamic and a static number base."""
    api.fail(
        f'Class "{class_name}" inherits from dynamic number "{dynamic}" and static number '
        f'"{static}", so it passes isinstance checks for static numbers; drop "{static}" '
        "and use proxy_types.register_dynamic_type()",
        context,
        code=PROXY_BASE,
    )


def legacy_static_base(
    api: SemanticAnalyzerPluginInterface,
    context: Context,
    class_name: str,
    migrate_class: str,
    bases: str,
) -> None:
    """proxy-base (migration mode): a legacy proxy class still inherits a static number."""
    api.fail(
        f'Legacy proxy class "{class_name}" (migrate_classes: "{migrate_class}") still '
        f'inherits from static number "{bases}"; mypy checks it without that base; remove '
        "the base to finish the migration",
        context,
        code=PROXY_BASE,
    )


def registered_as_static(
    api: CheckerPluginInterface, context: Context, abc_name: str, dynamic: str
) -> None:
    """proxy-base: a dynamic number class registered with a ``numbers`` ABC."""
    api.fail(
        f'{abc_name}.register() makes dynamic number "{dynamic}" pass as a static number; '
        "use proxy_types.register_dynamic_type() instead",
        context,
        code=PROXY_BASE,
    )


def dynamic_bool_condition(
    api: TypeAnalyzerPluginInterface, context: Context, name: str, dynamic: str
) -> None:
    """proxy-concretize: a dynamic bool parameter tested by name (``if flag:``)."""
    api.fail(
        f'Condition on dynamic bool "{name}" ("{dynamic}") specializes on the traced value; '
        "use proxy_types.check(...) to record it, or to_static() explicitly",
        context,
        code=PROXY_CONCRETIZE,
    )


def static_cast(
    api: TypeAnalyzerPluginInterface, context: Context, target: str, dynamic: str
) -> None:
    """proxy-cast: cast() of a dynamic number to a static number type."""
    api.fail(
        f'cast() to static number type "{target}" hides dynamic number "{dynamic}" (the '
        "value stays dynamic at runtime); use proxy_types.to_static() to convert it, or "
        "cast to proxy_types.NumberLike",
        context,
        code=PROXY_CAST,
    )


def not_a_class(
    api: CheckerPluginInterface,
    context: Context,
    config_file: str,
    name: str,
    kind: str,
    setting: str = "dynamic_number_classes",
) -> None:
    """proxy-config: a configured dynamic number or migrate class is not a class."""
    api.fail(
        f'{config_file}: {setting} entry "{name}" is a {kind}, not a class; '
        "list classes only",
        context,
        code=PROXY_CONFIG,
    )
