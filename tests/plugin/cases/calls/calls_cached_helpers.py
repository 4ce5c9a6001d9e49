"""Functions under functools caches, and helpers that pass their parameter on to one."""

from __future__ import annotations

import functools
from functools import cache, lru_cache

import torch


@functools.lru_cache(maxsize=128)
def posemb_grid(ph: int, pw: int) -> torch.Tensor:
    return torch.stack(torch.meshgrid(torch.arange(ph), torch.arange(pw), indexing="ij"), dim=-1)


@cache
def ramp(n: int) -> torch.Tensor:
    return torch.arange(n)


@lru_cache
def bare_ramp(n: int) -> torch.Tensor:
    return torch.arange(n)


def plain_ramp(n: int) -> torch.Tensor:
    return torch.arange(n)


def grid_for(height: int, width: int) -> torch.Tensor:
    ph, pw = height // 4, width // 4
    return posemb_grid(ph, pw)


def grid_twice_removed(height: int) -> torch.Tensor:
    return grid_for(height, 16)


def grid_of_static(height: int) -> torch.Tensor:
    return posemb_grid(4, 4) + height


class Positions:
    @functools.lru_cache(maxsize=None)
    def table(self, n: int) -> torch.Tensor:
        return torch.arange(n)

    def lookup(self, n: int) -> torch.Tensor:
        return self.table(n)


@lru_cache(maxsize=16)
def scaled_ramp(scale: float) -> torch.Tensor:
    return torch.arange(8) * scale


def ramp_for(scale: float) -> torch.Tensor:
    return scaled_ramp(scale * 2)
