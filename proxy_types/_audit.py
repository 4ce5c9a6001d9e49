"""Runtime audit: every merge of a dynamic number into a static one that a run executes.

While an audit is active, ``builtins.isinstance`` / ``builtins.issubclass``
and the concretizing dunders of every dynamic number class are wrapped, and so is
torch's ``ShapeEnv._log_guard``; when the last audit ends all of it is put back.
Records go to the audits of the current context (a ``ContextVar``, so threads
and asyncio tasks keep theirs apart) and to audits entered with
``all_threads=True``.
"""

from __future__ import annotations

import builtins
import functools
import os
import sys
import threading
import types
import warnings
from collections.abc import Callable, Iterable
from contextvars import ContextVar, Token
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from . import _guards
from ._config import DEFAULT_EXEMPT_MODULES, RuntimeSettings, read_runtime_settings
from ._settings_files import module_matches
from ._table import (
    CLASS_CONCRETIZING_DUNDERS,
    CONCRETIZING_DUNDERS,
    CONVERSIONS,
    FOREIGN_DYNAMIC_TYPES,
    STATIC_BUILTIN_TYPES,
    STATIC_NUMBER_TYPES,
)

# The real isinstance, bound once: the audit's own checks must not go through its wrapper.
_isinstance = builtins.isinstance
_MISSING: Any = object()  # an attribute a class did not have

_WATCHED_DUNDERS = {c.dunder: c.operation for c in CONCRETIZING_DUNDERS + CLASS_CONCRETIZING_DUNDERS}
#: Torch passes each guard it adds through ShapeEnv._log_guard(prefix, expression, ...),
#: which logs it at INFO; the audit wraps that method and leaves the logger alone.
_GUARD_MODULE = "torch.fx.experimental.symbolic_shapes"
_GUARD_METHOD = "_log_guard"
_CACHE_LIMIT = 4096

_Kind = Literal["isinstance", "conversion", "guard"]
_CODES: dict[str, str] = {
    "isinstance": "proxy-isinstance", "conversion": "proxy-concretize", "guard": "proxy-guard",
}


@dataclass(frozen=True)
class AuditRecord:
    """One deduplicated event: where, what, on which classes, with which outcome, how often.

    ``line``/``column`` are 1-based; ``end_column`` is exclusive; columns are
    None where Python keeps no positions.
    """

    file: str
    line: int
    column: int | None
    end_line: int | None
    end_column: int | None
    kind: _Kind
    operation: str  # "isinstance", "issubclass", a dunder, or torch's "eval" / "runtime_assert"
    dynamic_class: str | None  # the dynamic number's class; None for guards
    classes: tuple[str, ...]  # the class argument of isinstance/issubclass
    outcome: str  # "True"/"False", "returned 3", "raised ConcretizationError", a guard expression
    count: int

    @property
    def code(self) -> str:
        """The report code: ``proxy-isinstance``, ``proxy-concretize`` or ``proxy-guard``."""
        return _CODES[self.kind]

    @property
    def severity(self) -> str:
        """``error`` for merges, ``note`` for torch guards (specializations, not mistakes)."""
        return "note" if self.kind == "guard" else "error"

    @property
    def message(self) -> str:
        """One line, worded like the plugin's message for the same code."""
        if self.kind == "isinstance":
            shown = ", ".join(self.classes)
            return (f'{self.operation}() against static number classes ({shown}) on dynamic '
                    f'number "{self.dynamic_class}" returned {self.outcome}')
        if self.kind == "conversion":
            spelled = _WATCHED_DUNDERS.get(self.operation, self.operation)
            return (f'{self.operation} ({spelled}) on dynamic number "{self.dynamic_class}" '
                    f"{self.outcome}")
        if self.operation == "runtime_assert":
            return f"torch recorded the runtime assert {self.outcome}"
        return f"torch installed the guard {self.outcome}"

    @property
    def hint(self) -> str | None:
        """What to do instead; None for guards."""
        if self.kind == "isinstance":
            return ("use proxy_types.is_static_number() / is_dynamic_number() or include "
                    "proxy_types.NumberClasses")
        if self.kind == "conversion":
            return ("use proxy_types.to_static(x) to specialize (a recorded guard), "
                    "proxy_types.check(cond) for a run-time assertion, or branch on "
                    "proxy_types.is_dynamic_number(x)")
        return None


