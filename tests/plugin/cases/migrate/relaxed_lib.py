# E: [proxy-config] migrate_classes entry "relaxed_lib.check_type" is a function, not a class
# Relaxed migration mode (strict_isinstance off), with a function listed by mistake:
# settings:
#   [mypy-relaxed_cases,relaxed_lib]
#   warn_unreachable = true
#
#   [mypy.plugins.proxy_types]
#   migrate_classes = relaxed_lib.LegacyProxy, relaxed_lib.check_type
#   isinstance_functions =
#   strict_isinstance =
#   exempt_modules =
from typing import Any


class LegacyProxy:
    pass


class LegacyInt(LegacyProxy, int):  # type: ignore[proxy-base]
    pass


def check_type(x: Any, t: type) -> None:
    assert isinstance(x, t)
