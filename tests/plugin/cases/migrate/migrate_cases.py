from __future__ import annotations

import dis
import fractions
import math
import numbers
from typing import Any, Literal

from migrate_exempt import ExemptFloat
from migrate_legacy import (
    ComplexProxy,
    FloatProxy,
    IntegerProxy,
    NumberProxy,
    Plain,
    RealProxy,
    TaggedFloat,
    check_type,
    check_type_reversed,
)


class SubFloat(FloatProxy):  # inherits the hidden base: no second proxy-base report
    pass


class DirectFloat(NumberProxy, float):  # E: [proxy-base] Legacy proxy class "DirectFloat" (migrate_classes: "NumberProxy") still inherits from static number "float"
    pass


def takes_float(x: float) -> float:
    return x


def takes_complex(x: complex) -> complex:
    return x


def flows(p: FloatProxy, s: SubFloat, e: ExemptFloat, c: ComplexProxy, plain: Plain, t: TaggedFloat) -> None:
    takes_float(p)  # E: [arg-type] Argument 1 to "takes_float" has incompatible type "FloatProxy"
    takes_float(s)  # E: [arg-type] incompatible type "SubFloat"
    takes_float(e)  # E: [arg-type] incompatible type "ExemptFloat"
    takes_complex(c)  # E: [arg-type] incompatible type "ComplexProxy"
    takes_float(plain)
    takes_float(t)
    x: float = p + 1.0


def narrowing_keeps_the_legacy_proxy(value: int | float | NumberProxy, plain: int | float) -> float:
    if isinstance(value, (int, float)):  # E: [proxy-isinstance] (int, float) misclassifies dynamic number "NumberProxy"
        return float(value)  # E: [proxy-concretize] float() turns dynamic number "NumberProxy"  # E: [arg-type] Argument 1 to "float" has incompatible type "int | float | NumberProxy
    if isinstance(plain, (int, float)):  # E: [proxy-isinstance] may see a legacy proxy typed "int"
        return float(plain)  # stays unreported: narrowing adds no proxy to a plain int | float
    return 0.0  # E: [unreachable] Statement is unreachable


def legacy_isinstance(p: FloatProxy, s: SubFloat, i: IntegerProxy, u: FloatProxy | str, any_proxy: NumberProxy) -> None:
    isinstance(any_proxy, bool)  # E: [proxy-isinstance] (bool) misclassifies dynamic number "NumberProxy"
    if isinstance(p, float):  # E: [proxy-isinstance] isinstance() against static number classes (float) is True at runtime for legacy proxy "FloatProxy" only through its legacy base "float"
        takes_float(p)  # E: [arg-type] incompatible type "FloatProxy"
    if isinstance(s, (int, float)):  # E: [proxy-isinstance] legacy proxy "SubFloat" only through its legacy base "float"
        takes_float(s)  # E: [arg-type] incompatible type "SubFloat"
    if isinstance(i, numbers.Integral):  # E: [proxy-isinstance] (numbers.Integral) is True at runtime for legacy proxy "IntegerProxy" only through its legacy base "int"
        float(i)  # E: [proxy-concretize] float() turns dynamic number "IntegerProxy"  # E: [arg-type] Argument 1 to "float" has incompatible type "IntegerProxy"
        math.floor(i)  # a configured class's floor stays symbolic (proxy_types/_table.py)  # E: [call-overload] No overload variant of "floor" matches argument type "IntegerProxy"
    if isinstance(u, int | float):  # E: [proxy-isinstance] legacy proxy "FloatProxy"
        takes_float(u)  # E: [arg-type] incompatible type "FloatProxy"; expected "float"
    isinstance(p, int)  # E: [proxy-isinstance] (int) misclassifies dynamic number "FloatProxy"
    isinstance(p, float)  # type: ignore[proxy-isinstance]
    isinstance(p, FloatProxy)
    isinstance(p, (float, NumberProxy))
    isinstance(p, str)
    isinstance(i, bool)  # excluding bools: a proxy for an int takes the int's branch


