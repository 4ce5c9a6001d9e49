"""BS-RoFormer 1.2.4 (code not tuned on): the runtime failures found by tracing its
models, each reduced to the library line with the operations that feed it there,
traced three ways.

    python benchmarks/corpora/bs_roformer_sites.py

Needs torch 2.13 only (not the library; the end-to-end traces of its models are
described in docs/real-world.md).  The test suite runs it only under the ``slow``
marker (tests/benchmarks/test_bs_roformer_sites.py).  Prints, per case and tracer,
what ``tracing.three_ways`` makes of it: ``ok``, ``specialized`` (make_fx:
a dynamic dimension's symbol replaced by a constant), ``frames=N`` (torch.compile
over two sizes; 2 = recompiled) or the error.

No setting reports a line of the library's traced code, so every entry of ``SITES``
is a runtime failure that was missed.  ``EAGER_CHECKS`` are specializations that the
traces showed but that are no failure: an assertion that pins a size to a configured
one, where eager code rejects every other size too.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import torch
from torch import nn
from torch.export import Dim

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.corpora.tracing import Case, Shapes, Site, print_sites  # noqa: E402

VERSION = "1.2.4"

# A 64-point STFT with a hop of 16, as in the traced models' small configuration.
N_FFT, HOP = 64, 16


class MatchInputLength(nn.Module):
    """mel_band_roformer.py:661 (and flow_bs_roformer.py:707): the audio's length, a
    size of the input, passed back to ``torch.istft(..., length=...)`` so the output
    matches the input.  istft's schema types ``length`` as ``int?``, not ``SymInt?``."""

    window: torch.Tensor

    def __init__(self, match_length: bool = True) -> None:
        super().__init__()
        self.match_length = match_length
        self.register_buffer("window", torch.hann_window(N_FFT))

    def forward(self, audio: torch.Tensor) -> torch.Tensor:
        length = audio.shape[-1] if self.match_length else None
        spec = torch.stft(audio, N_FFT, HOP, N_FFT, window=self.window, return_complex=True)
        recon: torch.Tensor = torch.istft(spec * 0.5, N_FFT, HOP, N_FFT, window=self.window,
                                          length=length)
        return recon


def istft_without_length() -> nn.Module:
    """The control: istft leaves the length to the frames, ``HOP * (frames - 1)``."""
    return MatchInputLength(match_length=False)


class PadToInputLength(MatchInputLength):
    """A fix that keeps the length symbolic: istft without ``length``, then pad the
    output to the input's length (what ``length`` does past the last frame)."""

    def forward(self, audio: torch.Tensor) -> torch.Tensor:
        spec = torch.stft(audio, N_FFT, HOP, N_FFT, window=self.window, return_complex=True)
        recon = torch.istft(spec * 0.5, N_FFT, HOP, N_FFT, window=self.window)
        return nn.functional.pad(recon, (0, audio.shape[-1] - recon.shape[-1]))


_GRAPHS: dict[tuple[tuple[int, ...], ...], str] = {}


def static_shape(tensor: torch.Tensor) -> tuple[int, ...]:
    """einx/_src/frontend/impl/torch.py:60, ``get_shape``: the sizes as Python ints, the
    key under which einx caches the graph it builds for an expression."""
    return tuple(int(size) for size in tensor.shape)


class EinxMultiply(nn.Module):
    """flow_bs_roformer.py:335: ``einx.multiply('b, d -> b d', x, self.inv_freq)`` on the
    flow times, one per batch item.  einx reads both shapes through ``get_shape``."""

    inv_freq: torch.Tensor

    def __init__(self, through_ints: bool = True) -> None:
        super().__init__()
        self.through_ints = through_ints
        self.register_buffer("inv_freq", torch.linspace(1.0, 0.01, 4))

    def forward(self, times: torch.Tensor) -> torch.Tensor:
        if self.through_ints:
            key = (static_shape(times), static_shape(self.inv_freq))
            _GRAPHS.setdefault(key, "b, d -> b d")
            b, d = key[0][0], key[1][0]
        else:
            b, d = times.shape[0], self.inv_freq.shape[0]
        emb = times.reshape(b, 1) * self.inv_freq.reshape(1, d)
        return torch.cat((emb.sin(), emb.cos()), dim=-1)


