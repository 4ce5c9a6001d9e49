"""The plugin's error codes (pydantic's way: few codes, one emitter each, in errors.py).

Creating an ``ErrorCode`` registers it with mypy, which must know the codes
before it reads a file's inline ``# mypy: enable-error-code=...`` settings: the
plugin's entry module imports this module at load, and nothing heavier.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from mypy.errorcodes import ErrorCode

if TYPE_CHECKING:
    from mypy.options import Options

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
    "a dynamic_number_classes or migrate_classes entry of the [proxy_types] configuration "
    "is not a class",
    CATEGORY,
)

PROXY_CAST = ErrorCode(
    "proxy-cast",
    "typing.cast() of a possibly dynamic number to a static number type",
    CATEGORY,
)

PROXY_INTERNAL = ErrorCode(
    "proxy-internal",
    "a check of the plugin failed on this code; its findings here may be missing",
    CATEGORY,
)

PROXY_SPECIALIZE = ErrorCode(
    "proxy-specialize",
    "a dynamic number that guards (torch.SymInt, guarded_number_classes) is converted or "
    "branched on: sound, but the program is specialized on its traced value",
    CATEGORY,
    default_enabled=False,  # guards are sound: users opt in with enable_error_code
)

#: Internal, never in mypy's own output: while the command line counts hidden
#: findings, a finding under a disabled code is reported under this code, and the
#: command line strips it and counts it (``Hidden: ...`` in its summary).
PROXY_HIDDEN = ErrorCode(
    "proxy-hidden",
    "internal to proxy-types check: a finding under a code the settings disable",
    CATEGORY,
)

ALL_CODES: tuple[ErrorCode, ...] = (
    PROXY_ISINSTANCE, PROXY_CONCRETIZE, PROXY_BASE, PROXY_CONFIG, PROXY_CAST, PROXY_SPECIALIZE,
    PROXY_INTERNAL,
)


def apply_settings(options: Options, enable: Iterable[str], disable: Iterable[str]) -> None:
    """Turn the plugin codes of the plugin's section on and off in mypy's options.

    mypy processes the ``[mypy]`` codes after loading plugins, so these mix with
    them as mypy's own do (an enabled code wins); modules' options copy them.
    """
    by_name = {code.code: code for code in ALL_CODES}
    for name in disable:
        options.disabled_error_codes.add(by_name[name])
        options.enabled_error_codes.discard(by_name[name])
    for name in enable:
        options.enabled_error_codes.add(by_name[name])
        options.disabled_error_codes.discard(by_name[name])
