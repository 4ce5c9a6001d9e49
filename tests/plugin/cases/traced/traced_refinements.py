"""What the torch corpus review (docs/real-world.md) showed to leave traced values
symbolic, or to be no number at all, next to the near misses that still pin one."""

from __future__ import annotations

import math
from typing import Any, Generic, Sequence

import torch
from typing_extensions import ParamSpec, TypeVar

_P = ParamSpec("_P", default=...)
_T = TypeVar("_T", default=Any)


class Packet(Generic[_P, _T]):
    """Generic but no container, like torch's OpOverloadPacket."""


class Box(Generic[_T]):
    pass


def products(shape: Sequence[int], n: int) -> None:
    math.prod(shape, start=n)  # multiplies with *: stays symbolic
    math.prod([n, n])
    math.sqrt(n)  # E: [proxy-specialize] math.sqrt() installs a guard


def items_tested(shape: Sequence[int], p: float) -> None:
    all(s > 0 for s in shape)  # an order comparison: a range guard
    any(s <= 1 for s in shape)
    all(s != 0 for s in shape)  # sizes against 0: specialized anyway
    any(s == 3 for s in shape)  # E: [proxy-specialize] any() tests each item
    all([p > 0.5, p < 1.0])
    all([p == 0.5])  # E: [proxy-specialize] all() tests each item
    all(int(s) != s for s in shape)  # E: [proxy-specialize] int() installs a guard


def infinities(ord: float) -> None:
    if ord == float("inf"):  # no symbolic float is infinite: a Ne guard
        pass
    if ord != -math.inf:
        pass
    if ord == 2.0:  # E: [proxy-specialize] Condition on a comparison
        pass


def converted_comparisons(step: int, row: int) -> None:
    sign = bool(step > 0) - bool(step < 0)  # the sign: range guards
    first = int(row + step > 0)
    bool(step == 2)  # E: [proxy-specialize] bool() installs a guard
    int(row != 1)  # E: [proxy-specialize] int() installs a guard
    del sign, first


def generic_classes(ops: Sequence[Packet], boxes: list[Box[int]], bare: list,
                    table: dict[object, int]) -> None:
    for op in ops:
        table[op]  # an operator packet: its Any type arguments are no numbers
    for box in boxes:
        table[box]
    table[bare[0] + 1]  # E: [proxy-concretize] dict key hashes dynamic number


def size_items(output_size: tuple[int, int], size: list[int], n: int, mixed: int | list[int]) -> None:
    h, w = output_size
    if h == 1 and w == 1:  # items of an int sequence are sizes: 0 and 1 are specialized anyway
        pass
    product = size[0]
    product *= size[1]
    if product == 0:
        pass
    if h == 3:  # E: [proxy-specialize] Condition on a comparison
        pass
    if n == 1:  # E: [proxy-specialize] Condition on a comparison
        pass
    if mixed == 1:  # E: [proxy-specialize] Condition on a comparison
        pass


def size_sentinels(x: torch.Tensor, sizes: tuple[int, ...], n: int, offset: float) -> None:
    # A size is never negative: its value range decides `== -1` with no guard.
    if sizes[0] == -1 or x.shape[0] != -1:
        pass
    for s in sizes:
        if s == -2:
            pass
    if n == -1:  # E: [proxy-specialize] Condition on a comparison
        pass
    if offset == -1.0:  # E: [proxy-specialize] Condition on a comparison
        pass


def torchscript_only(x: torch.Tensor, scale: float, n: int) -> list[int]:
    # torch.jit.is_scripting() is False in Python: no traced value reaches the branch.
    if torch.jit.is_scripting():
        sizes = [int(float(x.size(0)) * scale)]
    elif not torch.jit.is_scripting():
        sizes = [int(scale)]  # E: [proxy-specialize] int() installs a guard
    if not torch.jit.is_scripting():
        pass
    else:
        sizes = [int(scale * n)]
    if torch.jit.is_tracing():
        sizes = [int(scale)]  # E: [proxy-specialize] int() installs a guard
    return sizes
