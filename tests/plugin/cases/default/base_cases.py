from __future__ import annotations

import numbers

from proxy_types import FloatProxy, IntegerProxy, register_dynamic_type


class LegacyFloat(FloatProxy, float):  # type: ignore[misc]  # E: [proxy-base] Class "LegacyFloat" inherits from dynamic number "FloatProxy" and static number "float"
    pass


class Fine(IntegerProxy):
    pass


class Mixin:
    pass


class AlsoFine(Mixin, IntegerProxy):
    pass


class Plain(float):
    pass


numbers.Integral.register(IntegerProxy)  # E: [proxy-base] numbers.Integral.register() makes dynamic number "IntegerProxy" pass as a static number
numbers.Real.register(Plain)
register_dynamic_type(Mixin, int)
