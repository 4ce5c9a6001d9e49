"""Conditions found by walking only the top-level statement that holds the comparison."""

from __future__ import annotations

from typing import Callable, overload

from proxy_types import IntegerProxy

LIMIT = IntegerProxy("limit", 3)


def keep(flag: bool) -> Callable[[Callable[[], int]], Callable[[], int]]:
    return lambda function: function


@keep(True if LIMIT > 2 else False)  # E: [proxy-concretize] Condition on a comparison
def decorated() -> int:
    return 1 if LIMIT < 9 else 0  # E: [proxy-concretize] Condition on a comparison


def register(flag: bool) -> Callable[[type[Shape]], type[Shape]]:
    return lambda cls: cls


@register(True if LIMIT > 1 else False)  # E: [proxy-concretize] Condition on a comparison
class Shape:
    size = LIMIT >= 0

    def grows(self, other: IntegerProxy) -> bool:
        if other > LIMIT:  # E: [proxy-concretize] Condition on a comparison
            return True
        return bool(self.size)  # E: [proxy-concretize] bool() turns dynamic number


@overload
def pick(n: int) -> int: ...
@overload
def pick(n: IntegerProxy) -> IntegerProxy: ...
def pick(n: int | IntegerProxy) -> int | IntegerProxy:
    assert LIMIT != n  # E: [proxy-concretize] Condition on a comparison
    return n


if LIMIT == 3:  # E: [proxy-concretize] Condition on a comparison
    recorded = LIMIT < 4
else:
    negated = not LIMIT < 5  # E: [proxy-concretize] Condition on a comparison

same_line = LIMIT > 0; checked = 1 if LIMIT > 1 else 0  # E: [proxy-concretize] Condition on a comparison


def last(values: list[IntegerProxy]) -> list[IntegerProxy]:
    kept = [v > 0 for v in values]
    return [v for k, v in zip(kept, values) if v >= LIMIT]  # E: [proxy-concretize] Condition on a comparison
