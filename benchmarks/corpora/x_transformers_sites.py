"""The five reports of ``proxy-types check --preset torch-compile`` on x-transformers 2.31.10,
each as the reported line with the operations that feed it there, traced three ways.

    python benchmarks/corpora/x_transformers_sites.py

Needs torch 2.13 only (not x-transformers; the end-to-end traces of the library's
models are described in docs/real-world.md).  Not run by the test suite.  Prints,
per case and tracer: ``ok``, ``specialized`` (make_fx: a dynamic dimension's symbol
replaced by a constant), ``frames=N`` (torch.compile over two sizes; 2 = recompiled)
or the error.  torch.export with a ``Dim`` fails on any guard that does not hold
over the Dim's whole range.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import torch
import torch._dynamo
import torch._dynamo.testing
from torch import nn
from torch.export import Dim, export
from torch.fx.experimental.proxy_tensor import make_fx

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


def first_line(error: Exception) -> str:
    return f"ERROR {type(error).__name__}: {' | '.join(str(error).splitlines()[:2])[:300]}"


def trace_three_ways(name: str, module: Callable[[], nn.Module], inputs: Sequence[torch.Tensor],
                     dynamic: Shapes, second: Sequence[torch.Tensor]) -> None:
    results: dict[str, str] = {}
    model = module()
    try:
        gm = make_fx(lambda *args: model(*args), tracing_mode="symbolic")(*inputs)
        fixed = fixed_dimensions(gm, dynamic)
        results["make_fx"] = f"specialized {fixed}" if fixed else "ok"
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
    print(f"## {name}")
    for tracer, result in results.items():
        print(f"   {tracer}: {result}")


class BeliefPairs(nn.Module):
    """belief_state_wrapper.py:338-347: int() of a size made unbacked by a boolean mask."""

    def forward(self, seq: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(seq.shape[1])
        pairs = torch.cartesian_prod(positions, positions + 1)
        first, second = pairs.unbind(dim=-1)
        pairs = pairs[(second - first) >= 2]
        num_pairs = pairs.shape[0]
        num_subsampled = max(int(num_pairs * 0.5), 1)
        return pairs[:num_subsampled].sum() + seq.sum()


class CeilPad(nn.Module):
    """multi_input.py:208: math.ceil of a SymFloat stays symbolic."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = x.shape[1]
        next_seq_len = math.ceil(n / 4) * 4
        return nn.functional.pad(x, (0, 0, 0, next_seq_len - n))


class Prefill(nn.Module):
    """recirculation.py:323: a Python loop over the sequence length."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = x[:, :1] * 0
        for t in range(x.shape[1]):
            out = out + x[:, t:(t + 1)]
        return out


class Chunks(nn.Module):
    """xm_latent_decoder.py:284: range() over the batch size, in chunks."""

    def forward(self, seq: torch.Tensor) -> torch.Tensor:
        total = seq.shape[0]
        return torch.cat([seq[start:start + 4] * 2 for start in range(0, total, 4)])


class BuiltinMin(nn.Module):
    """xm_latent_decoder.py:285: builtin min() of a size and an int, without the loop."""

    def forward(self, seq: torch.Tensor) -> torch.Tensor:
        return seq.new_zeros(min(seq.shape[0], 4) + 1)


def main() -> None:
    n = Dim("n", min=4, max=64)
    b = Dim("b", min=2, max=32)
    randn = torch.randn
    trace_three_ways("belief_state_wrapper.py:347 int(num_pairs * frac)", BeliefPairs,
                     [randn(2, 8)], {0: {1: n}}, [randn(2, 9)])
    trace_three_ways("multi_input.py:208 math.ceil(n / mem_every)", CeilPad,
                     [randn(2, 6, 3)], {0: {1: n}}, [randn(2, 10, 3)])
    trace_three_ways("recirculation.py:323 range(x.shape[1])", Prefill,
                     [randn(2, 6, 3)], {0: {1: n}}, [randn(2, 7, 3)])
    trace_three_ways("xm_latent_decoder.py:284 range(0, total, chunk_size)", Chunks,
                     [randn(6, 3)], {0: {0: b}}, [randn(10, 3)])
    trace_three_ways("xm_latent_decoder.py:285 min(total - start, chunk_size)", BuiltinMin,
                     [randn(6, 3)], {0: {0: b}}, [randn(3, 3)])


if __name__ == "__main__":
    main()
