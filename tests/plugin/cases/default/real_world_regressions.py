"""Reduced from torch 2.13's torch/_refs (false positives found by benchmarks/corpora)."""

from __future__ import annotations

from typing import Union

import torch


def infer_scalar_type(obj: Union[int, torch.SymInt, float], other: Union[int, torch.SymInt]) -> str:
    # torch/_refs/__init__.py: _infer_scalar_type excludes Python bools from ints.
    if isinstance(obj, (int, torch.SymInt)) and not isinstance(obj, bool):
        return "int64"
    if isinstance(other, int):  # E: [proxy-isinstance] (int) misclassifies dynamic number "SymInt"
        return "int"
    return "float"


def broadcast(shape: list[Union[int, torch.SymInt]], common: list[Union[int, torch.SymInt]], idx: int) -> None:
    # torch/_refs/__init__.py: _broadcast_shapes stores a SymInt into a list.
    common[idx] = shape[idx]
    shape[common[idx]] = 1  # a guard on the SymInt: proxy-specialize, off by default


def bool_checks(b: Union[bool, torch.SymBool]) -> bool:
    return isinstance(b, bool)  # E: [proxy-isinstance] (bool) misclassifies dynamic number "SymBool"
