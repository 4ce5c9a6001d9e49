from __future__ import annotations

import cmath
import math
import operator
from typing import Optional, Union

from proxy_types import FloatProxy, IntegerProxy, check, to_static


def conversions(p: IntegerProxy, f: FloatProxy, u: Union[int, IntegerProxy], o: Optional[FloatProxy]) -> None:
    bool(p)  # E: [proxy-concretize] bool() turns dynamic number "IntegerProxy" into a static value
    int(p)  # E: [proxy-concretize] int() turns dynamic number "IntegerProxy"
    float(f)  # E: [proxy-concretize] float() turns dynamic number "FloatProxy"
    complex(f)  # E: [proxy-concretize] complex()
    operator.index(p)  # E: [proxy-concretize] operator.index()
    round(f)  # E: [proxy-concretize] round()
    range(u)  # E: [proxy-concretize] range() turns dynamic number "IntegerProxy"
    math.sqrt(f)  # E: [proxy-concretize] math.sqrt()
    math.floor(f)  # E: [proxy-concretize] math.floor()
    cmath.exp(f)  # E: [proxy-concretize] cmath.exp()
    hex(p)  # E: [proxy-concretize] hex()
    float(o)  # E: [proxy-concretize] float() turns dynamic number "FloatProxy"
    int(p)  # type: ignore[proxy-concretize]


def indexing(p: IntegerProxy, xs: list[int], ys: tuple[int, ...], s: str) -> None:
    xs[p]  # E: [proxy-concretize] indexing list turns dynamic number "IntegerProxy"
    ys[p]  # E: [proxy-concretize] indexing tuple
    s[p]  # E: [proxy-concretize] indexing str
    xs[p] = 1  # E: [proxy-concretize] indexing list


def more_conversions(p: IntegerProxy, pair: tuple[int, int], b: bytes, view: memoryview, n: int) -> None:
    hash(p)  # E: [proxy-concretize] hash() turns dynamic number "IntegerProxy"
    chr(p)  # E: [proxy-concretize] chr()
    format(p)  # without a spec, formatting names the proxy: no concretization
    format(p, "d")  # E: [proxy-concretize] format() turns dynamic number "IntegerProxy"
    format(p, "")
    oct(p)  # E: [proxy-concretize] oct()
    bin(p)  # E: [proxy-concretize] bin()
    pair[p]  # E: [proxy-concretize] indexing tuple
    b[p]  # E: [proxy-concretize] indexing bytes
    range(10)[p]  # E: [proxy-concretize] indexing range
    view[p]  # E: [proxy-concretize] indexing memoryview
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
