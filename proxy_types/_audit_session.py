"""The audit session: the patches shared by all active audits.

The first audit to start wraps ``builtins.isinstance`` / ``builtins.issubclass``,
the concretizing dunders of every dynamic number class and torch's
``ShapeEnv._log_guard``, and watches imports for the classes and modules not yet
loaded; the last audit to end puts all of it back.
"""

from __future__ import annotations

import builtins
import sys
import threading
import types
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from . import _guards
from ._audit_records import _WATCHED_DUNDERS, _class_name
from ._audit_torch import _GUARD_METHOD, _GUARD_MODULE, _guard_log_replacement
from ._audit_wrappers import (
    _configured,
    _configured_pending,
    _forget_classes,
    _make_dunder,
    _make_isinstance,
    _make_issubclass,
    _reset_classes,
    _start_classes,
)
from ._config import RuntimeSettings
from ._table import FOREIGN_DYNAMIC_TYPES

_MISSING: Any = object()  # an attribute a class did not have


@dataclass
class _Patch:
    """One attribute replaced on a module or class; ``restore`` puts the original back."""

    owner: Any
    name: str
    original: Any  # _MISSING when the owner had no own attribute
    replacement: Any

    def apply(self) -> None:
        setattr(self.owner, self.name, self.replacement)

    def restore(self) -> None:
        current = self.owner.__dict__.get(self.name, _MISSING)
        if current is not self.replacement:
            warnings.warn(f"proxy_types.audit: {_class_name(self.owner)}.{self.name} was "
                          "replaced during the audit; left as it is now",
                          RuntimeWarning, stacklevel=2)
            return
        if self.original is _MISSING:
            delattr(self.owner, self.name)
        else:
            setattr(self.owner, self.name, self.original)


class _ImportWatcher:
    """A meta path finder that calls back once a watched module has been executed."""

    def __init__(self, names: Iterable[str], loaded: Callable[[], None]) -> None:
        self.names = set(names)
        self.loaded = loaded

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname not in self.names:
            return None
        for finder in sys.meta_path:
            find_spec = getattr(finder, "find_spec", None)
            if finder is self or find_spec is None:
                continue
            spec = find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _NotifyingLoader(spec.loader, self.loaded)
        return spec


class _NotifyingLoader:
    """Runs the real loader, puts it back on the module, then calls back."""

    def __init__(self, loader: Any, loaded: Callable[[], None]) -> None:
        self._loader = loader
        self._loaded = loaded

    def create_module(self, spec: Any) -> Any:
        create = getattr(self._loader, "create_module", None)
        return create(spec) if create is not None else None

    def exec_module(self, module: types.ModuleType) -> None:
        try:
            self._loader.exec_module(module)
        finally:
            spec = getattr(module, "__spec__", None)
            if spec is not None and spec.loader is self:
                spec.loader = self._loader
            if getattr(module, "__loader__", None) is self:
                module.__loader__ = self._loader
        try:
            self._loaded()
        except Exception as error:  # the import itself succeeded: it must not fail for us
            print(f"proxy_types.audit: cannot watch the classes of {module.__name__}: "
                  f"{type(error).__name__}: {error}", file=sys.stderr)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


