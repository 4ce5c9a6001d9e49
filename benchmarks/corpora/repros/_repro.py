"""What every reproduction script shares: cases, outcomes, and the three ways to show a bug.

A script lists ``Case`` objects, one per ground-truth site, and ends with
``main(CASES)``.  Each case runs the library code with a dynamic number and
either returns an ``Outcome`` (the bug showed) or raises ``NotReproduced``.
``main`` prints one line per case::

    REPRODUCED (crash) torch_isinstance::layer_norm torch/nn/modules/normalization.py:199: ...
    NOT REPRODUCED torch_isinstance::rms_norm: ...

and exits 0 only when every selected case reproduced.  ``--case NAME`` runs one.

torch cases trace with ``make_fx(..., tracing_mode="symbolic")``: sizes become
SymInts, and every guard the ShapeEnv records carries the source line that asked
for it, so a specialization is pinned to its line.  Crashes are pinned by the
traceback.  thunder cases call ``thunder.jit(fn, cache="symbolic values")`` twice
with different numbers and compare with eager PyTorch; a constant baked into
the trace shows as a wrong result (or a crash) on one of the calls.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CRASH = "crash"
WRONG = "wrong result"
SPECIALIZES = "specializes"
OUTCOMES = (CRASH, WRONG, SPECIALIZES)


class NotReproduced(Exception):
    """The case ran but the bug did not show; the message says what happened instead."""


@dataclass(frozen=True)
class Outcome:
    kind: str  # one of OUTCOMES
    detail: str


@dataclass(frozen=True)
class Case:
    name: str
    site: str  # "file:line" relative to the package's parent directory, as in ground_truth.toml
    run: Callable[[], Outcome]


def main(cases: Sequence[Case], argv: Sequence[str] | None = None) -> int:
    script = Path(sys.argv[0]).stem
    parser = argparse.ArgumentParser(description=f"reproductions in {script}")
    parser.add_argument("--case", action="append", help="run only this case (repeatable)")
    options = parser.parse_args(argv)
    known = {case.name for case in cases}
    unknown = sorted(set(options.case or ()) - known)
    if unknown:
        print(f"{script}: error: unknown case {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        return 2
    selected = [case for case in cases if not options.case or case.name in options.case]
    failures = 0
    for case in selected:
        label = f"{script}::{case.name} {case.site}"
        try:
            outcome = case.run()
        except NotReproduced as error:
            failures += 1
            print(f"NOT REPRODUCED {label}: {error}", flush=True)
            continue
        if outcome.kind not in OUTCOMES:
            raise ValueError(f"{case.name}: unknown outcome kind {outcome.kind!r}")
        print(f"REPRODUCED ({outcome.kind}) {label}: {outcome.detail}", flush=True)
    return 1 if failures else 0


def one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text[:160]}"


def frames_in(error: BaseException, site: str) -> bool:
    """Whether the traceback of ``error`` passes through ``site`` ("pkg/file.py:LINE")."""
    file, _, line = site.rpartition(":")
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename.replace("\\", "/").endswith("/" + file) and frame.lineno == int(line):
            return True
    return False


# -- torch ---------------------------------------------------------------------


def trace_symbolic(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn`` traced with symbolic sizes: the GraphModule (exceptions propagate)."""
    from torch.fx.experimental.proxy_tensor import make_fx

    return make_fx(fn, tracing_mode="symbolic")(*args)


def shape_env_of(graph_module: Any) -> Any:
    """The ShapeEnv behind the symbolic sizes of a traced graph."""
    import torch

    for node in graph_module.graph.nodes:
        value = node.meta.get("val")
        if isinstance(value, torch.Tensor):
            for size in value.shape:
                if isinstance(size, torch.SymInt):
                    return size.node.shape_env
    raise NotReproduced("the traced graph has no symbolic size, so no ShapeEnv to inspect")


def expect_crash(fn: Callable[..., Any], args: Sequence[Any], site: str) -> Outcome:
    """Symbolic tracing of ``fn`` raises at ``site``; the same call on real tensors works."""
    fn(*args)  # the control: with plain ints the code is fine
    try:
        trace_symbolic(fn, *args)
    except Exception as error:  # the crash is the finding; anything else is reported below
        if not frames_in(error, site):
            raise NotReproduced(f"crashed elsewhere: {one_line(error)}") from error
        return Outcome(CRASH, f"make_fx symbolic raises {one_line(error)}")
    raise NotReproduced("make_fx symbolic traced without error")


def expect_specialization(fn: Callable[..., Any], args: Sequence[Any], site: str) -> Outcome:
    """Symbolic tracing of ``fn`` records a guard at ``site`` that pins a size expression to a constant."""
    import sympy

    graph_module = trace_symbolic(fn, *args)
    file, _, line = site.rpartition(":")
    # a guard's source location reads "(nn/functional.py:505 in fractional_max_pool2d...)"
    location = f"{file.removeprefix('torch/')}:{line} in "
    pinned = [str(guard.expr) for guard in shape_env_of(graph_module).guards
              if location in str(guard.sloc) and isinstance(guard.expr, sympy.Eq)
              and any(side.is_number for side in guard.expr.args)]
    if not pinned:
        raise NotReproduced(f"no guard pinning a value was recorded at {site}")
    return Outcome(SPECIALIZES, f"guard {pinned[0]} recorded at {site}")


# -- thunder -------------------------------------------------------------------

#: Tensor methods thunder 0.2.6 looks up at import time that torch 2.13 removed
#: (named tensors); thunder only needs the names to exist.
_REMOVED_TENSOR_METHODS = ("align_as", "align_to", "has_names", "refine_names", "rename")


