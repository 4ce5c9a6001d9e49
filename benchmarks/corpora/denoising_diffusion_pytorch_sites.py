"""denoising-diffusion-pytorch 2.3.4 (code not tuned on): the reports of ``proxy-types
check`` and the runtime failures found by tracing its models, each reduced to the
library line with the operations that feed it there, traced three ways.

    python benchmarks/corpora/denoising_diffusion_pytorch_sites.py

Needs torch 2.13 only (not the library; the end-to-end traces of its models are
described in docs/real-world.md).  The test suite runs it only under the ``slow``
marker (tests/benchmarks/test_library_sites.py).  Prints, per case
and tracer, what ``tracing.three_ways`` makes of it.

``SITES`` are the reported lines and the runtime failures.  ``EAGER_CHECKS`` are
specializations that the traces showed but that are no failure: an assertion that
pins a size to a configured one, where eager code rejects every other size too.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from random import random
from typing import Any

import torch
from torch import nn
from torch.export import Dim

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.corpora.tracing import Case, Shapes, Site, print_sites, seeded_op_counts  # noqa: E402

DISTRIBUTION, VERSION = "denoising-diffusion-pytorch", "2.3.4"


class CandidateChunks(nn.Module):
    """xm.py:109: XMWrapper repeats the batch ``candidates`` times and runs the model
    over ``range(0, total, chunk_size)``, with ``total = batch * candidates``."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch = x.shape[0]
        repeated = x.repeat_interleave(2, dim=0)
        total = batch * 2
        chunk_size = total  # default(max_batch_size, total)
        losses = []
        for start in range(0, total, chunk_size):
            end = min(start + chunk_size, total)
            losses.append(repeated[start:end].flatten(1).mean(-1, keepdim=True))
        return torch.cat(losses).reshape(batch, 2).amin(-1).mean()


