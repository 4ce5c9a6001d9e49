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
from __future__ import annotations

import numbers
from typing import Any

from relaxed_lib import LegacyInt, check_type


def relaxed(p: LegacyInt, n: int, x: float, a: Any, o: object) -> None:
    if isinstance(p, numbers.Number):  # E: [proxy-isinstance] (numbers.Number) is True at runtime for legacy proxy "LegacyInt" only through its legacy base "int"
        n = p  # E: [assignment] Incompatible types in assignment (expression has type "LegacyInt", variable has type "int")
    isinstance(n, int)
    isinstance(x, float)
    isinstance(a, int)
    isinstance(o, int)
    check_type(p, int)