def multiply_with_sizes() -> nn.Module:
    """The control: the same product with the tensors' own (symbolic) sizes."""
    return EinxMultiply(through_ints=False)


class CachedFrequencies(nn.Module):
    """rotary_embedding_torch 0.9.1, rotary_embedding_torch.py:337 (a dependency, on every
    attention layer's path): the rotary frequencies are cached in a buffer, and
    ``(offset + seq_len) <= self.cached_freqs_seq_len`` picks the cache, a Python int
    that the last call stored."""

    cached: torch.Tensor

    def __init__(self, use_cache: bool = True) -> None:
        super().__init__()
        self.use_cache = use_cache
        self.register_buffer("cached", torch.zeros(512, 4), persistent=False)
        self.cached_len = 0

    def frequencies(self, seq_len: int) -> torch.Tensor:
        if self.use_cache and seq_len <= self.cached_len:
            return self.cached[:seq_len]
        freqs = torch.arange(seq_len, dtype=torch.float)[:, None] * torch.linspace(1.0, 0.01, 4)
        if self.use_cache:
            self.cached[:seq_len] = freqs.detach()
            self.cached_len = seq_len
        return freqs

    def forward(self, q: torch.Tensor) -> torch.Tensor:
        return q * self.frequencies(q.shape[-2]).cos()


def frequencies_uncached() -> nn.Module:
    return CachedFrequencies(use_cache=False)


def warmed_cache() -> nn.Module:
    """As the library is used: one eager call fills the cache before compiling."""
    module = CachedFrequencies()
    module(torch.randn(3, 2, 26, 4))
    return module


