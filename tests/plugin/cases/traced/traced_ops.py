"""Parameters of traced functions (matched by name: traced_ops.*) and what flows from them."""

from __future__ import annotations

import math
import numbers
from typing import Any, Optional, Sequence, Union

import torch

from proxy_types import is_static_number, to_static


def declared_types(i: int, f: float, c: complex, b: bool, n: numbers.Number,
                   r: numbers.Real, a: Any, s: str, t: torch.Tensor, o: object) -> None:
    isinstance(i, int)  # E: [proxy-isinstance] isinstance() against static number classes (int) misclassifies dynamic number "SymInt"; use proxy_types.is_static_number() / is_dynamic_number() or include proxy_types.NumberClasses (fails under make_fx, export) (reason: parameter "i" of traced function "declared_types" (line 14))
    isinstance(f, float)  # E: [proxy-isinstance] dynamic number "SymFloat"
    isinstance(c, complex)  # torch has no symbolic complex: the check sorts a SymFloat right
    isinstance(c, float)  # E: [proxy-isinstance] (reason: parameter "c"
    isinstance(i, float)  # a SymInt is no float, and neither is an int
    isinstance(f, int)  # E: [proxy-isinstance] (reason: parameter "f"
    isinstance(i, numbers.Real)  # E: [proxy-isinstance] (reason: parameter "i"
    not isinstance(i, bool)  # excluding bools sends a SymInt where an int goes
    isinstance(b, bool)  # E: [proxy-isinstance] dynamic number "SymBool"
    isinstance(n, numbers.Integral)  # E: [proxy-isinstance] (reason: parameter "n"
    isinstance(r, float)  # E: [proxy-isinstance] (reason: parameter "r"
    isinstance(a, int)  # E: [proxy-isinstance] (reason: parameter "a"
    isinstance(s, int)
    isinstance(t, int)
    isinstance(o, int)  # object stays under strict_isinstance


def unannotated(x, y=1, *sizes, **options):  # type: ignore[no-untyped-def]
    isinstance(x, int)  # E: [proxy-isinstance] (reason: parameter "x" of traced function "unannotated"
    isinstance(y, int)  # E: [proxy-isinstance] (reason: parameter "y"
    isinstance(sizes[0], int)  # E: [proxy-isinstance] (reason: parameter "sizes"
    isinstance(options["k"], int)  # E: [proxy-isinstance] (reason: parameter "options"
    bool(options)
    bool(sizes)
    if x == 1:  # known gap: mypy runs no comparison hook for an Any operand
        pass
    table: dict[object, int] = {}
    table[x]  # an unannotated value as a key: nothing says it is a number
    table[x + 1]  # E: [proxy-concretize] (reason: parameter "x"
    bool(x)
    all(item for item in sizes)
    int(x)  # E: [proxy-specialize] int() installs a guard
    if sizes[0] + 1 == 2:
        pass


def unions_and_containers(u: Union[int, str], o: Optional[float], shape: Sequence[int],
                          pair: tuple[int, str], nested: list[list[int]], *dims: int) -> None:
    isinstance(u, int)  # E: [proxy-isinstance] (reason: parameter "u"
    isinstance(o, float)  # E: [proxy-isinstance] (reason: parameter "o"
    isinstance(shape, int)  # E: [proxy-isinstance] (reason: parameter "shape"
    float(shape)  # type: ignore[arg-type]  # a sequence: a conversion of it is mypy's business
    isinstance(shape[0], int)  # E: [proxy-isinstance] (reason: parameter "shape"
    isinstance(pair[0], int)  # E: [proxy-isinstance] (reason: parameter "pair"
    isinstance(nested[0], int)  # E: [proxy-isinstance] (reason: parameter "nested"
    isinstance(nested, int)  # a list of lists: no number at the top or one level down
    isinstance(nested[0][1], int)  # E: [proxy-isinstance] (reason: parameter "nested"
    isinstance(dims[0], int)  # E: [proxy-isinstance] (reason: parameter "dims"
    isinstance(dims, int)  # E: [proxy-isinstance] (reason: parameter "dims"
    isinstance(pair, str)


