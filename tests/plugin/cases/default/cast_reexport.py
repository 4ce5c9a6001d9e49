"""Re-exports typing.cast, for cast_alias_cases.py."""

from typing import cast as cast

__all__ = ["cast"]
