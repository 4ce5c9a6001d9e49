from __future__ import annotations

from typing import Optional, Union, cast

import torch
from proxy_types import NumberLike, to_static


def sym_sources(
    n: torch.SymInt, f: Optional[torch.SymFloat], b: torch.SymBool, u: Union[int, torch.SymInt]
) -> None:
    cast(int, n)  # E: [proxy-cast] cast() to static number type "int" hides dynamic number "SymInt"
    cast(float, f)  # E: [proxy-cast] "float" hides dynamic number "SymFloat"
    cast(bool, b)  # E: [proxy-cast] "bool" hides dynamic number "SymBool"
    cast(int, u)  # E: [proxy-cast] "int" hides dynamic number "SymInt"
    cast(int, n + 1)  # E: [proxy-cast] "int" hides dynamic number "SymInt"
    cast(bool, n >= 0)  # E: [proxy-cast] "bool" hides dynamic number "SymInt"


def sym_fine(n: torch.SymInt, t: torch.Tensor, size: int) -> None:
    cast(torch.SymInt, n)
    cast(NumberLike, n)
    cast(Union[int, torch.SymInt], n)
    cast(int, size)
    cast(int, to_static(n))
    cast(int, n)  # type: ignore[proxy-cast]


def sym_bool_conditions(flag: torch.SymBool, maybe: Optional[torch.SymBool], n: int) -> object:
    # A SymBool condition installs a guard: proxy-specialize, off by default.
    if flag:
        pass
    while not flag:
        break
    either = flag or n > 0
    if maybe:
        pass
    if flag:  # type: ignore[proxy-specialize]
        pass
    return either


def sym_divmod(n: torch.SymInt, u: Union[int, torch.SymInt], m: int) -> None:
    # torch declares no __divmod__, so mypy itself rejects divmod() of a SymInt.
    divmod(n, 3)  # E: [operator] Unsupported operand types for divmod ("SymInt" and "int")
    divmod(3, n)  # E: [operator] Unsupported operand types for divmod ("int" and "SymInt")
    divmod(u, 3)  # E: [operator] Unsupported operand types for divmod ("SymInt" and "int")
    divmod(m, 3)