def flow(n: int, m: int, xs: list[int], shape: Sequence[int]) -> None:
    total = n * 2 + 1
    int(total)  # E: [proxy-specialize] int() installs a guard on dynamic number "SymInt": sound, but the program is specialized on its traced value; use proxy_types.to_static() to make the conversion explicit (reason: parameter "n"
    negative = -m
    float(negative)  # E: [proxy-specialize] (reason: parameter "m"
    largest = max(shape)
    range(largest)  # E: [proxy-specialize] (reason: parameter "shape"
    range(min(n, 3))  # E: [proxy-specialize] range()
    range(abs(n))  # E: [proxy-specialize] range()
    range(sum(shape))  # E: [proxy-specialize] range()
    packed = (n, 1)
    first, second = packed
    range(first)  # E: [proxy-specialize] range()
    range(second)  # E: [proxy-specialize] range()
    listed = [m]
    range(listed[0])  # E: [proxy-specialize] range()
    head, *rest = shape
    range(head)  # E: [proxy-specialize] range()
    range(rest[0])  # E: [proxy-specialize] range()
    for size in shape:
        range(size)  # E: [proxy-specialize] range()
    for index, size in enumerate(shape):
        range(index)
        range(size)  # E: [proxy-specialize] range()
    doubled = [size * 2 for size in shape]
    range(doubled[0])  # E: [proxy-specialize] range()
    count = 0
    count += n
    range(count)  # E: [proxy-specialize] range()
    chosen = n if n != 2 else 1  # E: [proxy-specialize] Condition on a comparison of dynamic number "SymInt"
    range(chosen)  # E: [proxy-specialize] range()
    walrus = (w := n + 1)
    range(w)  # E: [proxy-specialize] range()
    range(walrus)  # E: [proxy-specialize] range()
    xs[n]  # E: [proxy-specialize] indexing list
    xs[1:n]  # E: [proxy-specialize] indexing list
    math.sqrt(n)  # E: [proxy-specialize] math.sqrt()
    static = len(shape)
    range(static)
    range(len(xs))
    converted = to_static(n)
    range(converted)
    other = 3
    range(other)


def conditions(n: int, f: float, xs: list[int], padding: int | str) -> bool:
    # A maybe-SymInt is reported where a condition pins it to one value (== or != a
    # literal or another static value, such as the length of a list); an order
    # comparison installs a range guard and leaves it symbolic.
    if n == 3:  # E: [proxy-specialize] Condition on a comparison of dynamic number "SymInt" installs a guard that specializes the program on the traced value; use proxy_types.check(...) to record it, or to_static() explicitly (reason: parameter "n"
        pass
    while f != 1.0:  # E: [proxy-specialize] dynamic number "SymFloat"
        break
    assert n + 1 != 0  # E: [proxy-specialize] Condition on a comparison
    if f == float("inf"):  # no symbolic float is infinite: a Ne guard, not a pin
        pass
    if n > 0:
        pass
    if 0 < n:
        pass
    if n == len(xs):  # E: [proxy-specialize] Condition on a comparison of dynamic number "SymInt"
        pass
    if len(xs) == 2:
        pass
    if padding == "same":
        pass
    is_even = n % 2 == 0
    if not is_even:  # E: [proxy-specialize] Condition on a comparison of dynamic number "SymInt"
        pass
    ok = n >= 0
    return ok


def casts(n: int, s: str) -> None:
    from typing import cast

    cast(int, n)  # E: [proxy-cast] cast() to static number type "int" hides dynamic number "SymInt" (the value stays dynamic at runtime); use proxy_types.to_static() to convert it, or cast to proxy_types.NumberLike (reason: parameter "n"
    cast(int, s)
    local = n + 1
    cast(int, local)  # E: [proxy-cast] (reason: parameter "n"


def narrowing(n: int, m: int, k: int, j: int, x: Any) -> None:
    if is_static_number(n):
        int(n)
    int(n)  # E: [proxy-specialize] int()
    if isinstance(m, int):  # E: [proxy-isinstance] (reason: parameter "m"
        range(m)
    if not is_static_number(k):
        return
    range(k)
    if isinstance(j, (torch.SymInt, torch.SymFloat)):
        return
    range(j)
    isinstance(j, int)
    if isinstance(x, torch.SymInt):
        raise TypeError("no symbolic sizes")
    elif isinstance(x, int):
        pass


