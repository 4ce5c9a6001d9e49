"""The tracing loop shared by the corpus sites files (``*_sites.py``): a reduced case
run under make_fx (symbolic), torch.export (strict=False, with ``Dim``s) and
torch.compile (``dynamic=True, fullgraph=True``, over two sizes), and what each
tracer made of it.

Results, per tracer: ``ok``; ``specialized {...}`` (make_fx replaced a dynamic
dimension's symbol by a constant); ``pinned [...]`` (make_fx kept the symbol but
guarded it equal to a constant); ``frames=N`` (torch.compile, 2 = recompiled for the
second size); or ``ERROR <type>: <first lines>``.  torch.export with a ``Dim`` fails
on any guard that does not hold over the Dim's whole range.

Needs torch; the sites files import it, the test suite only under its markers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import random

import torch
import torch._dynamo
import torch._dynamo.testing
from torch import nn
from torch.export import export
from torch.fx.experimental.proxy_tensor import make_fx

#: input index -> dimension -> ``Dim`` (or a derived ``Dim`` expression).
Shapes = dict[int, dict[int, Any]]


def fixed_dimensions(gm: torch.fx.GraphModule, dynamic: Shapes) -> dict[str, object]:
    """The dynamic dimensions whose symbol the trace replaced by a constant."""
    values = [node.meta.get("val") for node in gm.graph.nodes if node.op == "placeholder"]
    fixed: dict[str, object] = {}
    for index, dims in dynamic.items():
        for dim in dims:
            size = values[index].shape[dim]
            # SymNode.expr applies the ShapeEnv's replacements.
            if not isinstance(size, torch.SymInt) or size.node.expr.is_number:
                fixed[f"input {index} dim {dim}"] = int(size)
    return fixed


def pinning_guards(gm: torch.fx.GraphModule, dynamic: Shapes) -> list[str]:
    """Guards ``Eq(expression, constant)`` on a dynamic dimension's symbol.

    sympy cannot solve ``Eq(TruncToInt(0.5*ToFloat(n - 1)), 4)`` for ``n``, so such a
    guard pins the trace without replacing the symbol (``fixed_dimensions`` misses it).
    """
    values = [node.meta.get("val") for node in gm.graph.nodes if node.op == "placeholder"]
    symbols = set()
    for index, dims in dynamic.items():
        for dim in dims:
            size = values[index].shape[dim]
            if isinstance(size, torch.SymInt):
                symbols |= size.node.expr.free_symbols
    mode = torch._guards.detect_fake_mode(values)
    if mode is None or mode.shape_env is None:
        return []
    pins = []
    for guard in mode.shape_env.guards:
        expr = guard.expr
        if (expr.func.__name__ == "Equality" and (expr.lhs.is_number or expr.rhs.is_number)
                and expr.free_symbols & symbols):
            pins.append(str(expr))
    return pins


def first_line(error: Exception) -> str:
    return f"ERROR {type(error).__name__}: {' | '.join(str(error).splitlines()[:2])[:300]}"


def three_ways(module: Callable[[], nn.Module], inputs: Sequence[Any], dynamic: Shapes,
               second: Sequence[Any]) -> dict[str, str]:
    """What make_fx (symbolic), torch.export (strict=False) and torch.compile make of it."""
    results: dict[str, str] = {}
    model = module()
    try:
        gm = make_fx(lambda *args: model(*args), tracing_mode="symbolic",
                     _allow_non_fake_inputs=True)(*inputs)
        fixed = fixed_dimensions(gm, dynamic)
        pins = pinning_guards(gm, dynamic)
        results["make_fx"] = (f"specialized {fixed}" if fixed else f"pinned {pins}" if pins
                              else "ok")
    except Exception as error:
        results["make_fx"] = first_line(error)
    try:
        specs = tuple(dynamic.get(index) for index in range(len(inputs)))
        export(module(), tuple(inputs), dynamic_shapes=specs, strict=False)
        results["export"] = "ok"
    except Exception as error:
        results["export"] = first_line(error)
    torch._dynamo.reset()
    counter = torch._dynamo.testing.CompileCounter()  # the eager backend, counting frames
    try:
        compiled = torch.compile(module(), backend=counter, dynamic=True, fullgraph=True)
        compiled(*inputs)
        compiled(*second)
        results["compile"] = f"frames={counter.frame_count}"
    except Exception as error:
        results["compile"] = first_line(error)
    return results


#: The operators a linear layer becomes in a graph (make_fx: addmm; export: linear).
LINEAR_OPS = (torch.ops.aten.addmm.default, torch.ops.aten.linear.default)


def seeded_op_counts(module: Callable[[], nn.Module], inputs: Callable[[], list[Any]],
                     tracer: str = "make_fx", seeds: Sequence[int] = (0, 1, 2),
                     ops: Sequence[object] = LINEAR_OPS) -> set[int]:
    """The number of ``ops`` nodes in the graph, traced once per Python ``random`` seed.

    More than one count: the trace ran ``random`` once and kept what it drew (a branch,
    a loop count).  Nested graphs count too (export puts a ``no_grad`` pass in one).
    """
    counts = set()
    for seed in seeds:
        random.seed(seed)
        model = module()
        if tracer == "make_fx":
            gm = make_fx(lambda *args: model(*args), tracing_mode="symbolic",
                         _allow_non_fake_inputs=True)(*inputs())
        else:
            gm = export(model, tuple(inputs()), strict=False).graph_module
        counts.add(sum(1 for graph in gm.modules() if isinstance(graph, torch.fx.GraphModule)
                       for node in graph.graph.nodes if node.target in ops))
    return counts


@dataclass(frozen=True)
class Case:
    """A reduced case: the module, its inputs, and what each tracer makes of it."""

    module: Callable[[], nn.Module]
    inputs: Callable[[], list[Any]]
    dynamic: Callable[[], Shapes]
    second: Callable[[], list[Any]]
    #: tracer -> a part of the expected result (``three_ways``).
    expected: dict[str, str] = field(default_factory=dict)
    #: True: the case draws from ``random`` and make_fx and export keep one draw
    #: (``seeded_op_counts`` gives more than one count); False: one count (a control).
    baked: bool | None = None


@dataclass(frozen=True)
class Site:
    """A line of a library: reported, a runtime failure, or both."""

    file: str
    line: int
    code: str  # the line's text in the library's VERSION, stripped
    reported: bool  # by every setting the sites file names
    runtime_failure: bool
    reason: str
    cases: tuple[Case, ...] = ()


def print_sites(sites: Sequence[Site]) -> int:
    """Trace every site's cases once and print the results; the number not as expected."""
    failed = 0
    done: set[int] = set()
    for site in sites:
        print(f"## {site.file}:{site.line} {'reported' if site.reported else 'not reported'}, "
              f"{'runtime failure' if site.runtime_failure else 'no runtime failure'}: {site.reason}")
        for case in site.cases:
            name = getattr(case.module, "__name__", case.module)
            if id(case) in done:
                print(f"   {name}: as above")
                continue
            done.add(id(case))
            results = three_ways(case.module, case.inputs(), case.dynamic(), case.second())
            for tracer, result in results.items():
                expected = case.expected.get(tracer, "")
                mark = "" if expected in result else f"   <-- expected {expected}"
                failed += bool(mark)
                print(f"   {name} {tracer}: {result}{mark}")
            if case.baked is None:
                continue
            for tracer in ("make_fx", "export"):
                counts = seeded_op_counts(case.module, case.inputs, tracer)
                mark = "" if (len(counts) > 1) == case.baked else "   <-- expected the other"
                failed += bool(mark)
                print(f"   {name} {tracer}, one trace per random seed: linear layers {sorted(counts)}{mark}")
    return failed
