from __future__ import annotations

from typing import Optional

from proxy_types import BoolProxy, IntegerProxy, check, to_static


def tested_by_name(flag: BoolProxy, n: int, xs: list[int]) -> int:
    if flag:  # E: [proxy-concretize] Condition on dynamic bool "flag" ("BoolProxy") specializes on the traced value
        pass
    while flag:  # E: [proxy-concretize] dynamic bool "flag"
        break
    negated = not flag  # E: [proxy-concretize] dynamic bool "flag"
    first = flag and n  # E: [proxy-concretize] dynamic bool "flag"
    picked = 1 if flag else 0  # E: [proxy-concretize] dynamic bool "flag"
    assert flag  # E: [proxy-concretize] dynamic bool "flag"
    kept = [x for x in xs if flag]  # E: [proxy-concretize] dynamic bool "flag"
    if n > 0 and flag:  # E: [proxy-concretize] dynamic bool "flag"
        pass

    def inner() -> None:
        if flag:  # E: [proxy-concretize] dynamic bool "flag"
            pass

    if flag:  # type: ignore[proxy-concretize]
        pass
    match n:
        case 1 if flag:  # E: [proxy-concretize] dynamic bool "flag"
            pass
        case _:
            pass
    inner()
    return len(kept) + picked + int(bool(negated)) + int(bool(first))  # E: [proxy-concretize] bool() turns dynamic number "BoolProxy"


def not_reported(flag: BoolProxy, maybe: Optional[BoolProxy], n: int, p: IntegerProxy) -> BoolProxy:
    if maybe:  # an Optional parameter: `if maybe:` is usually a None check
        pass
    if n:
        pass
    check(flag, "flag must hold")
    if to_static(flag):
        pass
    value = flag
    last = n or flag  # only the left operand is tested here
    print(value, last, p)
    return flag


def rebound(flag: BoolProxy) -> None:
    flag = BoolProxy("other")  # any rebinding of the name skips the function
    if flag:
        pass


def unannotated(flag):
    if flag:
        pass
