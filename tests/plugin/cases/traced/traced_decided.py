"""A comparison or conversion that repeats a guard an earlier line installed on every
path adds nothing: torch's ShapeEnv answers it from that guard (docs/real-world.md)."""

from __future__ import annotations

import torch


def repeated_comparisons(p: int, q: int, margin: float) -> int:
    torch._check(p == 1 or p == 2)  # E: [proxy-specialize] Condition on a comparison
    if p == 1:  # the first operand of `or` was tested above, on every path
        return 0
    if p != 1:  # the negation is the same guard
        pass
    # `p == 2` ran only where `p == 1` failed
    if p == 2:  # E: [proxy-specialize] Condition on a comparison
        pass
    if margin != 0.0:  # E: [proxy-specialize] Condition on a comparison
        pass
    if margin == 0:  # 0 and 0.0: the same value
        pass
    if q == 3 and margin == 0.5:  # E: [proxy-specialize] Condition on a comparison  # E: [proxy-specialize] Condition on a comparison
        pass
    # the right operand of `and` may not have run
    if margin == 0.5:  # E: [proxy-specialize] Condition on a comparison
        pass
    return p


def membership(ord: float) -> None:
    torch._check(ord in (2, 1, 0.5))  # CPython compares `ord == 2` first, and tests it
    if ord == 2.0:
        pass
    # `1` is compared only when `ord` is not 2
    if ord == 1:  # E: [proxy-specialize] Condition on a comparison
        pass


def repeated_conversions(scale: float, size: int) -> list[int]:
    out = []
    if int(scale) == scale:  # E: [proxy-specialize] int() installs a guard
        out.append(size * int(scale))  # the same int() as in the test
    else:
        out.append(int(size * scale))  # E: [proxy-specialize] int() installs a guard
    float(scale)  # E: [proxy-specialize] float() installs a guard
    float(scale)
    return out


def changed_in_between(n: int, sizes: list[int]) -> None:
    if n == 4:  # E: [proxy-specialize] Condition on a comparison
        pass
    n = sizes[0] + 1
    # a new value: a new guard
    if n == 4:  # E: [proxy-specialize] Condition on a comparison
        pass
    for m in sizes:
        if m == 4:  # E: [proxy-specialize] Condition on a comparison
            pass
        if m == 4:
            pass
    int(n)  # E: [proxy-specialize] int() installs a guard
    for _ in range(2):
        # n changes further down the loop: the next iteration asks again
        int(n)  # E: [proxy-specialize] int() installs a guard
        n += 1


def only_on_some_paths(p: int, flag: bool) -> None:
    if flag:
        if p == 3:  # E: [proxy-specialize] Condition on a comparison
            pass
    # the first test ran only when flag was set
    if p == 3:  # E: [proxy-specialize] Condition on a comparison
        pass
    stored = p == 5  # stored, not tested: no guard yet
    if p == 5:  # E: [proxy-specialize] Condition on a comparison
        pass
    del stored


def required_values(x: torch.Tensor, grid: torch.Tensor, k: int, p: int) -> None:
    # A check that raises unless the value is one literal: where it passes, it is that value.
    _, _, two = grid.shape
    if two != 2:
        raise ValueError("the grid's last dimension must be 2")
    if x.dim() != 3 or x.shape[-2] != 2 or x.shape[-1] != 3:
        raise ValueError("theta must be N x 2 x 3")
    torch._check(x.size(0) == 3 and grid.size(0) == 3, lambda: "length 3")
    assert k == 4
    torch._check_with(ValueError, p == 5, lambda: "p must be 5")


def excluded_values(x: torch.Tensor, split_size: int, sections: int) -> None:
    # A check that raises on one literal: where it passes, a Ne guard pins nothing.
    torch._check(split_size != 0 and x.shape[0] % split_size == 0)
    if sections == 0 or x.shape[2] % sections != 0:  # a size against 0: left out anyway
        raise ValueError("not divisible")
    assert sections != 5
    if isinstance(sections, int) and (sections == 7 or x.shape[1] == 3):  # E: [proxy-isinstance]
        raise ValueError("neither 7 sections nor 3 columns")
    # `split_size != 9` false raises; `x.shape[0] == 8` true goes on, pinned to 8
    if not (x.shape[0] == 8 or split_size != 9):  # E: [proxy-specialize] Condition on a comparison of dynamic number "SymInt" installs a guard that specializes the program on the traced value; use proxy_types.check(...) to record it, or to_static() explicitly (reason: "x.shape"
        raise ValueError("9 needs 8 rows")
    # `sections == 4` true does not make the whole true: it goes on when `x.ndim` is 2
    if sections == 4 and x.ndim != 2:  # E: [proxy-specialize] Condition on a comparison
        raise ValueError("4 sections need 2 dimensions")
    # `split_size == 6` false does not make the whole false
    torch._check(split_size == 6 or x.ndim == 1)  # E: [proxy-specialize] Condition on a comparison


def not_required_values(grid: torch.Tensor, k: int, p: int) -> None:
    # Two values allowed, a branch that goes on, a check that does not raise.
    torch._check(p == 1 or p == 2)  # E: [proxy-specialize] Condition on a comparison
    if k == 0:  # E: [proxy-specialize] Condition on a comparison
        k = 1
    if k != 6:  # E: [proxy-specialize] Condition on a comparison
        k = 6
    if grid.shape[0] != 7 and k > 0:  # E: [proxy-specialize] Condition on a comparison
        raise ValueError("a size of 7 is required only for positive k")
    if k % p != 0:  # E: [proxy-specialize] Condition on a comparison
        raise ValueError("a remainder, not the value: counted as pinning a size")
