from __future__ import annotations  # E: [proxy-config] dynamic_number_classes entry "configured_lib.not_a_class" is a function, not a class  # E: [proxy-config] dynamic_number_classes entry "configured_lib.TracdNumber": no such class in module "configured_lib"

from proxy_types import IntegerProxy

from configured_lib import TracedNumber


class Sub(TracedNumber):
    pass


def configured(t: TracedNumber, s: Sub, p: IntegerProxy, xs: list[int]) -> None:
    isinstance(t, int)  # E: [proxy-isinstance] dynamic number "TracedNumber"
    isinstance(s, float)  # E: [proxy-isinstance] dynamic number "Sub"
    float(p)  # E: [proxy-concretize] float() turns dynamic number "IntegerProxy"  # E: [arg-type] Argument 1 to "float" has incompatible type "IntegerProxy"
    if t < 3:  # E: [proxy-concretize] dynamic number "TracedNumber"
        pass


class Disabled(IntegerProxy, int):  # type: ignore[misc]
    pass
