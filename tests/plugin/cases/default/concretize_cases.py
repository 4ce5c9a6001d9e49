from __future__ import annotations

import cmath
import math
import operator
from typing import Optional, Union

from proxy_types import FloatProxy, IntegerProxy, check, to_static


def conversions(p: IntegerProxy, f: FloatProxy, u: Union[int, IntegerProxy], o: Optional[FloatProxy]) -> None:
    bool(p)  # E: [proxy-concretize] bool() turns dynamic number "IntegerProxy" into a static value
    int(p)  # E: [proxy-concretize] int() turns dynamic number "IntegerProxy"  # E: [call-overload] No overload variant of "int" matches argument type "IntegerP
    float(f)  # E: [proxy-concretize] float() turns dynamic number "FloatProxy"  # E: [arg-type] Argument 1 to "float" has incompatible type "FloatProxy"
    complex(f)  # E: [proxy-concretize] complex()  # E: [call-overload] No overload variant of "complex" matches argument type "Floa
    operator.index(p)  # E: [proxy-concretize] operator.index()  # E: [arg-type] Argument 1 to "index" has incompatible type "IntegerProxy"
    round(f)  # E: [proxy-concretize] round()  # E: [call-overload] No overload variant of "round" matches argument type "FloatP
    range(u)  # E: [proxy-concretize] range() turns dynamic number "IntegerProxy"  # E: [arg-type] Argument 1 to "range" has incompatible type "int | IntegerPr
    math.sqrt(f)  # E: [proxy-concretize] math.sqrt()  # E: [arg-type] Argument 1 to "sqrt" has incompatible type "FloatProxy"
    math.floor(f)  # E: [proxy-concretize] math.floor()  # E: [call-overload] No overload variant of "floor" matches argument type "FloatP
    cmath.exp(f)  # E: [proxy-concretize] cmath.exp()  # E: [arg-type] Argument 1 to "exp" has incompatible type "FloatProxy"
    hex(p)  # E: [proxy-concretize] hex()  # E: [arg-type] Argument 1 to "hex" has incompatible type "IntegerProxy"
    float(o)  # E: [proxy-concretize] float() turns dynamic number "FloatProxy"  # E: [arg-type] Argument 1 to "float" has incompatible type "FloatProxy | No
    int(p)  # type: ignore[proxy-concretize, call-overload]


def indexing(p: IntegerProxy, xs: list[int], ys: tuple[int, ...], s: str) -> None:
    xs[p]  # E: [proxy-concretize] indexing list turns dynamic number "IntegerProxy"  # E: [call-overload] No overload variant of "__getitem__" of "list" matches argum
    ys[p]  # E: [proxy-concretize] indexing tuple  # E: [call-overload] No overload variant of "__getitem__" of "tuple" matches argu
    s[p]  # E: [proxy-concretize] indexing str  # E: [index] Invalid index type "IntegerProxy" for "str"
    xs[p] = 1  # E: [proxy-concretize] indexing list  # E: [call-overload] No overload variant of "__setitem__" of "list" matches argum


def more_conversions(p: IntegerProxy, pair: tuple[int, int], b: bytes, view: memoryview, n: int) -> None:
    hash(p)  # E: [proxy-concretize] hash() turns dynamic number "IntegerProxy"
    chr(p)  # E: [proxy-concretize] chr()  # E: [arg-type] Argument 1 to "chr" has incompatible type "IntegerProxy"
    format(p)  # without a spec, formatting names the proxy: no concretization
    format(p, "d")  # E: [proxy-concretize] format() turns dynamic number "IntegerProxy"
    format(p, "")
    oct(p)  # E: [proxy-concretize] oct()  # E: [arg-type] Argument 1 to "oct" has incompatible type "IntegerProxy"
    bin(p)  # E: [proxy-concretize] bin()  # E: [arg-type] Argument 1 to "bin" has incompatible type "IntegerProxy"
    pair[p]  # E: [proxy-concretize] indexing tuple  # E: [call-overload] No overload variant of "__getitem__" of "tuple" matches argu
    b[p]  # E: [proxy-concretize] indexing bytes  # E: [call-overload] No overload variant of "__getitem__" of "bytes" matches argu
    range(10)[p]  # E: [proxy-concretize] indexing range  # E: [call-overload] No overload variant of "__getitem__" of "range" matches argu
    view[p]  # E: [proxy-concretize] indexing memoryview  # E: [call-overload] No overload variant of "__getitem__" of "memoryview" matches
    operator.truth(p)  # E: [proxy-concretize] operator.truth()
    operator.not_(p)  # E: [proxy-concretize] operator.not_()
    match n:
        case 1 if p > 0:  # E: [proxy-concretize] Condition on a comparison
            pass
        case 2 if n > 0:
            pass


def fine(n: int, x: float, p: IntegerProxy, xs: list[int]) -> None:
    int(x)
    float(n)
    bool(n)
    math.sqrt(x)
    xs[n]
    range(n)
    int(to_static(p))
    xs[to_static(p)]
    ok = p >= 0
    check(p > 0)
    print(ok)
