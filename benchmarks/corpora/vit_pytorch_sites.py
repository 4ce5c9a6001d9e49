"""vit-pytorch 1.26.14 (code not tuned on): the reports of ``proxy-types check`` and the
runtime failures found by tracing its models, each reduced to the library line with
the operations that feed it there, traced three ways.

    python benchmarks/corpora/vit_pytorch_sites.py

Needs torch 2.13 only (not vit-pytorch; the end-to-end traces of the
library's models are described in docs/real-world.md).  The test suite runs it only
under the ``slow`` marker (tests/benchmarks/test_vit_pytorch_sites.py).  Prints, per
case and tracer: ``ok``, ``specialized`` (make_fx: a dynamic dimension's symbol
replaced by a constant), ``frames=N`` (torch.compile over two sizes; 2 = recompiled)
or the error.  torch.export with a ``Dim`` fails on any guard that does not hold over
the Dim's whole range.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
import torch._dynamo
import torch._dynamo.testing
from torch import nn
from torch.export import Dim, export
from torch.fx.experimental.proxy_tensor import make_fx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.corpora.x_transformers_sites import (  # noqa: E402
    Shapes,
    first_line,
    fixed_dimensions,
)

VERSION = "1.26.14"


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


# -- the four reports (the same with --preset torch-compile, --preset torch-library and
#    plain mypy with the first preset's settings) ----------------------------------------


class KeepTokens(nn.Module):
    """levjepa.py:310 (na_vit.py:311 is the same line): int() of a token count times a
    float, then topk with the result."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        total_tokens = x.shape[1] - 1
        num_keep = max(1, int(total_tokens * (1 - 0.5)))
        rand = torch.rand(x.shape[0], total_tokens)
        indices = rand.topk(num_keep, dim=-1).indices + 1
        return torch.gather(x, 1, indices[..., None].expand(-1, -1, x.shape[-1]))


class KeepTokensSymbolic(nn.Module):
    """The control: the same count with torch.sym_int (the same truncation, no guard)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        total_tokens = x.shape[1] - 1
        num_keep = torch.sym_max(1, torch.sym_int(total_tokens * (1 - 0.5)))  # type: ignore[no-untyped-call]
        rand = torch.rand(x.shape[0], total_tokens)
        indices = rand.topk(num_keep, dim=-1).indices + 1
        return torch.gather(x, 1, indices[..., None].expand(-1, -1, x.shape[-1]))


class StarredKeep(nn.Module):
    """simple_vit_with_patch_dropout.py:41 (missed): the same int(), on a size unpacked
    from ``(*x.shape, x.device)``."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, n, _, device = *x.shape, x.device
        batch_indices = torch.arange(b, device=device)[:, None]
        num_patches_keep = max(1, int(n * (1 - 0.5)))
        patch_indices_keep = torch.randn(b, n, device=device).topk(num_patches_keep, dim=-1).indices
        return x[batch_indices, patch_indices_keep]


@functools.lru_cache(maxsize=128)
def posemb_grid(ph: int, pw: int) -> torch.Tensor:
    return torch.stack(torch.meshgrid(torch.arange(ph), torch.arange(pw), indexing="ij"), dim=-1)


class CachedGrid(nn.Module):
    """na_vit.py:303 (missed): sizes passed to a function under functools.lru_cache,
    which hashes them."""

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        ph, pw = image.shape[-2] // 4, image.shape[-1] // 4
        return posemb_grid(ph, pw).flatten(0, 1) + image.sum()


class SizesAsTensor(nn.Module):
    """levjepa.py:291 (missed): torch.tensor() of a list of sizes."""

    def forward(self, video: torch.Tensor) -> torch.Tensor:
        tm, hm, wm = video.shape[2], video.shape[3] // 8, video.shape[4] // 8
        grid = torch.cartesian_prod(torch.arange(tm), torch.arange(hm), torch.arange(wm))
        return grid / torch.tensor([tm, hm, wm], dtype=torch.float)


