"""A module's syntax tree as mypy leaves it, for tests of the plugin's walks and indexes."""

from __future__ import annotations

from pathlib import Path

from mypy import build
from mypy.modulefinder import BuildSource
from mypy.nodes import MypyFile
from mypy.options import Options


def analyzed_tree(directory: Path, source: str,
                  python_version: tuple[int, int] | None = None) -> MypyFile:
    """``source`` as module ``program``, type-checked by mypy (no plugin), its tree kept."""
    path = directory / "program.py"
    path.write_text(source, encoding="utf-8")
    options = Options()
    if python_version is not None:
        options.python_version = python_version
    options.incremental = False
    options.cache_dir = str(directory / "cache")
    options.preserve_asts = True
    result = build.build([BuildSource(str(path), "program", None)], options)
    tree = result.graph["program"].tree
    assert tree is not None
    return tree
