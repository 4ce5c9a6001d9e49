"""Standard-library modules of ``proxy_types``, loaded without running the runtime package.

``from proxy_types import _table`` would execute ``proxy_types/__init__.py``,
which imports the whole runtime (proxies, guards, tracing): about 3 ms of every
mypy run, warm ones included, for data and helpers the plugin reads from a few
modules.  Those modules import only the standard library, so each loads on its own.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType

__all__ = ["load_runtime_module"]


def load_runtime_module(name: str) -> ModuleType:
    """``proxy_types.<name>``: the runtime's own if imported, else a private copy."""
    loaded = sys.modules.get(f"proxy_types.{name}")
    if loaded is not None:  # the runtime is already imported: share its module
        return loaded
    package = importlib.util.find_spec("proxy_types")  # finds, does not execute
    locations = package.submodule_search_locations if package is not None else None
    spec = None
    if locations:
        # A private module name: the runtime package, if imported later, loads its own copy.
        private_name = f"mypy_plugin._proxy_types{name}"
        if private_name in sys.modules:
            return sys.modules[private_name]
        spec = importlib.util.spec_from_file_location(
            private_name, f"{list(locations)[0]}/{name}.py")
    if spec is None or spec.loader is None:
        return importlib.import_module(f"proxy_types.{name}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # NamedTuple and dataclass creation look the module up
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[spec.name]
        raise
    return module
