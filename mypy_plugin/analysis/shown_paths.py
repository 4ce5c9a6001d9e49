"""How reports name a file that is not the one reported in.

Messages name such a file the same way on every machine (``shown_path``). The
steps of a path (JSON ``extra``, SARIF ``codeFlows``) are locations a tool opens
(``location_path``): relative to the current directory where the file is inside
it, as mypy names the reported files, else absolute.
"""

from __future__ import annotations

import os

_INSTALLED = ("/site-packages/", "/dist-packages/")


def location_path(path: str) -> str:
    """``path`` as mypy names checked files: ``model.py``, not ``./model.py``; a file
    outside the current directory keeps its absolute path."""
    if not os.path.isabs(path):
        return os.path.normpath(path).replace("\\", "/")
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    return path if relative.startswith(os.pardir) else relative.replace("\\", "/")


def shown_path(path: str, module: str | None = None) -> str:
    """The file as a message shows it, the same on every machine:
    ``torch/nn/modules/normalization.py`` for a file of an installed package, a path
    relative to the current directory for one inside it, else the path from the root
    of ``module`` (``pkg/sub/mod.py``), else the absolute path."""
    normalized = path.replace("\\", "/")
    for marker in _INSTALLED:
        if marker in normalized:
            return normalized.split(marker, 1)[1]
    located = location_path(path)
    if not os.path.isabs(located) or module is None:
        return located.replace("\\", "/")
    parts = normalized.split("/")
    depth = module.count(".") + 1 + (parts[-1] == "__init__.py")
    return "/".join(parts[-depth:])