class CandidatesAtOnce(nn.Module):
    """The control: the same losses without the loop over chunks."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch = x.shape[0]
        repeated = x.repeat_interleave(2, dim=0)
        return repeated.flatten(1).mean(-1, keepdim=True).reshape(batch, 2).amin(-1).mean()


class CoinSelfCondition(nn.Module):
    """denoising_diffusion_pytorch.py:810 (and the same line in the 1-D, elucidated,
    guided and repaint diffusions): self-conditioning half of the time, decided by
    ``random.random()`` inside the traced loss."""

    def __init__(self, coin: bool = True) -> None:
        super().__init__()
        self.model = nn.Linear(4, 4)
        self.coin = coin

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self_cond = None
        if self.coin and random() < 0.5:
            with torch.no_grad():
                self_cond = self.model(x).detach()
        out: torch.Tensor = self.model(x if self_cond is None else x + self_cond).mean()
        return out


def no_coin() -> nn.Module:
    return CoinSelfCondition(coin=False)


def traced_linear_counts(module: Callable[[], nn.Module], tracer: str = "make_fx",
                         seeds: Sequence[int] = (0, 1)) -> set[int]:
    """The number of linear layers in the traced graph, traced once per ``random`` seed."""
    return seeded_op_counts(module, lambda: [torch.rand(2, 4)], tracer, seeds)


class ImageSizeCheck(nn.Module):
    """denoising_diffusion_pytorch.py:843-844: height and width asserted equal to the
    configured ``image_size`` (sizes from a starred ``*img.shape``)."""

    def __init__(self, checked: bool = True) -> None:
        super().__init__()
        self.image_size = (16, 16)
        self.checked = checked

    def forward(self, img: torch.Tensor) -> torch.Tensor:
        b, c, h, w, device, img_size, = *img.shape, img.device, self.image_size
        if self.checked:
            assert h == img_size[0] and w == img_size[1], f"height and width of image must be {img_size}"
        return img.mean()


def image_size_unchecked() -> nn.Module:
    return ImageSizeCheck(checked=False)


class ShapeTupleCheck(nn.Module):
    """karras_unet.py:566: ``x.shape[1:]`` asserted equal to a tuple of configured sizes."""

    def __init__(self, checked: bool = True) -> None:
        super().__init__()
        self.channels, self.image_size = 3, 16
        self.checked = checked

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.checked:
            assert x.shape[1:] == (self.channels, self.image_size, self.image_size)
        return x.mean()


def shape_tuple_unchecked() -> nn.Module:
    return ShapeTupleCheck(checked=False)


def _images(b: int, size: int = 16) -> list[Any]:
    return [torch.rand(b, 3, size, size)]


def _batch() -> Shapes:
    return {0: {0: Dim("b", min=2, max=64)}}


def _batch_height_width() -> Shapes:
    return {0: {0: Dim("b", min=2, max=64), 2: 4 * Dim("hp", min=2, max=16),
                3: 4 * Dim("wp", min=2, max=16)}}


def _features(b: int) -> list[Any]:
    return [torch.rand(b, 4)]


# The loop's bound is a multiple of the batch: make_fx replaces the batch's symbol,
# export rejects the Dim, compile recompiles for the second batch size.
CANDIDATE_CHUNKS = Case(CandidateChunks, lambda: _images(2), _batch, lambda: _images(3),
                        {"make_fx": "specialized", "export": "Constraints violated",
                         "compile": "frames=2"})
CANDIDATES_CONTROL = Case(CandidatesAtOnce, lambda: _images(2), _batch, lambda: _images(3),
                          {"make_fx": "ok", "export": "ok", "compile": "frames=1"})
# make_fx and export run random() once and keep the branch it chose (seeded_op_counts
# shows it); dynamo refuses the call under fullgraph.
COIN = Case(CoinSelfCondition, lambda: _features(2), _batch, lambda: _features(3),
            {"compile": "Attempted to call function marked as skipped"}, baked=True)
COIN_CONTROL = Case(no_coin, lambda: _features(2), _batch, lambda: _features(3),
                    {"make_fx": "ok", "export": "ok", "compile": "frames=1"}, baked=False)
# The second input keeps the configured size: eager code asserts on any other.
IMAGE_SIZE = Case(ImageSizeCheck, lambda: _images(2), _batch_height_width, lambda: _images(3),
                  {"make_fx": "specialized", "export": "Constraints violated", "compile": "frames=1"})
IMAGE_SIZE_CONTROL = Case(image_size_unchecked, lambda: _images(2), _batch_height_width,
                          lambda: _images(3, 24), {"make_fx": "ok", "export": "ok", "compile": "frames=1"})
SHAPE_TUPLE = Case(ShapeTupleCheck, lambda: _images(2), _batch_height_width, lambda: _images(3),
                   {"make_fx": "specialized", "export": "Constraints violated", "compile": "frames=1"})
SHAPE_TUPLE_CONTROL = Case(shape_tuple_unchecked, lambda: _images(2), _batch_height_width,
                           lambda: _images(3, 24), {"make_fx": "ok", "export": "ok", "compile": "frames=1"})

SITES: tuple[Site, ...] = (
    Site("denoising_diffusion_pytorch/xm.py", 109, "for start in range(0, total, chunk_size):",
         True, True, "range() over batch * candidates pins the batch size",
         (CANDIDATE_CHUNKS, CANDIDATES_CONTROL)),
    # random() in the traced loss: missed when first measured, reported since (random-call)
    Site("denoising_diffusion_pytorch/denoising_diffusion_pytorch.py", 810,
         "if self.self_condition and random() < 0.5:", True, True,
         "random() in the traced loss: make_fx and export bake the coin's side, "
         "compile(fullgraph) refuses the call", (COIN, COIN_CONTROL)),
    Site("denoising_diffusion_pytorch/denoising_diffusion_pytorch_1d.py", 716,
         "if self.self_condition and random() < 0.5:", True, True, "the same line, 1-D",
         (COIN, COIN_CONTROL)),
    Site("denoising_diffusion_pytorch/guided_diffusion.py", 734,
         "if self.self_condition and random() < 0.5:", True, True, "the same line, guided",
         (COIN, COIN_CONTROL)),
    Site("denoising_diffusion_pytorch/repaint.py", 849,
         "if self.self_condition and random() < 0.5:", True, True, "the same line, RePaint",
         (COIN, COIN_CONTROL)),
    # -- runtime failures that no setting reports
    Site("denoising_diffusion_pytorch/elucidated_diffusion.py", 264,
         "if self.self_condition and random() < 0.5:", False, True,
         "the same line; missed: mypy defers ElucidatedDiffusion.forward (it cannot type the "
         "starred unpacking at line 248), and random() in a deferred function is not reported",
         (COIN, COIN_CONTROL)),
)

EAGER_CHECKS: tuple[Site, ...] = (
    Site("denoising_diffusion_pytorch/denoising_diffusion_pytorch.py", 844,
         "assert h == img_size[0] and w == img_size[1], f'height and width of image must be {img_size}'",
         False, False, "pins height and width to image_size, which eager code asserts",
         (IMAGE_SIZE, IMAGE_SIZE_CONTROL)),
    Site("denoising_diffusion_pytorch/karras_unet.py", 566,
         "assert x.shape[1:] == (self.channels, self.image_size, self.image_size)",
         False, False, "pins height and width to image_size, which eager code asserts",
         (SHAPE_TUPLE, SHAPE_TUPLE_CONTROL)),
)


#: Lines neither reported nor a runtime failure, kept with their cases.
UNCOUNTED: tuple[Site, ...] = EAGER_CHECKS


def main() -> int:
    return 1 if print_sites(SITES + UNCOUNTED) else 0


if __name__ == "__main__":
    sys.exit(main())
