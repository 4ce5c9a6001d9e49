from __future__ import annotations

from typing import cast

from proxy_types import BoolProxy, IntegerProxy

from configured_lib import TracedNumber


class TracedChild(TracedNumber):
    pass


def configured_casts(t: TracedNumber, child: TracedChild, p: IntegerProxy, n: int) -> None:
    cast(int, t)  # E: [proxy-cast] cast() to static number type "int" hides dynamic number "TracedNumber"
    cast(float, child)  # E: [proxy-cast] "float" hides dynamic number "TracedChild"
    cast("int", p)  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"
    cast(TracedNumber, t)
    cast(int, n)


def configured_condition(flag: BoolProxy, n: int) -> None:
    if flag:  # E: [proxy-concretize] Condition on dynamic bool "flag" ("BoolProxy")
        pass
    if n:
        pass