def loops_redefine(n: int, items: list[str]) -> None:
    value = 1
    for item in items:
        range(value)  # E: [proxy-specialize] range()
        value = n
    label = "x"
    for item in items:
        label = item
    print(label)


def intent(x: int, y: int, z: float) -> None:
    if isinstance(x, int) and not isinstance(x, torch.SymInt):
        range(x)
    if not isinstance(y, torch.SymInt) and isinstance(y, int):
        pass
    if isinstance(z, (int, float)) and not isinstance(z, (torch.SymInt, torch.SymFloat)):
        pass
    isinstance(y, int)  # E: [proxy-isinstance]


def aliases(x: int, y: float, shape: list[int]) -> bool:
    from traced_lib import FloatWithoutSymFloat, IntWithoutSymInt
    import traced_lib

    if isinstance(x, IntWithoutSymInt):
        range(x)
    if all(isinstance(p, traced_lib.IntWithoutSymInt) and p <= 0 for p in shape):
        pass
    return not isinstance(y, FloatWithoutSymFloat) or math.isfinite(y)


def static_parameters(xs: list[int], dim: int, batch_dim: int, size: int) -> None:
    xs[dim]
    xs[batch_dim]
    xs[size]  # E: [proxy-specialize] (reason: parameter "size"


def wrappers(n: int) -> None:
    from traced_lib import check_type

    check_type(n, int)  # E: [proxy-isinstance] check_type() against static number classes (int)
    check_type(n, str)
    issubclass(type(n), int)


def nested(n: int) -> None:
    def inner(m: int) -> None:
        isinstance(m, int)  # E: [proxy-isinstance] (reason: parameter "m" of traced function "inner"

    inner(n)
    fn = lambda: isinstance(n, int)  # E: [proxy-isinstance] (reason: parameter "n"
    fn()


def _check_len(length: int) -> None:
    # left out (!traced_ops._check_*): a check that gets the value recorded while tracing
    isinstance(length, int)
    if length == 0:
        pass

    def nested_check(m: int) -> None:
        isinstance(m, int)  # nested in a function left out: left out too

    nested_check(length)


def check_len(length: int) -> None:
    isinstance(length, int)  # E: [proxy-isinstance] (reason: parameter "length" of traced function "check_len"


def partly_left_out(n: int) -> None:
    def _value_helper(m: int) -> None:
        isinstance(m, int)  # left out (!traced_ops.*._value_helper): it gets values

    _value_helper(n)
    isinstance(n, int)  # E: [proxy-isinstance] (reason: parameter "n" of traced function "partly_left_out"


def text_of_parameters(i: int, f: float, s: str, x: torch.Tensor) -> str:
    assert i > 0, f"expected a positive size, got {i}"  # built only when the assert fails
    label = f"{s} {x.dim()}"  # a str, and a static rank
    return label + f"{i}" + str(f)  # E: [proxy-specialize] /^str\(\) turns dynamic number "SymFloat" into text.*parameter "f"/  # E: [proxy-specialize] f-string without a format spec (f"{n}") turns dynamic number "SymInt" into text: a tracer that needs the text as a constant guards on its value (a recompile for each value); keep the text out of traced code, or build it only on failure (an assert message, a raise) (fails under compile) (reason: parameter "i" of traced function "text_of_parameters" (line 249))


def text_of_anything(name, scale: Any, count: int):  # type: ignore[no-untyped-def]
    # Text takes any object: an unannotated or Any parameter is no number until shown one.
    label = f"{name}" + str(name) + "{}".format(scale) + format(name) + str(scale)
    return label + str(count * 2)  # E: [proxy-specialize] /^str\(\) turns dynamic number "SymInt" into text.*parameter "count"/


def integral_is_an_int(n: numbers.Integral, i: int) -> None:
    # A SymInt is no numbers.Integral at run time, an int is: n stands for an int, as i does.
    math.floor(n)  # a SymInt's floor stays symbolic
    math.floor(i)
    round(n)
    type(n) is bool  # answers right for a dynamic int
    type(i) is bool
    float(n)  # E: [proxy-specialize] float() installs a guard on dynamic number "SymInt"
    float(i)  # E: [proxy-specialize] float() installs a guard on dynamic number "SymInt"