def abc_base(r: RealProxy, real: numbers.Real) -> None:
    real = r  # E: [assignment] expression has type "RealProxy", variable has type "Real"
    isinstance(r, numbers.Number)  # E: [proxy-isinstance] legacy proxy "RealProxy" only through its legacy base "Real"
    isinstance(r, numbers.Integral)  # E: [proxy-isinstance] (numbers.Integral) misclassifies dynamic number "RealProxy"


def other_checks(p: FloatProxy, i: IntegerProxy, xs: list[int], ps: list[FloatProxy]) -> None:
    ps[0] = p
    float(p)  # E: [proxy-concretize] float() turns dynamic number "FloatProxy"  # E: [arg-type] Argument 1 to "float" has incompatible type "FloatProxy"
    xs[i]  # E: [proxy-concretize] indexing list turns dynamic number "IntegerProxy"  # E: [call-overload] No overload variant of "__getitem__" of "list" matches argum
    if p < 3.0:  # E: [proxy-concretize] Condition on a comparison of dynamic number "FloatProxy"
        pass


def wrappers(p: FloatProxy, i: IntegerProxy, s: str, n: float) -> None:
    check_type(p, float)  # E: [proxy-isinstance] check_type() against static number classes (float) is True at runtime for legacy proxy "FloatProxy"
    check_type(i, (int, float))  # E: [proxy-isinstance] check_type() against static number classes (int, float) is True at runtime for legacy proxy "IntegerProxy"
    check_type(types=float, x=p)  # E: [proxy-isinstance] check_type() against static number classes (float)
    check_type_reversed(float, p)  # E: [proxy-isinstance] check_type_reversed() against static number classes (float) is True at runtime
    check_type(n, float)  # E: [proxy-isinstance] check_type() against static number classes (float) may see a legacy proxy typed "float"
    check_type(p, NumberProxy)
    check_type(s, float)
    check_type_reversed(str, p)
    check_type(p, (float, NumberProxy))


def strict_migration(n: int, x: float, r: numbers.Real, o: int | str, a: Any, lit: Literal[3], b: bool, s: str) -> None:
    isinstance(n, float)  # E: [proxy-isinstance] may see a legacy proxy typed "int"
    isinstance(x, float)  # E: [proxy-isinstance] may see a legacy proxy typed "float"
    isinstance(r, numbers.Integral)  # E: [proxy-isinstance] may see a legacy proxy typed "numbers.Real"
    isinstance(o, int)  # E: [proxy-isinstance] may see a legacy proxy typed "int"
    isinstance(a, int)  # E: [proxy-isinstance] misclassifies dynamic number "Any"
    isinstance(lit, int)
    isinstance(3, int)
    isinstance(b, int)
    isinstance(s, int)
    isinstance(n, str)


def made_by_python(instruction: dis.Instruction, xs: list[int], frac: fractions.Fraction, n: int) -> None:
    isinstance(instruction.arg, int)
    isinstance(len(xs), int)
    isinstance(frac.numerator, int)  # E: [proxy-isinstance] may see a legacy proxy typed "int"
    isinstance(n.real, int)  # E: [proxy-isinstance] may see a legacy proxy typed "int"
    isinstance(xs[0], int)  # E: [proxy-isinstance] may see a legacy proxy typed "int"


def after_the_proxy_branch(x: Any, n: int, m: numbers.Number, y: Any):
    # thunder's `if isinstance(x, NumberProxy): return x.python_type` then `isinstance(x, Number)`
    if isinstance(x, NumberProxy):
        return x
    isinstance(x, numbers.Number)  # the proxies took the branch above
    if isinstance(n, NumberProxy):
        pass
    elif isinstance(n, int):  # an earlier elif took them
        pass
    check_type(x, float)
    if isinstance(m, NumberProxy):
        pass  # falls through: m may still be a proxy below
    isinstance(m, float)  # E: [proxy-isinstance] may see a legacy proxy typed "numbers.Number"
    if isinstance(y, (NumberProxy, str)):
        return None
    isinstance(y, int)
    return None