def import_thunder() -> Any:
    """thunder, importable on torch 2.13 once the removed Tensor methods have placeholders."""
    import torch

    for name in _REMOVED_TENSOR_METHODS:
        if not hasattr(torch.Tensor, name):
            setattr(torch.Tensor, name, _removed_method(name))
    import thunder

    return thunder


def _removed_method(name: str) -> Callable[..., Any]:
    def removed(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"Tensor.{name} was removed from torch")

    removed.__name__ = name
    removed.__qualname__ = f"Tensor.{name}"
    return removed


def same(expected: Any, got: Any) -> bool:
    """Equal values: tensors by dtype, shape and contents (NaNs equal), sequences item by item."""
    import torch

    if isinstance(expected, (tuple, list)):
        return (isinstance(got, (tuple, list)) and len(expected) == len(got)
                and all(same(e, g) for e, g in zip(expected, got)))
    if isinstance(expected, torch.Tensor):
        return (isinstance(got, torch.Tensor) and expected.dtype == got.dtype
                and expected.shape == got.shape
                and bool(torch.allclose(expected, got, atol=1e-5, equal_nan=True)))
    return bool(expected == got)


def describe(value: Any) -> str:
    import torch

    if isinstance(value, torch.Tensor):
        return f"{value.dtype} {list(value.shape)} {value.flatten()[:3].tolist()}"
    if isinstance(value, (tuple, list)):
        return f"{len(value)} items"
    return repr(value)


def thunder_calls(fn: Callable[..., Any], calls: Sequence[Sequence[Any]], *,
                  grad: bool = False, seed: int | None = None) -> Outcome:
    """Calls one ``thunder.jit(fn, cache="symbolic values")`` with each argument list in
    turn and compares every result (and, with ``grad``, the gradient of the first
    argument) with eager PyTorch.  The first difference or thunder crash is the outcome."""
    thunder = import_thunder()
    jitted = thunder.jit(fn, cache="symbolic values")
    for number, args in enumerate(calls, start=1):
        try:
            expected = _run(fn, args, grad, seed)
        except Exception as eager_error:  # invalid input: thunder must refuse it too
            try:
                got = _run(jitted, args, grad, seed)
            except Exception:  # both refuse the call: the same behaviour
                continue
            return Outcome(WRONG, f"call {number} {_numbers(args)}: thunder returns "
                                  f"{describe(got[0])}, eager PyTorch raises {one_line(eager_error)}")
        try:
            got = _run(jitted, args, grad, seed)
        except Exception as error:  # a crash inside thunder is the finding
            return Outcome(CRASH, f"call {number} {_numbers(args)} raises {one_line(error)}")
        for what, want, have in zip(("result", "gradient"), expected, got):
            if not same(want, have):
                return Outcome(WRONG, f"call {number} {_numbers(args)}: {what} {describe(have)}, "
                                      f"eager PyTorch gives {describe(want)}")
    hits = thunder.cache_hits(jitted)
    raise NotReproduced(f"every call matched eager PyTorch ({hits} cache hits)")


def thunder_crash(fn: Callable[..., Any], args: Sequence[Any], site: str) -> Outcome:
    """``thunder.jit`` of ``fn`` raises at ``site`` for a call that eager PyTorch runs."""
    thunder = import_thunder()
    fn(*args)
    try:
        thunder.jit(fn, cache="symbolic values")(*args)
    except Exception as error:  # the crash is the finding; where it happened is checked
        if not frames_in(error, site):
            raise NotReproduced(f"crashed elsewhere: {one_line(error)}") from error
        return Outcome(CRASH, f"{_numbers(args)} raises {one_line(error)}")
    raise NotReproduced("thunder ran the call without error")


def thunder_symbolic_crash(fn: Callable[..., Any], args: Sequence[Any], site: str) -> Outcome:
    """For thunder's own operators (no eager PyTorch twin to compare with): with
    ``cache="constant values"`` the call gets past ``site``, with ``"symbolic values"``
    it raises there.  A later failure of the control (no CPU executor for a GPU-only
    primitive) is allowed and shown in the detail."""
    thunder = import_thunder()
    control = "runs"
    try:
        thunder.jit(fn, cache="constant values")(*args)
    except Exception as error:  # where the static call fails decides below
        if frames_in(error, site):
            raise NotReproduced(f"static numbers fail at the site too: {one_line(error)}") from error
        control = f"gets past the site, then fails ({one_line(error)[:80]})"
    try:
        thunder.jit(fn, cache="symbolic values")(*args)
    except Exception as error:  # the crash is the finding; where it happened is checked
        if not frames_in(error, site):
            raise NotReproduced(f"crashed elsewhere: {one_line(error)}") from error
        return Outcome(CRASH, f"{_numbers(args)} raises {one_line(error)}; with constant "
                              f"values the call {control}")
    raise NotReproduced("thunder ran the call with symbolic values without error")


def _run(fn: Callable[..., Any], args: Sequence[Any], grad: bool, seed: int | None) -> tuple[Any, ...]:
    import torch

    if seed is not None:
        torch.manual_seed(seed)
    if not grad:
        return (fn(*args),)
    first, *rest = args
    leaf = first.detach().clone().requires_grad_(True)
    result = fn(leaf, *rest)
    result.sum().backward()
    return result.detach(), leaf.grad


def _numbers(args: Sequence[Any]) -> str:
    import torch

    shown = [repr(a) for a in args if not isinstance(a, torch.Tensor)]
    return "(" + ", ".join(shown) + ")"
