from __future__ import annotations

import math
from typing import Optional, Union

import torch
from proxy_types import FloatProxy, IntegerProxy

from specialize_lib import GuardedNumber, TracedNumber, pyval


def torch_conversions(n: torch.SymInt, f: torch.SymFloat, b: torch.SymBool, xs: list[int]) -> None:
    int(n)  # E: [proxy-specialize] int() installs a guard on dynamic number "SymInt": sound, but the program is specialized
    float(f)  # E: [proxy-specialize] float() installs a guard on dynamic number "SymFloat"
    bool(b)  # E: [proxy-specialize] bool() installs a guard on dynamic number "SymBool"
    range(n)  # E: [proxy-specialize] range() installs a guard on dynamic number "SymInt"
    xs[n]  # E: [proxy-specialize] indexing list installs a guard on dynamic number "SymInt"
    xs[1:n]  # E: [proxy-specialize] indexing list installs a guard
    bool(n > 0)  # E: [proxy-specialize] bool() installs a guard on dynamic number "SymInt"
    math.sqrt(f)  # E: [proxy-specialize] math.sqrt() installs a guard
    int(n)  # type: ignore[proxy-specialize]


def torch_symbolic(n: torch.SymInt, f: torch.SymFloat) -> None:
    # torch keeps these symbolic (sympy expressions): nothing is forced.
    round(f)  # E: [call-overload] No overload variant of "round" matches argument type "SymFloat"
    math.floor(f)
    math.ceil(f)
    math.trunc(f)
    round(n)


def torch_refusals(n: torch.SymInt, b: torch.SymBool, f: torch.SymFloat) -> None:
    hash(n)  # E: [proxy-concretize] hash() turns dynamic number "SymInt"
    hash(f)  # E: [proxy-specialize] hash() installs a guard on dynamic number "SymFloat"
    float(b)  # E: [proxy-concretize] float() turns dynamic number "SymBool"  # E: [arg-type] Argument 1 to "float" has incompatible type "SymBool"


def torch_conditions(n: torch.SymInt, m: Optional[torch.SymInt], u: Union[int, torch.SymInt]) -> bool:
    if n >= 0:  # E: [proxy-specialize] Condition on a comparison of dynamic number "SymInt" installs a guard
        pass
    assert n == 3 or n == 5  # E: [proxy-specialize] dynamic number "SymInt"
    if 0 <= u < 10:  # E: [proxy-specialize] dynamic number "SymInt"
        pass
    ok = n >= 0
    if m is not None:
        pass
    return ok


def torch_requirements(n: torch.SymInt, k: torch.SymInt) -> None:
    assert n == 3  # one accepted value: where the check passes, n is 3 anyway
    if k == 0:  # one rejected value: where the check passes, a Ne guard
        raise ValueError("k must not be 0")


def torch_bool_parameter(flag: torch.SymBool) -> None:
    if flag:  # E: [proxy-specialize] Condition on dynamic bool "flag" ("SymBool") installs a guard
        pass


def own_proxies_still_concretize(p: IntegerProxy, f: FloatProxy) -> None:
    int(p)  # E: [proxy-concretize] int() turns dynamic number "IntegerProxy"  # E: [call-overload] No overload variant of "int" matches argument type "IntegerProxy"
    round(f)  # E: [proxy-concretize] round() turns dynamic number "FloatProxy"  # E: [call-overload] No overload variant of "round" matches argument type "FloatProxy"
    math.floor(f)  # E: [proxy-concretize] math.floor()  # E: [call-overload] No overload variant of "floor" matches argument type "FloatProxy"
    if p > 0:  # E: [proxy-concretize] Condition on a comparison of dynamic number "IntegerProxy" specializes
        pass


def configured_classes(t: TracedNumber, g: GuardedNumber, n: torch.SymInt) -> None:
    int(t)  # E: [proxy-concretize] int() turns dynamic number "TracedNumber"
    int(g)  # E: [proxy-specialize] int() installs a guard on dynamic number "GuardedNumber"
    if t > 0:  # E: [proxy-concretize] dynamic number "TracedNumber" specializes on the traced value
        pass
    if g > 0:  # E: [proxy-specialize] dynamic number "GuardedNumber" installs a guard
        pass
    pyval(t)  # E: [proxy-concretize] pyval() reads the value of dynamic number "TracedNumber"
    pyval(g)  # E: [proxy-specialize] pyval() reads the value of dynamic number "GuardedNumber"
    pyval(n)  # E: [proxy-specialize] pyval() reads the value of dynamic number "SymInt"
    pyval(3)
