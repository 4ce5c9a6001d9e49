"""``python -m mypy_plugin``: the same as the ``proxy-types`` command."""

from __future__ import annotations

from .cli import console_main

if __name__ == "__main__":
    console_main()