# -- which classes count ----------------------------------------------------------------------

# Classes whose instances are not dynamic numbers: the wrappers' fast path.
_plain_classes: set[type] = set()
# Classes named in the configuration of an active audit (by identity; metaclasses may not hash).
_configured: dict[int, type] = {}
_configured_pending: set[str] = set()
_exempt_patterns: tuple[str, ...] = DEFAULT_EXEMPT_MODULES
_exempt_cache: dict[str, bool] = {}


def _is_dynamic_class(cls: type) -> bool:
    """Dynamic for the audit: proxies, torch Sym types, registered or configured classes."""
    try:
        dynamic = _guards._dynamic_answers[cls]
    except Exception:  # not cached yet, or an unhashable metaclass
        dynamic = _guards._classify(cls)[1]
    if dynamic:
        return True
    if _configured:
        try:
            mro = _guards._real_mro(cls)
        except Exception:  # a metaclass without a real MRO: not a number class
            return False
        return any(id(base) in _configured and _configured[id(base)] is base for base in mro)
    return False


def _is_dynamic_value(value: object) -> bool:
    cls = type(value)
    try:
        if cls in _plain_classes:
            return False
    except Exception:  # a metaclass whose __hash__ raises: decide without the cache
        return _is_dynamic_class(cls)
    if _is_dynamic_class(cls):
        return True
    if len(_plain_classes) >= _CACHE_LIMIT:
        _plain_classes.clear()
    _plain_classes.add(cls)
    return False


def _static_number_classes() -> tuple[object, ...]:
    import importlib

    found: list[object] = [getattr(builtins, name) for name in STATIC_BUILTIN_TYPES.values()]
    for fullname in STATIC_NUMBER_TYPES:
        module_name, _, name = fullname.rpartition(".")
        if module_name != "builtins":  # the numbers ABCs: stdlib, no side effects
            found.append(getattr(importlib.import_module(module_name), name))
    return tuple(found)


_STATIC_CLASSES: tuple[object, ...] = ()
# (operation, subject class, classinfo) -> whether the check is a merge to record.
_merge_checks: dict[tuple[str, type, object], bool] = {}


def _forget_classes() -> None:
    """Drop the per-class answers: a class was registered or configured."""
    _plain_classes.clear()
    _merge_checks.clear()


def _class_name(cls: object) -> str:
    module = getattr(cls, "__module__", None)
    name = getattr(cls, "__qualname__", None) or getattr(cls, "__name__", None)
    if not isinstance(name, str):
        return repr(cls)
    return name if module in (None, "builtins") else f"{module}.{name}"


def _flatten(classinfo: object) -> list[object]:
    if type(classinfo) is tuple:
        return [c for item in classinfo for c in _flatten(item)]
    if type(classinfo) is types.UnionType or getattr(classinfo, "__origin__", None) is _typing_union():
        return _flatten(getattr(classinfo, "__args__", ()))
    return [classinfo]


def _typing_union() -> object:
    typing = sys.modules.get("typing")
    return getattr(typing, "Union", None) if typing is not None else None


def _is_exempt_module(name: str) -> bool:
    answer = _exempt_cache.get(name)
    if answer is None:
        answer = any(module_matches(name, pattern) for pattern in _exempt_patterns)
        answer = answer or name == "proxy_types" or name.startswith("proxy_types.")
        if len(_exempt_cache) >= _CACHE_LIMIT:
            _exempt_cache.clear()
        _exempt_cache[name] = answer
    return answer


# -- where records go -------------------------------------------------------------------------

_context_audits: ContextVar[tuple[Audit, ...]] = ContextVar("proxy_types_audits", default=())
_all_thread_audits: tuple[Audit, ...] = ()
_recording = threading.local()  # .busy: a record is being made (its own calls are not records)


def _receivers() -> tuple[Audit, ...]:
    local = _context_audits.get()
    if not _all_thread_audits:
        return local
    return local + tuple(a for a in _all_thread_audits if a not in local)


def _compiling() -> bool:
    # Inside a torch.compile trace the wrappers are traced too: dynamo answers the
    # checks itself on its own variables, there is nothing real to record.
    torch = sys.modules.get("torch")
    compiler = getattr(torch, "compiler", None) if torch is not None else None
    return compiler is not None and bool(compiler.is_compiling())


