from __future__ import annotations

from typing import Union

from proxy_types import FloatProxy, IntegerProxy, to_static


def divmod_of_proxies(p: IntegerProxy, f: FloatProxy, u: Union[int, IntegerProxy], n: int) -> None:
    # The stubs declare no __divmod__/__rdivmod__, so mypy itself rejects these.
    divmod(p, 3)  # E: [operator] Unsupported operand types for divmod ("IntegerProxy" and "int")
    divmod(3, p)  # E: [operator] Unsupported operand types for divmod ("int" and "IntegerProxy")
    divmod(f, 2.0)  # E: [operator] Unsupported operand types for divmod ("FloatProxy" and "float")
    divmod(u, 3)  # E: [operator] Unsupported operand types for divmod ("IntegerProxy" and "int")
    divmod(n, 3)
    divmod(to_static(p), 3)
    p // 3, p % 3  # the recorded spelling of divmod
