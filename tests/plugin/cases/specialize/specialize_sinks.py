"""The new sinks on torch's Sym types with proxy-specialize on."""

from __future__ import annotations

import torch


def guarded_sinks(shape: list[torch.SymInt], n: torch.SymInt, f: torch.SymFloat, flags: list[torch.SymBool], d: dict[torch.SymFloat, int]) -> str:
    all(s > 0 for s in shape)  # E: [proxy-specialize] all() tests each item for truth, which for dynamic number "SymInt" installs a guard
    any(flags)  # E: [proxy-specialize] any() tests each item for truth, which for dynamic number "SymBool" installs a guard
    d[f]  # E: [proxy-specialize] dict key hashes dynamic number "SymFloat", which installs a guard
    keys: set[torch.SymFloat] = {f}  # E: [proxy-specialize] set member hashes dynamic number "SymFloat"
    {n: 1 for n in shape}  # E: [proxy-concretize] dict key hashes dynamic number "SymInt", which needs a static value
    text = f"{n:d} {f:.3f}"  # E: [proxy-concretize] Format spec "d" needs the value of dynamic number "SymInt"  # E: [proxy-concretize] Format spec ".3f"
    plain = f"{n} {f}"  # E: [proxy-specialize] /"SymInt" into text/  # E: [proxy-specialize] /"SymFloat" into text/
    print(keys)
    return text + plain