def _position(frame: types.FrameType) -> tuple[int, int | None, int | None, int | None]:
    """(line, column, end line, end column) of the frame's current instruction, 1-based."""
    line = frame.f_lineno or 0
    positions = getattr(frame.f_code, "co_positions", None)
    if positions is None:  # Python 3.10
        return line, None, None, None
    for index, position in enumerate(positions()):
        if index == frame.f_lasti // 2:
            start, end, column, end_column = position
            if start is None or column is None:
                return line, None, None, None
            return start, column + 1, end, None if end_column is None else end_column + 1
    return line, None, None, None


def _deliver(frame: types.FrameType | None, kind: _Kind, operation: str, subject: type | None,
             classinfo: object, outcome: object) -> None:
    """Hand one event at ``frame`` to every receiving audit whose filter keeps its file."""
    if frame is None:
        return
    receivers = _receivers()
    if not receivers or getattr(_recording, "busy", False):
        return
    if _is_exempt_module(str(frame.f_globals.get("__name__", ""))):
        return
    filename = frame.f_code.co_filename
    keeping = [receiver for receiver in receivers if receiver.active and receiver._keeps(filename)]
    if not keeping:
        return
    _recording.busy = True
    try:
        # By identity: a class's metaclass may not hash; the record keeps both alive.
        key = (frame.f_code, frame.f_lasti, kind, operation, id(subject), id(classinfo), outcome)
        for receiver in keeping:
            receiver._count(key, frame, kind, operation, subject, classinfo, outcome)
    finally:
        _recording.busy = False


def _problem(error: Exception) -> None:
    """The audit's own failure: noted for the report, never passed on to the program."""
    text = f"{type(error).__name__}: {error}"[:200]
    for receiver in _receivers():
        receiver._note_problem(text)


def _is_merge(subject: type, classinfo: object, match: Callable[[object, Any], bool],
              value: object) -> bool:
    """A check of a dynamic number against static classes, no dynamic one among them."""
    if not _is_dynamic_class(subject):
        return False
    try:
        classes = _flatten(classinfo)
    except RecursionError:
        return False
    static = _STATIC_CLASSES
    if not any(c is s for c in classes for s in static):
        return False
    for candidate in classes:
        if any(candidate is s for s in static) or not _isinstance(candidate, type):
            continue
        if _is_dynamic_class(cast(type, candidate)):  # a class: checked just above
            # The check knows dynamic numbers (``(float, FloatProxy)``): it sorts them on
            # purpose, as the plugin's isinstance check also judges.
            return False
        try:
            if match(value, candidate):
                return False  # the check includes a class of the number's own kind
        except Exception:  # a class whose check raises cannot be the number's own
            continue
    return True


def _make_isinstance(original: Callable[[object, Any], bool]) -> Callable[[object, Any], bool]:
    plain = _plain_classes

    def isinstance(obj: object, class_or_tuple: Any, /) -> bool:
        try:
            known = type(obj) in plain
        except Exception:  # a metaclass whose __hash__ raises: the slow path decides
            known = False
        if known:
            return original(obj, class_or_tuple)
        return _checked("isinstance", original, type(obj), class_or_tuple, obj)

    return _like(isinstance, original)


def _make_issubclass(original: Callable[[type, Any], bool]) -> Callable[[type, Any], bool]:
    plain = _plain_classes

    def issubclass(cls: type, class_or_tuple: Any, /) -> bool:
        try:
            known = cls in plain
        except Exception:  # a metaclass whose __hash__ raises: the slow path decides
            known = False
        if known:
            return original(cls, class_or_tuple)
        return _checked("issubclass", original, cls, class_or_tuple, cls)

    return _like(issubclass, original)


def _checked(operation: str, original: Callable[[Any, Any], bool], subject: type,
             classinfo: object, value: object) -> bool:
    """The wrappers' path for classes not known to be plain; frame 2 is the caller."""
    result = original(value, classinfo)
    try:
        _audit_check(operation, original, subject, classinfo, value, result)
    except Exception as error:  # the program gets the real answer whatever happens here
        _problem(error)
    return result


