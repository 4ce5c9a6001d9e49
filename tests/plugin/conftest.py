"""Shared mypy cache for the plugin tests (the torch cases make a cold run slow)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from mypy import build
from mypy.modulefinder import BuildSource
from mypy.options import Options
from mypy.plugin import Plugin


@pytest.fixture(scope="session")
def mypy_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mypy-cache")


BuildInProcess = Callable[[Path, str, Plugin, Options], None]


@pytest.fixture(scope="session")
def build_in_process() -> BuildInProcess:
    """Type-check ``directory/module.py`` with mypy in this process, ``plugin`` loaded.

    Lets a test read what a real build did to a plugin instance it holds.
    """
    return _build_in_process


def _build_in_process(directory: Path, module: str, plugin: Plugin, options: Options) -> None:
    options.cache_dir = str(directory / "cache")
    options.incremental = False
    result = build.build(
        [BuildSource(str(directory / f"{module}.py"), module, None, str(directory))],
        options,
        extra_plugins=[plugin],
    )
    assert not result.errors, result.errors
