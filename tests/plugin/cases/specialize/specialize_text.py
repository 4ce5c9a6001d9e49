"""Text of torch dynamic numbers built without a format spec: torch.compile specializes on it.

make_fx and torch.export give the symbol's name; Dynamo guards on an f-string's text and
cannot trace str() or "{}".format() (tests/runtime/test_tracer_formatting.py).
"""

# settings:
#   [mypy-specialize_text]
#   enable_error_code = proxy-specialize
#
#   [mypy.plugins.proxy_types]
#   symbolic_shapes = true

from __future__ import annotations

import torch

from proxy_types import IntegerProxy


def texts(x: torch.Tensor, n: torch.SymInt, f: torch.SymFloat, p: IntegerProxy, k: int) -> str:
    a = f"{n}"  # E: [proxy-specialize] f-string without a format spec (f"{n}") turns dynamic number "SymInt" into text: a tracer that needs the text as a constant guards on its value (a recompile for each value); keep the text out of traced code, or build it only on failure (an assert message, a raise) (fails under compile)
    b = f"height ({x.shape[1]}) is odd"  # E: [proxy-specialize] f-string without a format spec (f"{n}") turns dynamic number "SymInt" into text
    c = "{} x {}".format(n, f)  # E: [proxy-specialize] /dynamic number "SymFloat" into text/  # E: [proxy-specialize] str.format() without a format spec ("{}".format(n)) turns dynamic number "SymInt" into text: a tracer that needs the text as a constant cannot trace it (a graph break, an error with fullgraph=True); keep the text out of traced code, or build it only on failure (an assert message, a raise) (fails under compile)
    d = str(x.size(0))  # E: [proxy-specialize] str() turns dynamic number "SymInt" into text: a tracer that needs the text as a constant cannot trace it (a graph break, an error with fullgraph=True); keep the text out of traced code, or build it only on failure (an assert message, a raise) (fails under compile) (reason: "x.size(0)" is a tensor size, symbolic under dynamic shapes (symbolic_shapes))
    e = f"{n!r}"  # E: [proxy-specialize] f-string without a format spec
    g = format(n)  # E: [proxy-concretize] format() turns dynamic number "SymInt" into text: a tracer that needs the text as a constant fails on it; keep the text out of traced code, or build it only on failure (an assert message, a raise) (fails under compile)
    h = f"{n:>4}"  # E: [proxy-concretize] Format spec ">4" needs the value of dynamic number "SymInt"
    own = f"{p} {p!r}" + str(p) + "{}".format(p) + format(p)  # our proxies: their name
    static = f"{k}" + str(k) + "{}".format(k) + str(x.dim()) + f"{x.ndim}"
    return a + b + c + d + e + g + h + own + static


def messages(x: torch.Tensor, channels: int) -> torch.Tensor:
    # Built only when the assertion fails or the exception is raised: no trace sees them.
    assert x.shape[1] == channels, f"got {x.shape[1]} channels, expected {channels}"
    assert x.shape[0] > 0, "empty batch of " + str(x.shape[0])
    if x.shape[0] < 1:  # an order: a range guard only
        raise ValueError(f"bad batch {x.shape[0]}: " + str(x.size(0)) + "{}".format(x.shape[0]))
    assert str(x.shape[3]) != "0", "the test of an assert runs"  # E: [proxy-specialize] str() turns dynamic number "SymInt" into text
    width = f"{x.shape[2]}"  # E: [proxy-specialize] f-string without a format spec
    return x * len(width)


def check_messages(x: torch.Tensor) -> torch.Tensor:
    # The message function of torch._check runs only when the check fails.
    n = x.shape[0]
    torch._check(n > 1, lambda: f"got {n} rows")
    torch._check_is_size(n, lambda: f"bad size {n}")
    torch._check_with(ValueError, n > 1, lambda: "bad " + str(n))
    torch._check(n > 1, message=lambda: f"{x.shape[1]} columns")
    torch._check(f"{n}" != "", lambda: "the condition runs")  # E: [proxy-specialize] f-string without a format spec
    label = lambda: f"{n} rows"  # E: [proxy-specialize] f-string without a format spec
    torch._check(n > 1, lambda: label())
    print(lambda: f"{x.shape[1]}")  # E: [proxy-specialize] f-string without a format spec
    return x * len(label())