def _audit_check(operation: str, original: Callable[[Any, Any], bool], subject: type,
                 classinfo: object, value: object, result: bool) -> None:
    """Record the check if it is a merge; frame 3 is the caller of the wrapper."""
    if getattr(_recording, "busy", False) or _compiling():
        return
    if not _is_dynamic_class(subject):
        try:
            if len(_plain_classes) >= _CACHE_LIMIT:
                _plain_classes.clear()
            _plain_classes.add(subject)
        except Exception:  # not hashable: answered the slow way each time
            pass
        return
    key = (operation, subject, classinfo)
    try:
        merge = _merge_checks[key]
    except KeyError:  # decided once per class and class argument
        merge = _is_merge(subject, classinfo, original, value)
        if len(_merge_checks) >= _CACHE_LIMIT:
            _merge_checks.clear()
        _merge_checks[key] = merge
    except Exception:  # a class or class argument that does not hash
        merge = _is_merge(subject, classinfo, original, value)
    if merge:
        _deliver(sys._getframe(3), "isinstance", operation, subject, classinfo, result)


def _like(wrapper: Callable[..., Any], original: Callable[..., Any]) -> Callable[..., Any]:
    functools.update_wrapper(wrapper, original)
    wrapper.__proxy_types_audit__ = True  # type: ignore[attr-defined]
    return wrapper


def _outcome_text(value: object) -> str:
    if type(value) in (bool, int, float, complex):
        text = repr(value)
    elif type(value) is str:
        text = repr(value) if len(value) <= 40 else repr(value[:37]) + "..."
    else:
        text = f"a {_class_name(type(value))}"
    return f"returned {text}"


# The table's conversions that name the value for every kind of class (format() with an
# empty spec): they hand back text, not a number, so nothing merges.
_NAMING = frozenset(
    c.dunder for c in CONVERSIONS
    if c.name == c.dunder and all(o == "names" for o in (c.own, c.torch, c.silent, c.guarded))
)


def _make_dunder(dunder: str, raw: Any) -> Callable[..., Any]:
    naming = dunder in _NAMING

    def audited(self: Any, *args: Any, **kwargs: Any) -> Any:
        if naming and args == ("",) and not kwargs:
            return raw.__get__(self, type(self))(*args)
        try:
            result = raw.__get__(self, type(self))(*args, **kwargs)
        except Exception as error:
            _record_conversion(dunder, type(self), None, error)
            raise
        _record_conversion(dunder, type(self), result, None)
        return result

    return _like(audited, raw)


def _record_conversion(dunder: str, subject: type, result: object,
                       error: Exception | None) -> None:
    """A conversion that gave a static value or raised; frame 2 is the dunder's caller."""
    try:
        if _compiling():
            return
        if error is not None:
            outcome = f"raised {type(error).__name__}"
        elif _is_dynamic_value(result):
            return  # still dynamic: nothing was merged
        else:
            outcome = _outcome_text(result)
        _deliver(sys._getframe(2), "conversion", dunder, subject, None, outcome)
    except Exception as problem:  # the program gets its result whatever happens here
        _problem(problem)


# -- guards torch adds ------------------------------------------------------------------------

def _library_roots() -> tuple[str, ...]:
    import sysconfig

    paths = sysconfig.get_paths()
    roots = {os.path.normcase(os.path.realpath(paths[key])) + os.sep
             for key in ("stdlib", "platstdlib") if key in paths}
    return tuple(sorted(roots))


@functools.lru_cache(maxsize=None)
def is_library_file(filename: str) -> bool:
    """True for files of the standard library and of installed packages."""
    if filename.startswith("<frozen"):
        return True
    if filename.startswith("<"):  # <string>, <stdin>: the user's code
        return False
    normal = os.path.normcase(os.path.realpath(filename))
    wrapped = normal.replace("\\", "/")
    if "/site-packages/" in wrapped or "/dist-packages/" in wrapped:
        return True
    return normal.startswith(_library_roots())


def outside_libraries(filename: str) -> bool:
    """The default filter: keep records from files outside the standard library and site-packages."""
    return not is_library_file(filename)


def _guard_frame() -> types.FrameType | None:
    """The nearest frame outside libraries and this module: the line that made torch guard."""
    frame: types.FrameType | None = sys._getframe(2)
    own = globals()
    while frame is not None:
        if frame.f_globals is not own and not is_library_file(frame.f_code.co_filename):
            return frame
        frame = frame.f_back
    return None


