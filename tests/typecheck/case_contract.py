"""What a type checker rejects on its own, without the proxy_types plugin.

Every statement in ``misuses`` is one row of docs/static-contract.md.  Its
trailing marker (``expect: mypy=... pyright=... runtime=...``) names the code
mypy reports (tests/typecheck/mypy.ini: strict, warn_unreachable, truthy-bool),
the rule pyright reports (strict), and the exception the runtime raises when
the statement runs on its own (``-``: none).  tests/test_stubs.py checks all
three line by line, and that the documentation table says the same.
``misuses`` itself is never called.
"""

from __future__ import annotations

import cmath
import math
import numbers
import operator
from typing import SupportsFloat, SupportsIndex

from proxy_types import (
    BoolProxy,
    ComplexProxy,
    FloatProxy,
    IntegerProxy,
    NumberProxy,
    check,
    proxy,
    to_static,
)

b = BoolProxy("b", True)
i = IntegerProxy("i", 3)
f = FloatProxy("f", 2.5)
c = ComplexProxy("c", 1 + 2j)
n: NumberProxy = i  # kind unknown to the checker


def takes_int(x: int) -> None: ...
def takes_float(x: float) -> None: ...
def takes_complex(x: complex) -> None: ...
def takes_bool(x: bool) -> None: ...
def takes_number(x: numbers.Number) -> None: ...
def takes_integral(x: numbers.Integral) -> None: ...
def takes_real(x: numbers.Real) -> None: ...
def takes_supports_index(x: SupportsIndex) -> None: ...
def takes_supports_float(x: SupportsFloat) -> None: ...


