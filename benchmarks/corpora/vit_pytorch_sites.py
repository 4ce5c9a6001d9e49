"""vit-pytorch 1.26.14 (code not tuned on): the reports of ``proxy-types check`` and the
runtime failures found by tracing its models, each reduced to the library line with
the operations that feed it there, traced three ways.

    python benchmarks/corpora/vit_pytorch_sites.py

Needs torch 2.13 only (not vit-pytorch; the end-to-end traces of the
library's models are described in docs/real-world.md).  The test suite runs it only
under the ``slow`` marker (tests/benchmarks/test_library_sites.py).  Prints, per
case and tracer, what ``tracing.three_ways`` makes of it.
"""

from __future__ import annotations

import functools
import random
import sys
from random import randrange
from pathlib import Path
from typing import Any

import torch
from torch import nn
from torch.export import Dim

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.corpora.tracing import Case, Shapes, Site, print_sites  # noqa: E402

DISTRIBUTION, VERSION = "vit-pytorch", "1.26.14"


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


class RandomApply(nn.Module):
    """dino.py:64 (es_vit.py:91, lejepa.py:110, levjepa.py:87 are the same class): an
    augmentation applied when ``random.random()`` says so, in ``forward``."""

    def __init__(self, p: float = 0.5, draw: bool = True) -> None:
        super().__init__()
        self.fn = nn.Linear(4, 4)
        self.p = p
        self.draw = draw

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.draw and random.random() > self.p:
            return x
        out: torch.Tensor = self.fn(x)
        return out


def always_apply() -> nn.Module:
    return RandomApply(draw=False)


def dropout_layers(layers: nn.ModuleList, dropout: float) -> list[nn.Module]:
    if dropout == 0:
        return list(layers)
    num_layers = len(layers)
    to_drop = torch.zeros(num_layers).uniform_(0., 1.) < dropout
    # make sure at least one layer makes it
    if all(to_drop):
        rand_index = randrange(num_layers)
        to_drop[rand_index] = False
    return [layer for (layer, drop) in zip(layers, to_drop) if not drop]


class LayerDropout(nn.Module):
    """cait.py:14-27 (xcit.py:25-38 is the same function): layers dropped by a tensor of
    uniform draws, truth-tested item by item (``all(to_drop)``, ``if not drop``), then
    ``randrange(num_layers)`` (cait.py:23) to keep one when all were dropped."""

    def __init__(self, dropout: float = 0.5) -> None:
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(2))
        self.dropout = dropout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in dropout_layers(self.layers, self.dropout):
            x = x + layer(x)
        return x


def no_layer_dropout() -> nn.Module:
    return LayerDropout(dropout=0.)


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

def _features(b: int) -> list[Any]:
    return [torch.randn(b, 4)]


def _batch() -> Shapes:
    return {0: {0: Dim("b", min=2, max=32)}}


RANDOM_APPLY = Case(RandomApply, lambda: _features(2), _batch, lambda: _features(3),
                    {"compile": "Attempted to call function marked as skipped"}, baked=True)
RANDOM_APPLY_CONTROL = Case(always_apply, lambda: _features(2), _batch, lambda: _features(3),
                            {"make_fx": "ok", "export": "ok", "compile": "frames=1"}, baked=False)
LAYER_DROPOUT = Case(LayerDropout, lambda: _features(2), _batch, lambda: _features(3),
                     {"make_fx": "GuardOnDataDependentSymNode", "export": "GuardOnDataDependentSymNode",
                      "compile": "Data-dependent branching"})
LAYER_DROPOUT_CONTROL = Case(no_layer_dropout, lambda: _features(2), _batch, lambda: _features(3),
                             {"make_fx": "ok", "export": "ok", "compile": "frames=1"})

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
    # random in forward: reported since the random-call rule
    Site("vit_pytorch/dino.py", 64, "if random.random() > self.p:", True, True,
         "random.random() decides an augmentation in forward: make_fx and export keep one draw, "
         "compile(fullgraph) refuses the call", (RANDOM_APPLY, RANDOM_APPLY_CONTROL)),
    Site("vit_pytorch/es_vit.py", 91, "if random.random() > self.p:", True, True,
         "the same class", (RANDOM_APPLY, RANDOM_APPLY_CONTROL)),
    Site("vit_pytorch/lejepa.py", 110, "if random.random() > self.p:", True, True,
         "the same class", (RANDOM_APPLY, RANDOM_APPLY_CONTROL)),
    Site("vit_pytorch/levjepa.py", 87, "if random.random() > self.p:", True, True,
         "the same class", (RANDOM_APPLY, RANDOM_APPLY_CONTROL)),
    Site("vit_pytorch/cait.py", 23, "rand_index = randrange(num_layers)", True, False,
         "no tracer reaches it: every tracer fails one line earlier, at `if all(to_drop):`",
         (LAYER_DROPOUT, LAYER_DROPOUT_CONTROL)),
    Site("vit_pytorch/xcit.py", 34, "rand_index = randrange(num_layers)", True, False,
         "the same function", (LAYER_DROPOUT, LAYER_DROPOUT_CONTROL)),
    # -- runtime failures in the traced models that no setting reports
    Site("vit_pytorch/cait.py", 22, "if all(to_drop):", False, True,
         "all() truth-tests the items of a tensor of draws: data-dependent in every tracer",
         (LAYER_DROPOUT, LAYER_DROPOUT_CONTROL)),
    Site("vit_pytorch/xcit.py", 33, "if all(to_drop):", False, True, "the same function",
         (LAYER_DROPOUT, LAYER_DROPOUT_CONTROL)),
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


#: Lines neither reported nor a runtime failure, kept with their cases.
UNCOUNTED: tuple[Site, ...] = ()


def main() -> int:
    return 1 if print_sites(SITES + UNCOUNTED) else 0


if __name__ == "__main__":
    sys.exit(main())
