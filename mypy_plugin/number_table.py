"""``proxy_types/_table.py``, the number table, loaded without running the runtime package."""

from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = ["table"]

if TYPE_CHECKING:
    from proxy_types import _table as table
else:
    from .runtime_modules import load_runtime_module

    table = load_runtime_module("_table")
