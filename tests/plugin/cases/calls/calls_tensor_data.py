"""Tensors made from sizes in traced code (symbolic_shapes): make_fx bakes the traced
value in (torch.tensor and torch.as_tensor); export fails and torch.compile recompiles
on torch.as_tensor only (tests/runtime/test_tensor_data_runtime.py), so a torch.tensor
report names make_fx (the ``tracers`` setting: calls_tracers_*.py)."""

from __future__ import annotations

import torch
from torch import nn

STATIC_SIZES = [1, 2]


class Model(nn.Module):
    def __init__(self, x: torch.Tensor) -> None:
        super().__init__()
        self.scale = torch.tensor([x.shape[0], x.shape[1]])  # built eagerly: plain ints

    def forward(self, video: torch.Tensor, n: torch.SymInt, rows: list[int]) -> torch.Tensor:
        tm, hm = video.shape[2], video.shape[3] // 8
        torch.tensor([tm, hm, 4], dtype=torch.float)  # E: [proxy-specialize] =torch.tensor() of a size installs a guard on dynamic number "SymInt": sound, but the program is specialized on its traced value; use proxy_types.to_static() to make the conversion explicit (fails under make_fx) (reason: "video.shape" is a tensor size, symbolic under dynamic shapes (symbolic_shapes))
        torch.tensor(video.shape[0])  # E: [proxy-specialize] torch.tensor() of a size
        torch.tensor(video.shape)  # E: [proxy-specialize] torch.tensor() of a size
        torch.tensor(list(video.shape[-2:]))  # E: [proxy-specialize] torch.tensor() of a size
        torch.tensor([[tm], [4]])  # E: [proxy-specialize] torch.tensor() of a size
        torch.as_tensor([tm, 3])  # E: [proxy-specialize] /^torch.as_tensor\(\) of a size installs a guard .*explicit \(reason/
        torch.as_tensor(video.size())  # E: [proxy-specialize] torch.as_tensor() of a size
        torch.tensor(n)  # E: [proxy-specialize] torch.tensor() of a size
        torch.tensor([1, 2])
        torch.tensor(STATIC_SIZES)
        torch.as_tensor([1.0, 2.0])
        torch.tensor(rows)
        torch.tensor(video.dim())
        torch.tensor([len(rows), video.ndim])
        torch.tensor(video.sum())
        # an unbacked size as a shape: make_fx, export and compile trace it (not reported)
        count = (video > 0).sum().item()
        torch.zeros(count)  # E: [arg-type]
        video.new_zeros(count)  # E: [arg-type]
        torch.tensor(count)  # a data-dependent value: not measured, not reported
        if not torch.compiler.is_compiling():
            torch.tensor([tm, hm])  # eager only
        return video


def not_traced(video: torch.Tensor, n: torch.SymInt) -> None:
    torch.tensor([video.shape[0], 3])
    torch.tensor(n)  # E: [proxy-specialize] torch.tensor() of a size
