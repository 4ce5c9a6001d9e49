"""``proxy_types/_table.py``, loaded without running the runtime package.

``from proxy_types import _table`` would execute ``proxy_types/__init__.py``,
which imports the whole runtime (proxies, guards, tracing): about 3 ms of every
mypy run, warm ones included, for data the plugin reads from one module.  The
table imports only the standard library, so it can load on its own.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING

__all__ = ["table"]

if TYPE_CHECKING:
    from proxy_types import _table as table
else:

    def _load_table() -> ModuleType:
        """The table module: the runtime's own if imported, else a private copy."""
        loaded = sys.modules.get("proxy_types._table")
        if loaded is not None:  # the runtime is already imported: share its table
            return loaded
        import importlib.util

        package = importlib.util.find_spec("proxy_types")  # finds, does not execute
        locations = package.submodule_search_locations if package is not None else None
        if not locations:
            from proxy_types import _table

            return _table
        # A private module name: the runtime package, if imported later, loads its own copy.
        name = "mypy_plugin._proxy_types_table"
        spec = importlib.util.spec_from_file_location(name, f"{list(locations)[0]}/_table.py")
        if spec is None or spec.loader is None:
            from proxy_types import _table

            return _table
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # NamedTuple and dataclass creation look the module up
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
        return module

    table = _load_table()
