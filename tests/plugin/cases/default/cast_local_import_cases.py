"""cast() imported inside a function only: the module-level imports hold no cast."""

from __future__ import annotations

from proxy_types import IntegerProxy


def local_import(n: IntegerProxy, k: int) -> int:
    from typing_extensions import cast

    cast(int, k)
    return cast(int, n)  # E: [proxy-cast] "int" hides dynamic number "IntegerProxy"


def cast(target: object, value: object) -> int:
    """A module's own function named cast is not typing.cast."""
    return 0
