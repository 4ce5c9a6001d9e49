"""User helpers the cross-call cases call: their summaries come from this file."""

from __future__ import annotations

import numbers

import torch
from torch import nn


def make_norm(width: int) -> nn.LayerNorm:
    return nn.LayerNorm(width)


def make_norm_twice_removed(width: int) -> nn.LayerNorm:
    scaled = width * 2
    return make_norm(scaled)


def is_integral(value: int) -> bool:
    return isinstance(value, numbers.Integral)


def handles_symints(value: int) -> bool:
    if isinstance(value, torch.SymInt):
        return False
    return isinstance(value, int)


def as_index(value: int) -> int:
    return int(value)


def only_formats(value: int) -> str:
    return f"{value:d}" if value is None else "width"


def checks_only_eagerly(value: int) -> int:
    if not torch.compiler.is_compiling():
        isinstance(value, numbers.Integral)
    return value


def checks_when_compiling(value: int) -> int:
    if torch.compiler.is_compiling():
        return int(value)
    isinstance(value, numbers.Integral)  # eager only: the compiling branch returned
    return value


def checks_outside_scripting(value: int) -> int:
    if torch.jit.is_scripting():
        return int(value)
    return value


def declared_dynamic(value: torch.SymInt) -> int:
    # declared dynamic in checked code: reported here, where the fix goes, not at each call
    return int(value)  # E: [proxy-specialize] int() installs a guard on dynamic number "SymInt"


def declared_maybe_dynamic(value: int | torch.SymInt) -> int:
    return int(value)  # E: [proxy-specialize]


def forwards_to_declared(value: int) -> int:
    # the function holding the sink declares it dynamic: reported there, not at each call
    return declared_maybe_dynamic(value)