def _make_guard_log(raw: Any) -> Callable[..., Any]:
    """``ShapeEnv._log_guard`` that also records the guard; torch's own logging is untouched."""

    def audited(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            prefix = args[0] if args else kwargs.get("prefix")
            expression = args[1] if len(args) > 1 else kwargs.get("g")
            if prefix is not None and expression is not None and "suppressed" not in str(prefix):
                _deliver(_guard_frame(), "guard", str(prefix), None, None, str(expression))
        except Exception as error:  # torch's guard must not fail for the audit
            _problem(error)
        return raw(self, *args, **kwargs)

    return _like(audited, raw)


# -- patches ----------------------------------------------------------------------------------


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
        global _exempt_patterns
        global _STATIC_CLASSES
        with self.lock:
            first = self.users == 0
            if first:
                _STATIC_CLASSES = _static_number_classes()
                _exempt_patterns = settings.exempt_modules
            else:
                _exempt_patterns = tuple(dict.fromkeys(_exempt_patterns + settings.exempt_modules))
            _exempt_cache.clear()
            _configured_pending.update(settings.classes)
            _configured.update((id(cls), cls) for cls in classes)
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
        global _exempt_patterns
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
        _configured.clear()
        _configured_pending.clear()
        _forget_classes()
        _exempt_cache.clear()
        _exempt_patterns = DEFAULT_EXEMPT_MODULES

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
        shape_env = getattr(module, "ShapeEnv", None)
        raw = getattr(shape_env, "__dict__", {}).get(_GUARD_METHOD)
        if not callable(raw):
            warnings.warn(f"proxy_types.audit: cannot watch torch's guards: {_GUARD_MODULE}."
                          f"ShapeEnv has no {_GUARD_METHOD}(); no proxy-guard records",
                          RuntimeWarning, stacklevel=2)
            return
        self._patch(shape_env, _GUARD_METHOD, _make_guard_log(raw))

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


# -- the public context manager ---------------------------------------------------------------

class Audit:
    """An active or finished runtime audit; ``with proxy_types.audit() as found:``."""

    def __init__(
        self,
        *,
        keep: Callable[[str], bool] | None = None,
        classes: Iterable[type | str] = (),
        config: str | os.PathLike[str] | bool = True,
        all_threads: bool = False,
    ) -> None:
        self._keep = keep if keep is not None else outside_libraries
        self._extra_classes = tuple(classes)
        self._config = config
        self.all_threads = all_threads
        #: The config file the settings came from, as shown to the user (None: none).
        self.config_file: str | None = None
        self._state = "new"
        self._token: Token[tuple[Audit, ...]] | None = None
        self._kept: dict[str, bool] = {}
        self._lock = threading.Lock()
        self._events: dict[tuple[object, ...], list[Any]] = {}
        self._alive: list[tuple[object, object]] = []
        self._problems: dict[str, int] = {}

    def __repr__(self) -> str:
        return f"<Audit {self._state}: {len(self._events)} records>"

    @property
    def active(self) -> bool:
        """True between ``__enter__`` and ``__exit__``."""
        return self._state == "active"

    def __enter__(self) -> Audit:
        if self._state != "new":
            raise RuntimeError("an Audit can be entered only once; call proxy_types.audit() again")
        settings, classes = self._settings()
        self.config_file = settings.config_file
        _session.start(settings, classes)
        self._state = "active"
        if self.all_threads:
            global _all_thread_audits
            with _session.lock:
                _all_thread_audits = _all_thread_audits + (self,)
        self._token = _context_audits.set(_context_audits.get() + (self,))
        return self

    def __exit__(self, *exc_info: object) -> None:
        global _all_thread_audits
        if self._state != "active":
            return
        self._state = "finished"
        try:
            if self._token is not None:
                try:
                    _context_audits.reset(self._token)
                except ValueError:  # exited in another context than it was entered in
                    _context_audits.set(tuple(a for a in _context_audits.get() if a is not self))
        finally:
            with _session.lock:
                _all_thread_audits = tuple(a for a in _all_thread_audits if a is not self)
                _session.stop()

    def _settings(self) -> tuple[RuntimeSettings, tuple[type, ...]]:
        if self._config is False:
            settings = RuntimeSettings(None, (), DEFAULT_EXEMPT_MODULES)
        elif self._config is True:
            settings = read_runtime_settings()
        else:
            settings = read_runtime_settings(Path(self._config))
        names = list(settings.classes)
        objects: list[type] = []
        for item in self._extra_classes:
            if isinstance(item, str):
                names.append(item)
            elif isinstance(item, type):
                objects.append(item)
            else:
                raise TypeError(f"proxy_types.audit: classes must be classes or dotted names, "
                                f"got {item!r}")
        return settings._replace(classes=tuple(names)), tuple(objects)

    # -- recording --

    def _keeps(self, filename: str) -> bool:
        kept = self._kept.get(filename)
        if kept is None:
            kept = self._kept[filename] = bool(self._keep(filename))
        return kept

    def _count(self, key: tuple[object, ...], frame: types.FrameType, kind: _Kind,
               operation: str, subject: type | None, classinfo: object, outcome: object) -> None:
        with self._lock:
            event = self._events.get(key)
            if event is not None:
                event[-1] += 1
                return
        line, column, end_line, end_column = _position(frame)
        classes = tuple(_class_name(c) for c in _flatten(classinfo)) if kind == "isinstance" else ()
        record = [frame.f_code.co_filename, line, column, end_line, end_column, kind, operation,
                  None if subject is None else _class_name(subject), classes, str(outcome), 1]
        with self._lock:
            event = self._events.setdefault(key, record)
            if event is not record:
                event[-1] += 1
            else:  # the key holds their ids: no other object may take them
                self._alive.append((subject, classinfo))

    @property
    def records(self) -> list[AuditRecord]:
        """The records so far, merged by location, operation, classes and outcome, in order."""
        merged: dict[tuple[object, ...], list[Any]] = {}
        with self._lock:
            events = [list(event) for event in self._events.values()]
        for event in events:
            identity = tuple(event[:-1])
            if identity in merged:
                merged[identity][-1] += event[-1]
            else:
                merged[identity] = event
        return [AuditRecord(*event) for event in merged.values()]

    def _note_problem(self, text: str) -> None:
        with self._lock:
            self._problems[text] = self._problems.get(text, 0) + 1

    @property
    def problems(self) -> list[str]:
        """Calls the audit could not judge (its own errors, with counts); empty normally."""
        with self._lock:
            return [f"{text} (x{count})" for text, count in self._problems.items()]

    # -- reports --

    def report(self, format: str = "text") -> str:
        """The records as ``text`` (a table), ``json`` or ``sarif`` (``proxy-types check``'s shapes)."""
        from . import _audit_report

        return _audit_report.render(self.records, format, self.config_file, self.problems)

    def write_report(self, path: str | os.PathLike[str], format: str | None = None) -> None:
        """Write the report to ``path``; the format defaults to the suffix (.json, .sarif, .txt).

        Raises ``OSError`` (``WriteFailed``) with a one-line message naming the file.
        """
        from . import _audit_report

        from ._files import write_atomically

        chosen = format or _audit_report.format_of(Path(path))
        write_atomically(path, self.report(chosen))  # a failed write keeps the old report


def audit(
    *,
    keep: Callable[[str], bool] | None = None,
    classes: Iterable[type | str] = (),
    config: str | os.PathLike[str] | bool = True,
    all_threads: bool = False,
) -> Audit:
    """A runtime audit of the merges of dynamic into static numbers, as a context manager.

    ``keep(filename)`` chooses the files whose records are kept (default: files
    outside the standard library and site-packages).  ``classes`` adds classes
    (or dotted names) treated as dynamic numbers; ``config`` is the config file
    to read ``audit_classes``, ``dynamic_number_classes``, ``migrate_classes``
    and ``exempt_modules`` from (True: the file mypy would use, False: none).
    ``all_threads`` also records what other threads and contexts do.
    """
    return Audit(keep=keep, classes=classes, config=config, all_threads=all_threads)


def patched_names() -> list[str]:
    """What an audit has patched right now ("builtins.isinstance", "torch.SymInt.__bool__"...)."""
    with _session.lock:
        return [f"{_class_name(p.owner) if _isinstance(p.owner, type) else p.owner.__name__}."
                f"{p.name}" for p in _session.patches]
