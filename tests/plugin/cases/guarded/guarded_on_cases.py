# mypy: enable-error-code="proxy-specialize"
"""The inline comment turns proxy-specialize on (mypy < 2.0 accepts plugin codes only there)."""

from __future__ import annotations

import math

from guarded_lib import GuardedNumber, GuardedSub, TracedNumber, pyval


def guarded_class(g: GuardedNumber, s: GuardedSub, t: TracedNumber, d: dict[GuardedNumber, int]) -> None:
    int(g)  # E: [proxy-specialize] int() installs a guard on dynamic number "GuardedNumber": sound, but the program is specialized
    int(s)  # E: [proxy-specialize] int() installs a guard on dynamic number "GuardedSub"
    math.sqrt(g)  # E: [proxy-specialize] math.sqrt() installs a guard
    if g > 0:  # E: [proxy-specialize] Condition on a comparison of dynamic number "GuardedNumber" installs a guard
        pass
    pyval(g)  # E: [proxy-specialize] pyval() reads the value of dynamic number "GuardedNumber" (concretizing_functions), installs a guard
    d[g]  # E: [proxy-specialize] dict key hashes dynamic number "GuardedNumber", which installs a guard
    int(t)  # E: [proxy-concretize] int() turns dynamic number "TracedNumber"
    round(g)  # symbolic for configured classes  # E: [call-overload] No overload variant of "round" matches argument type "GuardedNumber"
    int(g)  # type: ignore[proxy-specialize]
