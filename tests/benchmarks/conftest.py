"""Markers of the benchmark tests."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "network: downloads from PyPI (lightning-thunder) or needs its environment"
    )
