"""What the audit puts in place of isinstance, issubclass and the concretizing dunders.

The wrappers decide on the spot whether a call merges a dynamic number into a
static one (answers are cached per class), and hand each merge to the audits
that receive it: those of the current context (a ``ContextVar``, so threads and
asyncio tasks keep theirs apart) and those entered with ``all_threads=True``.
"""

from __future__ import annotations

import builtins
import functools
import sys
import threading
import types
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from typing import Any, Protocol, cast

from . import _guards
from ._audit_records import _flatten, _Kind, _outcome_text
from ._settings_files import DEFAULT_EXEMPT_MODULES, module_matches
from ._table import CONVERSIONS, STATIC_BUILTIN_TYPES, STATIC_NUMBER_TYPES

# The real isinstance, bound once: the audit's own checks must not go through its wrapper.
_isinstance = builtins.isinstance
_CACHE_LIMIT = 4096


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


def _is_exempt_module(name: str) -> bool:
    answer = _exempt_cache.get(name)
    if answer is None:
        answer = any(module_matches(name, pattern) for pattern in _exempt_patterns)
        answer = answer or name == "proxy_types" or name.startswith("proxy_types.")
        if len(_exempt_cache) >= _CACHE_LIMIT:
            _exempt_cache.clear()
        _exempt_cache[name] = answer
    return answer


def _start_classes(first: bool, exempt_modules: tuple[str, ...], names: Iterable[str],
                   classes: Iterable[type]) -> None:
    """An audit starts: its settings join those of the audits already running."""
    global _exempt_patterns, _STATIC_CLASSES
    if first:
        _STATIC_CLASSES = _static_number_classes()
        _exempt_patterns = exempt_modules
    else:
        _exempt_patterns = tuple(dict.fromkeys(_exempt_patterns + exempt_modules))
    _exempt_cache.clear()
    _configured_pending.update(names)
    _configured.update((id(cls), cls) for cls in classes)


def _reset_classes() -> None:
    """The last audit ended: back to no configured classes and the default exemptions."""
    global _exempt_patterns
    _configured.clear()
    _configured_pending.clear()
    _forget_classes()
    _exempt_cache.clear()
    _exempt_patterns = DEFAULT_EXEMPT_MODULES


# -- where records go -------------------------------------------------------------------------

class _Receiver(Protocol):
    """An audit as the wrappers see it (``proxy_types._audit.Audit``)."""

    @property
    def active(self) -> bool: ...
    def _keeps(self, filename: str) -> bool: ...
    def _count(self, key: tuple[object, ...], frame: types.FrameType, kind: _Kind,
               operation: str, subject: type | None, classinfo: object, outcome: object) -> None: ...
    def _note_problem(self, text: str) -> None: ...


_context_audits: ContextVar[tuple[_Receiver, ...]] = ContextVar("proxy_types_audits", default=())
_all_thread_audits: tuple[_Receiver, ...] = ()
_recording = threading.local()  # .busy: a record is being made (its own calls are not records)


def _receivers() -> tuple[_Receiver, ...]:
    local = _context_audits.get()
    if not _all_thread_audits:
        return local
    return local + tuple(a for a in _all_thread_audits if a not in local)


def _add_all_threads(receiver: _Receiver) -> None:
    """``receiver`` also gets what other threads and contexts do (under the session's lock)."""
    global _all_thread_audits
    _all_thread_audits = _all_thread_audits + (receiver,)


def _remove_all_threads(receiver: _Receiver) -> None:
    global _all_thread_audits
    _all_thread_audits = tuple(a for a in _all_thread_audits if a is not receiver)


def _compiling() -> bool:
    # Inside a torch.compile trace the wrappers are traced too: dynamo answers the
    # checks itself on its own variables, there is nothing real to record.
    torch = sys.modules.get("torch")
    compiler = getattr(torch, "compiler", None) if torch is not None else None
    return compiler is not None and bool(compiler.is_compiling())


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



# -- the wrappers -------------------------------------------------------------------------------

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
