from __future__ import annotations

from proxy_types import BoolProxy, FloatProxy, IntegerProxy, check


def conditions(p: IntegerProxy, f: FloatProxy, xs: list[int]) -> int:
    if p >= 0:  # E: [proxy-concretize] Condition on a comparison of dynamic number "IntegerProxy"
        pass
    while f < 1.0:  # E: [proxy-concretize] dynamic number "FloatProxy"
        break
    y = 1 if p > 2 else 0  # E: [proxy-concretize] dynamic number "IntegerProxy"
    assert p != 3  # E: [proxy-concretize] Condition on a comparison
    z = [x for x in xs if p > x]  # E: [proxy-concretize] Condition on a comparison
    if not p == 1:  # E: [proxy-concretize] Condition on a comparison
        pass
    w = (p > 1) and y  # E: [proxy-concretize] Condition on a comparison
    if p < 5:  # type: ignore[proxy-concretize]
        pass
    return y + len(z) + int(bool(w))  # E: [proxy-concretize] bool() turns dynamic number "BoolProxy"


def not_conditions(p: IntegerProxy, flag: BoolProxy, n: int) -> BoolProxy:
    ok = p >= 0
    check(p > 0, "p must be positive")
    check(ok)
    if n > 0:
        pass
    both = flag and (p > 1)  # E: [proxy-concretize] Condition on dynamic bool "flag" ("BoolProxy")
    return both if isinstance(both, BoolProxy) else ok


def nested(p: IntegerProxy) -> None:
    def inner() -> None:
        if p > 0:  # E: [proxy-concretize] Condition on a comparison
            pass

    pick = lambda: 1 if p == 0 else 2  # E: [proxy-concretize] Condition on a comparison
    inner()
    pick()