class ItemLength(nn.Module):
    """na_vit.py:330 (missed): a padding length read back with ``.item()`` sizes the key
    mask, which attention then compares with the sequence length."""

    def forward(self, seq: torch.Tensor) -> torch.Tensor:
        lengths = torch.tensor([seq.shape[-2]], dtype=torch.long)
        seq_arange = torch.arange(lengths.amax().item())
        key_pad_mask = seq_arange[None, :] < lengths[:, None]
        q = seq[None, None]
        out: torch.Tensor = nn.functional.scaled_dot_product_attention(
            q, q, q, attn_mask=key_pad_mask[:, None, None, :])
        return out


class ChannelCheck(nn.Module):
    """na_vit_nested_tensor.py:215 (and _3d.py:229): all() over ``shape[0] == channels``,
    then the patch projection, whose weight needs exactly ``channels`` inputs anyway."""

    def __init__(self, checked: bool = True) -> None:
        super().__init__()
        self.checked = checked
        self.channels = 3
        self.to_patches = nn.Linear(3 * 4 * 4, 8)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        if self.checked:
            assert all([image.ndim == 3 and image.shape[0] == self.channels for image in [image]])
        c, h, w = image.shape
        patches = image.reshape(c, h // 4, 4, w // 4, 4).permute(1, 3, 0, 2, 4)
        out: torch.Tensor = self.to_patches(patches.reshape(h // 4, w // 4, c * 16))
        return out


def channel_check_control() -> nn.Module:
    return ChannelCheck(checked=False)


@dataclass(frozen=True)
class Case:
    """A reduced case: the module, its inputs, and what each tracer makes of it."""

    module: Callable[[], nn.Module]
    inputs: Callable[[], list[Any]]
    dynamic: Callable[[], Shapes]
    second: Callable[[], list[Any]]
    #: tracer -> a part of the expected result (``three_ways``).
    expected: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Site:
    """A line of vit-pytorch: reported, a runtime failure, or both."""

    file: str
    line: int
    code: str  # the line's text in vit-pytorch VERSION, stripped
    reported: bool  # by the three settings alike
    runtime_failure: bool
    reason: str
    cases: tuple[Case, ...] = ()


def _tokens(n: int, b: int = 2) -> list[Any]:
    return [torch.randn(b, n, 4)]


def _seq_dim() -> Shapes:
    return {0: {1: Dim("n", min=4, max=64)}}


def _image(h: int, w: int) -> list[Any]:
    return [torch.randn(3, h, w)]


def _image_dims() -> Shapes:
    return {0: {1: 4 * Dim("hp", min=2, max=16), 2: 4 * Dim("wp", min=2, max=16)}}


# int() of a SymFloat pins the truncated value under make_fx and export (non-strict);
# dynamo traces it as a symbolic truncation.  The control's export still fails, on
# topk's range check and a size-1 guard, not at the line, so it is not compared.
KEEP_TOKENS = Case(KeepTokens, lambda: _tokens(9), _seq_dim, lambda: _tokens(13),
                   {"make_fx": "pinned ['Eq(TruncToInt(", "export": ")) == 4",
                    "compile": "frames=1"})
KEEP_TOKENS_CONTROL = Case(KeepTokensSymbolic, lambda: _tokens(9), _seq_dim, lambda: _tokens(13),
                           {"make_fx": "ok", "compile": "frames=1"})
STARRED_KEEP = Case(StarredKeep, lambda: _tokens(9), _seq_dim, lambda: _tokens(13),
                    {"make_fx": "pinned ['Eq(TruncToInt(", "export": ")) == 4",
                     "compile": "frames=1"})
CACHED_GRID = Case(CachedGrid, lambda: _image(8, 12), _image_dims, lambda: _image(16, 8),
                   {"make_fx": "unhashable type", "export": "unhashable type", "compile": "frames=1"})
# torch.tensor() of sizes: only make_fx bakes them in (export and compile keep them
# symbolic, tests/runtime/test_tensor_data_runtime.py).  A batch of 4, not 2: with the
# frame count also 2, duck sizing gave both one symbol and compile recompiled for that.
SIZES_AS_TENSOR = Case(SizesAsTensor, lambda: [torch.randn(4, 3, 2, 16, 16)],
                       lambda: {0: {2: Dim("f", min=2, max=8)}},
                       lambda: [torch.randn(4, 3, 3, 16, 16)],
                       {"make_fx": "specialized", "export": "ok", "compile": "frames=1"})
ITEM_LENGTH = Case(ItemLength, lambda: [torch.randn(6, 8)], lambda: {0: {0: Dim("n", min=2, max=64)}},
                   lambda: [torch.randn(9, 8)],
                   {"make_fx": "specialized", "export": "data-dependent",
                    "compile": "data-dependent"})
# make_fx marks the channel dimension dynamic too: with and without the line it pins
# the same patch-size relations (``Eq((h//(h//4)), 4)``), so it is not compared.
CHANNELS = Case(ChannelCheck, lambda: _image(8, 12), _image_dims, lambda: _image(16, 8),
                {"export": "ok", "compile": "frames=1"})
CHANNELS_CONTROL = Case(channel_check_control, lambda: _image(8, 12), _image_dims,
                        lambda: _image(16, 8), {"export": "ok", "compile": "frames=1"})

SITES: tuple[Site, ...] = (
    Site("vit_pytorch/levjepa.py", 310, "num_keep = max(1, int(total_tokens * (1 - drop_ratio)))",
         True, True, "int() of the token count pins the sequence length", (KEEP_TOKENS, KEEP_TOKENS_CONTROL)),
    Site("vit_pytorch/na_vit.py", 311, "num_keep = max(1, int(seq_len * (1 - token_dropout)))",
         True, True, "the same, per image", (KEEP_TOKENS, KEEP_TOKENS_CONTROL)),
    Site("vit_pytorch/na_vit_nested_tensor.py", 215,
         "assert all([image.ndim == 3 and image.shape[0] == self.channels for image in images]), "
         "f'all images must have {self.channels} channels and number of dimensions of 3 "
         "(channels, height, width)'",
         True, False, "pins only the channel count, which the patch projection's weight pins anyway",
         (CHANNELS, CHANNELS_CONTROL)),
    Site("vit_pytorch/na_vit_nested_tensor_3d.py", 229,
         "assert all([volume.ndim == 4 and volume.shape[0] == self.channels for volume in volumes]), "
         "f'all volumes must have {self.channels} channels and number of dimensions of "
         "{self.channels} (channels, frame, height, width)'",
         True, False, "the same, for volumes", (CHANNELS, CHANNELS_CONTROL)),
    # -- runtime failures in the traced models that no setting reports
    Site("vit_pytorch/simple_vit_with_patch_dropout.py", 41,
         "num_patches_keep = max(1, int(n * (1 - self.prob)))", False, True,
         "the same int(), on n from `b, n, _, device = *x.shape, x.device`", (STARRED_KEEP,)),
    Site("vit_pytorch/na_vit.py", 303,
         "positions = [posemb_grid(ph, pw, device) for ph, pw in patch_dims]", False, True,
         "posemb_grid is under functools.lru_cache: hashing a SymInt raises TypeError",
         (CACHED_GRID,)),
    Site("vit_pytorch/levjepa.py", 291,
         "coords = grid / torch.tensor([tm, hm, wm], dtype = torch.float, **device)", False, True,
         "torch.tensor() of sizes pins them (the frame count, in the model)", (SIZES_AS_TENSOR,)),
    Site("vit_pytorch/na_vit.py", 330, "seq_arange = arange(lengths.amax().item())", False, True,
         "an .item() length, compared by attention with the sequence length: data-dependent",
         (ITEM_LENGTH,)),
)


def main() -> int:
    failed = 0
    done: set[int] = set()
    for site in SITES:
        print(f"## {site.file}:{site.line} {'reported' if site.reported else 'missed'}, "
              f"{'runtime failure' if site.runtime_failure else 'no runtime failure'}: {site.reason}")
        for case in site.cases:
            if id(case) in done:
                print(f"   {getattr(case.module, '__name__', case.module)}: as above")
                continue
            done.add(id(case))
            results = three_ways(case.module, case.inputs(), case.dynamic(), case.second())
            for tracer, result in results.items():
                expected = case.expected.get(tracer, "")
                mark = "" if expected in result else f"   <-- expected {expected}"
                failed += bool(mark)
                print(f"   {getattr(case.module, '__name__', case.module)} {tracer}: {result}{mark}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
