"""Without enable_error_code, guarded classes' guards (proxy-specialize) are not reported."""

from __future__ import annotations

import math

from guarded_lib import GuardedNumber, GuardedSub, TracedNumber, pyval


def silent_class(t: TracedNumber, d: dict[TracedNumber, int]) -> str:
    int(t)  # E: [proxy-concretize] int() turns dynamic number "TracedNumber" into a static value
    math.sqrt(t)  # E: [proxy-concretize] math.sqrt() turns dynamic number "TracedNumber"
    if t > 0:  # E: [proxy-concretize] Condition on a comparison of dynamic number "TracedNumber" specializes
        pass
    pyval(t)  # E: [proxy-concretize] pyval() reads the value of dynamic number "TracedNumber" (concretizing_functions), fixed at trace time
    d[t]  # E: [proxy-concretize] dict key hashes dynamic number "TracedNumber"
    round(t)  # a configured class's round() stays symbolic  # E: [call-overload] No overload variant of "round" matches argument type "TracedNumber"
    return f"{t:.2f}"  # E: [proxy-concretize] Format spec ".2f" needs the value of dynamic number "TracedNumber"


def guarded_class(g: GuardedNumber, s: GuardedSub, d: dict[GuardedNumber, int]) -> str:
    int(g)
    int(s)
    math.sqrt(g)
    if g > 0:
        pass
    pyval(g)
    d[g]
    # Format specs fail for every kind: still proxy-concretize.
    return f"{g:.2f}"  # E: [proxy-concretize] Format spec ".2f" needs the value of dynamic number "GuardedNumber"


def static_values(x: int, d: dict[int, int]) -> None:
    int(x)
    pyval(x)
    d[x]


def sinks(t: TracedNumber, ts: list[TracedNumber], d: dict[TracedNumber, int], s: set[TracedNumber], x: float) -> str:
    if type(t) is float:  # E: [proxy-isinstance] type() is against static number classes (float) misclassifies dynamic number "TracedNumber"
        pass
    if type(t) in (int, float):  # E: [proxy-isinstance] type() in against static number classes (int, float)
        pass
    type(x) is float
    all(u > 0 for u in ts)  # E: [proxy-concretize] all() tests each item for truth, which for dynamic number "TracedNumber"
    any(ts)  # E: [proxy-concretize] any() tests each item for truth, which for dynamic number "TracedNumber"
    t in d  # E: [proxy-concretize] dict key hashes dynamic number "TracedNumber"
    t in s  # E: [proxy-concretize] set member hashes dynamic number "TracedNumber"
    s.add(t)  # E: [proxy-concretize] set member hashes
    members: set[TracedNumber] = {t}  # E: [proxy-concretize] set member hashes
    keys = {u: 0 for u in ts}  # E: [proxy-concretize] dict key hashes
    hash(t)  # E: [proxy-concretize] hash() turns dynamic number "TracedNumber"
    print(members, keys)
    return "{:>8.3f} {}".format(t, t) + f"{t}"  # E: [proxy-concretize] Format spec ">8.3f"  # E: [str-format] Incompatible types in string interpolation
