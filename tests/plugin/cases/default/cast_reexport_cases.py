"""cast() re-exported by another module, under another name."""

from __future__ import annotations

from cast_reexport import cast as imported_cast
from proxy_types import FloatProxy


def reexported(f: FloatProxy) -> None:
    imported_cast(float, f)  # E: [proxy-cast] "float" hides dynamic number "FloatProxy"
