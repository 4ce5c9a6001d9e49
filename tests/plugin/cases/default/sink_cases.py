"""Sinks beyond conversions and conditions: type() tests, any()/all(), hashing, format specs."""

from __future__ import annotations

import collections
from typing import Optional, Union

import torch
from proxy_types import BoolProxy, FloatProxy, IntegerProxy, NumberClasses


def type_comparisons(p: IntegerProxy, u: Union[int, torch.SymInt], f: float, b: torch.SymBool) -> None:
    if type(p) is int:  # E: [proxy-isinstance] type() is against static number classes (int) misclassifies dynamic number "IntegerProxy": its type is never a static number class
        pass
    if type(u) in (int, float):  # E: [proxy-isinstance] type() in against static number classes (int, float) misclassifies dynamic number "SymInt"
        pass
    ok = type(u) == float  # E: [proxy-isinstance] type() == against static number classes (float)
    if float is not type(u):  # E: [proxy-isinstance] type() is not against
        pass
    if type(b) is bool:  # E: [proxy-isinstance] (bool) misclassifies dynamic number "SymBool"
        pass
    type(u) is bool  # a dynamic int is no bool: the test answers right
    type(f) is float
    type(u) in (int, torch.SymInt)
    type(u) is torch.SymInt
    type(p) is str
    type(p).__name__ == "int"
    isinstance(u, NumberClasses)
    print(ok)


def type_comparisons_in_scopes(p: IntegerProxy, n: int) -> None:
    # Found in the innermost function around the call: nested ones, lambdas, defaults.
    def inner(q: IntegerProxy, flag: bool = type(p) is int) -> bool:  # E: [proxy-isinstance] type() is against static number classes (int)
        return type(q) is int  # E: [proxy-isinstance] type() is against static number classes (int)

    picks = lambda: type(p) == float  # E: [proxy-isinstance] type() == against static number classes (float)

    class Local:
        same = type(p) is int  # E: [proxy-isinstance] type() is against static number classes (int)

        def method(self) -> bool:
            return type(p) is not float  # E: [proxy-isinstance] type() is not against static number classes (float)

    print(inner, picks, Local, type(n) is int)


class TypeComparisonsInAClass:
    limit: IntegerProxy
    kind = type(limit) is int  # E: [proxy-isinstance] type() is against static number classes (int)

    def method(self) -> bool:
        return type(self.limit) in (int, float)  # E: [proxy-isinstance] type() in against static number classes (int, float)


MODULE_LIMIT: IntegerProxy
MODULE_KIND = type(MODULE_LIMIT) is float  # E: [proxy-isinstance] type() is against static number classes (float)

def items_truth(shape: list[torch.SymInt], sizes: list[IntegerProxy], flags: list[BoolProxy], xs: list[int], p: IntegerProxy) -> None:
    all(s > 0 for s in sizes)  # E: [proxy-concretize] all() tests each item for truth, which for dynamic number "BoolProxy" specializes on the traced value
    any([s == 1 for s in sizes])  # E: [proxy-concretize] any() tests each item for truth
    all((p > 0, xs[0] < 9))  # E: [proxy-concretize] all()
    any(flags)  # E: [proxy-concretize] any() tests each item for truth, which for dynamic number "BoolProxy"
    all(s > 0 for s in shape)  # a SymInt's comparison guards: proxy-specialize, off by default
    all(x > 0 for x in xs)
    any(xs)
    ok = [s > 0 for s in sizes]
    print(ok)


def hashing(p: IntegerProxy, n: torch.SymInt, f: torch.SymFloat, d: dict[IntegerProxy, int], s: set[torch.SymInt], fd: dict[torch.SymFloat, str], o: Optional[IntegerProxy]) -> None:
    d[p]  # E: [proxy-concretize] dict key hashes dynamic number "IntegerProxy", which needs a static value
    d[p] = 1  # E: [proxy-concretize] dict key hashes
    d.get(p)  # E: [proxy-concretize] dict key hashes
    p in d  # E: [proxy-concretize] dict key hashes
    s.add(n)  # E: [proxy-concretize] set member hashes dynamic number "SymInt"
    n in s  # E: [proxy-concretize] set member hashes dynamic number "SymInt"
    typed: dict[IntegerProxy, int] = {p: 1}  # E: [proxy-concretize] dict key hashes dynamic number "IntegerProxy"
    members: set[torch.SymInt] = {n}  # E: [proxy-concretize] set member hashes dynamic number "SymInt"
    by_size = {q: 0 for q in d}  # E: [proxy-concretize] dict key hashes dynamic number "IntegerProxy"
    seen = {m for m in s}  # E: [proxy-concretize] set member hashes dynamic number "SymInt"
    hash(p)  # E: [proxy-concretize] hash() turns dynamic number "IntegerProxy"
    fd[f]  # SymFloat hashes by guarding: proxy-specialize, off by default
    counts: collections.Counter[str] = collections.Counter()
    counts["p"]
    names = {"p": p}
    print(typed, members, by_size, seen, names)


def format_specs(p: IntegerProxy, f: FloatProxy, n: torch.SymInt, width: int) -> str:
    a = f"{p:d}"  # E: [proxy-concretize] Format spec "d" needs the value of dynamic number "IntegerProxy"
    b = f"{f:.2f} and {f:>{width}}"  # E: [proxy-concretize] Format spec ".2f"  # E: [proxy-concretize] Format spec ">{...}"
    c = "{:d}".format(p)  # E: [proxy-concretize] Format spec "d"
    d = "{x:>{w}}".format(x=n, w="8")  # E: [proxy-concretize] Format spec ">8" needs the value of dynamic number "SymInt"
    e = f"{n:{'x'}}"  # E: [proxy-concretize] Format spec "x"
    plain = f"{p} {f!r:>10} {n}"
    more = "{} {!s:5}".format(p, f) + "{0.__class__}".format(p) + f"{width:5d}"
    return a + b + c + d + e + plain + more
