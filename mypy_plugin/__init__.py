"""Plugin for mypy that reports where dynamic and static numbers merge.

Enable it with ``plugins = mypy_plugin`` in the mypy configuration.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # mypy is imported by the plugin only: the command line works without it
    from mypy.plugin import Plugin

__version__ = "0.1.0"


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point: the plugin class for mypy ``version``."""
    from .main import ProxyTypesPlugin

    return ProxyTypesPlugin