def misuses() -> None:
    float(f)  # expect: mypy=arg-type pyright=reportArgumentType runtime=ConcretizationError
    int(i)  # expect: mypy=call-overload pyright=reportArgumentType runtime=ConcretizationError
    complex(c)  # expect: mypy=call-overload pyright=reportArgumentType,reportCallIssue runtime=ConcretizationError
    bool(b)  # expect: mypy=- pyright=- runtime=ConcretizationError
    operator.index(i)  # expect: mypy=arg-type pyright=reportArgumentType runtime=ConcretizationError
    round(f)  # expect: mypy=call-overload pyright=reportArgumentType runtime=ConcretizationError
    math.floor(f)  # expect: mypy=call-overload pyright=reportArgumentType,reportCallIssue runtime=ConcretizationError
    math.ceil(f)  # expect: mypy=call-overload pyright=reportArgumentType,reportCallIssue runtime=ConcretizationError
    math.trunc(f)  # expect: mypy=arg-type pyright=reportArgumentType runtime=ConcretizationError
    math.sqrt(f)  # expect: mypy=arg-type pyright=reportArgumentType runtime=ConcretizationError
    math.isclose(f, 1.0)  # expect: mypy=arg-type pyright=reportArgumentType runtime=ConcretizationError
    cmath.sqrt(c)  # expect: mypy=arg-type pyright=reportArgumentType runtime=ConcretizationError
    [1, 2, 3][i]  # expect: mypy=call-overload pyright=reportArgumentType,reportCallIssue runtime=ConcretizationError
    "abc"[i]  # expect: mypy=index pyright=reportArgumentType,reportCallIssue runtime=ConcretizationError
    range(i)  # expect: mypy=call-overload pyright=reportArgumentType runtime=ConcretizationError
    [0] * i  # expect: mypy=operator pyright=reportOperatorIssue runtime=ConcretizationError
    divmod(i, 2)  # expect: mypy=operator pyright=reportArgumentType,reportCallIssue runtime=TypeError
    hex(i)  # expect: mypy=arg-type pyright=reportArgumentType runtime=ConcretizationError
    chr(i)  # expect: mypy=arg-type pyright=reportArgumentType runtime=ConcretizationError
    format(f, ".2f")  # expect: mypy=- pyright=- runtime=ConcretizationError
    hash(i)  # expect: mypy=- pyright=- runtime=ConcretizationError
    {i: 1}  # expect: mypy=- pyright=reportUnhashable runtime=ConcretizationError
    {i}  # expect: mypy=- pyright=reportUnhashable runtime=ConcretizationError
    if b: pass  # expect: mypy=truthy-bool pyright=- runtime=ConcretizationError
    while b: break  # expect: mypy=truthy-bool pyright=- runtime=ConcretizationError
    if not b: pass  # expect: mypy=truthy-bool pyright=- runtime=ConcretizationError
    b and b  # expect: mypy=truthy-bool pyright=- runtime=ConcretizationError
    not b  # expect: mypy=truthy-bool pyright=- runtime=ConcretizationError
    assert b  # expect: mypy=truthy-bool pyright=- runtime=ConcretizationError
    1 if b else 0  # expect: mypy=truthy-bool pyright=- runtime=ConcretizationError
    if i == 1: pass  # expect: mypy=- pyright=- runtime=ConcretizationError
    if i > 0: pass  # expect: mypy=- pyright=- runtime=ConcretizationError
    max(i, 2)  # expect: mypy=call-overload pyright=reportArgumentType runtime=ConcretizationError
    sorted([i, i])  # expect: mypy=type-var pyright=reportArgumentType runtime=ConcretizationError
    takes_int(i)  # expect: mypy=arg-type pyright=reportArgumentType runtime=-
    takes_float(f)  # expect: mypy=arg-type pyright=reportArgumentType runtime=-
    takes_float(i)  # expect: mypy=arg-type pyright=reportArgumentType runtime=-
    takes_complex(c)  # expect: mypy=arg-type pyright=reportArgumentType runtime=-
    takes_bool(b)  # expect: mypy=arg-type pyright=reportArgumentType runtime=-
    takes_number(i)  # expect: mypy=arg-type pyright=reportArgumentType runtime=-
    takes_integral(i)  # expect: mypy=arg-type pyright=reportArgumentType runtime=-
    takes_real(f)  # expect: mypy=arg-type pyright=reportArgumentType runtime=-
    takes_supports_index(i)  # expect: mypy=arg-type pyright=reportArgumentType runtime=-
    takes_supports_float(f)  # expect: mypy=arg-type pyright=reportArgumentType runtime=-
    _x: int = i  # expect: mypy=assignment pyright=reportAssignmentType runtime=-
    f & 1  # expect: mypy=operator pyright=reportOperatorIssue runtime=TypeError
    ~f  # expect: mypy=operator pyright=reportOperatorIssue runtime=TypeError
    f << 1  # expect: mypy=operator pyright=reportOperatorIssue runtime=TypeError
    c < c  # expect: mypy=operator pyright=reportOperatorIssue runtime=TypeError
    c // 1  # expect: mypy=operator pyright=reportOperatorIssue runtime=TypeError
    c % c  # expect: mypy=operator pyright=reportOperatorIssue runtime=TypeError
    i + "a"  # expect: mypy=operator pyright=reportOperatorIssue runtime=TypeError
    n & 1  # expect: mypy=operator pyright=reportOperatorIssue runtime=-
    n < 1  # expect: mypy=operator pyright=reportOperatorIssue runtime=-
    pow(i, 2, 5)  # expect: mypy=misc pyright=reportArgumentType,reportCallIssue runtime=TypeError
    i @ i  # expect: mypy=operator pyright=reportOperatorIssue runtime=TypeError
    to_static("3")  # expect: mypy=call-overload pyright=reportArgumentType,reportCallIssue runtime=TypeError
    to_static(None)  # expect: mypy=call-overload pyright=reportArgumentType,reportCallIssue runtime=TypeError
    check(i)  # expect: mypy=arg-type pyright=reportArgumentType runtime=TypeError
    check(1.5)  # expect: mypy=arg-type pyright=reportArgumentType runtime=TypeError
    proxy("x")  # expect: mypy=call-overload pyright=reportArgumentType,reportCallIssue runtime=TypeError
    NumberProxy("n")  # expect: mypy=- pyright=- runtime=TypeError
    if isinstance(i, int): pass  # expect: mypy=unreachable pyright=- runtime=-
    if isinstance(i, numbers.Number): pass  # expect: mypy=unreachable pyright=- runtime=-
    if isinstance(f, float): pass  # expect: mypy=unreachable pyright=- runtime=-
    2 == i  # expect: mypy=- pyright=- runtime=-
