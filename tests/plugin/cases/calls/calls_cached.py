"""Calls of functions under functools.lru_cache/cache hash their arguments: a SymInt
raises TypeError under make_fx and torch.export (torch.compile traces through the
cache wrapper), a SymFloat guards (tests/runtime/test_cached_calls_runtime.py)."""

from __future__ import annotations

import torch
from torch import nn

from calls_cached_helpers import (
    Positions,
    bare_ramp,
    grid_for,
    grid_of_static,
    grid_twice_removed,
    plain_ramp,
    posemb_grid,
    ramp,
    ramp_for,
)


class Model(nn.Module):
    def __init__(self, x: torch.Tensor) -> None:
        super().__init__()
        self.grid = posemb_grid(x.shape[0], 4)  # built eagerly: a plain int
        self.positions = Positions()

    def forward(self, image: torch.Tensor, n: torch.SymInt, f: torch.SymFloat) -> torch.Tensor:
        ph, pw = image.shape[-2] // 4, image.shape[-1] // 4
        posemb_grid(ph, pw)  # E: [proxy-concretize] Argument of cached posemb_grid() (functools.lru_cache) hashes dynamic number "SymInt", which needs a static value
        ramp(n=n)  # E: [proxy-concretize] Argument of cached ramp() (functools.lru_cache) hashes dynamic number "SymInt"
        bare_ramp(f)  # E: [proxy-specialize] Argument of cached bare_ramp() (functools.lru_cache) hashes dynamic number "SymFloat", which installs a guard
        self.positions.table(image.shape[0])  # E: [proxy-concretize] Argument of cached table() (functools.lru_cache) hashes dynamic number "SymInt"
        grid_for(image.shape[-2], 32)  # E: [proxy-concretize] grid_for(): argument "image.shape[-2]" reaches posemb_grid(ph, pw) in calls_cached_helpers.grid_for (calls_cached_helpers.py:32) via height, a call of a functools cache, which hashes dynamic number "SymInt"
        grid_twice_removed(image.shape[-1])  # E: [proxy-concretize] grid_twice_removed(): argument "image.shape[-1]" reaches posemb_grid(ph, pw) in calls_cached_helpers.grid_for (calls_cached_helpers.py:32) via height -> height
        self.positions.lookup(image.shape[0])  # E: [proxy-concretize] lookup(): argument "image.shape[0]" reaches self.table(n) in calls_cached_helpers.Positions.lookup
        ramp_for(f)  # E: [proxy-specialize] ramp_for(): argument "f" reaches scaled_ramp(scale * 2) in calls_cached_helpers.ramp_for (calls_cached_helpers.py:58) via scale, a call of a functools cache, which hashes dynamic number "SymFloat"  # E: [arg-type]
        ramp_for(0.5)
        grid_for(32, 32)
        grid_of_static(image.shape[0])
        posemb_grid(4, 4)
        ramp(len("four"))
        plain_ramp(image.shape[0])
        if not torch.compiler.is_compiling():
            posemb_grid(ph, pw)  # eager only
        return self.grown_lists(image)

    def grown_lists(self, image: torch.Tensor) -> torch.Tensor:  # called by forward
        # A list's items include what was appended to it (vit-pytorch na_vit.py:303).
        patch_dims = []
        static_dims = []
        for part in image.unbind(0):
            patch_dims.append((part.shape[-2] // 4, part.shape[-1] // 4))
            static_dims.append((4, 4))
        for qh, qw in patch_dims:
            posemb_grid(qh, qw)  # E: [proxy-concretize] Argument of cached posemb_grid() (functools.lru_cache) hashes dynamic number
        for sh, sw in static_dims:
            posemb_grid(sh, sw)
        sizes: list[int] = [4]
        sizes.extend(image.shape)
        posemb_grid(sizes[0], 4)  # E: [proxy-concretize] Argument of cached posemb_grid() (functools.lru_cache) hashes dynamic number
        firsts: list[int] = []
        firsts.insert(0, image.shape[0])
        posemb_grid(firsts[0], 4)  # E: [proxy-concretize] Argument of cached posemb_grid() (functools.lru_cache) hashes dynamic number
        firsts = [4]
        posemb_grid(firsts[0], 4)  # rebound: only static items left
        return image


def not_traced(image: torch.Tensor) -> torch.Tensor:
    grid_for(image.shape[-2], 32)
    return posemb_grid(image.shape[-2], 4)