class _Session:
    """The patches shared by all active audits; installed by the first, removed by the last."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.users = 0
        self.patches: list[_Patch] = []
        self.wrapped: dict[tuple[int, str], _Patch] = {}
        self.watcher: _ImportWatcher | None = None
        self.guards_watched = False  # ShapeEnv._log_guard wrapped (or found missing, and said so)

    def start(self, settings: RuntimeSettings, classes: tuple[type, ...]) -> None:
        with self.lock:
            first = self.users == 0
            _start_classes(first, settings.exempt_modules, settings.classes, classes)
            try:
                if first:
                    self._patch_builtins()
                    _guards._registration_listeners.append(self.registered)
                self.refresh()
            except BaseException:
                if first:
                    self._undo()
                raise
            self.users += 1

    def stop(self) -> None:
        with self.lock:
            self.users -= 1
            if self.users == 0:
                self._undo()

    def _undo(self) -> None:
        if self.registered in _guards._registration_listeners:
            _guards._registration_listeners.remove(self.registered)
        if self.watcher is not None:
            if self.watcher in sys.meta_path:
                sys.meta_path.remove(self.watcher)
            self.watcher = None
        self.guards_watched = False  # its patch is restored with the others
        for patch in reversed(self.patches):
            patch.restore()
        self.patches.clear()
        self.wrapped.clear()
        _reset_classes()

    def _patch(self, owner: Any, name: str, replacement: Any) -> _Patch:
        patch = _Patch(owner, name, owner.__dict__.get(name, _MISSING), replacement)
        patch.apply()
        self.patches.append(patch)
        return patch

    def _patch_builtins(self) -> None:
        self._patch(builtins, "isinstance", _make_isinstance(builtins.isinstance))
        self._patch(builtins, "issubclass", _make_issubclass(builtins.issubclass))

    # -- classes --

    def refresh(self) -> None:
        """Watch every dynamic class now known; keep waiting for modules not yet imported."""
        with self.lock:
            roots: list[type] = [_guards.DynamicNumber]
            roots += [cls for cls, _ in _guards._registered.values()]
            for entry in FOREIGN_DYNAMIC_TYPES:
                module = sys.modules.get(entry.module)
                found = getattr(module, entry.name, None) if module is not None else None
                if isinstance(found, type):
                    roots.append(found)
            for name in sorted(_configured_pending):
                named = _resolve(name)
                if named is None:
                    continue
                _configured_pending.discard(name)
                if not isinstance(named, type):
                    warnings.warn(f"proxy_types.audit: configured class {name} is "
                                  f"{type(named).__name__}, not a class; ignored",
                                  RuntimeWarning, stacklevel=2)
                    continue
                _configured[id(named)] = named
            roots += list(_configured.values())
            for root in roots:
                self._wrap_tree(root)
            if _GUARD_MODULE in sys.modules and not self.guards_watched:
                self._watch_guards(sys.modules[_GUARD_MODULE])
            self._watch_imports()
            _forget_classes()

    def registered(self, cls: type) -> None:
        with self.lock:
            _forget_classes()
            self._wrap_tree(cls)

    def _wrap_tree(self, root: type) -> None:
        seen: set[int] = set()
        pending = [root]
        while pending:
            cls = pending.pop()
            if id(cls) in seen:
                continue
            seen.add(id(cls))
            self._wrap_class(cls, top=cls is root)
            try:
                pending.extend(type.__subclasses__(cls))
            except TypeError:
                continue

    def _wrap_class(self, cls: type, *, top: bool) -> None:
        for dunder in _WATCHED_DUNDERS:
            if (id(cls), dunder) in self.wrapped:
                continue
            own = dunder in cls.__dict__
            if not own and not top:
                continue  # inherited from an audited class: its wrapper serves
            raw = _lookup(cls, dunder)
            if raw is None or raw is getattr(object, "__dict__", {}).get(dunder):
                continue  # absent, or object's identity hash / str formatting
            if getattr(raw, "__proxy_types_audit__", False):
                continue
            try:
                self.wrapped[(id(cls), dunder)] = self._patch(cls, dunder, _make_dunder(dunder, raw))
            except (TypeError, AttributeError) as error:  # a builtin or frozen class
                warnings.warn(f"proxy_types.audit: cannot watch {_class_name(cls)}.{dunder}: "
                              f"{error}", RuntimeWarning, stacklevel=2)

    # -- torch's guards and later imports --

    def _watch_guards(self, module: types.ModuleType) -> None:
        self.guards_watched = True  # tried once per session: a warning is not repeated
        found = _guard_log_replacement(module)
        if found is not None:
            self._patch(found[0], _GUARD_METHOD, found[1])

    def _watch_imports(self) -> None:
        names = {entry.module for entry in FOREIGN_DYNAMIC_TYPES} | {_GUARD_MODULE}
        for name in _configured_pending:
            parts = name.split(".")
            names.update(".".join(parts[:end]) for end in range(1, len(parts)))
        names = {name for name in names if name not in sys.modules}
        if self.watcher is not None:
            self.watcher.names = names
        elif names:
            self.watcher = _ImportWatcher(names, self.refresh)
            sys.meta_path.insert(0, self.watcher)


def _lookup(cls: type, name: str) -> Any:
    try:
        mro = _guards._real_mro(cls)
    except Exception:
        return None
    for base in mro:
        found = base.__dict__.get(name, _MISSING)
        if found is not _MISSING:
            return found
    return None


def _resolve(name: str) -> object | None:
    """The object a dotted name denotes, if its module is imported (never imports)."""
    parts = name.split(".")
    for end in range(len(parts) - 1, 0, -1):
        module = sys.modules.get(".".join(parts[:end]))
        if module is None:
            continue
        found: object = module
        for attribute in parts[end:]:
            found = getattr(found, attribute, _MISSING)
            if found is _MISSING:
                return None
        return found
    return None


_session = _Session()
