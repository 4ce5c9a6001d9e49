"""Dynamic numbers passed to a parameter that the aten operator's schema types int,
float, bool or int[] (not SymInt, Scalar): the dispatcher makes them constants
(tests/runtime/test_schema_arguments_runtime.py).  SymInt parameters stay symbolic."""

from __future__ import annotations

import torch
from torch import nn

N_FFT, HOP = 64, 16


class Model(nn.Module):
    window: torch.Tensor

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("window", torch.hann_window(N_FFT))
        self.frames = torch.zeros(4).narrow(0, 0, 2)  # built eagerly

    def forward(self, audio: torch.Tensor, probs: torch.Tensor) -> torch.Tensor:
        n = audio.shape[-1]
        spec = torch.stft(audio, N_FFT, HOP, N_FFT, window=self.window, return_complex=True)
        recon = torch.istft(spec, N_FFT, HOP, N_FFT, window=self.window, length=n)  # E: [proxy-specialize] torch.istft(length=...): aten::istft types "length" as "int?"
        # Tensor.istft is a Python wrapper (torch/_tensor.py), not the operator: left alone
        recon = recon + spec.istft(N_FFT, length=audio.size(-1))
        recon = torch.istft(spec, N_FFT, HOP, N_FFT, window=self.window)  # control: no length
        patches = audio.unfold(-1, n // 4, n // 4)  # E: [proxy-specialize] Tensor.unfold(size=...): aten::unfold types "size" as "int"  # E: [proxy-specialize] Tensor.unfold(step=...): aten::unfold types "step" as "int"
        patches = audio.unfold(-1, 4, 4)  # static numbers
        # SymInt parameters: symbolic under every tracer
        samples = torch.multinomial(probs, num_samples=n)
        zeros = torch.zeros(n) + audio.new_zeros(n) + torch.narrow(audio, -1, 0, n)
        # select's index is SymInt in select.int, int in select.Dimname: not every overload
        zeros = zeros + audio.select(-1, n - 1)
        return recon + patches.sum() + samples.sum() + zeros.sum()


def untraced(audio: torch.Tensor) -> torch.Tensor:
    spec = torch.stft(audio, N_FFT, return_complex=True)
    return torch.istft(spec, N_FFT, length=audio.shape[-1])  # not traced: eager


def declared(spec: torch.Tensor, length: torch.SymInt) -> torch.Tensor:
    return torch.istft(spec, N_FFT, length=length)  # type: ignore[arg-type]  # E: [proxy-specialize] torch.istft(length=...): aten::istft types "length" as "int?"


def listed_keepdim(x: torch.Tensor, dim: int, keepdim: bool, eps: float) -> torch.Tensor:
    # A parameter of a function traced_functions names (mypy.ini: calls_schema_arguments.
    # listed_*) is symbolic only if a caller passes a size: its own passing is not reported.
    return torch.var(x, dim, keepdim=keepdim) + torch.batch_norm_stats(x, eps)[0]
