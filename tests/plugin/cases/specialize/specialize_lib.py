"""Configured dynamic classes: one returns traced values silently, one guards like torch."""

from __future__ import annotations


class TracedNumber:
    def __int__(self) -> int:
        return 0

    def __gt__(self, other: int) -> bool:
        return False


class GuardedNumber:
    def __int__(self) -> int:
        return 0

    def __gt__(self, other: int) -> bool:
        return False


def pyval(x: object) -> int:
    return 0
