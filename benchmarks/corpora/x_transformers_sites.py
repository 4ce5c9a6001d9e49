"""x-transformers 2.31.10 (code not tuned on): the reports of ``proxy-types check`` and
the runtime failures found by tracing its models, each reduced to the library line
with the operations that feed it there, traced three ways (``tracing.three_ways``).

    python benchmarks/corpora/x_transformers_sites.py

Needs torch 2.13 only (not x-transformers; the end-to-end traces of the library's
models are described in docs/real-world.md).  The test suite runs it only under the
``slow`` marker (tests/benchmarks/test_library_sites.py).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from random import random, randrange
from typing import Any

import torch
from torch import nn
from torch.export import Dim

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.corpora.tracing import Case, Shapes, Site, print_sites  # noqa: E402

DISTRIBUTION, VERSION = "x-transformers", "2.31.10"


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


class TokenRange(nn.Module):
    """discover_wrapper.py:211 (and :214): ``assert (tokens.min() >= 0) and (tokens.max() <
    num_tokens)``, a tensor comparison used as a condition."""

    def __init__(self, checked: bool = True) -> None:
        super().__init__()
        self.checked = checked

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        if self.checked:
            assert (tokens.min() >= 0) and (tokens.max() < 8)
        return tokens * 2


def token_range_unchecked() -> nn.Module:
    return TokenRange(checked=False)


class LayerDropout(nn.Module):
    """x_transformers.py:3646: ``if self.training and layer_dropout > 0. and random() <
    layer_dropout: continue`` in the loop over layers."""

    def __init__(self, layer_dropout: float = 0.5) -> None:
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(2))
        self.layer_dropout = layer_dropout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            if self.training and self.layer_dropout > 0. and random() < self.layer_dropout:
                continue
            x = x + layer(x)
        return x


def no_layer_dropout() -> nn.Module:
    return LayerDropout(layer_dropout=0.)


def sample_prob(prob: float) -> bool:
    return random() < prob


def coin_flip() -> bool:
    return sample_prob(0.5)


class CoinThroughHelpers(nn.Module):
    """nonautoregressive_wrapper.py:54 (``random() < prob`` in ``sample_prob``, reached
    through ``coin_flip()`` from ``NonAutoregressiveWrapper.forward``), and
    xm_latent_decoder.py:237 (``random() < latent_drop_prob`` in the loss itself)."""

    def __init__(self, prob: float = 0.5) -> None:
        super().__init__()
        self.net = nn.Linear(4, 4)
        self.prob = prob

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.prob > 0. and coin_flip():
            x = self.net(x)
        out: torch.Tensor = self.net(x)
        return out


def no_coin() -> nn.Module:
    return CoinThroughHelpers(prob=0.)


class RecycleSteps(nn.Module):
    """x_transformers.py:4541: ``randrange(train_max_recycle_steps) + 1`` recycling steps
    in training, each a pass of the layers."""

    def __init__(self, max_steps: int = 3) -> None:
        super().__init__()
        self.net = nn.Linear(4, 4)
        self.max_steps = max_steps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        steps = randrange(self.max_steps) + 1 if self.max_steps > 1 else 1
        for _ in range(steps):
            x = self.net(x)
        return x


def one_recycle_step() -> nn.Module:
    return RecycleSteps(max_steps=1)


class ActiveLatent(nn.Module):
    """xm_latent_decoder.py:218-220: ``randrange(num_latents)`` picks the latent (and its
    winner function) trained this step, then asserts its range."""

    def __init__(self, num_latents: int = 3) -> None:
        super().__init__()
        self.heads = nn.ModuleList(nn.Sequential(*[nn.Linear(4, 4)] * (i + 1)) for i in range(3))
        self.num_latents = num_latents

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        index = randrange(self.num_latents) if self.num_latents > 1 else 0
        assert 0 <= index < self.num_latents
        out: torch.Tensor = self.heads[index](x)
        return out


def one_latent() -> nn.Module:
    return ActiveLatent(num_latents=1)


def _seq(n: int, b: int = 2) -> list[Any]:
    return [torch.randn(b, n, 3)]


def _seq_dim() -> Shapes:
    return {0: {1: Dim("n", min=4, max=64)}}


def _batch(b: int) -> list[Any]:
    return [torch.randn(b, 3)]


def _batch_dim() -> Shapes:
    return {0: {0: Dim("b", min=2, max=32)}}


def _features(b: int) -> list[Any]:
    return [torch.randn(b, 4)]


BELIEF_PAIRS = Case(BeliefPairs, lambda: [torch.randn(2, 8)], lambda: {0: {1: Dim("n", min=4, max=64)}},
                    lambda: [torch.randn(2, 9)],
                    {"make_fx": "GuardOnDataDependentSymNode", "export": "GuardOnDataDependentSymNode",
                     "compile": "frames=1"})
CEIL_PAD = Case(CeilPad, lambda: _seq(6), _seq_dim, lambda: _seq(10),
                {"make_fx": "ok", "export": "ok", "compile": "frames=1"})
PREFILL = Case(Prefill, lambda: _seq(6), _seq_dim, lambda: _seq(7),
               {"make_fx": "specialized", "export": "Constraints violated", "compile": "frames=2"})
CHUNKS = Case(Chunks, lambda: _batch(6), _batch_dim, lambda: _batch(10),
              {"make_fx": "specialized", "export": "Constraints violated", "compile": "frames=2"})
BUILTIN_MIN = Case(BuiltinMin, lambda: _batch(6), _batch_dim, lambda: _batch(3),
                   {"export": "ok", "compile": "frames=1"})
TOKEN_RANGE = Case(TokenRange, lambda: [torch.randint(0, 8, (2, 6))], _seq_dim,
                   lambda: [torch.randint(0, 8, (2, 9))],
                   {"make_fx": "GuardOnDataDependentSymNode", "export": "GuardOnDataDependentSymNode",
                    "compile": "Data-dependent branching"})
TOKEN_RANGE_CONTROL = Case(token_range_unchecked, lambda: [torch.randint(0, 8, (2, 6))], _seq_dim,
                           lambda: [torch.randint(0, 8, (2, 9))],
                           {"make_fx": "ok", "export": "ok", "compile": "frames=1"})
# make_fx and export keep one draw (seeded_op_counts); dynamo refuses random() under
# fullgraph.  The controls never draw (the `and` stops first).
LAYER_DROPOUT = Case(LayerDropout, lambda: _features(2), _batch_dim, lambda: _features(3),
                     {"compile": "Attempted to call function marked as skipped"}, baked=True)
LAYER_DROPOUT_CONTROL = Case(no_layer_dropout, lambda: _features(2), _batch_dim, lambda: _features(3),
                             {"make_fx": "ok", "export": "ok", "compile": "frames=1"}, baked=False)
COIN = Case(CoinThroughHelpers, lambda: _features(2), _batch_dim, lambda: _features(3),
            {"compile": "Attempted to call function marked as skipped"}, baked=True)
COIN_CONTROL = Case(no_coin, lambda: _features(2), _batch_dim, lambda: _features(3),
                    {"make_fx": "ok", "export": "ok", "compile": "frames=1"}, baked=False)
# dynamo turns randrange()'s value into a graph input, which then cannot size the loop.
RECYCLE = Case(RecycleSteps, lambda: _features(2), _batch_dim, lambda: _features(3),
               {"compile": "unimplemented builtin op on tensor arguments"}, baked=True)
RECYCLE_CONTROL = Case(one_recycle_step, lambda: _features(2), _batch_dim, lambda: _features(3),
                       {"make_fx": "ok", "export": "ok", "compile": "frames=1"}, baked=False)
ACTIVE_LATENT = Case(ActiveLatent, lambda: _features(2), _batch_dim, lambda: _features(3),
                     {"compile": "Data-dependent branching"}, baked=True)
ACTIVE_LATENT_CONTROL = Case(one_latent, lambda: _features(2), _batch_dim, lambda: _features(3),
                             {"make_fx": "ok", "export": "ok", "compile": "frames=1"}, baked=False)

SITES: tuple[Site, ...] = (
    Site("x_transformers/belief_state_wrapper.py", 347,
         "num_subsampled = max(int(num_pairs * self.train_frac_fb_pairs), 1)", True, True,
         "int() of an unbacked size: make_fx and export crash", (BELIEF_PAIRS,)),
    Site("x_transformers/recirculation.py", 323, "for t in range(x.shape[1]):", True, True,
         "a loop over the sequence length pins it", (PREFILL,)),
    Site("x_transformers/xm_latent_decoder.py", 284,
         "for start in range(0, total, chunk_size):", True, True,
         "range() in chunks pins the batch size", (CHUNKS,)),
    Site("x_transformers/discover_wrapper.py", 211,
         "(tokens.min() >= 0) and (tokens.max() < self.filler_emb.num_embeddings)", True, True,
         "a tensor comparison as a condition: data-dependent", (TOKEN_RANGE, TOKEN_RANGE_CONTROL)),
    Site("x_transformers/x_transformers.py", 3646,
         "if self.training and layer_dropout > 0. and random() < layer_dropout:", True, True,
         "random() in the traced loop: make_fx and export keep one draw, compile(fullgraph) refuses it",
         (LAYER_DROPOUT, LAYER_DROPOUT_CONTROL)),
    Site("x_transformers/x_transformers.py", 4541,
         "recycle_steps = default(recycle_steps, (randrange(self.train_max_recycle_steps) + 1) "
         "if self.training else None)", True, True,
         "randrange() picks the loop count once per trace", (RECYCLE, RECYCLE_CONTROL)),
    Site("x_transformers/nonautoregressive_wrapper.py", 54, "return random() < prob", True, True,
         "random() in a helper that the traced loss calls", (COIN, COIN_CONTROL)),
    Site("x_transformers/xm_latent_decoder.py", 218,
         "active_latent_index = default(active_latent_index, randrange(self.num_latents))", True, True,
         "randrange() picks the latent once per trace", (ACTIVE_LATENT, ACTIVE_LATENT_CONTROL)),
    Site("x_transformers/xm_latent_decoder.py", 237,
         "if self.training and latent_drop_prob > 0. and random() < latent_drop_prob:", True, True,
         "random() in the traced loss", (COIN, COIN_CONTROL)),
)

#: Reported when docs/real-world.md first measured the library, no longer since issue
#: #27's sink fixes: neither a report nor a runtime failure.
FORMER_REPORTS: tuple[Site, ...] = (
    Site("x_transformers/multi_input.py", 208, "next_seq_len = math.ceil(n / mem_every) * mem_every",
         False, False, "math.ceil of a SymFloat stays symbolic (reported before issue #27's sink fixes)",
         (CEIL_PAD,)),
    Site("x_transformers/xm_latent_decoder.py", 285, "chunk_batch_size = min(total - start, chunk_size)",
         False, False, "builtin min() of a size adds no guard by itself (reported before the fixes)",
         (BUILTIN_MIN,)),
)


#: Lines neither reported nor a runtime failure, kept with their cases.
UNCOUNTED: tuple[Site, ...] = FORMER_REPORTS


def main() -> int:
    return 1 if print_sites(SITES + UNCOUNTED) else 0


if __name__ == "__main__":
    sys.exit(main())