class FramesThroughStreams(nn.Module):
    """bs_roformer.py:483 and the reshapes after it: the STFT's ``t // HOP + 1`` frames,
    projected and expanded into 4 residual streams (hyper-connections), then reshaped.
    torch.export cannot prove the guards on ``t // HOP`` that the reshapes install."""

    window: torch.Tensor

    def __init__(self) -> None:
        super().__init__()
        self.project = nn.Linear(2 * (N_FFT // 2 + 1), 8)
        self.register_buffer("window", torch.hann_window(N_FFT))

    def forward(self, audio: torch.Tensor) -> torch.Tensor:
        spec = torch.view_as_real(torch.stft(audio, N_FFT, HOP, N_FFT, window=self.window,
                                             return_complex=True))
        b, f, t, c = spec.shape
        x: torch.Tensor = self.project(spec.permute(0, 2, 1, 3).reshape(b, t, f * c))
        x = x[:, None].expand(b, 4, t, 8).reshape(b * 4, t, 8)
        return x.reshape(-1, 8).sum(0)


class SdpKernelContext(nn.Module):
    """attend.py:83: ``with torch.backends.cuda.sdp_kernel(**config._asdict()):`` around
    scaled_dot_product_attention, in every model with ``flash_attn=True`` (the default)."""

    def __init__(self, context: bool = True) -> None:
        super().__init__()
        self.context = context

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q = x[:, None]
        if self.context:
            with torch.backends.cuda.sdp_kernel(True, True, True):
                out = nn.functional.scaled_dot_product_attention(q, q, q)
        else:
            out = nn.functional.scaled_dot_product_attention(q, q, q)
        return out[:, 0]


def no_sdp_kernel_context() -> nn.Module:
    return SdpKernelContext(context=False)


class ChannelCheck(nn.Module):
    """bs_roformer.py:455 (and mel_band_roformer.py:551, flow_bs_roformer.py:624): the
    channel count asserted to be 1 (mono) or 2 (stereo), as configured."""

    def __init__(self, checked: bool = True) -> None:
        super().__init__()
        self.stereo = True
        self.checked = checked

    def forward(self, audio: torch.Tensor) -> torch.Tensor:
        channels = audio.shape[1]
        if self.checked:
            assert (not self.stereo and channels == 1) or (self.stereo and channels == 2)
        return audio.mean(1)


def channels_unchecked() -> nn.Module:
    return ChannelCheck(checked=False)


def _mono(b: int, t: int) -> list[Any]:
    return [torch.randn(b, t)]


def _batch_samples() -> Shapes:
    return {0: {0: Dim("b", min=2, max=64), 1: Dim("t", min=256, max=8192)}}


def _stereo(b: int, t: int, channels: int = 2) -> list[Any]:
    return [torch.randn(b, channels, t)]


def _batch_channels_samples() -> Shapes:
    return {0: {0: Dim("b", min=2, max=64), 1: Dim("s", min=1, max=8),
                2: Dim("t", min=256, max=8192)}}


def _batch_hops() -> Shapes:
    """The samples declared as a multiple of the hop: ``t // HOP`` is then a symbol."""
    return {0: {0: Dim("b", min=2, max=64), 1: HOP * Dim("k", min=16, max=512)}}


def _tokens(b: int) -> list[Any]:
    return [torch.randn(b, 6, 8)]


def _batch_tokens() -> Shapes:
    return {0: {0: Dim("b", min=2, max=64)}}


def _sequence() -> Shapes:
    return {0: {0: Dim("b", min=2, max=64), 2: Dim("n", min=4, max=256)}}


# istft's int ``length`` pins the samples to the first input's (400) under make_fx and
# export; compile recompiles for the second length.  Without ``length`` all stay symbolic.
# The plugin reports MatchInputLength's ``length=`` (static-schema-argument); the
# library's own line has an unannotated input (docs/real-world.md).
MATCH_LENGTH = Case(MatchInputLength, lambda: _mono(3, 400), _batch_samples,
                    lambda: _mono(5, 520),
                    {"make_fx": "specialized", "export": "Constraints violated",
                     "compile": "frames=2"})
MATCH_LENGTH_CONTROL = Case(istft_without_length, lambda: _mono(3, 400), _batch_samples,
                            lambda: _mono(5, 520),
                            {"make_fx": "ok", "export": "ok", "compile": "frames=1"})
PAD_TO_LENGTH = Case(PadToInputLength, lambda: _mono(3, 400), _batch_samples,
                     lambda: _mono(5, 520),
                     {"make_fx": "ok", "export": "ok", "compile": "frames=1"})
# int() of each size pins the batch under make_fx and export; compile recompiles.
EINX_MULTIPLY = Case(EinxMultiply, lambda: [torch.rand(3)], _batch_tokens,
                     lambda: [torch.rand(5)],
                     {"make_fx": "specialized", "export": "Constraints violated",
                      "compile": "frames=2"})
EINX_MULTIPLY_CONTROL = Case(multiply_with_sizes, lambda: [torch.rand(3)], _batch_tokens,
                             lambda: [torch.rand(5)],
                             {"make_fx": "ok", "export": "ok", "compile": "frames=1"})
# After an eager call at 26 positions, a longer sequence fails the cache's guard: compile
# recompiles.  Without the cache one graph serves both lengths.
CACHED_FREQUENCIES = Case(warmed_cache, lambda: [torch.randn(3, 2, 26, 4)], _sequence,
                          lambda: [torch.randn(5, 2, 33, 4)],
                          {"export": "Constraints violated", "compile": "frames=2"})
CACHED_FREQUENCIES_CONTROL = Case(frequencies_uncached, lambda: [torch.randn(3, 2, 26, 4)],
                                  _sequence, lambda: [torch.randn(5, 2, 33, 4)],
                                  {"make_fx": "ok", "export": "ok", "compile": "frames=1"})
# Guards that hold for every length, e.g. ``(1 % (1 + t // 16)) != 0``: export rejects
# a free length, accepts one declared as a multiple of the hop; make_fx and compile keep
# the length symbolic either way.
FRAMES = Case(FramesThroughStreams, lambda: _mono(3, 400), _batch_samples,
              lambda: _mono(5, 528),
              {"make_fx": "ok", "export": "Constraints violated", "compile": "frames=1"})
FRAMES_IN_HOPS = Case(FramesThroughStreams, lambda: _mono(3, 400), _batch_hops,
                      lambda: _mono(5, 528), {"make_fx": "ok", "export": "ok", "compile": "frames=1"})
# No dynamic number: dynamo cannot put the context manager in a graph, at any size.
SDP_KERNEL = Case(SdpKernelContext, lambda: _tokens(3), _batch_tokens, lambda: _tokens(5),
                  {"make_fx": "ok", "export": "ok", "compile": "returned non-Tensor"})
SDP_KERNEL_CONTROL = Case(no_sdp_kernel_context, lambda: _tokens(3), _batch_tokens,
                          lambda: _tokens(5), {"make_fx": "ok", "export": "ok",
                                               "compile": "frames=1"})
# The second input keeps the configured channels: eager code asserts on any other.
CHANNELS = Case(ChannelCheck, lambda: _stereo(3, 400), _batch_channels_samples,
                lambda: _stereo(5, 520),
                {"make_fx": "specialized", "export": "Constraints violated",
                 "compile": "frames=1"})
CHANNELS_CONTROL = Case(channels_unchecked, lambda: _stereo(3, 400), _batch_channels_samples,
                        lambda: _stereo(5, 520, 3),
                        {"make_fx": "ok", "export": "ok", "compile": "frames=1"})

SITES: tuple[Site, ...] = (
    Site("bs_roformer/mel_band_roformer.py", 661,
         "recon_audio = torch.istft(stft_repr, **self.stft_kwargs, window = stft_window, "
         "return_complex = False, length = istft_length)",
         False, True, "the input's length passed to istft's int length pins it",
         (MATCH_LENGTH, MATCH_LENGTH_CONTROL, PAD_TO_LENGTH)),
    Site("bs_roformer/flow_bs_roformer.py", 707,
         "recon_audio = torch.istft(pred_stft, **self.stft_kwargs, window = stft_window, "
         "return_complex = False, length = audio_length)",
         False, True, "the input's length passed to istft's int length pins it",
         (MATCH_LENGTH, MATCH_LENGTH_CONTROL, PAD_TO_LENGTH)),
    Site("bs_roformer/flow_bs_roformer.py", 335, "emb = einx.multiply('b, d -> b d', x, self.inv_freq)",
         False, True, "einx converts the batch size with int() (einx/_src/frontend/impl/torch.py:60)",
         (EINX_MULTIPLY, EINX_MULTIPLY_CONTROL)),
    Site("bs_roformer/attend.py", 83, "with torch.backends.cuda.sdp_kernel(**config._asdict()):",
         False, True, "compile(fullgraph) cannot trace the context manager; no dynamic number",
         (SDP_KERNEL, SDP_KERNEL_CONTROL)),
)

#: The innermost frames in the library's dependencies, at the versions installed with it.
DEPENDENCIES = {"einx": "0.4.3", "rotary-embedding-torch": "0.9.1"}
DEPENDENCY_SITES: tuple[Site, ...] = (
    Site("einx/_src/frontend/impl/torch.py", 60, "return tuple(int(x) for x in tensor.shape)",
         False, True, "int() of every size, the key of einx's graph cache",
         (EINX_MULTIPLY, EINX_MULTIPLY_CONTROL)),
    Site("rotary_embedding_torch/rotary_embedding_torch.py", 337,
         "(offset + seq_len) <= self.cached_freqs_seq_len",
         False, True, "the cache check compares the length with the last call's, a Python int",
         (CACHED_FREQUENCIES, CACHED_FREQUENCIES_CONTROL)),
)

#: export's limits, not the library's: every length satisfies the guards it rejects.
EXPORT_LIMITS: tuple[Site, ...] = (
    Site("bs_roformer/bs_roformer.py", 483, "x = self.expand_stream(x)", False, False,
         "export cannot prove guards on t // hop; a Dim in multiples of the hop exports",
         (FRAMES, FRAMES_IN_HOPS)),
)

EAGER_CHECKS: tuple[Site, ...] = (
    Site("bs_roformer/bs_roformer.py", 455,
         "assert (not self.stereo and channels == 1) or (self.stereo and channels == 2), "
         "'stereo needs to be set to True if passing in audio signal that is stereo (channel "
         "dimension of 2). also need to be False if mono (channel dimension of 1)'",
         False, False, "pins the channels to the configured 1 or 2, which eager code asserts",
         (CHANNELS, CHANNELS_CONTROL)),
)


def main() -> int:
    return 1 if print_sites(SITES + DEPENDENCY_SITES + EXPORT_LIMITS + EAGER_CHECKS) else 0


if __name__ == "__main__":
    sys.exit(main())
